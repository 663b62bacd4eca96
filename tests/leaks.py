#!/usr/bin/env python3
"""leaks.py N M: a version-7 stream on stdout where pid 100 queues N
requests that never complete, then pid 200 makes M 4 KiB writes that do
(Q, D, C each).  For top's request pool: the leaked ones must age out
and the later ones still count."""
import struct, sys

n, m = int(sys.argv[1]), int(sys.argv[2])
TC = lambda bit: 1 << (bit + 16)
WRITE, QUEUE, ISSUE, COMPLETE = TC(1), TC(4), TC(6), TC(7)
DEV = (8 << 20) | 0
out, seq, t = [], 0, 1000


def rec(sector, action, pid):
    global seq, t
    seq += 1
    t += 1000
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector, 4096, action, pid, DEV, 0, 0, 0))


for i in range(n):
    rec(8 * i, WRITE | QUEUE | 1, 100)
for i in range(m):
    s = 8 * (n + i)
    rec(s, WRITE | QUEUE | 1, 200)
    rec(s, WRITE | ISSUE | 7, 200)
    rec(s, WRITE | COMPLETE | 8, 200)
sys.stdout.buffer.write(b"".join(out))
