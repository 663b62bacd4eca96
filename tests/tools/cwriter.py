#!/usr/bin/env python3
"""cwriter.py DEV SEED STOPFILE [THREADS]: random writes to DEV from
THREADS threads (3), of 512 B to 64 KiB at 512-byte offsets drawn from
SEED, each thread fsyncing after every 8, until STOPFILE exists; then
prints how many writes were made.  Once every thread has made and synced
its first 8, it creates STOPFILE.on: what is started after that runs
beside writes already flowing (on a busy machine Python's own start can
outlast a short copy's first pass)."""
import os, random, sys, threading

dev, seed, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3]
nthreads = int(sys.argv[4]) if len(sys.argv) > 4 else 3
count = [0] * nthreads
going = threading.Barrier(nthreads, action=lambda: open(stop + ".on", "w").close())


def run(i):
    r = random.Random(seed * 100 + i)
    fd = os.open(dev, os.O_WRONLY)
    size = os.lseek(fd, 0, 2)
    while not os.path.exists(stop):
        n = r.choice([512, 4096, 8192, 65536])
        os.pwrite(fd, r.randbytes(n), r.randrange(0, (size - n) // 512) * 512)
        count[i] += 1
        if count[i] % 8 == 0:
            os.fsync(fd)
            if count[i] == 8:
                try:
                    going.wait(60)
                except threading.BrokenBarrierError:
                    pass	# a thread gone: no STOPFILE.on, which its waiter reports
    os.fsync(fd)
    os.close(fd)


ts = [threading.Thread(target=run, args=(i,)) for i in range(nthreads)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(sum(count))
