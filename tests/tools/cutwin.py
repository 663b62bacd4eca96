#!/usr/bin/env python3
"""cutwin.py IN OUT T0 T1: a window of one per-CPU trace file (version-7,
little-endian records): the records whose time since ZERO lies in
[T0, T1] seconds, and every notify record (process names, messages)
whatever its time, so blkparse still names the processes.  ZERO is the
environment's ZERO (nanoseconds), else this file's first record's time;
give every CPU's file the trace's first time so that the window is one.
Used to make a fixture from a long real capture."""
import os
import struct
import sys

src, dst, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
data = open(src, 'rb').read()
out, at, zero = bytearray(), 0, os.environ.get('ZERO')
zero = int(zero) if zero else None
while at + 48 <= len(data):
    time, act, pdu = struct.unpack_from('<8x Q 12x I 14x H', data, at)
    end = at + 48 + pdu
    if zero is None:
        zero = time
    if act & (1 << 26) or t0 <= (time - zero) / 1e9 <= t1:	# BLK_TC_NOTIFY (1 << 10) << 16
        out += data[at:end]
    at = end
open(dst, 'wb').write(out)
