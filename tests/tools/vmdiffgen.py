#!/usr/bin/env python3
"""vmdiffgen.py SEED: the guest scenario of the differential harness
(tests/long/t-vmdiff.sh): four workloads drawn from SEED and a fifth the
same every run (issue 29's: -t's table past full), each traced by
Debian's blktrace into /out/wN (its devices in /out/wN/devs, a line saying
what it is in /out/wN/what), then /out/done.  busybox sh; nb, said and
load come from tests/vm/guest.sh.

Devices: null_blk blk-mq (depth, queues, completion time drawn) and
bio-based, brd, loop over a file, and device-mapper stacks over null_blk
(linear, delay, flakey failing I/O while down), traced alone or with the
disk beneath them.  Loads: iogen (mix, request size, threads) or dd
(sizes, direct or through the page cache).
"""
import random
import sys

r = random.Random(int(sys.argv[1]))
DM = "LD_LIBRARY_PATH=/bin /bin/dmsetup --noudevsync"
out = ["# the differential harness's workloads, seed %s" % sys.argv[1],
       "insmod /lib/mod/dm-mod.ko; insmod /lib/mod/dm-delay.ko; insmod /lib/mod/dm-flakey.ko",
       "insmod /lib/mod/loop.ko",
       "mkdir -p /dev/mapper"]


def nullb():
    """(setup, device, words) for a fresh null_blk."""
    if r.random() < 0.3:
        return ("nb queue_mode=0 gb=1 irqmode=%d" % r.choice([0, 1]), "nullb0", "null_blk bio-based")
    depth, queues = r.choice([2, 8, 32, 128]), r.choice([1, 2])
    irq = r.choice([0, 2])
    extra = " completion_nsec=%d" % r.choice([1000, 40000, 400000]) if irq == 2 else ""
    return ("nb queue_mode=2 gb=1 hw_queue_depth=%d submit_queues=%d irqmode=%d%s" % (depth, queues, irq, extra),
            "nullb0", "null_blk mq depth %d, %d queue(s), irqmode %d%s" % (depth, queues, irq, extra))


def load(dev, secs):
    """a load on /dev/DEV for about SECS seconds, and its words"""
    if r.random() < 0.6:
        mode = r.choice(["randrw", "randr", "seqw", "randrw"])
        threads, bs = r.choice([1, 1, 2]), r.choice([512, 4096, 16384, 65536, 262144, 1048576])
        return "iogen /dev/%s %s %d %d %d" % (dev, mode, secs, threads, bs), "iogen %s %d thread(s) %d B" % (mode, threads, bs)
    bs, n = r.choice([("4k", 200), ("64k", 60), ("1M", 8)])
    flag = r.choice(["oflag=direct", "conv=fsync"])
    return ("dd if=/dev/zero of=/dev/%s bs=%s count=%d %s 2>/dev/null; "
            "dd if=/dev/%s of=/dev/null bs=%s count=%d iflag=direct 2>/dev/null" % (dev, bs, n, flag, dev, bs, n),
            "dd %s x %d, %s, then direct reads" % (bs, n, flag))


for w in range(1, 5):
    kind = r.choice(["null", "null", "brd", "loop", "linear", "delay", "flakey"])
    secs = r.choice([2, 3])
    setup, devs, words = [], [], ""
    if kind == "null":
        s, d, words = nullb()
        setup, devs = [s], [d]
    elif kind == "brd":
        setup = ["rmmod brd 2>/dev/null; insmod /lib/mod/brd.ko rd_nr=1 rd_size=65536",
                 "n=0; while [ ! -b /dev/ram0 ] && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done"]
        devs, words = ["ram0"], "brd (bio-based ram disk)"
    elif kind == "loop":
        setup = ["losetup -d /dev/loop0 2>/dev/null; rm -f /tmp/lo.img",
                 "dd if=/dev/zero of=/tmp/lo.img bs=1M count=64 2>/dev/null",
                 "losetup /dev/loop0 /tmp/lo.img"]
        devs, words = ["loop0"], "loop over a file"
    else:
        s, d, nw = nullb()
        table = {"linear": "0 2097152 linear /dev/nullb0 0",
                 "delay": "0 2097152 delay /dev/nullb0 0 %d" % r.choice([1, 5, 20]),
                 "flakey": "0 2097152 flakey /dev/nullb0 0 1 1"}[kind]
        setup = ["%s remove_all 2>/dev/null" % DM, s,
                 "echo '%s' | %s create t" % (table, DM)]
        devs = ["dm-0"] + (["nullb0"] if r.random() < 0.5 else [])
        words = "dm-%s (%s) over %s%s" % (kind, table.split(" ", 3)[3], nw, ", both traced" if len(devs) > 1 else "")
    cmd, lw = load(devs[0], secs)
    if kind == "flakey":
        cmd += " 2>/dev/null"
    out.append("# w%d: %s; %s" % (w, words, lw))
    out += setup
    out.append("mkdir -p /out/w%d; echo '%s; %s' > /out/w%d/what; echo %s > /out/w%d/devs" %
               (w, words, lw, w, " ".join(devs), w))
    out.append("blktrace.real %s -D /out/w%d -w %d > /out/w%d/blktrace.log 2>&1 &" %
               (" ".join("-d /dev/" + d for d in devs), w, secs + 4, w))
    # blktrace says nothing when it starts; its relay files are made at its
    # setup (made waits for them)
    out.append("made /sys/kernel/debug/block/%s/trace0" % devs[-1])
    out.append(cmd)
    out.append("wait")
    if kind in ("linear", "delay", "flakey"):
        out.append("%s remove_all" % DM)
    if kind == "loop":
        out.append("losetup -d /dev/loop0")
# w5, every run (no draw, so w1-w4 stay each seed's): the case issue 29
# found, a dm-linear over null_blk, both traced, 48 MiB of sequential
# writes through the page cache: more Qs back-merged on null_blk's queue
# (major 253 here, which blkparse -t takes for dm, dm-mod having taken
# 254) than parse -t's TRACK_MAX, none of them completing at its sector
words = "dm-linear (/dev/nullb0 0) over null_blk mq depth 32, 1 queue(s), irqmode 0, both traced; dd 1M x 48, conv=fsync"
out += ["# w5: " + words,
        "%s remove_all 2>/dev/null" % DM,
        "nb queue_mode=2 gb=1 hw_queue_depth=32 submit_queues=1 irqmode=0",
        "echo '0 2097152 linear /dev/nullb0 0' | %s create t" % DM,
        "mkdir -p /out/w5; echo '%s' > /out/w5/what; echo dm-0 nullb0 > /out/w5/devs" % words,
        "blktrace.real -d /dev/dm-0 -d /dev/nullb0 -D /out/w5 -w 15 > /out/w5/blktrace.log 2>&1 &",
        "made /sys/kernel/debug/block/nullb0/trace0",
        "dd if=/dev/zero of=/dev/dm-0 bs=1M count=48 conv=fsync 2>/dev/null",
        "wait",
        "%s remove_all" % DM]
out.append("touch /out/done")
print("\n".join(out))
