#!/usr/bin/env python3
"""bigtrace.py SRC_PREFIX DST_PREFIX EVENTS: make a large benchmark trace by
replaying a real per-CPU capture end to end until it holds at least EVENTS
records, each copy shifted past the previous one in time and sequence."""
import glob, struct, sys

src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
per_cpu, last, count = {}, 0, 0
for path in sorted(glob.glob(src + ".blktrace.*")):
    data, off, recs = open(path, "rb").read(), 0, []
    while off + 48 <= len(data):
        seq, t = struct.unpack_from("<IQ", data, off + 4)
        n = 48 + struct.unpack_from("<H", data, off + 46)[0]
        recs.append((seq, t, data[off:off + n]))
        last = max(last, t)
        off += n
    per_cpu[path.rsplit(".", 1)[1]] = recs
    count += len(recs)
rounds = -(-want // max(count, 1))
step = last + 1000
for cpu, recs in per_cpu.items():
    top = max([r[0] for r in recs] + [0])
    with open("%s.blktrace.%s" % (dst, cpu), "wb") as out:
        for k in range(rounds):
            chunk = bytearray()
            for seq, t, raw in recs:
                b = bytearray(raw)
                struct.pack_into("<IQ", b, 4, seq + k * top if seq else 0, t + k * step)
                chunk += b
            out.write(chunk)
print(rounds * count)
