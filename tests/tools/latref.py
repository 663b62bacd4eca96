#!/usr/bin/env python3
# latref.py: biolatency's histogram and exact percentiles, computed on
# their own from blkparse-format text, paired as latpair.py says
# (tests/t-lat.sh checks iomon lat against them).
#   latref.py TEXT hist [-Q] [-m]     "lo hi count" per log2 row, as BCC prints
#   latref.py TEXT pct [-Q] OUT       iomon lat -P's OUT within 1 % of the
#                                     exact nearest-rank percentiles, max exact
import math, sys
from latpair import Pairing

text, what, args = sys.argv[1], sys.argv[2], sys.argv[3:]
queued = '-Q' in args
div = 1000000 if '-m' in args else 1000

def ns(t):
    s, f = t.split('.')
    return int(s) * 1000000000 + int(f.ljust(9, '0')[:9])

lat = []		# (ns, dir)
P = Pairing(queued)
for line in open(text, errors='replace'):
    f = line.split()
    if len(f) < 7 or ',' not in f[0] or not f[3][0].isdigit():
        continue
    # a flush has no sector in the text ("D FN [kworker]"): 0, as traced;
    # a flush sequence's data completes with a sector, no size
    sec = int(f[7]) if len(f) > 7 and f[7].isdigit() else 0
    n = int(f[9]) if len(f) > 9 and f[8] == '+' else 0
    t = ns(f[3])
    s0 = P.event(f[0], t, f[5], f[6], sec, n, f[4], int(f[1]), int(f[2]))
    if s0:
        lat.append((max(t - s0[0], 0), s0[1]))

if what == 'hist':
    # every latency, whatever its direction
    slots = [0] * 65
    for v, w in lat:
        u = v // div
        slots[1 if u < 2 else u.bit_length()] += 1
    top = max([i for i in range(65) if slots[i]] + [0])
    for i in range(1, top + 1):
        lo, hi = (1 << i) >> 1, (1 << i) - 1
        print(lo - 1 if lo == hi else lo, hi, slots[i])
    sys.exit(0)

bad = 0
got = {}
for line in open(args[-1]):
    f = line.split()
    if len(f) == 8 and f[1] in 'RWFD' and f[2].isdigit():
        got[f[1]] = f[2:]
for d in 'RWFD':
    v = sorted(x for x, w in lat if w == d)
    if not v:
        continue
    exp = [v[max(math.ceil(p * len(v)) - 1, 0)] for p in (0.5, 0.9, 0.99, 0.999)] + [v[-1]]
    g = got.get(d)
    if not g or int(g[0]) != len(v):
        print(d, 'count', g and g[0], 'expected', len(v)); bad = 1; continue
    for name, e, x in zip(('p50', 'p90', 'p99', 'p99.9', 'max'), exp, g[1:]):
        a, b = x.split('.')
        x = int(a) * div + int(b.ljust(len(str(div)) - 1, '0'))
        if (name == 'max' and x != e) or abs(x - e) > e / 100:
            print(d, name, x, 'expected', e); bad = 1
    print(d, len(v), ' '.join(str(e) for e in exp))
sys.exit(bad)
