#!/usr/bin/env python3
# latref.py: biolatency's histogram and exact percentiles, computed on
# their own from blkparse-format text (tests/t-lat.sh checks iomon lat
# against them).
#   latref.py TEXT hist [-Q] [-m]     "lo hi count" per log2 row, as BCC prints
#   latref.py TEXT pct [-Q] OUT       iomon lat -P's OUT within 1 % of the
#                                     exact nearest-rank percentiles, max exact
import math, sys

text, what, args = sys.argv[1], sys.argv[2], sys.argv[3:]
queued = '-Q' in args
div = 1000000 if '-m' in args else 1000

def ns(t):
    s, f = t.split('.')
    return int(s) * 1000000000 + int(f.ljust(9, '0')[:9])

def op(rwbs, n):	# the request's direction: R W, F a flush without data, D discard
    if 'D' in rwbs: return 'D'
    if 'W' in rwbs: return 'W'
    if 'F' in rwbs and not n: return 'F'
    return 'R'

start, lat = {}, []		# (dev, sector) -> [time, dir]; (ns, dir)
for line in open(text, errors='replace'):
    f = line.split()
    if len(f) < 7 or ',' not in f[0] or not f[3][0].isdigit():
        continue
    # a flush has no sector in the text ("D FN [kworker]"): 0, as traced;
    # a flush sequence's data completes with a sector, no size
    sec = int(f[7]) if len(f) > 7 and f[7].isdigit() else 0
    n = int(f[9]) if len(f) > 9 and f[8] == '+' else 0
    dev, t, act, rwbs = f[0], ns(f[3]), f[5], f[6]
    key = (dev, sec, not n)  # a flush apart from a write at its sector
    if act == ('Q' if queued else 'D'):
        start[key] = [t, op(rwbs, n)]
    elif act == 'D' and queued and key in start:
        start[key][1] = op(rwbs, n)
    elif act == 'M' and queued:
        start.pop(key, None)
    elif act == 'F' and queued:
        old = start.pop((dev, sec + n, False), None)
        if old:
            if key in start:
                start[key][0] = old[0]
            else:
                start[key] = old
    elif act == 'R' and not queued:
        start.pop(key, None)
    elif act == 'C' and key in start:
        t0, w = start.pop(key)
        lat.append((max(t - t0, 0), w))

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
