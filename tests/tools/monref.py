#!/usr/bin/env python3
"""monref.py STREAM: blkiomon's statistics computed independently, with exact
integers, from a version-7 little-endian stream: D matched with the later C
of the same device, sector and direction; prints, per direction, the line
prefix the monitor must print up to and including the exact variance."""
import struct, sys

d = open(sys.argv[1], "rb").read()
off, pend, st = 0, {}, {}
while off + 48 <= len(d):
    seq, t, sec, nb, act, pid, dev, cpu, err, pl = struct.unpack_from("<IQQIIIIIHH", d, off + 4)
    off += 48 + pl
    cat = act >> 16
    if not cat & ((1 << 6) | (1 << 7)) or cat & (1 << 10):
        continue
    key = (dev, sec, act & ((3 | (3 << 8)) << 16))
    if key in pend:
        o = pend.pop(key)
        old, young = (o, (t, act, nb)) if o[0] < t else ((t, act, nb), o)
        if old[1] >> 16 & (1 << 6) and young[1] >> 16 & (1 << 7):
            d2c = (young[0] - old[0]) // 1000
            size = old[2]
            thr = size * 1000 // (d2c or 1)
            w = "read" if young[1] >> 16 & 1 else "write" if young[1] >> 16 & 2 else None
            if w:
                for name, v in (("sizes", size), ("d2c", d2c), ("throughput", thr)):
                    st.setdefault((name, w), []).append(v)
        else:
            pend[key] = young
    else:
        pend[key] = (t, act, nb)
for (name, w), vals in sorted(st.items()):
    n, s, q = len(vals), sum(vals), sum(v * v for v in vals)
    var = (q * n - s * s) / (n * n)
    print("%s %s num %d sum %d var %.1f" % (name, w, n, s, var))
