# Runs inside Debian's s390x or arm64 6.1 kernel under qemu-system (busybox
# sh, root, debugfs mounted, results under /out); see tests/t-xvm.sh.  The
# iomon build for the guest's architecture is in /bin; Debian's own blktrace
# and blkparse for that architecture are blktrace.real and blkparse.real.
nb() { rmmod null_blk 2>/dev/null; insmod /lib/mod/null_blk.ko "$@"; sleep 0.2; }
# load DEV ROUNDS: 4 KiB direct I/O from dd, a fixed amount, so the twin
# devices see the same requests (no threads: TCG starves a busy guest)
load() {
	i=0
	while [ "$i" -lt "$2" ]; do
		i=$((i + 1))
		dd if=/dev/zero of="$1" bs=4k count=32 seek=$((RANDOM % 1000)) oflag=direct 2>/dev/null
		dd if="$1" of=/dev/null bs=4k count=32 skip=$((RANDOM % 1000)) iflag=direct 2>/dev/null
	done
}
uname -m > /out/arch.txt
# softirq completions: timer completions under load soft-locked 6.1 on x86 TCG
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
# iomon's relay capture on nullb0 while Debian's blktrace traces nullb1,
# the same load on both
mkdir -p /out/iomon /out/bt
iomon trace -d /dev/nullb0 -w 3 -D /out/iomon > /out/iomon.sum 2> /out/iomon.err &
blktrace.real -d /dev/nullb1 -w 3 -D /out/bt > /out/bt.sum 2>&1 &
sleep 1
load /dev/nullb0 3 & load /dev/nullb1 3
wait
# both parsers natively, on the guest's own byte order
cd /out/iomon
blkparse.real -i nullb0 > /out/native-blkparse.txt 2> /out/native-blkparse.err
iomon parse -i nullb0 > /out/native-iomon.txt 2> /out/native-iomon.err
