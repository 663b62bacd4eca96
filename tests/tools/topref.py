#!/usr/bin/env python3
"""topref.py TEXT: biotop's per-process table computed independently from
blkparse-format text: a request belongs to the pid that queued (Q) it, moves
with front merges (F), is timed from issue (D) to completion (C).  Prints
"pid rw io kbytes avgms" rows sorted by bytes, most first.
topref.py TEXT -g NAME:PID[,PID...]...: the pids of a group share one row,
keyed by NAME (what tag-by-pid.py makes of them)."""
import re, sys
group = {}
args = sys.argv[2:]
while args[:1] == ["-g"]:
    name, pids = args[1].split(":")
    group.update((int(p), name) for p in pids.split(","))
    args = args[2:]
# a Q without a size (a flush) shows no sector: it is 0
line = re.compile(r'^\s*(\d+),(\d+)\s+\d+\s+\d+\s+(\d+)\.(\d+)\s+(\d+)\s+([A-Z]+)\s+(\S+)\s+(?:(\d+)(?: \+ (\d+))?|\[)')
req, rows = {}, {}
for l in open(sys.argv[1]):
    m = line.match(l)
    if not m:
        continue
    dev, t, pid, act, rwbs = (m[1], m[2]), int(m[3]) * 10**9 + int(m[4]), int(m[5]), m[6], m[7]
    sec, n = int(m[8] or 0), int(m[9] or 0)
    if act == "Q":
        req[(dev, sec)] = [pid, "W" in rwbs[:2] or rwbs[0] == "D" or ("W" in rwbs), 0]
    elif act == "F" and (dev, sec + n) in req:
        req[(dev, sec)] = req.pop((dev, sec + n))
    elif act == "D" and (dev, sec) in req:
        req[(dev, sec)][2] = t
    elif act == "C" and (dev, sec) in req:
        pid, w, issue = req.pop((dev, sec))
        r = rows.setdefault((group.get(pid, pid), w), [0, 0, 0])
        r[0] += 1; r[1] += n * 512; r[2] += (t - issue) if issue else 0
for (pid, w), (io, b, ns) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
    print(pid, "W" if w else "R", io, b // 1024, "%.2f" % (ns / io / 1e6))
