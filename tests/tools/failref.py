#!/usr/bin/env python3
"""failref.py [TEXT]: the closing line biosnoop, biolatency and top -e print
when I/O failed, made independently from blkparse's text (TEXT, else
stdin): every C line whose error field is not [0] (the kernel's -errno as
an unsigned 16-bit number), grouped by errno name in order of first
appearance, the first 8 sectors of each, then "..."."""
import errno
import sys


def name(e):
    """e's name as the kernel's (blk_status_to_errno gives -EOPNOTSUPP for a
    request the device cannot do; Python names 95 by its alias ENOTSUP)"""
    return "EOPNOTSUPP" if e == errno.EOPNOTSUPP else errno.errorcode.get(e, str(e))


def main():
    by = {}
    for line in open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin:
        w = line.split()
        if len(w) > 9 and w[5] == "C" and w[-1] != "[0]":
            e = 65536 - int(w[-1][1:-1])
            by.setdefault(name(e), []).append(w[7])
    n = sum(len(v) for v in by.values())
    print("%d I/O%s failed (%s)" % (n, "" if n == 1 else "s", "; ".join(
        "%s: sector%s %s%s" % (e, "" if len(v) == 1 else "s", " ".join(v[:8]), " ..." if len(v) > 8 else "")
        for e, v in by.items())))


if __name__ == "__main__":
    main()
