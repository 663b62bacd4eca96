#!/usr/bin/env python3
"""dropone.py IN OUT N...: copy a trace stream leaving out the N-th records
(counting every record from 0), as a lost relay sub-buffer would."""
import struct, sys

data, drop = open(sys.argv[1], "rb").read(), {int(a) for a in sys.argv[3:]}
out, off, k = bytearray(), 0, 0
while off + 48 <= len(data):
    n = 48 + struct.unpack_from("<H", data, off + 46)[0]
    if k not in drop:
        out += data[off:off + n]
    off, k = off + n, k + 1
open(sys.argv[2], "wb").write(out)
