#!/usr/bin/env python3
"""zfcpdrv.py IN OUT [N]: IN (a little-endian version-7 stream) with N
driver-data records added after it, as zfcp writes them on s390: action
DRV_DATA|READ on IN's first device, a 24-byte struct zfcp_blk_drv_data
payload (magic 1, flags LAT_VALID, inbound/outbound queue usage, channel
and fabric latency in ns), in the stream's byte order (host order here).
ziomon_zfcpdd accounts exactly these."""
import struct, sys
src, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
d = open(src, "rb").read()
assert struct.unpack_from("<I", d)[0] == 0x65617407, "a little-endian version-7 stream"
dev, t, off, seq = struct.unpack_from("<I", d, 36)[0], 0, 0, 0
while off + 48 <= len(d):		# the last time and sequence in IN
    t = max(t, struct.unpack_from("<Q", d, off + 8)[0])
    seq = max(seq, struct.unpack_from("<I", d, off + 4)[0])
    off += 48 + struct.unpack_from("<H", d, off + 46)[0]
DRV, READ = 1 << 30, 1 << 16
recs = []
for i in range(n):
    pdu = struct.pack("<IHBBQQ", 1, 1, i % 7, 128 - i % 11, 20000 + 37 * i, 90000 + 1013 * (i % 29))
    recs.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq + 1 + i, t + 1000 * (i + 1), 8 * i, 0,
                            DRV | READ, 1, dev, 0, 0, len(pdu)) + pdu)
open(out, "wb").write(d + b"".join(recs))
