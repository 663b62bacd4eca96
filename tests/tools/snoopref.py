#!/usr/bin/env python3
"""snoopref.py: biosnoop's latency columns against Debian btt's per-I/O files.

  snoopref.py SNOOP D2C [Q2D [TEXT]]

SNOOP: `iomon snoop [-Q]` output of a trace; D2C, Q2D: btt's `-l` and `-z`
files of the same trace (a line per request, per Q for Q2D: the time of
its C or D in seconds, and the latency in seconds, to the microsecond).

LAT: every request btt lists has a snoop line completed at the same time
(both to the microsecond, after one offset between the two clocks' zeros)
whose LAT(ms) is btt's D2C rounded to two places; btt lists no request
without a Q (a split's rest, a flush) and leaves out some others (a
sector written again), so snoop's other lines are counted and printed,
not compared.  QUE (-Q): the sorted QUE(ms) of the lines matched are
among btt's sorted Q2D values, which also hold the requests issued but
not completed by the trace's end (for traces where each
request has one Q: btt writes a D2C and a Q2D per merged bio, the same
D2C each time, so with merges only LAT is compared).

TEXT, blkparse's text of the trace: where two requests were in flight at
one sector at once, btt's line for the first C there is that C minus the
other's D (latbtt.py's kind 'shared'); such a line that no snoop line
meets is not compared, and then neither is QUE.

btt's value is rounded to the microsecond, so where it lies exactly on a
rounding boundary (x.xx5 ms) either neighbour is right.
"""
import sys
from latpair import btt_shared


def allowed(sec):
    us = round(float(sec) * 1e6)        # btt's microseconds, exact
    lo, hi = (us - 0.5) / 1000, (us + 0.5) / 1000    # ms the true value lies in
    return {"%.2f" % lo, "%.2f" % hi, "%.2f" % (us / 1000)}


def lines(path):
    with open(path) as f:
        head = f.readline().split()
        rows = [l.split() for l in f if l.strip() and "failed (" not in l]
    return [dict(zip(head, r)) for r in rows]


def us_of(t):
    s, _, f = t.partition(".")
    return int(s) * 1000000 + int((f + "000000")[:6])


def main():
    snoop = lines(sys.argv[1])
    btt = [l.split() for l in open(sys.argv[2]) if l.strip()]
    nbtt = len(btt)
    # btt writes a request's D2C once for each of its bios (each Q merged
    # into it): one request a (completion time, D2C)
    btt = [b for k, b in enumerate(btt) if k == 0 or b != btt[k - 1]]
    merged = nbtt - len(btt)
    st = [us_of(l["TIME(s)"]) for l in snoop]
    bt = [us_of(b[0]) for b in btt]
    by_t = {}
    for i, t in enumerate(st):
        by_t.setdefault(t, []).append(i)

    def near(t):
        return [i for d in (0, -1, 1, -2, 2) for i in by_t.get(t + d, [])]

    # the offset between the clocks' zeros: the one that most of btt's
    # first completions meet, time (within a microsecond) and LAT, and of
    # those the one most meet exactly (BCC's TIME is whole
    # microseconds of the raw clock, btt's rounded from the trace's zero,
    # so the two differ by one now and then; with completions a few
    # microseconds apart, an offset one off pairs the wrong ones)
    def score(o):
        e = n = 0
        for b, t in zip(btt[:2000], bt[:2000]):
            for d in (0, -1, 1):
                if any(snoop[i]["LAT(ms)"] in allowed(b[1]) for i in by_t.get(t - o + d, [])):
                    e += d == 0
                    n += 1
                    break
        return (n, e)
    # (candidates: each of btt's first 20 against snoop's lines up to its
    # time with its LAT; snoop lists requests btt does not, so btt's first
    # may be far down snoop's: a dm-mirror's leg, its first 60 ms all
    # pieces of split bios)
    first = [(bt[k], allowed(btt[k][1])) for k in range(min(20, len(bt)))]
    cands = {t - st[j] for t, a in first for j in range(len(st)) if st[j] <= t + 2 and snoop[j]["LAT(ms)"] in a}
    cands |= {o + d for o in cands for d in (-1, 1)}
    off = max(sorted(cands), key=score) if cands else 0
    bad = 0
    shared = btt_shared(sys.argv[4]) if len(sys.argv) > 4 else set()
    skipped = 0
    # Each of btt's requests takes an unused snoop line near its time with
    # its LAT, as a matching: where one line on a rounding edge took the
    # line its neighbour in the same microsecond needed, the neighbour
    # takes it back and the first another of its values (btt's 0.004565 s
    # may be 4.56 or 4.57, the request beside it at 0.004573 s only 4.57:
    # seed 9095 w7, SMP=4, where the first came took the wrong one)
    owner = {}

    def cands(k):
        return [i for i in near(bt[k] - off) if snoop[i]["LAT(ms)"] in allowed(btt[k][1])]

    def take(k, seen):
        for i in cands(k):
            if i not in seen:
                seen.add(i)
                if i not in owner or take(owner[i], seen):
                    owner[i] = k
                    return True
        return False
    sys.setrecursionlimit(100000)
    for k, (b, t) in enumerate(zip(btt, bt)):
        if take(k, set()):
            continue
        if any(t + d in shared for d in (0, -1, 1)):
            skipped += 1	# (btt's line is the other request's D to this C)
            continue
        print("btt's request completed at %s s (D2C %s s): no snoop line with that LAT near %s" %
              (b[0], b[1], [snoop[i]["LAT(ms)"] for i in near(t - off)]))
        bad += 1
        if bad > 5:
            break
    used = set(owner)
    print("%d of btt's %d requests (%d lines) found with equal LAT; snoop's %d other lines (btt lists no D2C for them): %s" %
          (len(used), len(btt), nbtt, len(snoop) - len(used),
           " ".join(sorted({snoop[i]["COMM"] for i in range(len(snoop)) if i not in used}))))
    if skipped:
        print("%d of btt's D2C lines not compared: two requests at one sector at once, the line one C minus the other's D"
              % skipped)
    if len(sys.argv) > 3 and merged:
        print("QUE not compared: btt's Q2D has a line per merged bio")
    elif skipped:
        print("QUE not compared: btt's D2C lines and requests differ where two shared a sector")
    elif len(sys.argv) > 3:
        # (btt's Q2D also has the requests issued and never completed
        # before the trace ended, which snoop does not list: each QUE is
        # one of btt's values, in sorted order, and those left over are
        # as many as that)
        q = sorted((l["QUE(ms)"] for i, l in enumerate(snoop) if i in used), key=float)
        w = sorted((l.split()[1] for l in open(sys.argv[3]) if l.strip()), key=float)
        if len(q) > len(w):
            print("%d QUE values for btt's requests, btt has %d Q2D values" % (len(q), len(w)))
            bad += 1
        j = 0
        for g in q:
            while j < len(w) and g not in allowed(w[j]) and float(w[j]) * 1000 < float(g):
                j += 1
            if j == len(w) or g not in allowed(w[j]):
                print("QUE %s: not among btt's Q2D values (sorted)" % g)
                bad += 1
                if bad > 10:
                    break
            j += 1
        if not bad:
            print("%d QUE values equal btt's Q2D" % len(q) if len(q) == len(w) else
                  "%d QUE values among btt's %d Q2D (the rest not completed by the trace's end)" % (len(q), len(w)))
    return 1 if bad else 0


sys.exit(main())
