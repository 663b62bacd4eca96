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
             btt's unsigned differences near 2^64 ns
  backmerge N LEAKS  blkparse -t's requests that never complete: on 253,0
             (a dm major to blkparse) N sequential writes in requests of 32
             (Q and M each but the first, Q G I D C that one), then LEAKS
             Qs never completed and, with LEAKS, Cs at three sectors
             queued once and never again: the first merged one, the first
             and the last leaked
  failing [SCALE]  biosnoop's facts: PROCESS notes (600 dd, 601 kworker/0:1H),
             then 30 requests i = 0..29 (Q, D, C; odd ones writes, pid 600
             even, 601 odd), 4 KiB at sector 100000 + 8i below 10 (each
             where the last ended), 300000 + 64i after; Q at 1 ms * (i + 1),
             D 20 + i us later, C 250 i + 5 us after D; failed: EIO when i
             is a multiple of 3, ENOSPC i = 10, ETIMEDOUT i = 20, errno 200
             i = 29 (the error field as the kernel stores it: -errno);
             every time SCALE times that (100: over 3.7 s, for top's
             intervals)
  periods SEED N DEVS [odd|short]  btt's busy periods: on DEVS devices (8,0
             8,16 ...) N 4 KiB writes each (Q G I D C), drawn from SEED:
             gaps of 2-40 us (queued deep) or 0.1-0.4 ms (idle), 199 in
             200 done in 20-90 us, the rest in 20-90 ms (spanning
             hundreds of periods); every device's records together in
             time order.
             odd: one C in 25 stamped 1-50 us before its own D, kept in
             its place (a raw stream's times): a span that ends before
             it begins; short: no long ones
  apart      ten writes (Q D C) on 8,0, their D and C in ms from 1 s,
             each C stamped right after its D, in this order: 28-33 27-31
             50-51 10-3 55-48 19-23 30-34 1-6 57-51 51-51.  btt's tree of
             busy periods sends 51-51 to the right of the node 57-51
             (which ends before it begins) and misses 50-51 on its left:
             two nodes overlap, btt keeps them apart (6 periods)
  wrongg     a 32 KiB write queued at sector 0 at 1 ms that never goes
             further, then seven 4 KiB writes inside it (sector 8, 16
             ... 56; Q G I D C, 10 ms apart, done 100 us after the Q):
             btt's G finds the big Q first (Q2G over 100 % of Q2C)
  nog        twenty 4 KiB writes, Q D C (no G, as a bio-based device),
             1 ms apart, done in 500 us: btt's -I queue goes below 0
  reachback  200 writes (Q D C) 1 ms apart, done in 100 us, in time
             order; then one whose Q, D and C come last but carry times
             back at 5, 5.05 and 20 ms: its busy period reaches back over
             periods that had finished when it came
  dmflood N  a write on 8,16 issued at 1 ms that completes after N
             4 KiB writes through a bio-based dm device (its disks not
             traced), 1 ms apart: 253,0 queues and completes each with no
             D, as such a device does; blkiomon's table keeps every one of
             those Cs, which never find a D
  requeue N  a 64 KiB write of 16 merged 4 KiB Qs (pid 960) issued at 150
             us, then N writes (Q G I D C, 1 ms apart, done in 50 us)
             whose busy periods its waiting D keeps btt's tree from letting
             go of; then it is requeued, issued again and completed: its C
             ends 16 Qs' periods, each of which lets go of two.  At N 128
             the tree's look after its last refusal (63 in a row) is that
             C's, and one record lets go of 32 periods (seed 36073 w10's
             case: -Z's files lost those past 8)
  heights    three devices, listed 8,16 8,0 8,32 (their first records at
             0.2, 0.4 and 0.97 ms; btt's -Z heights 1 2 3):
             a write on 8,0 issued at 0.5 ms and done at 100 ms keeps
             every tree; 8,32 eight writes done 1 ms apart (D at i ms, C
             100 us later), 8,0 one from each odd one to the next (D at
             i + 0.05 ms to i + 1.05), so the system's tree joins two of
             8,32's in one: 8,32 8 nodes, 8,0 and all 4 each; 8,16 queued
             at 0.2 ms, its first D and C at 12 and 12.1 ms.  With 16
             nodes (build/periods) that C finds the pool full and 8,32's
             first period let go of while 8,16, listed first, has none yet
  splitfull  a second device after the first's tree outgrew half the pool:
             on 8,0 a Q at 2 ms, then one at 1 ms (back in time: its tree
             lets go of nothing early), then ten writes (Q D C) 1 ms apart
             from 3 ms, done in 100 us; then 8,16's first write at 20 ms.
             With 16 nodes (build/periods) the system's tree, a copy of
             8,0's when the second device comes, finds no room for it
  outlive N K [end]  a write that outlives a ringful of others: one at
             sector 5000 queued and issued (Q G I D), then N writes done (Q G
             I D C, sectors 0, 8 ...), then K queued and issued at once
             (sectors 1000, 1008 ...), and their Cs in that order; with end,
             the first one's C last.  A full in-flight table ages the first
             write (its oldest entry), not the first of the K
"""
import struct, sys

TC = lambda bit: 1 << (bit + 16)
WRITE, QUEUE, ISSUE, COMPLETE, PC = TC(1), TC(4), TC(6), TC(7), TC(9)
DEV = (8 << 20) | 0
out, seq, t = [], 0, 1000


def rec(sector, action, pid, pdu=b"", at=None, sq=None, dev=DEV, err=0, nb=4096):
    global seq, t
    if sq is None:      # a record given its own number leaves no gap behind
        seq += 1
    t += 1000
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq if sq is None else sq, t if at is None else at,
                           sector, nb, action, pid, dev, 0, -err & 0xffff, len(pdu)) + pdu)


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
elif sys.argv[1] == "backmerge":
    # 253,0 (a major blkparse -t takes for dm): N 4 KiB writes in requests
    # of 32, each Q after a request's first back-merged (M) into it and
    # never completed at its own sector; then LEAKS Qs never completed,
    # and with LEAKS, Cs at the first merged Q's sector, the first leaked
    # one's and the last leaked one's (none queued again)
    n, leaks = int(sys.argv[2]), int(sys.argv[3])
    W, DM = WRITE | TC(8), (253 << 20) | 0
    for g in range(0, n, 32):
        for i in range(g, min(g + 32, n)):
            rec(8 * i, W | QUEUE | 1, 700, dev=DM)
            rec(8 * i, W | QUEUE | (4 if i == g else 2), 700, dev=DM)    # G, else M
        rec(8 * g, W | QUEUE | 12, 700, dev=DM)                           # I
        rec(8 * g, W | ISSUE | 7, 700, dev=DM)
        rec(8 * g, W | COMPLETE | 8, 700, dev=DM)
    for i in range(n, n + leaks):
        rec(8 * i, W | QUEUE | 1, 700, dev=DM)
    if leaks:
        for i in (1, n, n + leaks - 1):
            rec(8 * i, W | COMPLETE | 8, 700, dev=DM)
elif sys.argv[1] == "failing":
    NOTE, FS = TC(10), TC(8)
    sc = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rec(0, NOTE, 600, b"dd".ljust(16, b"\0"), at=500 * sc)
    rec(0, NOTE, 601, b"kworker/0:1H".ljust(16, b"\0"), at=600 * sc)
    ev = []
    for i in range(30):
        s, d = 100000 + 8 * i if i < 10 else 300000 + 64 * i, FS | (WRITE if i % 2 else TC(0))
        q = 1000000 * (i + 1)
        e = 5 if i % 3 == 0 else 28 if i == 10 else 110 if i == 20 else 200 if i == 29 else 0
        ev += [(q, s, d | QUEUE | 1, 600 + i % 2, 0), (q + 20000 + 1000 * i, s, d | ISSUE | 7, 600 + i % 2, 0),
               (q + 20000 + 1000 * i + 250000 * i + 5000, s, d | COMPLETE | 8, 600 + i % 2, e)]
    for at, s, a, pid, e in sorted(ev):
        rec(s, a, pid, at=at * sc, err=e)
elif sys.argv[1] == "periods":
    import random
    R, n, ndev = random.Random(int(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
    mode, W, ev = sys.argv[5] if len(sys.argv) > 5 else "", WRITE | TC(8), []
    for k in range(ndev):
        dev, t = (8 << 20) | 16 * k, 1000000 + R.randrange(100000)
        for i in range(n):
            t += R.randrange(2000, 40000) if R.random() < 0.5 else R.randrange(100000, 400000)
            s, d = 16 * i, t + 3000
            c = d + (R.randrange(20000, 90000) if R.random() < 0.995 or mode == "short" else R.randrange(20000000, 90000000))
            stamp = d - R.randrange(1000, 50000) if mode == "odd" and R.random() < 0.04 else c
            ev += [(t, t, s, W | QUEUE | 1, dev), (t + 1000, t + 1000, s, W | QUEUE | 4, dev),
                   (t + 2000, t + 2000, s, W | QUEUE | 12, dev), (d, d, s, W | ISSUE | 7, dev),
                   (c, stamp, s, W | COMPLETE | 8, dev)]
    for _, at, s, a, dev in sorted(ev, key=lambda e: e[0]):
        rec(s, a, 700, at=at, dev=dev)
elif sys.argv[1] == "apart":
    W = WRITE | TC(8)
    for i, (d, c) in enumerate(((28, 33), (27, 31), (50, 51), (10, 3), (55, 48), (19, 23), (30, 34), (1, 6),
                                (57, 51), (51, 51))):
        d, c = 1000000000 + 1000000 * d, 1000000000 + 1000000 * c
        rec(16 * i, W | QUEUE | 1, 800, at=d - 100000)
        rec(16 * i, W | ISSUE | 7, 800, at=d)
        rec(16 * i, W | COMPLETE | 8, 800, at=c)
elif sys.argv[1] == "wrongg":
    W = WRITE | TC(8)
    rec(0, W | QUEUE | 1, 900, at=1000000, nb=32768)
    for i in range(7):
        t, s = 10000000 * (i + 1), 8 * (i + 1)
        for a, dt in ((QUEUE | 1, 0), (QUEUE | 4, 10000), (QUEUE | 12, 20000), (ISSUE | 7, 30000), (COMPLETE | 8, 100000)):
            rec(s, W | a, 900, at=t + dt)
elif sys.argv[1] == "nog":
    W = WRITE | TC(8)
    for i in range(20):
        t = 1000000 * (i + 1)
        rec(16 * i, W | QUEUE | 1, 900, at=t)
        rec(16 * i, W | ISSUE | 7, 900, at=t + 10000)
        rec(16 * i, W | COMPLETE | 8, 900, at=t + 510000)
elif sys.argv[1] == "reachback":
    W = WRITE | TC(8)
    for i in range(200):
        t = 1000000 * (i + 1)
        for a, dt in ((QUEUE | 1, 0), (ISSUE | 7, 10000), (COMPLETE | 8, 100000)):
            rec(16 * i, W | a, 900, at=t + dt)
    for a, at in ((QUEUE | 1, 5000000), (ISSUE | 7, 5050000), (COMPLETE | 8, 20000000)):
        rec(8000, W | a, 900, at=at)
elif sys.argv[1] == "dmflood":
    W, FS, DM, LEG = WRITE, TC(8), (253 << 20) | 0, (8 << 20) | 16
    rec(800000, W | FS | ISSUE | 7, 950, at=1000000, dev=LEG)
    n = int(sys.argv[2])
    for i in range(n):
        t = 1000000 * (i + 2)
        rec(8 * i, W | FS | QUEUE | 1, 950, at=t, dev=DM)
        rec(8 * i, W | FS | COMPLETE | 8, 950, at=t + 105000, dev=DM)
    rec(800000, W | FS | COMPLETE | 8, 950, at=1000000 * (n + 2), dev=LEG)
elif sys.argv[1] == "requeue":
    W, REQ, n = WRITE | TC(8), TC(5), int(sys.argv[2])
    for k in range(16):
        rec(1000000 + 8 * k, W | QUEUE | 1, 960, at=100000 + 2000 * k)
        rec(1000000 + 8 * k, W | QUEUE | (4 if k == 0 else 2), 960, at=101000 + 2000 * k)
    rec(1000000, W | QUEUE | 12, 960, at=140000, nb=65536)
    rec(1000000, W | ISSUE | 7, 960, at=150000, nb=65536)
    for i in range(n):
        t = 1000000 * (i + 1)
        for a, dt in ((QUEUE | 1, 0), (QUEUE | 4, 1000), (QUEUE | 12, 2000), (ISSUE | 7, 3000), (COMPLETE | 8, 50000)):
            rec(16 * i, W | a, 961, at=t + dt)
    t = 1000000 * (n + 1)
    for a, dt in ((REQ | 6, 0), (ISSUE | 7, 100000), (COMPLETE | 8, 150000)):
        rec(1000000, W | a, 960, at=t + dt, nb=65536)
elif sys.argv[1] == "heights":
    W, ev = WRITE | TC(8), []
    def io(dev, s, d, c, q=None):	# times in us
        q = d - 30 if q is None else q
        ev.extend([(q, s, W | QUEUE | 1, dev), (q + 5, s, W | QUEUE | 4, dev), (q + 10, s, W | QUEUE | 12, dev),
                   (d, s, W | ISSUE | 7, dev), (c, s, W | COMPLETE | 8, dev)])
    io(8 << 20 | 16, 5000, 12000, 12100, q=200)
    io(8 << 20, 9000, 500, 100000, q=400)
    for i in range(1, 9):
        io(8 << 20 | 32, 16 * i, 1000 * i, 1000 * i + 100)
        if i % 2:
            io(8 << 20, 100 + 16 * i, 1000 * i + 50, 1000 * i + 1050)
    for at, s, a, dev in sorted(ev):
        rec(s, a, 970, at=1000000 + 1000 * at, dev=dev)
elif sys.argv[1] == "splitfull":
    W = WRITE | TC(8)
    rec(9000, W | QUEUE | 1, 980, at=2000000)
    rec(9008, W | QUEUE | 1, 980, at=1000000)
    for i in range(10):
        t = 3000000 + 1000000 * i
        for a, dt in ((QUEUE | 1, 0), (ISSUE | 7, 10000), (COMPLETE | 8, 100000)):
            rec(16 * i, W | a, 980, at=t + dt)
    for a, dt in ((QUEUE | 1, 0), (ISSUE | 7, 10000), (COMPLETE | 8, 100000)):
        rec(0, W | a, 980, at=20000000 + dt, dev=(8 << 20) | 16)
elif sys.argv[1] == "outlive":
    W, (n, k) = WRITE | TC(8), map(int, sys.argv[2:4])
    for a in (QUEUE | 1, QUEUE | 4, QUEUE | 12, ISSUE | 7):
        rec(5000, W | a, 990)
    for s in [8 * i for i in range(n)] + [1000 + 8 * i for i in range(k)]:
        for a in (QUEUE | 1, QUEUE | 4, QUEUE | 12, ISSUE | 7) + ((COMPLETE | 8,) if s < 1000 else ()):
            rec(s, W | a, 990)
    for i in range(k):
        rec(1000 + 8 * i, W | COMPLETE | 8, 990)
    if sys.argv[4:] == ["end"]:
        rec(5000, W | COMPLETE | 8, 990)
else:
    sys.exit(__doc__)
sys.stdout.buffer.write(b"".join(out))
