#!/usr/bin/env python3
"""cgmsg.py FILE...: how many message records with a cgroup id (action
NOTIFY | MESSAGE | 0x100: bfq's, in a kernel with blk-cgroup) the FILEs
hold (a trace's per-CPU files or a stream, little-endian).  blkparse
1.2.0 takes each for a note and drops it as it reads; so does iomon
parse, which then says how many (blkparse.1), the number checked here."""
import struct
import sys

CG_MSG = (1 << 26) | 2 | (1 << 8)
n = 0
for path in sys.argv[1:]:
    data, off = open(path, "rb").read(), 0
    while off + 48 <= len(data):
        n += struct.unpack_from("<I", data, off + 28)[0] == CG_MSG
        off += 48 + struct.unpack_from("<H", data, off + 46)[0]
print(n)
