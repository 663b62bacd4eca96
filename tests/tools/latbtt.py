#!/usr/bin/env python3
"""latbtt.py: biolatency's histogram and percentiles against Debian btt's
per-I/O latency files (tests/t-lat.sh on the fixtures, tests/long/t-vmdiff.sh
on each new capture).

  latbtt.py [-Q] [-m] TEXT BTT LAT [PCT]

TEXT: blkparse's text of one device's trace; BTT: btt's file for that
device from the same trace, `-l` (NAME_MAJ,MIN_d2c.dat) or with -Q `-q`
(NAME_MAJ,MIN_q2c.dat), a line per bio: "seconds latency", both to the
microsecond (-l: the C's time; -q: the Q's); LAT: `iomon lat [-Q] [-m]`'s
table of that trace; PCT: `iomon lat -P [-Q] [-m]`'s.

Which bios btt lists (btt 1.2.0): it skips every record without a size;
it keeps each Q by its start sector (a Q at a taken start takes the older
one's place), marks the Qs a D holds whole as issued at that D, and at a
C writes a line for each Q the C holds whole (-l: only the issued ones),
C minus D for -l, C minus Q for -q.  This script makes those lines from
TEXT and checks they are btt's file, line for line (to the microsecond):
a check that the pairing below is btt's.

biolatency counts a request (D to C, -Q: its first Q to C) whether or
not btt lists it.  The requests btt lists no line for, by kind:
  flush    a request without data (a flush): btt skips records without a size
  split    a piece of a split bio: its D and C hold no whole Q
  no-Q     a D and C whose Q came before the trace (or was replaced by a
           later Q at its sector)
  unreached  a request whose Qs btt's walk of its tree did not reach: a Q
           spans them to the C's end or beyond and lies above them
           in btt's tree (which the model cannot see: it takes btt's file
           for it, where such a Q is there), and btt keeps them in flight
and one btt lists with another's latency:
  shared   two requests in flight at one sector at once (a read and a
           write of one block from two processes, completed by the
           driver's worker: a real capture on a loop device in 7.2,
           tests/fixtures/loop-shared): btt keeps the later Q, so its line
           for the first C there is that C minus the later D; where the C
           ended the older request, biolatency's value (it pairs by
           request, latpair.py) is taken from TEXT
and a request btt lists (per bio: a line for each Q merged into it) is
one request to biolatency, its latency btt's (-Q: the line of its own
first Q; where a request took in another, btt lists the other's older
Qs too, and biolatency times the request from its own start).  With -Q, a request whose first Q came before the
trace (no Q at the C's sector since the last C there) is not counted,
as BCC's biolatency never saw it start, while btt lists the bios merged
into it later (a real capture, tests/fixtures/nullb-noq); any other
request btt lists that biolatency does not count is a difference.  So biolatency's table must be: btt's lines, one a
request, binned in log2 microseconds (-m milliseconds) as BCC bins them,
plus the requests btt does not list, binned from TEXT.  btt's values are
rounded to the microsecond, so one on a bucket's edge may lie in either
bucket: the check takes each request's possible buckets and asserts the
table's running totals lie between the fewest and the most they allow.
PCT: each direction's p50 p90 p99 p99.9 and max within 1 % of the
nearest-rank value of those same latencies, taken with btt's values at
their least and at their most: a value btt rounded to the microsecond may
change places with a neighbour, so the rank may fall on another request
(fixtures/mirror-leg: p50 1,793 ns exact, 1,854 ns on btt's rounding).
Prints a summary line; exit 1 on any difference.
"""
import bisect
import math
import sys
from collections import Counter
from latpair import BttQs, Pairing, op

args = [a for a in sys.argv[1:] if not a.startswith('-')]
queued, msecs = '-Q' in sys.argv, '-m' in sys.argv
text, bttf, latf = args[:3]
pctf = args[3] if len(args) > 3 else None
DIV = 1000000 if msecs else 1000


def ns(t):
    s, f = t.split('.')
    return int(s) * 1000000000 + int(f.ljust(9, '0')[:9])


def us(t):
    s, _, f = t.partition('.')
    return int(s) * 1000000 + int((f + '000000')[:6])


def slot(u):
    return 1 if u < 2 else u.bit_length()


def printed(t):
    return us("%.6f" % (t / 1e9))


# btt's side (tests/tools/latpair.py)
B = BttQs()
# biolatency's side (one device's text)
P = Pairing(queued)
model = []          # btt's lines from TEXT: (time us, latency us)
reqs = []           # a request each C: [ns, dir, btt lines, kind]


recs = []
for line in open(text, errors='replace'):
    f = line.split()
    if len(f) < 7 or ',' not in f[0] or not f[3][0].isdigit():
        continue
    sec = int(f[7]) if len(f) > 7 and f[7].isdigit() else 0
    n = int(f[9]) if len(f) > 9 and f[8] == '+' else 0
    recs.append((ns(f[3]), int(f[1]), f[5], f[6], sec, n, f[4], int(f[2])))
