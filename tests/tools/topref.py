#!/usr/bin/env python3
"""topref.py TEXT: biotop's per-process table computed independently from
blkparse-format text: a request belongs to the pid that queued (Q) it, moves
with front merges (F), is timed from issue (D) to completion (C).  Prints
"pid rw io kbytes avgms" rows sorted by bytes, most first.
topref.py TEXT -g NAME:PID[,PID...]...: the pids of a group share one row,
keyed by NAME (what tag-by-pid.py makes of them).
topref.py TEXT -e: each row also counts its C lines with an error (the
trailing [N] not 0): "pid rw io kbytes avgms failed" (top -e's ERR).
topref.py TEXT -i SEC: rows per interval of SEC seconds from the first
event, each row led by the interval's number from 0."""
import re, sys
group, errs, step = {}, False, 0
args = sys.argv[2:]
while args:
    a = args.pop(0)
    if a == "-e":
        errs = True
    elif a == "-g":
        name, pids = args.pop(0).split(":")
        group.update((int(p), name) for p in pids.split(","))
    elif a == "-i":
        step = int(float(args.pop(0)) * 10**9)
    else:
        sys.exit(__doc__)
# a Q without a size (a flush) shows no sector: it is 0
line = re.compile(r'^\s*(\d+),(\d+)\s+\d+\s+\d+\s+(\d+)\.(\d+)\s+(\d+)\s+([A-Z]+)\s+(\S+)\s+(?:(\d+)(?: \+ (\d+))?|\[)')
error = re.compile(r'\[(\d+)\]\s*$')
req, rows, start = {}, {}, None
for l in open(sys.argv[1]):
    m = line.match(l)
    if not m:
        continue
    dev, t, pid, act, rwbs = (m[1], m[2]), int(m[3]) * 10**9 + int(m[4]), int(m[5]), m[6], m[7]
    start = t if start is None else start
    sec, n = int(m[8] or 0), int(m[9] or 0)
    if act == "Q":  # a second request on a sector in flight is kept beside the first
        req[(dev, sec, 1) if (dev, sec) in req else (dev, sec)] = [pid, "W" in rwbs[:2] or rwbs[0] == "D" or ("W" in rwbs), 0]
    elif act == "M":  # the bio joined a request: its own entry ends (the newer)
        req.pop((dev, sec, 1), None) if (dev, sec, 1) in req else req.pop((dev, sec), None)
    elif act == "F" and (dev, sec + n) in req:
        req[(dev, sec)] = req.pop((dev, sec + n))
    elif act == "D" and (dev, sec) in req:  # the first's, or the second's once the first went
        req[(dev, sec, 1) if req[(dev, sec)][2] and (dev, sec, 1) in req else (dev, sec)][2] = t
    elif act == "C" and ((dev, sec) in req or (dev, sec, 1) in req):
        # the first queued, or the second if this C is its pid's
        two = (dev, sec, 1) in req and ((dev, sec) not in req or req[(dev, sec, 1)][0] == pid != req[(dev, sec)][0])
        pid, w, issue = req.pop((dev, sec, 1) if two else (dev, sec))
        k = (t - start) // step if step else 0
        r = rows.setdefault((k, group.get(pid, pid), w), [0, 0, 0, 0])
        e = error.search(l)
        r[0] += 1; r[1] += n * 512; r[2] += (t - issue) if issue else 0; r[3] += bool(e and int(e[1]))
for (k, pid, w), (io, b, ns, f) in sorted(rows.items(), key=lambda kv: (kv[0][0], -kv[1][1])):
    print(*([k] if step else []), pid, "W" if w else "R", io, b // 1024, "%.2f" % (ns / io / 1e6), *([f] if errs else []))
