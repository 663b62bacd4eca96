# Shared by the guest scenarios (tests/vm/relay.sh, tests/xvm/relay.sh):
# the tests put it in front of each one.  busybox sh, root, in the guest.
nb() { rmmod null_blk 2>/dev/null; insmod /lib/mod/null_blk.ko "$@"; sleep 0.2; }
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
