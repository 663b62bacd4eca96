#!/usr/bin/env python3
"""damage.py FILE KIND N: damage the N-th record (version 7, little-endian) of
a trace file in place.  KIND: zero (insert 48 zero bytes before it), magic
(overwrite its magic), version (set its version byte to 9), cut (truncate
the file 10 bytes into it).  Prints the record's byte offset."""
import struct, sys

path, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(path, "rb").read())
off = 0
for _ in range(n):
    off += 48 + struct.unpack_from("<H", d, off + 46)[0]
if kind == "zero":
    d[off:off] = bytes(48)
elif kind == "magic":
    d[off:off + 4] = b"JUNK"
elif kind == "version":
    d[off] = 9
elif kind == "cut":
    d = d[:off + 10]
open(path, "wb").write(d)
print(off)
