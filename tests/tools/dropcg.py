#!/usr/bin/env python3
"""dropcg.py IN OUT [IN OUT]...: copy version-7 little-endian traces without
their MESSAGE notes that carry a cgroup id (action 0x04000102), which
blkparse 1.2.0 silently ignores and iomon prints.  Prints how many each
lost, one line per pair.  (Many pairs in one run: a start of python3
costs a tenth of a second, and t-gen.sh strips hundreds of files.)"""
import struct, sys

pairs = sys.argv[1:]
if not pairs or len(pairs) % 2:
    sys.exit(__doc__)
for src, dst in zip(pairs[::2], pairs[1::2]):
    data, out, off, k = open(src, "rb").read(), bytearray(), 0, 0
    while off + 48 <= len(data):
        action = struct.unpack_from("<I", data, off + 28)[0]
        n = 48 + struct.unpack_from("<H", data, off + 46)[0]
        if action != 0x04000102:
            out += data[off:off + n]
        else:
            k += 1
        off += n
    open(dst, "wb").write(out)
    print(k)
