#!/usr/bin/env python3
# streamsplit.py STREAM [PREFIX]: the order of a blktrace stream (`blktrace
# -o -`, `iomon trace -o -`) and, with PREFIX, the same records as the
# per-CPU files a file capture writes (PREFIX.blktrace.CPU, each CPU's
# records in the order the stream carried them), so that a parser's text
# for the stream can be compared with its text for the same records read
# as files.  Prints one line:
#   records N back B maxback_ns M first_back I cpus C,... tail T bad_magic_at X
# B: records older than a record before them in the stream (time order
# across CPUs broken); M: how much older the worst was; I: the index of the
# first such record (-1: none); T: bytes of a partial record at the end;
# X: the byte where a record without blktrace's magic was met, and the
# reading stopped (-1: none).
# Either byte order (the magic tells); records written unchanged.
import struct
import sys

data = open(sys.argv[1], "rb").read()
prefix = sys.argv[2] if len(sys.argv) > 2 else None
off, n, back, maxback, first_back, newest = 0, 0, 0, 0, -1, None
per_cpu = {}
order = None
bad = -1
while off + 48 <= len(data):
    if order is None:
        magic = struct.unpack_from("<I", data, off)[0]
        order = "<" if (magic & 0xffffff00) == 0x65617400 else ">"
    h = struct.unpack_from(order + "IIQQIIIIIHH", data, off)
    if (h[0] & 0xffffff00) != 0x65617400:
        bad = off
        break
    t, cpu, plen = h[2], h[8], h[10]
    if off + 48 + plen > len(data):
        break
    rec = data[off:off + 48 + plen]
    if newest is not None and t < newest:
        back += 1
        maxback = max(maxback, newest - t)
        if first_back < 0:
            first_back = n
    if newest is None or t > newest:
        newest = t
    per_cpu.setdefault(cpu, []).append(rec)
    off += 48 + plen
    n += 1
if prefix:
    for cpu, recs in per_cpu.items():
        with open("%s.blktrace.%d" % (prefix, cpu), "wb") as f:
            f.write(b"".join(recs))
print("records %d back %d maxback_ns %d first_back %d cpus %s tail %d bad_magic_at %d" % (
    n, back, maxback, first_back, ",".join(str(c) for c in sorted(per_cpu)), len(data) - off if bad < 0 else 0, bad))
