#!/usr/bin/env python3
"""dropcg.py IN OUT [IN OUT]...: copy version-7 little-endian traces without
their MESSAGE notes that carry a cgroup id (action 0x04000102: bfq's, in a
kernel with blk-cgroup), which blkparse 1.2.0 takes for notes and drops as
it reads, as iomon parse does, saying how many.  Prints how many each
lost, one line per pair.  (Many pairs in one run: a start of python3
costs a tenth of a second, and t-gen.sh strips hundreds of files.)

dropcg.py -c FILE...: how many such records the FILEs hold (a trace's
per-CPU files or a stream), one number: what parse must say it dropped."""
import struct, sys

CG_MSG = 0x04000102


def records(data):
    """(action, bytes) of each whole record"""
    off = 0
    while off + 48 <= len(data):
        n = 48 + struct.unpack_from("<H", data, off + 46)[0]
        yield struct.unpack_from("<I", data, off + 28)[0], data[off:off + n]
        off += n


args = sys.argv[1:]
if args[:1] == ["-c"]:
    print(sum(a == CG_MSG for f in args[1:] for a, _ in records(open(f, "rb").read())))
    sys.exit(0)
if not args or len(args) % 2:
    sys.exit(__doc__)
for src, dst in zip(args[::2], args[1::2]):
    out, k = bytearray(), 0
    for a, rec in records(open(src, "rb").read()):
        if a != CG_MSG:
            out += rec
        else:
            k += 1
    open(dst, "wb").write(out)
    print(k)
