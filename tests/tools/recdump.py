#!/usr/bin/env python3
# recdump.py [-o FIELD,...] FILE...: every record of blktrace files (or a
# stream) as one line of named fields, the raw header and the payload in hex:
#   magic=65617407 seq=12 time=123456789 sector=8000 bytes=4096
#   action=00110001 pid=321 device=265289728 cpu=1 error=0 pdu=
# -o leaves the named fields out (two captures of one load stamp their own
# seq and time).  Either byte order (the magic tells); a partial record at
# the end of a file is reported on stderr and left out.
import struct
import sys

NAMES = ("magic", "seq", "time", "sector", "bytes", "action", "pid", "device", "cpu", "error", "pdu_len")
args = sys.argv[1:]
omit = set()
if args[:1] == ["-o"]:
    omit = set(args[1].split(","))
    args = args[2:]
for name in args:
    data = open(name, "rb").read()
    off, order = 0, None
    while off + 48 <= len(data):
        if order is None:
            m = struct.unpack_from("<I", data, off)[0]
            order = "<" if (m & 0xffffff00) == 0x65617400 else ">"
        h = struct.unpack_from(order + "IIQQIIIIIHH", data, off)
        if (h[0] & 0xffffff00) != 0x65617400:
            print("recdump: %s: no blktrace magic at byte %d; the rest left out" % (name, off), file=sys.stderr)
            off = len(data)
            break
        if off + 48 + h[10] > len(data):
            break
        pdu = data[off + 48:off + 48 + h[10]]
        f = []
        for n, v in zip(NAMES, h):
            if n in omit or n == "pdu_len":
                continue
            f.append("%s=%08x" % (n, v) if n in ("magic", "action") else "%s=%d" % (n, v))
        if "pdu" not in omit:
            f.append("pdu=" + pdu.hex())
        print(" ".join(f))
        off += 48 + h[10]
    if off != len(data):
        print("recdump: %s: %d bytes of a partial record at the end" % (name, len(data) - off), file=sys.stderr)
