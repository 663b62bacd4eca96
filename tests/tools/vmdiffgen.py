#!/usr/bin/env python3
"""vmdiffgen.py SEED: the guest scenario of the differential harness
(tests/long/t-vmdiff.sh): four workloads drawn from SEED, a fifth the
same every run (issue 29's: -t's table past full), a sixth and a
seventh drawn from SEED by generators of their own (a filesystem's
traffic or discards; a dm-stripe or an error target over two null_blk
disks), an eighth on a virtio disk in Debian's 6.1 (VIRTIO=1), and a
ninth on a disk in two partitions (brd, or in 6.1 the virtio disk), a
tenth on a throttled null_blk whose requests come back (requeues), an
eleventh on a dm-mirror, dm-snapshot or dm-crypt (I/O of the target's
own beside the remapped bios), each
traced by Debian's blktrace into /out/wN (its devices in /out/wN/devs,
a line saying what it is in /out/wN/what), then /out/done.  busybox
sh; nb, waitb, said and load come from tests/vm/guest.sh.

Devices: null_blk blk-mq (depth, queues, completion time drawn) and
bio-based, brd, loop over a file, and device-mapper stacks over null_blk
(linear, delay, flakey failing I/O while down), traced alone or with the
disk beneath them.  Loads: iogen (mix, request size, threads) or dd
(sizes, direct or through the page cache).
"""
import os
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
                 "waitb /dev/ram0"]
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
# w6, drawn from a generator of its own (w1-w5 stay what each seed gave
# before it came): a filesystem's traffic or discards, on storage that
# keeps its data (brd, or loop over a file in a tmpfs, which discards by
# punching holes), alone or under a dm-linear: mke2fs (its discard of the
# whole device, where the device takes one), ext4's journal, metadata and
# flushes from small files written and fsync'd, removed, a file of 8 MiB;
# or blkdiscard of ranges up to 8 MiB among direct writes
r6 = random.Random("w6 %s" % sys.argv[1])
dev6 = r6.choice(["brd", "loop", "loop"])
under = r6.random() < 0.4
load6 = r6.choice(["ext4", "ext4", "discard"]) if dev6 == "loop" else "ext4"
if dev6 == "brd":
    setup6 = ["rmmod brd 2>/dev/null; insmod /lib/mod/brd.ko rd_nr=1 rd_size=65536",
              "waitb /dev/ram0"]
    base6, words6 = "ram0", "brd (bio-based ram disk)"
else:
    setup6 = ["losetup -d /dev/loop0 2>/dev/null; mkdir -p /lo; mount -t tmpfs lo /lo",
              "dd if=/dev/zero of=/lo/lo.img bs=1M count=64 2>/dev/null",
              "losetup /dev/loop0 /lo/lo.img"]
    base6, words6 = "loop0", "loop over a file in a tmpfs"
devs6 = [base6]
if under:
    setup6 = ["%s remove_all 2>/dev/null" % DM] + setup6 + ["echo '0 131072 linear /dev/%s 0' | %s create t" % (base6, DM)]
    devs6 = ["dm-0"] + ([base6] if r6.random() < 0.6 else [])
    words6 = "dm-linear over %s%s" % (words6, ", both traced" if len(devs6) > 1 else "")
d6 = devs6[0]
if load6 == "ext4":
    files, every = r6.choice([60, 150, 300]), r6.choice([4, 16])
    cmd6 = ("mke2fs.real -q -t ext4 -F /dev/%s >/dev/null 2>&1; mount -t ext4 /dev/%s /mnt && { i=0; "
            "while [ $i -lt %d ]; do echo $i >/mnt/f$i; [ $((i %% %d)) = 0 ] && dd if=/dev/zero of=/mnt/g$i bs=4k count=3 conv=fsync 2>/dev/null; i=$((i + 1)); done; "
            "sync; rm -f /mnt/f* /mnt/g*; sync; dd if=/dev/zero of=/mnt/big bs=1M count=8 conv=fsync 2>/dev/null; umount /mnt; }"
            % (d6, d6, files, every))
    lw6 = "mke2fs, ext4: %d small files, every %dth fsynced, removed, 8 MiB fsynced" % (files, every)
