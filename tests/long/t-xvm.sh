# Relay capture on the real thing: Debian's own s390x (big-endian) and arm64
# 6.1 kernels under qemu-system (TCG, about 10 s a boot), each running the
# iomon build for its architecture on null_blk (tests/xvm/relay.sh) through
# shared/tools/xvm/xvm-capture.sh.  Part of make check-long, which sets
# VM=1 (VM=0 leaves them out): the first run downloads the kernels and
# Debian's blktrace for both architectures.
# Needs qemu-system-misc, qemu-system-arm, ipxe-qemu, gcc-s390x-linux-gnu,
# musl-dev:s390x, gcc-aarch64-linux-gnu, musl-dev:arm64, qemu-user-static.
XVMCAP=$TOP/../shared/tools/xvm/xvm-capture.sh
XVMDIR=${XVMDIR:-/tmp/iomon-xvm}	# xvm-capture.sh's cache: packages, initramfs
XVMFMT='%z|%T.%9t|%c|%s|%p|%a|%d|%M,%m|%S|%n|%N|%e|%C\n'

# xvm_bin ARCH DIR: make's build for ARCH at DIR/iomon (the name it gets
# in the guest)
xvm_bin() {
	mkdir -p "$2"
	make -s -C "$TOP" ARCH="$1" >"$2/build.log" 2>&1 && cp "$TOP/build/$1/iomon" "$2/iomon"
}

# xvm_missing ARCH QEMU: what this machine lacks to boot ARCH, or nothing
xvm_missing() {
	command -v "$1-linux-gnu-gcc" >/dev/null || { echo "gcc-$1-linux-gnu"; return; }
	[ -f "/usr/lib/$1-linux-musl/musl-gcc.specs" ] || { echo "musl-dev for $1"; return; }
	command -v "$2" >/dev/null || { echo "$2"; return; }
	# the virt machine's default NIC loads this rom
	if [ "$1" = aarch64 ] && [ ! -f /usr/lib/ipxe/qemu/efi-virtio.rom ] &&
		[ ! -f /usr/share/qemu/efi-virtio.rom ]; then
		echo "ipxe-qemu (efi-virtio.rom)"
	fi
}