# btt in the text's order; biolatency in iomon's replay order (as monitor
# and top -i take a trace): records at the same nanosecond on two CPUs, in
# no order the kernel knows, the lower CPU's first (blkparse's batches
# may print the other first)
order = list(range(len(recs)))
i = 0
while i < len(order):
    j = i
    while j < len(order) and recs[order[j]][0] == recs[order[i]][0]:
        j += 1
    order[i:j] = sorted(order[i:j], key=lambda k: recs[k][1])
    i = j
# btt's lines, (time, latency) to the microsecond, counted (the model
# asks it only where btt's own search decides, below: each line answers
# once, as a request's merged bios share one)
btt_lines = Counter((us(w[0]), us(w[1])) for w in (l.split() for l in open(bttf)) if len(w) == 2)
listed = btt_lines.copy()
# within a microsecond either way, the exact one first (take, below)
NEAR = sorted(((a, b) for a in (0, -1, 1) for b in (0, -1, 1)), key=lambda d: abs(d[0]) + abs(d[1]))


def take(k, near, pool):
    """a line of pool near k, used up: its latency; None if none is"""
    for a, b in near:
        kk = (k[0] + a, k[1] + b)
        if pool.get(kk):
            pool[kk] -= 1
            return kk[1]
    return None


def unreached(s0, pre, end):
    """btt finds the Qs a C holds by walking its tree of Qs in flight from
    the root, going left only below a Q starting after the C's start and
    right only past one ending before the C's end: a Q that starts before
    s0 and ends at or past the C's end (in flight: a split bio never
    completed whole, a dm-mirror's leg, a real capture; or one this C
    holds, taken out already: pre) stops the walk going right where it is
    s0's ancestor, which only btt's tree shape decides"""
    i = bisect.bisect_left(B.starts, s0)
    return any(x + B.qs[x][0] >= end for x in B.starts[:i]) or any(x < s0 and x + n >= end for x, n in pre)


def in_btt(line):
    return take((printed(line[0]), printed(line[1])), NEAR, listed) is not None


clines, ckind, ckq, qseen, cshared, chidden = {}, {}, {}, set(), set(), set()
for idx, (t, cpu, act, rwbs, sec, n, _, _) in enumerate(recs):
    if n and act == 'Q':
        qseen.add(sec)
        B.queue(sec, n, t)
    elif n and act == 'D':
        B.issue(sec, n, t)
    lines = []
    if n and act == 'C':
        held = B.holds(sec, n)
        gone = []
        for s0 in held:
            q = B.qs[s0]
            line = (q[1], t - q[1]) if queued else (t, t - q[2]) if q[2] is not None else None
            # (one btt's walk may not reach: where btt has no line for it,
            # it is still in flight there, for a later C to end)
            if line and not in_btt(line) and unreached(s0, gone, sec + n):
                chidden.add(idx)
                continue
            gone.append((s0, q[0]))
            del B.qs[s0]
            B.starts.remove(s0)
            if q[3]:
                cshared.add(idx)
            lines.append(line)
        B.ended(sec, [x for x, _ in gone])
        lines = [x for x in lines if x]
        model += [(round(a / 1000), round(b / 1000)) for a, b in lines]
        clines[idx] = lines
        ckq[idx] = sec in qseen
        qseen.discard(sec)
        ckind[idx] = any(s <= sec and sec + n <= s + q[0] for s, q in B.qs.items())
for idx in order:
    t, cpu, act, rwbs, sec, n, pid, seq = recs[idx]
    lines = clines.get(idx, [])
    # biolatency (tests/tools/latpair.py)
    s0 = P.event(0, t, act, rwbs, sec, n, pid, cpu, seq)
    if act == 'C' and (lines or s0):
        kind = 'before' if queued and lines and not s0 and not ckq[idx] else \
            'shared' if lines and idx in cshared else 'btt' if lines else 'flush' if not n else \
            'unreached' if idx in chidden else 'split' if ckind.get(idx) else 'no-Q'
        reqs.append([max(t - s0[0], 0) if s0 else None, s0[1] if s0 else op(rwbs, n), lines, kind])

# btt's file against the lines made from TEXT, as multisets (each side
# to the microsecond: a value on a rounding edge may be one apart)
bad = 0
got = btt_lines.copy()
nbtt = sum(got.values())


