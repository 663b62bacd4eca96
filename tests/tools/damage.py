#!/usr/bin/env python3
"""damage.py FILE KIND N: damage a trace file (version 7, little-endian
records, per-CPU file or piped stream) in place at its N-th record, and
print the byte offset of the damage.  The one tool for the catalogue of
damaged inputs in tests/t-hostile.sh and tests/t-errors.sh.

KIND:
  zero     insert 48 zero bytes before record N (relay space never filled)
  magic    overwrite record N's magic with "JUNK"
  version  set record N's version byte to 9
  cut      truncate the file 10 bytes into record N (inside its header)
  payload  truncate inside the payload of the first record from N on that
           has one (prints that record's offset)
  pdulen   set record N's pdu_len to 65535 (more than follows it)
  empty    truncate the file to nothing (N unused; prints 0)
  swap     rewrite records N to the end in big-endian order (a byte order
           flip mid-stream: the records stay valid)
  back     set record N's time to 1 ns (time going backwards)
  gap      add 100 to the sequence numbers of records N.. of N's CPU
  dup      give record N the sequence number of the previous record of
           its CPU (a duplicate)
  action   set record N's action to 0x3f, an action no kernel writes
  nonul    fill the payload of the first PROCESS note from N on with "x":
           a name with no NUL (prints that note's offset)
"""
import struct, sys

H = struct.Struct("<IIQQIIIIIHH")	# struct blk_io_trace
path, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(path, "rb").read())


def records(d):
    off = 0
    while off + 48 <= len(d):
        end = off + 48 + struct.unpack_from("<H", d, off + 46)[0]
        yield off, end
        off = end


recs = list(records(d))
off = recs[n][0] if n < len(recs) else len(d)
if kind == "zero":
    d[off:off] = bytes(48)
elif kind == "magic":
    d[off:off + 4] = b"JUNK"
elif kind == "version":
    d[off] = 9
elif kind == "cut":
    d = d[:off + 10]
elif kind == "payload":
    off, end = next((o, e) for o, e in recs[n:] if e - o > 48)
    d = d[:off + 48 + (end - off - 48) // 2]
elif kind == "pdulen":
    struct.pack_into("<H", d, off + 46, 65535)
elif kind == "empty":
    d, off = bytearray(), 0
elif kind == "swap":
    for o, _ in recs[n:]:
        f = H.unpack_from(d, o)
        struct.pack_into(">IIQQIIIIIHH", d, o, *f)
elif kind == "back":
    struct.pack_into("<Q", d, off + 8, 1)
elif kind in ("gap", "dup"):
    cpu = struct.unpack_from("<I", d, off + 40)[0]
    mine = [o for o, _ in recs if struct.unpack_from("<I", d, o + 40)[0] == cpu
            and struct.unpack_from("<I", d, o + 4)[0]]
    if kind == "gap":
        for o in mine:
            if o >= off:
                struct.pack_into("<I", d, o + 4, struct.unpack_from("<I", d, o + 4)[0] + 100)
    else:
        prev = max(o for o in mine if o < off)
        d[off + 4:off + 8] = d[prev + 4:prev + 8]
elif kind == "action":
    a = struct.unpack_from("<I", d, off + 28)[0]
    struct.pack_into("<I", d, off + 28, (a & 0xffff0000) | 0x3f)
elif kind == "nonul":
    off, end = next((o, e) for o, e in recs[n:]
                    if struct.unpack_from("<I", d, o + 28)[0] == 1 << 26 and e - o > 48)
    d[off + 48:end] = b"x" * (end - off - 48)
else:
    sys.exit("damage.py: unknown kind " + kind)
open(path, "wb").write(d)
print(off)
