#!/usr/bin/env python3
"""extref.py BLKPARSE-TEXT [CHUNK [CPU]]: the extents iomon extents prints, from
blkparse's text of the same trace: per device, the union of the sectors
of every Q whose RWBS writes (W: writes, write-zeroes; D: discards),
coalesced (touching ranges joined), as "MAJ,MIN START SECTORS" lines,
devices in order of their first record.  CHUNK (sectors, a power of
two): each range first rounded out to it, as a coarsened pool does; CPU:
that CPU's records only (a build that reads one trace file)."""
import sys

c = int(sys.argv[2]) if len(sys.argv) > 2 else 1
devs = {}
for line in open(sys.argv[1], errors="replace"):
    w = line.split()
    if len(w) < 10 or "," not in w[0] or w[5] != "Q" or w[8] != "+":
        continue
    if len(sys.argv) > 3 and w[1] != sys.argv[3]:
        continue
    if "W" not in w[6] and "D" not in w[6]:
        continue
    n = int(w[9])
    if n:
        s = int(w[7])
        devs.setdefault(w[0], []).append((s // c * c, (s + n + c - 1) // c * c))
# devices seen without a write Q still print their header only; this
# reference gives the lines of extents only
for d, r in devs.items():
    r.sort()
    out = []
    for s, e in r:
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    for s, e in out:
        print("%s %d %d" % (d, s, e - s))
