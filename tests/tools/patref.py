#!/usr/bin/env python3
"""patref.py TEXT bitesize|biopattern: what BCC's bitesize and biopattern
count, computed from blkparse's default text of a trace (TEXT), in the
layout the test compares iomon's output with.

  bitesize    "NAME SLOT COUNT" for each issue (D line) size: bytes (the
              + N blocks, 512 each) // 1024, slot as bpf_log2l (0 and 1 in
              slot 1, then 2-3, 4-7 ...), printed as "LOW -> HIGH"
              ranges as BCC prints them, every slot up to the name's last
  biopattern  "DEV %RND %SEQ COUNT KBYTES" per device over the whole
              trace: a completion (C line) after the device's first is
              sequential when its sector is where the last one ended
"""
import sys
from collections import defaultdict

text, kind = sys.argv[1], sys.argv[2]
recs = []
for l in open(text):
    w = l.split()
    if len(w) < 8 or not w[1].isdigit() or "," not in w[0]:
        continue
    n = int(w[9]) if len(w) > 9 and w[8] == "+" else 0
    recs.append((w[0], w[5], int(w[7]) if w[7].isdigit() else 0, n, w[-1][1:-1] if w[-1].startswith("[") else ""))

if kind == "bitesize":
    h = defaultdict(lambda: defaultdict(int))
    for dev, a, sector, n, name in recs:
        if a == "D":
            kb = n * 512 // 1024
            h[name][1 if kb < 2 else kb.bit_length()] += 1
    for name in sorted(h):
        for i in range(1, max(h[name]) + 1):
            lo, hi = (1 << i) >> 1, (1 << i) - 1
            print(name, "%d -> %d" % (lo - 1 if lo == hi else lo, hi), h[name][i])
else:
    last, seq, rnd, by = {}, defaultdict(int), defaultdict(int), defaultdict(int)
    for dev, a, sector, n, name in recs:
        if a != "C":
            continue
        if last.get(dev):
            if last[dev] == sector:
                seq[dev] += 1
            else:
                rnd[dev] += 1
            by[dev] += n * 512
        last[dev] = sector + n
    for dev in sorted(last):
        t = seq[dev] + rnd[dev]
        if t:
            r = int(round(rnd[dev] * 100 / t))
            print(dev, r, 100 - r, t, by[dev] // 1024)
