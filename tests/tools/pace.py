#!/usr/bin/env python3
# pace.py REPLAY ORIG: how fast a replay's clock ran against the original's,
# from two lists of the same I/Os ("CPU SECTOR BLOCKS R|W TIME" a line, each
# CPU's I/Os in its order, as t-btreplay's qs writes them): the median of
# the slopes between every two I/Os at least a third of the original's span
# apart (Theil-Sen; that far apart, replaying a bunch's I/Os at its start
# moves a slope little).  A replay holds absolute deadlines, so an I/O held
# up on a busy machine is late alone; that moves the first-to-last span but
# not the median.  Prints the slope (1.000: the original's pace, 0.500:
# twice as fast) and the span ratio beside it.
import sys


def times(path):
    rows = [line.split() for line in open(path) if line.strip()]
    rows.sort(key=lambda r: int(r[0]))	# stable: each CPU's order kept
    return [float(r[4]) for r in rows]


rep, orig = times(sys.argv[1]), times(sys.argv[2])
if len(rep) != len(orig) or len(rep) < 2:
    sys.exit("pace.py: %d I/Os against %d" % (len(rep), len(orig)))
whole = max(orig) - min(orig)
slopes = sorted((rep[j] - rep[i]) / (orig[j] - orig[i])
                for i in range(len(orig)) for j in range(len(orig))
                if orig[j] - orig[i] >= whole / 3 > 0)
if not slopes:
    sys.exit("pace.py: the original's I/Os all at one time")
span = (max(rep) - min(rep)) / whole
print("%.3f %.3f" % (slopes[len(slopes) // 2], span))
