#!/usr/bin/env python3
"""replayload.py DEV CPU SEED COUNT PERIOD_MS [START]: a paced O_DIRECT load on
DEV from CPU: COUNT I/Os, one every PERIOD_MS milliseconds on a fixed
schedule (each due at START + i * PERIOD_MS, CLOCK_MONOTONIC seconds;
default now), now and then a burst of three at once and, after a write,
an fdatasync (a flush); reads and writes of 4 to 64 KiB at 4 KiB-aligned
places drawn from SEED.  For t-btreplay: a trace long and regular enough
that its replay's timing can be held to it."""
import mmap
import os
import random
import sys
import time

dev, cpu, seed, count, period = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
start = float(sys.argv[6]) if len(sys.argv) > 6 else time.monotonic()
os.sched_setaffinity(0, {cpu})
rng = random.Random(seed)
fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
blocks = os.lseek(fd, 0, os.SEEK_END) // 4096
buf = mmap.mmap(-1, 64 * 1024)
buf.write(bytes(range(256)) * 256)
view = memoryview(buf)
i = 0
while i < count:
    due = start + i * period / 1000
    now = time.monotonic()
    if due > now:
        time.sleep(due - now)	# pacing the load, not waiting for an event
    for _ in range(3 if rng.random() < 0.15 else 1):
        size = 4096 * rng.randint(1, 16)
        off = 4096 * rng.randrange(0, blocks - 16)
        if rng.random() < 0.5:
            os.preadv(fd, [view[:size]], off)
        else:
            os.pwritev(fd, [view[:size]], off)
            if rng.random() < 0.2:
                os.fdatasync(fd)
    i += 1
os.close(fd)
