#!/usr/bin/env python3
# recdiff.py [-n] A B: two captures of one load (recdump.py's lines, seq
# and time left out) compared record by record, as multisets.  Records
# only one side has are paired, each with the other side's record that
# has the most fields equal, and the fields that differ are counted with
# their values: one line, e.g.
#   2 records differ; action: 01850008->01840008 x2; sector: 0->18446744073709551615 x2
# ("none" when they are the same).  Exit status 0 when they are the same.
# -n sets aside what two backends cannot agree on: the TIMESTAMP note
# (each capture's own start, on the CPU it ran on), an unplug's kind
# (tracefs's block_unplug event does not say whether it was explicit:
# UNPLUG_TIMER is taken as UNPLUG_IO on both sides), and how often a
# task's process note comes (tracefs notes a task again, earlier, when a
# CPU's page read later holds an earlier event of it: capture/tpevent.c's
# process_note, on that event's CPU; the first name wins, so each
# task's note counts once, on any CPU).
import collections
import sys

args = sys.argv[1:]
norm = args[:1] == ["-n"]
if norm:
    args = args[1:]


def load(name):
    c = collections.Counter()
    for line in open(name):
        r = dict(kv.split("=", 1) for kv in line.split())
        if norm:
            a = int(r["action"], 16)
            if a == 0x04000001:
                continue
            if a & 0xffff == 0x000b:
                r["action"] = "%08x" % (a & ~0xffff | 0x000a)
            if a == 0x04000000:	# (on whichever CPU the event was)
                r["cpu"] = "-"
                if tuple(r.items()) in c:
                    continue
        c[tuple(r.items())] += 1
    return c


a, b = load(args[0]), load(args[1])
only_a, only_b = list((a - b).elements()), list((b - a).elements())
if not only_a and not only_b:
    print("none")
    sys.exit(0)
diffs = collections.Counter()
unpaired = 0
for ra in only_a:
    da = dict(ra)
    best, score = None, -1
    for i, rb in enumerate(only_b):
        s = sum(1 for k, v in rb if da.get(k) == v)
        if s > score:
            best, score = i, s
    if best is None:
        unpaired += 1
        continue
    db = dict(only_b.pop(best))
    for k in da:
        if da[k] != db.get(k):
            diffs[(k, da[k], db.get(k))] += 1
unpaired += len(only_b)
by_field = collections.OrderedDict()
for (k, va, vb), n in sorted(diffs.items()):
    by_field.setdefault(k, []).append("%s->%s x%d" % (va, vb, n))
out = ["%d records differ" % max(len(list((a - b).elements())), len(list((b - a).elements())))]
out += ["%s: %s" % (k, ", ".join(v)) for k, v in by_field.items()]
if unpaired:
    out.append("%d without a counterpart" % unpaired)
print("; ".join(out))
sys.exit(1)
