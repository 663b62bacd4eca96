#!/usr/bin/env python3
"""redev.py MAJOR,MINOR IN OUT: copy a little-endian trace (a CPU's file or
a stream) with every record's device set to MAJOR,MINOR: a second device
with the first one's records, for streams of two devices."""
import struct, sys

major, minor = (int(x) for x in sys.argv[1].split(","))
data, off = bytearray(open(sys.argv[2], "rb").read()), 0
while off + 48 <= len(data):
    struct.pack_into("<I", data, off + 36, major << 20 | minor)
    off += 48 + struct.unpack_from("<H", data, off + 46)[0]
open(sys.argv[3], "wb").write(data)
