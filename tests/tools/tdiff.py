#!/usr/bin/env python3
"""tdiff.py IOMON-TEXT BLKPARSE-TEXT: blkparse -t's text from iomon and from
Debian's blkparse, the same but for the one documented difference
(blkparse.1, DIFFERENCES): where a request was dispatched without ever
being inserted (no I since its Q, or since the last C at its sector: a
split's pieces have no Q), blkparse subtracts a queue time it
never set and prints what its memory held; iomon prints no figure.  So a
D line may lack the figure Debian's has, for such a request only, and -s's
per-process "Dispatch wait" maxima may then be smaller than Debian's.
Likewise an I line where no G came at its sector since the last C there
(a stream's CPUs out of time order print a request's I before its G):
blkparse subtracts an allocation time it never set.
And a C line where no D found blkparse's track at its sector since a G or
an I made it (a flush's C WS at sector 0 after another flush's G made one
there, its C FN having just freed the last; a stream's late G and C after
their D): blkparse subtracts a dispatch
time it never set, the freed request's, still in the memory malloc reuses.
Every other byte must match.  Exit 0 when so, else 1 with the first
differences on stdout.
"""
import re
import sys

# prefix, action, RWBS, " SECTOR + N" (" SECTOR" on a C without a size; none on a flush: sector 0), figure, [comm]
LINE = re.compile(r"^(\s*\d+,\d+\s+\d+\s+\d+\s+[\d.]+\s+\d+\s+)(\w+)(\s+\S+)( \d+(?: \+ \d+)?)?( \(\s*\d+\))?( \[.*)$")


def main():
    got = open(sys.argv[1], errors="replace").read().split("\n")
    exp = open(sys.argv[2], errors="replace").read().split("\n")
    if len(got) != len(exp):
        print("line counts differ: iomon %d, blkparse %d" % (len(got), len(exp)))
    inserted = {}		# (dev, sector) -> an I seen since its Q
    got_rq = {}		# (dev, sector) -> a G seen since the last C
    issued, made = {}, set()	# (dev, sector): a D since blkparse made its track
    allowed = allowed_i = allowed_c = bad = 0
    for n, (g, e) in enumerate(zip(got, exp), 1):
        m = LINE.match(e)
        if m:
            dev = m.group(1).split()[0]
            act, key = m.group(2), (dev, (m.group(4) or " 0").split()[0])
            if act in ("Q", "C"):	# a new request, or blkparse's track gone
                inserted[key] = False
            elif act == "I":
                inserted[key] = True
            if act in ("G", "C"):
                got_rq[key] = act == "G"
            # blkparse's track: made by a G or an I (a Q on dm or md)
            # where none is, its dispatch time set by a D that finds it,
            # freed by a C
            if (act in ("G", "I") or act == "Q" and dev.split(",")[0] in ("253", "9")) and key not in made:
                made.add(key)
                issued[key] = False
            elif act == "D" and key in made:
                issued[key] = True
            was_issued = issued.get(key, False)
            if act == "C":
                made.discard(key)
                issued[key] = False
        if g == e:
            continue
        if m and m.group(2) == "C" and m.group(5) and not was_issued and \
                g == m.group(1) + m.group(2) + m.group(3) + (m.group(4) or "") + m.group(6):
            allowed_c += 1
            continue
        if m and m.group(2) == "I" and m.group(5) and not got_rq.get(key, False) and \
                g == m.group(1) + m.group(2) + m.group(3) + (m.group(4) or "") + m.group(6):
            allowed_i += 1
            continue
        if m and m.group(2) == "D" and m.group(5) and not inserted.get(key, False) and \
                g == m.group(1) + m.group(2) + m.group(3) + (m.group(4) or "") + m.group(6):
            allowed += 1
            continue
        wg = re.match(r"^ Dispatch wait:\s+(\d+)\s+Dispatch wait:\s+(\d+)$", g)
        we = re.match(r"^ Dispatch wait:\s+(\d+)\s+Dispatch wait:\s+(\d+)$", e)
        wg = wg or re.match(r"^ Completion wait:\s+(\d+)\s+Completion wait:\s+(\d+)$", g)
        we = we or re.match(r"^ Completion wait:\s+(\d+)\s+Completion wait:\s+(\d+)$", e)
        wg = wg or re.match(r"^ Allocation wait:\s+(\d+)\s+Allocation wait:\s+(\d+)$", g)
        we = we or re.match(r"^ Allocation wait:\s+(\d+)\s+Allocation wait:\s+(\d+)$", e)
        if (allowed or allowed_i or allowed_c) and wg and we and all(int(a) <= int(b) for a, b in zip(wg.groups(), we.groups())):
            continue
        bad += 1
        if bad <= 6:
            print("line %d:\n< %s\n> %s" % (n, g, e))
    if bad or len(got) != len(exp):
        print("%d lines differ beyond the documented one" % bad)
        return 1
    print("identical but for %d D figures from blkparse's unset queue time%s%s" %
          (allowed, " and %d I figures from its unset allocation time" % allowed_i if allowed_i else "",
           " and %d C figures from its unset dispatch time" % allowed_c if allowed_c else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
