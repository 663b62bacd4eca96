#!/usr/bin/env python3
"""failsum.py TEXT KIND OUT: iomon's failure counts in OUT against
blkparse's C lines that carry an error in TEXT (blkparse's text of the
same trace; [65531] is -5, EIO), by device, direction and errno.

  json   monitor --json's "failed" objects, summed over the intervals
  prom   monitor --prom's iomon_failed_requests_total counters
  top    top -C -e's ERR column summed by device (MAJ MIN), and its
         closing line's count of all of them

A direction as monitor counts it: write for a write or a discard, else
read.  Prints "ok N" (N failures), else what differs; exit 1 then.
"""
import json
import re
import sys
from collections import Counter

from failref import name


text, kind, out = sys.argv[1:4]
want = Counter()
for l in open(text, errors="replace"):
    m = re.match(r"\s*(\d+,\d+)\s+\d+\s+\d+\s+[\d.]+\s+\d+\s+C\s+(\S+)\s.*\[(\d+)\]$", l)
    if m and int(m[3]):
        e = 65536 - int(m[3])
        want[m[1], "write" if "W" in m[2] or m[2][0] == "D" else "read", name(e)] += 1
got = Counter()
if kind == "json":
    for l in open(out):
        o = json.loads(l)
        for d in ("read", "write"):
            for e, n in o.get("failed", {}).get(d, {}).items():
                got[o["device"], d, e] += n
elif kind == "prom":
    for l in open(out):
        m = re.match(r'iomon_failed_requests_total\{device="([^"]+)",direction="(\w+)",errno="(\w+)"\} (\d+)$', l)
        if m:
            got[m[1], m[2], m[3]] += int(m[4])
else:
    per = Counter()
    for k, n in want.items():
        per[k[0]] += n
    want, closing = per, 0
    for l in open(out):
        w = l.split()
        if len(w) == 10 and w[0].isdigit() and w[9].isdigit():
            got["%s,%s" % (w[3], w[4])] += int(w[9])
        m = re.match(r"(\d+) I/Os? failed \(", l)
        if m:
            closing = int(m[1])
    n = sum(want.values())
    if closing != n:
        print("top's closing line counts %d, blkparse %d" % (closing, n))
        sys.exit(1)
    got = Counter({k: v for k, v in got.items() if v})
if got == want:
    print("ok", sum(want.values()))
    sys.exit(0)
print("differs: iomon %s, blkparse %s" % (sorted(got.items()), sorted(want.items())))
sys.exit(1)
