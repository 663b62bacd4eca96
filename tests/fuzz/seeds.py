#!/usr/bin/env python3
"""Seed corpora for the fuzz targets: small cuts of the fixtures (per-CPU
files, the stream, version 8, big-endian), cut at record boundaries and
prefixed with the option byte each target reads first.

usage: seeds.py FIXTURES OUTDIR   (writes OUTDIR/{decode,parse,monitor}/)"""
import os
import struct
import sys

CUT = 3000  # bytes per seed: libFuzzer works best on small inputs


def records(b, limit):
    """Whole records from the start of b, at most limit bytes of them."""
    off = 0
    while off + 48 <= len(b):
        le = struct.unpack_from('<I', b, off)[0]
        be = struct.unpack_from('>I', b, off)[0]
        if le & 0xffffff00 == 0x65617400:
            m, end = le, '<'
        elif be & 0xffffff00 == 0x65617400:
            m, end = be, '>'
        else:
            break
        hdr = 64 if m & 0xff == 8 else 48
        pl = struct.unpack_from(end + 'H', b, off + (50 if hdr == 64 else 46))[0]
        if off + hdr + pl > len(b) or off + hdr + pl > limit:
            break
        off += hdr + pl
    return b[:off]


def traces(fix):
    for d in sorted(os.listdir(fix)):
        p = os.path.join(fix, d)
        if not os.path.isdir(p):
            continue
        files = sorted(f for f in os.listdir(p) if '.blktrace.' in f or f.endswith('.stream'))
        if not files:
            continue
        by_name = {}
        for f in files:
            by_name.setdefault(f.split('.blktrace.')[0], []).append(f)
        for name, fs in sorted(by_name.items()):
            data = b''.join(records(open(os.path.join(p, f), 'rb').read(), CUT // len(fs)) for f in fs)
            if data:
                yield '%s-%s' % (d, name), data


def main():
    fix, out = sys.argv[1], sys.argv[2]
    ops = {'decode': [0x00, 0x05, 0x36, 0xc4], 'parse': [0x00, 0x01, 0x03, 0x05, 0x07, 0x19, 0x22, 0x41],
           'monitor': [0x00, 0x04, 0x0d, 0x32]}
    for t, bs in ops.items():
        os.makedirs(os.path.join(out, t), exist_ok=True)
        for name, data in traces(fix):
            for op in bs:
                with open(os.path.join(out, t, '%s-%02x' % (name, op)), 'wb') as f:
                    f.write(bytes([op]) + data)


main()
