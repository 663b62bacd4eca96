#!/usr/bin/env python3
"""monsum.py IOMON DEBIAN: blkiomon text where Debian's blkiomon printed one
device in several blocks within an interval (seen on a real capture: two
"device: 253,0" blocks whose counts add up to the device's): for each
device, Debian's blocks added (num, sum, squ and the histograms added, min
and max kept) must equal iomon's one block.  Exit 0 when they do."""
import re
import sys


def blocks(path):
    out, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"device: (\S+)$", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            cur.append({"hist": {}})
            continue
        if cur is None:
            continue
        b = cur[-1]
        m = re.match(r"(\w[\w ]*\([^)]*\)): num (\d+), min (\d+), max (\d+), sum (\d+), squ (\d+)", line)
        if m:
            b[m.group(1)] = [int(x) for x in m.groups()[1:]]
            continue
        m = re.match(r"(\w[\w ]*\([^)]*\)):$", line)
        if m:
            b["cur"] = m.group(1)
            continue
        for k, v in re.findall(r"(>?\s*\d+):\s+(\d+)", line):
            key = (b.get("cur"), k.replace(" ", ""))
            b["hist"][key] = b["hist"].get(key, 0) + int(v)
        m = re.match(r"bidirectional requests: (\d+)", line)
        if m:
            b["bidir"] = int(m.group(1))
    return out


def add(bs):
    t = {"hist": {}}
    for b in bs:
        for k, v in b.items():
            if k == "hist":
                for hk, hv in v.items():
                    t["hist"][hk] = t["hist"].get(hk, 0) + hv
            elif k == "cur":
                continue
            elif k == "bidir":
                t[k] = t.get(k, 0) + v
            elif k not in t:
                t[k] = list(v)
            else:
                n, mn, mx, s, q = v
                t[k] = [t[k][0] + n, min(t[k][1], mn) if n else t[k][1], max(t[k][2], mx), t[k][3] + s, t[k][4] + q]
    return t


ours, theirs = blocks(sys.argv[1]), blocks(sys.argv[2])
bad = 0
if set(ours) != set(theirs):
    print("devices differ: %s against %s" % (sorted(ours), sorted(theirs)))
    sys.exit(1)
for dev in ours:
    if len(ours[dev]) != 1:
        print("%s: iomon printed %d blocks" % (dev, len(ours[dev])))
        sys.exit(1)
    o, t = add(ours[dev]), add(theirs[dev])
    o.pop("cur", None)
    for k in sorted(set(o) | set(t), key=str):
        if o.get(k) != t.get(k):
            bad += 1
            if bad < 5:
                print("%s %s: iomon %s, Debian's added %s" % (dev, k, o.get(k) if k != "hist" else "...", t.get(k) if k != "hist" else "..."))
print("%d devices, Debian's %d blocks added: %s" % (len(ours), sum(len(v) for v in theirs.values()), "the same" if not bad else "%d fields differ" % bad))
sys.exit(1 if bad else 0)
