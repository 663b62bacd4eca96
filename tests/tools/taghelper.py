#!/usr/bin/env python3
"""taghelper.py MODE ARG: tag helpers that misbehave or watch, for t-top.sh.
  count FILE  answer END to every record; at EOF write how many came to FILE
  die N       answer END to N records, then exit (mid-trace)"""
import struct, sys

mode, arg = sys.argv[1], sys.argv[2]
inp, out, n = sys.stdin.buffer, sys.stdout.buffer, 0
while mode != "die" or n < int(arg):
    h = inp.read(48)
    if len(h) < 48:
        break
    bo = ">" if h[0] == 0x65 else "<"  # iomon's byte order, from the magic
    inp.read(struct.unpack(bo + "H", h[46:48])[0])
    n += 1
    out.write(struct.pack(bo + "I", 0))
    out.flush()
if mode == "count":
    open(arg, "w").write(str(n))
