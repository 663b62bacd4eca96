#!/usr/bin/env python3
"""paced.py STREAM WATCH N AT... : STREAM's records (version 7, either byte
order) on stdout in len(AT) bursts of about equal record counts, cut at record
boundaries, burst i written at AT[i] seconds after this program started (a
monotonic clock); then, rather than guess when the reader has printed, it
waits until the file WATCH holds N lines starting "device: " (PACED_WAIT
seconds at most, 15 unless set) and ends, closing the stream.  With
PACED_SPLIT=PREFIX set, burst i is also written to PREFIX.i, for an
independent reference of each interval.

paced.py STREAM WATCH N AT... -- CMD...: the same written to CMD's standard
input, the bursts' times counted from CMD's start, not this program's (on a
busy machine Python's own start can take longer than an interval's margin);
exits with CMD's status once it has ended."""
import os, struct, subprocess, sys, time

def records(d):
    magic = struct.unpack_from("<I", d, 0)[0]
    end = "<" if (magic & 0xffffff00) == 0x65617400 else ">"
    off, out = 0, []
    while off + 48 <= len(d):
        n = 48 + struct.unpack_from(end + "H", d, off + 46)[0]
        out.append(d[off:off + n])
        off += n
    return out

def main():
    t0 = time.monotonic()
    args, cmd = sys.argv[1:], None
    if "--" in args:
        args, cmd = args[:args.index("--")], args[args.index("--") + 1:]
    path, watch, want, at = args[0], args[1], int(args[2]), [float(a) for a in args[3:]]
    recs = records(open(path, "rb").read())
    k = len(at)
    cut = [len(recs) * i // k for i in range(k + 1)]
    bursts = [b"".join(recs[cut[i]:cut[i + 1]]) for i in range(k)]
    split = os.environ.get("PACED_SPLIT")
    if split:
        for i, b in enumerate(bursts):
            open("%s.%d" % (split, i), "wb").write(b)
    out = sys.stdout.buffer
    if cmd:	# (Popen returns once CMD is executing)
        child = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        out, t0 = child.stdin, time.monotonic()
    for when, b in zip(at, bursts):
        pause = t0 + when - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        elif pause < -0.2:
            print("paced.py: burst due at %.1f s written %.2f s late" % (when, -pause), file=sys.stderr)
        out.write(b)
        out.flush()
    rc = watched(watch, want)
    if cmd:
        out.close()
        return child.wait()
    return rc

def watched(watch, want):
    wait = float(os.environ.get("PACED_WAIT", "15"))
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with open(watch) as f:
                if sum(l.startswith("device: ") for l in f) >= want:
                    return 0
        except OSError:
            pass
        time.sleep(0.05)
    print("paced.py: %s did not reach %d intervals in %g s" % (watch, want, wait), file=sys.stderr)
    return 1

sys.exit(main())