else:
    parts = []
    for _ in range(r6.choice([20, 60])):
        off, ln = r6.randrange(0, 56 * 1024) * 1024, r6.choice([4096, 65536, 1 << 20, 8 << 20])
        if r6.random() < 0.5:
            parts.append("blkdiscard -o %d -l %d /dev/%s" % (off, ln, d6))
        else:
            parts.append("dd if=/dev/zero of=/dev/%s bs=64k count=%d seek=%d oflag=direct 2>/dev/null" % (d6, r6.choice([1, 4, 16]), off // 65536))
    cmd6 = "; ".join(parts)
    lw6 = "blkdiscard of ranges up to 8 MiB among direct writes (%d)" % len(parts)
out.append("# w6: %s; %s" % (words6, lw6))
out += setup6
out.append("mkdir -p /out/w6; echo '%s; %s' > /out/w6/what; echo %s > /out/w6/devs" % (words6, lw6, " ".join(devs6)))
out.append("blktrace.real %s -D /out/w6 -w 12 > /out/w6/blktrace.log 2>&1 &" % " ".join("-d /dev/" + d for d in devs6))
out.append("made /sys/kernel/debug/block/%s/trace0" % devs6[-1])
out.append(cmd6)
out.append("wait")
if under:
    out.append("%s remove_all" % DM)
if dev6 == "loop":
    out.append("losetup -d /dev/loop0; umount /lo")
# w7, from a generator of its own too: a device-mapper table over two
# null_blk disks: dm-stripe, whose chunks split every bio that crosses
# one and remap the pieces to both disks (traced with the stripe: three
# devices in one trace), or dm-linear beside an error target, so that
# every I/O to the table's second half fails at the dm device (EIO)
r7 = random.Random("w7 %s" % sys.argv[1])
kind7 = r7.choice(["stripe", "stripe", "error"])
depth7, irq7 = r7.choice([2, 32, 128]), r7.choice([0, 2])
nb7 = "nb queue_mode=2 gb=1 nr_devices=2 hw_queue_depth=%d submit_queues=1 irqmode=%d%s" % (
    depth7, irq7, " completion_nsec=%d" % r7.choice([1000, 40000]) if irq7 == 2 else "")
if kind7 == "stripe":
    chunk7 = r7.choice([8, 64, 256])
    table7 = "0 4194304 striped 2 %d /dev/nullb0 0 /dev/nullb1 0" % chunk7
    devs7 = ["dm-0"] + (["nullb0", "nullb1"] if r7.random() < 0.6 else [])
    words7 = "dm-stripe, 2 x null_blk, chunk %d sectors" % chunk7
else:
    table7 = "0 1048576 linear /dev/nullb0 0\\n1048576 1048576 error"
    devs7 = ["dm-0"] + (["nullb0"] if r7.random() < 0.5 else [])
    words7 = "dm-linear (1048576 sectors of null_blk) then an error target (1048576)"
words7 += " (null_blk mq depth %d, irqmode %d)%s" % (depth7, irq7, ", the disks traced too" if len(devs7) > 1 else "")
if r7.random() < 0.7:
    mode7, th7 = r7.choice(["randrw", "randr", "seqw"]), r7.choice([1, 2])
    bs7 = r7.choice([4096, 16384, 65536, 262144, 1048576])
    cmd7 = "iogen /dev/dm-0 %s %d %d %d" % (mode7, r7.choice([2, 3]), th7, bs7)
    lw7 = "iogen %s %d thread(s) %d B" % (mode7, th7, bs7)
else:
    bs7, n7 = r7.choice([("4k", 200), ("64k", 60), ("1M", 16)])
    skip7 = r7.choice([0, 100, 510])	# (1M blocks: 510 reaches the error half's start)
    cmd7 = ("dd if=/dev/zero of=/dev/dm-0 bs=%s count=%d seek=%d oflag=direct 2>/dev/null; "
            "dd if=/dev/dm-0 of=/dev/null bs=%s count=%d skip=%d iflag=direct 2>/dev/null" % (bs7, n7, skip7, bs7, n7, skip7))
    lw7 = "dd %s x %d from block %d, direct, then direct reads" % (bs7, n7, skip7)
if kind7 == "error":
    cmd7 += " 2>/dev/null"
out += ["# w7: %s; %s" % (words7, lw7),
        "%s remove_all 2>/dev/null" % DM, nb7,
        "waitb /dev/nullb1",
        "printf '%s\\n' | %s create t" % (table7, DM),
        "mkdir -p /out/w7; echo '%s; %s' > /out/w7/what; echo %s > /out/w7/devs" % (words7, lw7, " ".join(devs7)),
        "blktrace.real %s -D /out/w7 -w 8 > /out/w7/blktrace.log 2>&1 &" % " ".join("-d /dev/" + d for d in devs7),
        "made /sys/kernel/debug/block/%s/trace0" % devs7[-1],
        cmd7, "wait", "%s remove_all" % DM]
# w8, where the VM has a virtio disk (VIRTIO=1 in the environment: Debian
# 6.1's vm-capture.sh gives one, sid's script none), from a generator of
# its own: qemu's virtio-blk, a disk whose completions come from another
# thread at their own pace, its queue full at times (requeues), behind
# the kernel's scheduler, sometimes throttled by qemu (DISK_OPTS, which
# t-vmdiff takes from the "# DISK_OPTS" line); raw I/O or an ext4
r8 = random.Random("w8 %s" % sys.argv[1])
if os.environ.get("VIRTIO"):
    iops8 = r8.choice([0, 0, 200, 1000])
    sched8 = r8.choice(["mq-deadline", "none", "bfq"])
    if r8.random() < 0.4:
        cmd8 = ("mke2fs.real -q -t ext4 -F /dev/vda >/dev/null 2>&1; mount -t ext4 /dev/vda /mnt && { "
                "dd if=/dev/zero of=/mnt/big bs=1M count=16 conv=fsync 2>/dev/null; i=0; "
                "while [ $i -lt 40 ]; do echo $i >/mnt/f$i; i=$((i + 1)); done; sync; umount /mnt; }")
        lw8 = "mke2fs, ext4: 16 MiB fsynced, 40 small files"
    else:
        mode8, th8 = r8.choice(["randrw", "randr", "seqw", "flush"]), r8.choice([1, 2, 4])
        bs8 = r8.choice([4096, 16384, 65536, 524288])
        cmd8 = "iogen /dev/vda %s 2 %d %d" % (mode8, th8, bs8)
        lw8 = "iogen %s %d thread(s) %d B" % (mode8, th8, bs8)
    words8 = "virtio-blk (qemu, %s)%s" % (sched8, ", throttled to %d IOPS" % iops8 if iops8 else "")
    if iops8:
        out.insert(1, "# DISK_OPTS=throttling.iops-total=%d" % iops8)
    out += ["# w8: %s; %s" % (words8, lw8),
            "for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk; do insmod /lib/mod/$m.ko; done",
            "waitb /dev/vda",
            "insmod /lib/mod/bfq.ko 2>/dev/null; echo %s > /sys/block/vda/queue/scheduler" % sched8,
            "mkdir -p /out/w8; echo '%s; %s' > /out/w8/what; echo vda > /out/w8/devs" % (words8, lw8),
            "blktrace.real -d /dev/vda -D /out/w8 -w 12 > /out/w8/blktrace.log 2>&1 &",
            "made /sys/kernel/debug/block/vda/trace0",
            cmd8, "wait"]
# w9, from a generator of its own: a disk in two partitions (busybox
# fdisk), brd (max_part) or, where the VM has one, the virtio disk; the
# whole disk traced (every bio to a partition remapped onto it: an A
# before its Q) or one partition alone (the kernel's filter on its
# sectors, the records under the partition's own device number); ext4 on
# the first partition or I/O to both
r9 = random.Random("w9 %s" % sys.argv[1])
disk9 = r9.choice(["brd", "virtio"]) if os.environ.get("VIRTIO") else "brd"
if disk9 == "brd":
    setup9 = ["rmmod brd 2>/dev/null; insmod /lib/mod/brd.ko rd_nr=1 rd_size=65536 max_part=4",
              "waitb /dev/ram0"]
    d9, p9, words9 = "ram0", "ram0p", "brd (bio-based ram disk)"
else:
    setup9, d9, p9, words9 = [], "vda", "vda", "virtio-blk"
setup9.append("printf 'o\\nn\\np\\n1\\n\\n+24M\\nn\\np\\n2\\n\\n\\nw\\n' | fdisk /dev/%s >/dev/null 2>&1; waitb /dev/%s2" % (d9, p9))
traced9 = r9.choice([d9, d9, p9 + "1", p9 + "2"])
if r9.random() < 0.4:
    cmd9 = ("mke2fs.real -q -t ext4 -F /dev/%s1 >/dev/null 2>&1; mount -t ext4 /dev/%s1 /mnt && { i=0; "
            "while [ $i -lt 60 ]; do echo $i >/mnt/f$i; i=$((i + 1)); done; sync; "
            "dd if=/dev/zero of=/mnt/big bs=1M count=4 conv=fsync 2>/dev/null; umount /mnt; }; "
            "dd if=/dev/zero of=/dev/%s2 bs=64k count=32 oflag=direct 2>/dev/null" % (p9, p9, p9))
    lw9 = "mke2fs, ext4 on partition 1: 60 small files, 4 MiB fsynced; 2 MiB direct to partition 2"
else:
    mode9, bs9 = r9.choice(["randrw", "randr", "seqw"]), r9.choice([4096, 65536, 524288])
    cmd9 = "iogen /dev/%s1 %s 2 1 %d & iogen /dev/%s2 %s 2 1 %d" % (p9, mode9, bs9, p9, mode9, bs9)
    lw9 = "iogen %s 1 thread %d B on each partition" % (mode9, bs9)
words9 += ", two partitions, %s traced" % ("the whole disk" if traced9 == d9 else "partition " + traced9[-1] + " alone")
out += ["# w9: %s; %s" % (words9, lw9)] + setup9
out.append("mkdir -p /out/w9; echo '%s; %s' > /out/w9/what; echo %s > /out/w9/devs" % (words9, lw9, traced9))
out.append("blktrace.real -d /dev/%s -D /out/w9 -w 10 > /out/w9/blktrace.log 2>&1 &" % traced9)
out.append("made /sys/kernel/debug/block/%s/trace0" % traced9)
out += [cmd9, "wait"]
# w10, from a generator of its own: null_blk made through configfs with
# its bandwidth throttled (mbps), so that past a tick's budget a request
# comes back (BLK_STS_DEV_RESOURCE: an R) and is dispatched again, behind
# mq-deadline (Qs merging while they wait) or none.  null_blk refills the
# budget every 20 ms to mbps x 20,971 bytes and never lets through a
# request larger than that: max_sectors keeps every request within it
# (64 KiB against 100 KiB at 5 MB/s), else the device would stall.
r10 = random.Random("w10 %s" % sys.argv[1])
mbps10, depth10 = r10.choice([5, 10]), r10.choice([4, 16, 64])
sched10 = r10.choice(["mq-deadline", "mq-deadline", "none"])
nb10 = "/sys/kernel/config/nullb/rq0"
words10 = "null_blk via configfs throttled to %d MB/s, depth %d, %s" % (mbps10, depth10, sched10)
# (one load past the budget always: 2 threads of 64 KiB writes; then
# others drawn)
loads10, lw10 = ["iogen /dev/rq0 seqw 2 2 65536 &"], ["iogen seqw 2 threads 65536 B"]
for _ in range(r10.choice([0, 1, 2])):
    mode10, th10, bs10 = r10.choice(["seqw", "randrw", "randr", "seqw"]), r10.choice([1, 2]), r10.choice([4096, 16384, 65536])
    loads10.append("iogen /dev/rq0 %s 2 %d %d &" % (mode10, th10, bs10))
    lw10.append("iogen %s %d thread(s) %d B" % (mode10, th10, bs10))
lw10 = ", ".join(lw10) + " at once"
out += ["# w10: %s; %s" % (words10, lw10),
        "rmmod null_blk 2>/dev/null; insmod /lib/mod/null_blk.ko nr_devices=0",
        "insmod /lib/mod/configfs.ko 2>/dev/null; mkdir -p /sys/kernel/config; mount -t configfs none /sys/kernel/config 2>/dev/null; mkdir %s" % nb10,
        "echo 1024 > %s/size; echo 2 > %s/queue_mode; echo %d > %s/hw_queue_depth; echo 128 > %s/max_sectors; echo %d > %s/mbps; echo 1 > %s/power"
        % (nb10, nb10, depth10, nb10, nb10, mbps10, nb10, nb10),
        "waitb /dev/rq0; echo %s > /sys/block/rq0/queue/scheduler" % sched10,
        "mkdir -p /out/w10; echo '%s; %s' > /out/w10/what; echo rq0 > /out/w10/devs" % (words10, lw10),
        "blktrace.real -d /dev/rq0 -D /out/w10 -w 6 > /out/w10/blktrace.log 2>&1 &",
        "made /sys/kernel/debug/block/rq0/trace0"] + loads10 + [
        "wait", "echo 0 > %s/power; rmdir %s; rmmod null_blk" % (nb10, nb10)]
# w11, from a generator of its own: device-mapper targets that make I/O
# of their own beside the bios they remap: dm-mirror (every write cloned
# to both legs, its region log in core, and, made without nosync, its
# first resync copying one leg to the other in 512 KiB bios the disks
# split), dm-snapshot (a write to the
# origin first copies its chunk to the COW disk, kcopyd's reads and
# writes; the snapshot read beside it) or dm-crypt (aes-cbc-plain, each
# write's data encrypted into bios of its own); the target traced with
# the disks under it, or alone
r11 = random.Random("w11 %s" % sys.argv[1])
kind11 = r11.choice(["mirror", "snapshot", "crypt"])
depth11, irq11 = r11.choice([8, 32, 128]), r11.choice([0, 2])
nb11 = "nb queue_mode=2 gb=1 nr_devices=%d hw_queue_depth=%d irqmode=%d%s" % (
    1 if kind11 == "crypt" else 2, depth11, irq11, " completion_nsec=40000" if irq11 == 2 else "")
# (writes for a mirror or a snapshot: reads alone clone nothing and copy
# nothing to the COW disk)
modes11 = ["randrw", "seqw", "randrw", "randr"] if kind11 == "crypt" else ["randrw", "seqw", "randrw"]
mode11, th11, bs11 = r11.choice(modes11), r11.choice([1, 2]), r11.choice([4096, 16384, 65536])
cmd11 = "iogen /dev/dm-0 %s 2 %d %d" % (mode11, th11, bs11)
lw11 = "iogen %s %d thread(s) %d B" % (mode11, th11, bs11)
if kind11 == "mirror":
    tables11 = ["echo '0 2097152 mirror core 1 1024 2 /dev/nullb0 0 /dev/nullb1 0 1 handle_errors' | %s create m" % DM]
    disks11, words11 = ["nullb0", "nullb1"], "dm-mirror over two null_blk"
elif kind11 == "snapshot":
    chunk11 = r11.choice([8, 16, 64])
    tables11 = ["echo '0 2097152 snapshot-origin /dev/nullb0' | %s create o" % DM,
                "echo '0 2097152 snapshot /dev/nullb0 /dev/nullb1 N %d' | %s create s" % (chunk11, DM)]
    disks11, words11 = ["nullb0", "nullb1"], "dm-snapshot (chunk %d) of null_blk, its COW on another" % chunk11
    cmd11 += " & dd if=/dev/dm-1 of=/dev/null bs=64k count=64 iflag=direct 2>/dev/null"
    lw11 += ", the snapshot read beside it"
else:
    tables11 = ["echo '0 2097152 crypt aes-cbc-plain 000102030405060708090a0b0c0d0e0f 0 /dev/nullb0 0' | %s create c" % DM]
    disks11, words11 = ["nullb0"], "dm-crypt (aes-cbc-plain) over null_blk"
devs11 = ["dm-0"] + (["dm-1"] if kind11 == "snapshot" else [])
if r11.random() < 0.7:
    devs11 += disks11
    words11 += ", the disks traced too"
words11 += " (null_blk mq depth %d, irqmode %d)" % (depth11, irq11)
out += ["# w11: %s; %s" % (words11, lw11),
        "for m in dm-bufio dm-log dm-region-hash dm-mirror dm-snapshot dm-crypt; do insmod /lib/mod/$m.ko 2>/dev/null; done",
        "%s remove_all 2>/dev/null" % DM, nb11, "waitb /dev/nullb%d" % (len(disks11) - 1)] + tables11 + [
        "mkdir -p /out/w11; echo '%s; %s' > /out/w11/what; echo %s > /out/w11/devs" % (words11, lw11, " ".join(devs11)),
        "blktrace.real %s -D /out/w11 -w 6 > /out/w11/blktrace.log 2>&1 &" % " ".join("-d /dev/" + d for d in devs11),
        "made /sys/kernel/debug/block/%s/trace0" % devs11[-1],
        cmd11, "wait", "%s remove_all" % DM]
out.append("touch /out/done")
print("\n".join(out))
