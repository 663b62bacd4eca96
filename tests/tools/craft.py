#!/usr/bin/env python3
"""craft.py KIND ARGS: small version-7 streams on stdout, made to order.
  leaks N M  pid 100 queues N requests that never complete, then pid 200
             makes M 4 KiB writes that do (Q, D, C each): top's request
             pool must age the leaked ones out and still count the rest
  late       40 queues on CPU 0, a PC issue with a 16-byte CDB whose
             sequence number CPU 0 has already shown, 20 more queues: with
             batches of 16 (-b 16) the issue is late, held to the end by
             parse (and blkparse), if HOLD_BYTES fits its payload
  zerostart  times from 0: a dm (253,0) Q first, completed later, and on
             8,0 a G and I at time 0 then D, C; twice, the second lot
             after a jump (a pipe batch of 6, -b 6, starts it at 0
             again, as blkparse restarts genesis when it was 0): -t's
             figures from a start at time 0
  backwards  25 writes 100 ms apart (Q G I D C), two of them back in
             time as a raw stream's records can be: the 6th's D before
             its Q (Q2D negative), the 11th's G before the -I interval
             that its Q started (an interval "ending" before it began):
             btt's unsigned differences near 2^64 ns"""
import struct, sys

TC = lambda bit: 1 << (bit + 16)
WRITE, QUEUE, ISSUE, COMPLETE, PC = TC(1), TC(4), TC(6), TC(7), TC(9)
DEV = (8 << 20) | 0
out, seq, t = [], 0, 1000


def rec(sector, action, pid, pdu=b"", at=None, sq=None, dev=DEV):
    global seq, t
    if sq is None:      # a record given its own number leaves no gap behind
        seq += 1
    t += 1000
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq if sq is None else sq, t if at is None else at,
                           sector, 4096, action, pid, dev, 0, 0, len(pdu)) + pdu)


if sys.argv[1] == "leaks":
    n, m = int(sys.argv[2]), int(sys.argv[3])
    for i in range(n):
        rec(8 * i, WRITE | QUEUE | 1, 100)
    for i in range(m):
        s = 8 * (n + i)
        rec(s, WRITE | QUEUE | 1, 200)
        rec(s, WRITE | ISSUE | 7, 200)
        rec(s, WRITE | COMPLETE | 8, 200)
elif sys.argv[1] == "late":
    for i in range(40):
        rec(8 * i, WRITE | QUEUE | 1, 300)
    rec(0, PC | ISSUE | 7, 300, bytes(range(0x10, 0x20)), at=1500, sq=3)
    for i in range(40, 60):
        rec(8 * i, WRITE | QUEUE | 1, 300)
elif sys.argv[1] == "zerostart":
    W, DM = WRITE | TC(8), (253 << 20) | 0     # FS: blkparse times only FS issues
    for n, base in enumerate((0, 5000000)):     # each device numbers its own
        s = base // 1000
        rec(1000 + s, W | QUEUE | 1, 400, at=base, dev=DM, sq=2 * n + 1)
        rec(s, W | QUEUE | 4, 400, at=base, sq=4 * n + 1)         # G
        rec(s, W | QUEUE | 12, 400, at=base, sq=4 * n + 2)        # I
        rec(s, W | ISSUE | 7, 400, at=base + 1000, sq=4 * n + 3)
        rec(s, W | COMPLETE | 8, 400, at=base + 3000, sq=4 * n + 4)
        rec(1000 + s, W | COMPLETE | 8, 400, at=base + 4410300, dev=DM, sq=2 * n + 2)
elif sys.argv[1] == "backwards":
    W = WRITE | TC(8)
    for i in range(25):
        b = 100000000 * i
        rec(8 * i, W | QUEUE | 1, 500, at=b)
        rec(8 * i, W | QUEUE | 4, 500, at=b - 1000000 if i == 10 else b + 1000)
        rec(8 * i, W | QUEUE | 12, 500, at=b + 2000)
        rec(8 * i, W | ISSUE | 7, 500, at=b - 10000 if i == 5 else b + 3000)
        rec(8 * i, W | COMPLETE | 8, 500, at=b + 50000)
else:
    sys.exit(__doc__)
sys.stdout.buffer.write(b"".join(out))
