#!/usr/bin/env python3
"""closegaps.py stream IN OUT: copy a little-endian trace (a stream or a
CPU's file) with each (device, CPU)'s sequence numbers renumbered so that
the gaps lost records left are closed: the k-th smallest number a stream
has becomes its smallest plus k.  Notes and messages keep theirs:
blkparse checks no sequence of theirs.  Prints the
records lost (the numbers closed over).

closegaps.py text IN TEXT: blkparse-style text read from IN (the original
trace) rewritten in place with each record line's sequence number the
one `stream` gives it, right-aligned in the room the old one had.

What for: after a lost record in a piped stream, blkparse holds every
later record until the end of input; iomon counts the gap and goes on
(blkparse.1, DIFFERENCES).  Going on is what blkparse does where there
is no gap, so blkparse on the closed stream is the oracle for iomon on
the original one, but for the sequence numbers (mapped back here) and
the Skips line blkparse's summary gives the gap (t-vmdiff)."""
import re
import struct
import sys

NOTIFY = 1 << 26	# BLK_TC_ACT(BLK_TC_NOTIFY)


def records(data):
    off = 0
    while off + 48 <= len(data):
        seq, = struct.unpack_from("<I", data, off + 4)
        act, dev, cpu = struct.unpack_from("<I", data, off + 28)[0], *struct.unpack_from("<II", data, off + 36)
        yield off, seq, act, dev, cpu
        off += 48 + struct.unpack_from("<H", data, off + 46)[0]


def counted(act):
    """blkparse checks the sequence of every record but the notes: a
    message (sequence 0) is sorted among the records unchecked, and one
    with a cgroup id (__BLK_TN_CGROUP) is dropped as a note is"""
    return not act & NOTIFY


def mapping(data):
    seen = {}
    for _, seq, act, dev, cpu in records(data):
        if counted(act):
            seen.setdefault((dev, cpu), set()).add(seq)
    m, lost = {}, 0
    for k, s in seen.items():
        s = sorted(s)
        lost += s[-1] - s[0] + 1 - len(s)
        m[k] = {old: s[0] + i for i, old in enumerate(s)}
    return m, lost


def main():
    data = bytearray(open(sys.argv[2], "rb").read())
    m, lost = mapping(data)
    if sys.argv[1] == "stream":
        for off, seq, act, dev, cpu in records(data):
            if counted(act):
                struct.pack_into("<I", data, off + 4, m[(dev, cpu)][seq])
        open(sys.argv[3], "wb").write(data)
        print(lost)
        return
    line = re.compile(r"^(\s*(\d+),(\d+)\s+(\d+))(\s+)(\d+)(\s)")
    out = []
    for l in open(sys.argv[3], errors="surrogateescape"):
        g = line.match(l)
        if g:
            key = (int(g.group(2)) << 20 | int(g.group(3)), int(g.group(4)))
            new = m.get(key, {}).get(int(g.group(6)))
            if new is not None:
                room = len(g.group(5)) + len(g.group(6))
                l = g.group(1) + str(new).rjust(room) + l[g.end(6):]
        out.append(l)
    open(sys.argv[3], "w", errors="surrogateescape").writelines(out)


main()
