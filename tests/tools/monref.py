#!/usr/bin/env python3
"""monref.py STREAM [--dev]: blkiomon's statistics computed independently, with
exact integers, from a version-7 stream or blkparse -d dump of either byte order:
D matched with the later C of the same device, sector and direction.  Prints,
per direction (and with --dev per device first), the number, the sum and the
exact variance (num*squares - sum^2) / num^2 to one decimal (with --dev also
to three), rounded to nearest with ties to even, as printf rounds."""
import struct, sys
from fractions import Fraction

def fixed(x, decimals):
    """'%.Nf' of the exact fraction x >= 0, ties to even."""
    scaled = x * 10 ** decimals
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q % 2):
        q += 1
    s = str(q).rjust(decimals + 1, "0")
    return s[:-decimals] + "." + s[-decimals:] if decimals else s

def main():
    d = open(sys.argv[1], "rb").read()
    per_dev = "--dev" in sys.argv
    off, pend, st = 0, {}, {}
    while off + 48 <= len(d):
        o = "<" if struct.unpack_from("<I", d, off)[0] & 0xffffff00 == 0x65617400 else ">"
        seq, t, sec, nb, act, pid, dev, cpu, err, pl = struct.unpack_from(o + "IQQIIIIIHH", d, off + 4)
        off += 48 + pl
        cat = act >> 16
        if not cat & ((1 << 6) | (1 << 7)) or cat & (1 << 10):
            continue
        key = (dev, sec, act & ((3 | (3 << 8)) << 16))
        if key not in pend:
            pend[key] = (t, act, nb)
            continue
        old = pend.pop(key)
        old, young = (old, (t, act, nb)) if old[0] < t else ((t, act, nb), old)
        if not (old[1] >> 16 & (1 << 6) and young[1] >> 16 & (1 << 7)):
            pend[key] = young
            continue
        d2c = (young[0] - old[0]) // 1000
        size = old[2]
        thr = size * 1000 // (d2c or 1)
        w = "read" if young[1] >> 16 & 1 else "write" if young[1] >> 16 & 2 else None
        if w:
            for name, v in (("sizes", size), ("d2c", d2c), ("throughput", thr)):
                st.setdefault((dev if per_dev else 0, name, w), []).append(v)
    for (dev, name, w), vals in sorted(st.items()):
        n, s, q = len(vals), sum(vals), sum(v * v for v in vals)
        var = Fraction(q * n - s * s, n * n)
        if per_dev:	# and the three decimals monitor's JSON prints
            print("%d,%d %s %s num %d sum %d var %s var3 %s" % (dev >> 20, dev & 0xfffff, name, w, n, s,
                                                             fixed(var, 1), fixed(var, 3)))
        else:
            print("%s %s num %d sum %d var %s" % (name, w, n, s, fixed(var, 1)))

if __name__ == "__main__":
    main()
