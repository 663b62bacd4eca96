#!/usr/bin/env python3
"""replayfile.py: btrecord's .replay files for t-btreplay (the layout:
btrecord.h; docs/man/btrecord.8).
  replayfile.py make OUT le|be BUNCH...   a file of the bunches, each
      "NS:SECTOR+BYTES/RW,..." (NS the bunch's time, RW 1 read, 0 write;
      BYTES 0 a flush); the header counts them
  replayfile.py swap IN OUT               IN in the other byte order
  replayfile.py count FILE...             "READS WRITES FLUSHES BUNCHES"
      of all the files together"""
import struct
import sys


def order(d):
    return "<" if struct.unpack_from("<Q", d, 0)[0] == 0x10000 else ">"


def bunches(d):
    e, o = order(d), 32
    while o < len(d):
        n, t = struct.unpack_from(e + "2Q", d, o)
        pk = [struct.unpack_from(e + "2QI", d, o + 16 + 24 * i) for i in range(n)]
        yield t, pk
        o += 16 + 24 * n


def make(out, e, specs):
    e = "<" if e == "le" else ">"
    body, nio, first = b"", 0, None
    for s in specs:
        t, ios = s.split(":")
        t = int(t)
        first = t if first is None else first
        pk = []
        for io in ios.split(","):
            a, rw = io.split("/")
            sec, nb = a.split("+")
            pk.append(struct.pack(e + "2QI4x", int(sec), int(nb), int(rw)))
        body += struct.pack(e + "2Q", len(pk), t) + b"".join(pk)
        nio += len(pk)
    open(out, "wb").write(struct.pack(e + "4Q", 0x10000, first or 0, len(specs), nio) + body)


def main():
    a = sys.argv[1:]
    if a[0] == "make":
        make(a[1], a[2], a[3:])
    elif a[0] == "swap":
        d = open(a[1], "rb").read()
        e = order(d)
        f = ">" if e == "<" else "<"
        out = struct.pack(f + "4Q", *struct.unpack_from(e + "4Q", d, 0))
        for t, pk in bunches(d):
            out += struct.pack(f + "2Q", len(pk), t)
            out += b"".join(struct.pack(f + "2QI4x", *p) for p in pk)
        open(a[2], "wb").write(out)
    elif a[0] == "count":
        r = w = fl = b = 0
        for path in a[1:]:
            for t, pk in bunches(open(path, "rb").read()):
                b += 1
                for sec, nb, rw in pk:
                    if not nb:
                        fl += 1
                    elif rw:
                        r += 1
                    else:
                        w += 1
        print(r, w, fl, b)


main()
