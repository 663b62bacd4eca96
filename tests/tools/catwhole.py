#!/usr/bin/env python3
"""catwhole.py FILE...: the files' records one after another on stdout,
as a stream (blktrace -o -) brings them, each file up to its last whole
record: a per-CPU file can end in a cut record, which in a stream would
be followed by the next file's bytes.  Either byte order."""
import struct
import sys

out = sys.stdout.buffer
for name in sys.argv[1:]:
    data = open(name, "rb").read()
    end = 0
    if len(data) >= 4:
        e = "<" if struct.unpack_from("<I", data)[0] & 0xffffff00 == 0x65617400 else ">"
        while end + 48 <= len(data):
            n = end + 48 + struct.unpack_from(e + "H", data, end + 46)[0]
            if n > len(data):
                break
            end = n
    out.write(data[:end])