# xvm_magic DIR NAME BYTES: every per-CPU file starts with these bytes
xvm_magic() {
	local f n=0
	for f in "$1/$2".blktrace.*; do
		[ "$(od -A n -t x1 -N 4 "$f" | tr -s ' ' | sed 's/^ //')" = "$3" ] || { echo "$f"; od -A d -t x1 -N 4 "$f"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

xvm_checks() {	# TAG DIR MAGIC QEMU-USER BIN
	local t=$1 V=$2 p=$OUT/xvm-$1
	check "$t relay: named on stderr, version-7 records" grep -q 'capturing through relay (debugfs), version-7 records' "$V/iomon.err"
	check "$t relay: blktrace's summary" grep -qE '^  Total: +[0-9]+ events \(dropped 0\)' "$V/iomon.sum"
	check "$t iomon's files in the kernel's byte order ($3)" xvm_magic "$V/iomon" nullb0 "$3"
	check "$t Debian's blktrace wrote the same byte order" xvm_magic "$V/bt" nullb1 "$3"
	( cd "$V/iomon" && "$IOMON" parse -i nullb0 ) >"$p.ip" 2>&1
	( cd "$V/iomon" && "$IOMON" parse -q -f "$XVMFMT" -i nullb0 ) >"$p.ipf" 2>&1
	( cd "$V/bt" && "$IOMON" parse -i nullb1 ) >"$p.bt" 2>&1
	if have_oracle; then
		( cd "$V/iomon" && blkparse -i nullb0 ) >"$p.bp" 2>&1
		( cd "$V/iomon" && blkparse -q -f "$XVMFMT" -i nullb0 ) >"$p.bpf" 2>&1
		( cd "$V/bt" && blkparse -i nullb1 ) >"$p.btbp" 2>&1
		same "$t: x86_64 blkparse reads iomon's capture as iomon parse does" "$p.ip" "$p.bp"
		same "$t: ... and with wall clock, sequence and bytes (-f)" "$p.ipf" "$p.bpf"
		same "$t: iomon parse reads Debian's blktrace capture as blkparse does" "$p.bt" "$p.btbp"
	else
		skip "$t: x86_64 blkparse on iomon's capture" "no blkparse (Debian's blktrace package)"
	fi
	same "$t: Debian's $t blkparse in the guest, iomon parse on the host" "$V/native-blkparse.txt" "$p.ip"
	same "$t: iomon parse in the guest, iomon parse on the host" "$V/native-iomon.txt" "$p.ip"
	if command -v "$4" >/dev/null; then
		( cd "$V/iomon" && "$4" "$5" parse -i nullb0 ) >"$p.qp" 2>&1
		same "$t: iomon parse under $4, iomon parse on the host" "$p.qp" "$p.ip"
	else
		skip "$t: iomon parse under qemu-user" "no $4 (qemu-user-static)"
	fi
	twin_checks "$t" "$p.ip" "$p.bt" 192
	check "$t relay: process names" grep -qE '\[dd\]' "$p.ip"
}

# Debian's s390x blkparse (glibc, from its package, run under qemu-user with
# its own libc) refuses a little-endian trace; the s390x iomon reads it as
# x86_64 blkparse does.  R: the extracted packages.
xvm_le() {	# R BIN
	local p=$OUT/xvm-le
	if [ ! -x "$1/usr/bin/blkparse" ] || ! command -v qemu-s390x-static >/dev/null; then
		skip "s390x blkparse on a little-endian trace" "needs qemu-s390x-static and blktrace:s390x in $1"
		return
	fi
	( cd "$FIX/mq-randrw" && qemu-s390x-static -L "$1" "$1/usr/bin/blkparse" -i nullb0 ) >"$p.dbp" 2>"$p.dbp.err"
	( cd "$FIX/mq-randrw" && qemu-s390x-static "$2" parse -i nullb0 ) >"$p.ip" 2>&1
	zcat "$FIX/mq-randrw/nullb0.blkparse.txt.gz" >"$p.ref"
	check "s390x: Debian's blkparse cannot read a little-endian trace" grep -q 'bad trace magic' "$p.dbp.err"
	check "s390x: ... it reports no events at all" grep -q '^Events (nullb0): 0 entries' "$p.dbp"
	same "s390x: iomon parse reads it as x86_64 blkparse does" "$p.ip" "$p.ref"
}

if [ "${VM:-0}" = 0 ]; then
	skip "XVM relay capture (s390x, arm64)" "VM=0: set VM=1 to boot Debian's s390x and arm64 kernels under qemu (make check-long does)"
elif [ ! -f "$XVMCAP" ] || [ "$(id -u)" != 0 ]; then
	skip "XVM relay capture (s390x, arm64)" "needs root and ../shared/tools/xvm/xvm-capture.sh"
else
	for a in s390x aarch64; do
		case $a in
		s390x) k=s390x q=qemu-system-s390x m='65 61 74 07' ;;
		aarch64) k=arm64 q=qemu-system-aarch64 m='07 74 61 65' ;;
		esac
		miss=$(xvm_missing $a $q)
		if [ -n "$miss" ]; then
			skip "XVM $k relay capture" "no $miss"
			continue
		fi
		B=$OUT/xvm-$a-bin
		if ! xvm_bin $a "$B"; then
			fail "XVM $k: the $a build" "$(tail -5 "$B/build.log")"
			continue
		fi
		V=$OUT/xvm-$k; rm -rf "$V"
		# timeout signals the whole process group, qemu included; the
		# outer one also bounds the first run's package downloads
		if X=$XVMDIR EXTRA_BIN="$B/iomon" TIMEOUT=150 timeout -k 10 400 \
			bash "$XVMCAP" $k "$V" "$(guest_scenario "$TOP/tests/xvm/relay.sh")" >"$OUT/xvm-$k.log" 2>&1 &&
			[ -d "$V/iomon" ]; then
			check "XVM $k boots Debian's kernel and runs the scenario" grep -qx $a "$V/arch.txt"
			xvm_checks $k "$V" "$m" qemu-$a-static "$B/iomon"
		else
			guest_hung "XVM $k" "$XVMDIR/work-$k/console.log" "$OUT/xvm-$k.log"
		fi
		[ $a = s390x ] && xvm_le "$XVMDIR/work-s390x/root" "$B/iomon"
	done
fi