# Each line's value as btt prints it: "%lf" of the nanoseconds / 1e9, a
# double, rounded to the microsecond as printf rounds it (3,500 ns is
# 0.000003 there, where round() gives 4).  Every line takes its exact
# value first; a line left takes the nearest a microsecond away (one
# taking a neighbour's value first would leave that neighbour without
# its own: seeds 5869 and 38587, two Qs a microsecond or two apart;
# take and NEAR, above)
keys = [[(printed(a), printed(b)) for a, b in r[2]] for r in reqs]
found = [[take(k, NEAR[:1], got) for k in ks] for ks in keys]
for r, ks, vals in zip(reqs, keys, found):
    vals[:] = [v if v is not None else take(k, NEAR[1:], got) for k, v in zip(ks, vals)]
    if None in vals:
        if bad < 5:
            print("btt's file lacks the line(s) %s made from the text" % r[2])
        bad += 1
    # -Q: the line of the bio whose Q started the request, where btt has
    # it: a request that took in another whole request (an M of several
    # bios as the plug is let go) holds bios queued before its own first
    # Q, and biolatency times the request from its own start (seed 22556
    # w8: btt's largest line is the other request's first Q's, 6 us older)
    own = [x for (_, lat), x in zip(r[2], vals) if queued and x is not None and r[0] is not None and lat == r[0]]
    r.append(own[0] if own else max(v for v in vals if v is not None) if vals and any(v is not None for v in vals) else None)
extra = sum(got.values())
if extra:
    print("btt's file has %d lines the text's pairing does not make: %s" %
          (extra, [k for k, v in got.items() if v][:5]))
    bad += 1
if len(model) != nbtt:
    print("%d lines made from the text, btt's file has %d" % (len(model), nbtt))
    bad += 1

# each request biolatency counts: its possible buckets, from btt's value
# (microseconds, rounded) where btt lists it, else from TEXT (exact)
counted, kinds, vals, uncounted = [], {}, {}, 0
for v, d, lines, kind, bv in reqs:
    if v is None:
        if kind == 'before':
            uncounted += 1	# its first Q came before the trace (biolatency.8)
        elif lines:	# none met yet: it would need a name in biolatency.8
            print("btt lists a request biolatency does not count: %s" % lines)
            bad += 1
        continue
    if kind == 'shared' and bv is not None and abs(bv * 1000 - v) <= 1500:
        kind = 'btt'	# (the C ended the later request: btt's line is its own)
    kinds[kind] = kinds.get(kind, 0) + 1
    if bv is not None and kind != 'shared':
        if abs(bv * 1000 - v) > 1500:
            print("a request's latency %d ns, btt's %d us" % (v, bv)); bad += 1
        lo, hi = max(bv * 1000 - 500, 0), bv * 1000 + 500
        counted.append((slot(lo // DIV), slot(hi // DIV)))
        vals.setdefault(d, []).append((bv * 1000, 1000))
    else:
        counted.append((slot(v // DIV), slot(v // DIV)))
        vals.setdefault(d, []).append((v, 0))

table = {}
for l in open(latf):
    w = l.split()
    if len(w) > 4 and w[1] == '->' and w[3] == ':':
        table[slot(int(w[2]))] = table.get(slot(int(w[2])), 0) + int(w[4])
top = max([b for _, b in counted] + list(table) + [1])
run = 0
for b in range(1, top + 1):
    run += table.get(b, 0)
    least = sum(1 for _, h in counted if h <= b)
    most = sum(1 for l, _ in counted if l <= b)
    if not least <= run <= most:
        print("up to bucket %d (%d -> %d): the table has %d, btt's and the others' %d to %d" %
              (b, (1 << b) >> 1, (1 << b) - 1, run, least, most))
        bad += 1
if run != len(counted):
    print("the table counts %d, expected %d" % (run, len(counted))); bad += 1

if pctf:
    got = {}
    for l in open(pctf):
        w = l.split()
        if len(w) == 8 and w[1] in 'RWFD' and w[2].isdigit():
            got[w[1]] = w[2:]
    # (each rank at the latencies' least and most: PCT above)
    def ranks(v):
        v = sorted(v)
        return [v[max(math.ceil(p * len(v)) - 1, 0)] for p in (0.5, 0.9, 0.99, 0.999)] + [v[-1]]
    for d, v in sorted(vals.items()):
        lows, highs = ranks(x - s for x, s in v), ranks(x + s for x, s in v)
        g = got.get(d)
        if not g or int(g[0]) != len(v):
            print(d, 'count', g and g[0], 'expected', len(v)); bad += 1; continue
        for name, lo, hi, x in zip(('p50', 'p90', 'p99', 'p99.9', 'max'), lows, highs, g[1:]):
            a, b = x.split('.')
            x = int(a) * DIV + int(b.ljust(3, '0')[:3]) * (DIV // 1000)
            ms = DIV // 1000 if msecs else 0
            if not lo - lo / 100 - ms <= x <= hi + hi / 100 + ms:
                print(d, name, x, 'expected', lo, 'to', hi); bad += 1
print("%d requests: %s; btt's %d lines%s" % (len(counted), ', '.join('%s %d' % kv for kv in sorted(kinds.items())),
                                            nbtt, '' if bad else ', all equal') +
      ('; not counted: %d whose first Q came before the trace (btt lists their merged bios)' % uncounted if uncounted else ''))
sys.exit(1 if bad else 0)
