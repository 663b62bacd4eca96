#!/usr/bin/env python3
"""replayle.py FILE...: btrecord's .replay files written on a big-endian
host, rewritten in place in little-endian order, as Debian's x86_64
btrecord writes them (t-btrecord compares with those).  The layout
(btrecord.h): a header of four u64 (version, genesis, bunches, I/Os);
each bunch a u64 count and a u64 time, then per I/O a u64 sector, a u64
byte count, a u32 direction and four bytes of padding."""
import struct
import sys

for path in sys.argv[1:]:
    d = open(path, "rb").read()
    out = bytearray(struct.pack("<4Q", *struct.unpack_from(">4Q", d, 0)))
    o = 32
    while o + 16 <= len(d):
        n, t = struct.unpack_from(">2Q", d, o)
        out += struct.pack("<2Q", n, t)
        o += 16
        for _ in range(n):
            s, b, rw = struct.unpack_from(">2QI", d, o)
            out += struct.pack("<2QI", s, b, rw) + d[o + 20:o + 24]
            o += 24
    out += d[o:]
    open(path, "wb").write(out)
