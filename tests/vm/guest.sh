# Shared by the guest scenarios (tests/vm/relay.sh, tests/xvm/relay.sh):
# the tests put it in front of each one.  busybox sh, root, in the guest.
# nb ARGS: null_blk afresh; returns once its first disk's node is there
nb() {
	rmmod null_blk 2>/dev/null; insmod /lib/mod/null_blk.ko "$@"
	waitb /dev/nullb0
}
# waitb DEV: returns once the block device node DEV is there (10 s at most)
waitb() {
	n=0; while [ ! -b "$1" ] && [ "$n" -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
}
# said FILE: wait (30 s at most) until the iomon capture whose stderr is
# FILE says the kernel traces; TCG under a loaded host is slow to start.
said() {
	n=0
	while ! grep -q 'capturing through' "$1" 2>/dev/null && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.1; done
}
# made PATH [PID]: wait (30 s at most each) until PATH exists (blktrace's
# relay files, made at its BLKTRACESETUP), then until one of blktrace's
# reader threads (PID, else the last job started) sleeps in poll: they wait
# on a condition until all are ready, and blktrace issues BLKTRACESTART as
# it releases them (a second thread alone may come before it)
made() {
	n=0
	while [ ! -e "$1" ] && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.1; done
	p=${2:-$!} n=0
	while ! cat /proc/"$p"/task/*/wchan 2>/dev/null | grep -q poll && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.1; done
}
# load DEV ROUNDS [BLOCKS]: 4 KiB direct I/O from dd, a fixed amount, so
# twin devices see the same requests (iogen's threads soft-locked Debian's
# 6.1 guest under TCG)
load() {
	i=0
	while [ "$i" -lt "$2" ]; do
		i=$((i + 1))
		dd if=/dev/zero of="$1" bs=4k count="${3:-64}" seek=$((RANDOM % 1000)) oflag=direct 2>/dev/null
		dd if="$1" of=/dev/null bs=4k count="${3:-64}" skip=$((RANDOM % 1000)) iflag=direct 2>/dev/null
	done
}
# twins [BLOCKS]: iomon's relay capture of nullb0 (/out/iomon) beside Debian's
# blktrace of nullb1 (/out/bt), the same load of 3 rounds on both; both
# stopped once the load is done, however long it took (TCG)
twins() {
	mkdir -p /out/iomon /out/bt
	iomon trace -d /dev/nullb0 -D /out/iomon > /out/iomon.sum 2> /out/iomon.err &
	I=$!
	blktrace.real -d /dev/nullb1 -D /out/bt > /out/bt.sum 2>&1 &
	B=$!
	said /out/iomon.err; made /sys/kernel/debug/block/nullb1/trace0 $B
	load /dev/nullb0 3 $1 & L=$!; load /dev/nullb1 3 $1; wait $L
	kill -TERM $I $B; wait
}
