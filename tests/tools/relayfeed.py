#!/usr/bin/env python3
"""relayfeed.py FILE FIFO: write FILE's blktrace records (host order, v7 or
v8) into FIFO in writes of whole records, each at most PIPE_BUF (4096)
bytes, so the pipe never holds a cut record: as a relay file, whose reader
on the writing CPU never meets one (t-trace.sh's relay reads)."""
import os, struct, sys

data = open(sys.argv[1], 'rb').read()
fd = os.open(sys.argv[2], os.O_WRONLY)
o = start = 0
while o < len(data):
    magic, = struct.unpack_from('<I', data, o)
    hdr = 64 if magic & 0xff == 8 else 48
    pdu, = struct.unpack_from('<H', data, o + (50 if hdr == 64 else 46))
    if o + hdr + pdu - start > 4096:
        os.write(fd, data[start:o])
        start = o
    o += hdr + pdu
os.write(fd, data[start:o])
os.close(fd)
