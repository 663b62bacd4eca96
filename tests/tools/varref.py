#!/usr/bin/env python3
"""varref.py CASES EXPECTED: random value lists (fixed seed), from small to
near 2^64 (squares past 2^128 in sum), written one list per line to CASES;
EXPECTED gets the exact variance of each, '%.1f %.3f' rounded to nearest,
ties to even (what tests/tools/varcheck.c must print)."""
import random, sys
from fractions import Fraction
sys.path.insert(0, sys.path[0])
from monref import fixed

rng = random.Random(1306431871295)
cases = [[0], [5], [1, 2], [1, 2, 3, 4], [3, 3, 3], [2**64 - 1] * 3, [0, 2**64 - 1],
         [2**63, 2**64 - 1, 2**62], [1] * 7 + [2]]
for bits in (8, 20, 32, 42, 53, 54, 63, 64):
    for n in (1, 2, 3, 5, 17, 200):
        cases.append([rng.getrandbits(bits) for _ in range(n)])
        cases.append([2**bits - 1 - rng.getrandbits(3) for _ in range(n)])
with open(sys.argv[1], "w") as c, open(sys.argv[2], "w") as e:
    for vals in cases:
        vals = [v % 2**64 for v in vals]
        if sum(vals) >= 2**64:		# the monitor's sum is 64 bits: keep it exact
            continue
        n, s, q = len(vals), sum(vals), sum(v * v for v in vals)
        x = Fraction(q * n - s * s, n * n)
        c.write(" ".join(map(str, vals)) + "\n")
        e.write("%s %s\n" % (fixed(x, 1), fixed(x, 3)))
