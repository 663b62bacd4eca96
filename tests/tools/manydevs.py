#!/usr/bin/env python3
"""manydevs.py N OUT: a version-7 stream of one 4 KiB write, issued and
completed, on each of N devices (8,0 .. 8,N-1): N device blocks in one
interval, as a ziomon setup with dozens of LUNs has."""
import struct, sys
n, out = int(sys.argv[1]), sys.argv[2]
ISSUE, COMPLETE, WRITE, FS = 1 << 22, 1 << 23, 1 << 17, 1 << 24
recs, seq = [], 0
for i in range(n):
    for t, act in ((1000 + 10 * i, ISSUE | WRITE | FS | 7), (900000 + 10 * i, COMPLETE | WRITE | FS | 8)):
        seq += 1
        recs.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, 8 * i, 4096, act, 1, (8 << 20) | i, 0, 0, 0))
open(out, "wb").write(b"".join(recs))
