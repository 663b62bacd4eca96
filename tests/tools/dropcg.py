#!/usr/bin/env python3
"""dropcg.py IN OUT: copy a version-7 little-endian trace without its MESSAGE
notes that carry a cgroup id (action 0x04000102), which blkparse 1.2.0
silently ignores and iomon prints."""
import struct, sys

data, out, off, k = open(sys.argv[1], "rb").read(), bytearray(), 0, 0
while off + 48 <= len(data):
    action = struct.unpack_from("<I", data, off + 28)[0]
    n = 48 + struct.unpack_from("<H", data, off + 46)[0]
    if action != 0x04000102:
        out += data[off:off + n]
    else:
        k += 1
    off += n
open(sys.argv[2], "wb").write(out)
print(k)
