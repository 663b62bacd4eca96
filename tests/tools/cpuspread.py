#!/usr/bin/env python3
"""cpuspread.py N IN OUT [RUN]: the records of a version-7 capture's
per-CPU files IN.blktrace.0 .. C-1 as the files of a machine with N CPUs
(OUT.blktrace.0 .. N-1, N a multiple of C or not): file c's records go,
RUN at a time (default 7), to CPUs c, c + C, c + 2C, ... in turn, each
with its new CPU and that CPU's own sequence from 1; notes stay in file c
as they were.  Every file keeps its records in their order, so each is a
CPU's file as blktrace writes one; a merge of all N must give the same
records as a merge of the C.  Either byte order (the magic tells)."""
import struct
import sys

n, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
run = int(sys.argv[4]) if len(sys.argv) > 4 else 7
NOTIFY = 1 << 26		# BLK_TC_NOTIFY in the action's category bits

files = []
while True:
    try:
        files.append(open("%s.blktrace.%d" % (src, len(files)), "rb").read())
    except FileNotFoundError:
        break
c_in = len(files)
if not c_in or n < c_in:
    sys.exit("cpuspread.py: %s: %d files, and N must be at least that" % (src, c_in))
outs = [bytearray() for _ in range(n)]
seqs = [0] * n
for c, data in enumerate(files):
    cpus = list(range(c, n, c_in))
    off = k = 0
    while off + 48 <= len(data):
        e = "<" if data[off:off + 4] == b"\x07\x74\x61\x65" else ">"
        act, = struct.unpack_from(e + "I", data, off + 28)
        plen, = struct.unpack_from(e + "H", data, off + 46)
        rec = bytearray(data[off:off + 48 + plen])
        off += 48 + plen
        if act & NOTIFY:
            outs[c] += rec
            continue
        to = cpus[(k // run) % len(cpus)]
        k += 1
        seqs[to] += 1
        struct.pack_into(e + "I", rec, 4, seqs[to])
        struct.pack_into(e + "I", rec, 40, to)
        outs[to] += rec
for i, b in enumerate(outs):
    open("%s.blktrace.%d" % (out, i), "wb").write(b)
print("%d files from %d, %d with records" % (n, c_in, sum(1 for b in outs if b)))
