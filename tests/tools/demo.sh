#!/usr/bin/env bash
# make demo: as root, trace a loop device while writing and reading it and
# show what blkparse would print; without root (or without loop devices or
# tracing in this kernel), parse a real trace shipped with iomon instead.
set -u
cd "$(dirname "$0")/../.."
IOMON=$PWD/iomon
TOP_DIR=$PWD
live() {
	[ "$(id -u)" = 0 ] && command -v losetup >/dev/null || return 1
	W=$(mktemp -d /tmp/iomon-demo.XXXXXX) || return 1
	truncate -s 64M "$W/disk.img"
	LOOP=$(losetup -f --show "$W/disk.img" 2>/dev/null) || return 1
	echo "\$ iomon trace -d $LOOP -w 3 -D $W    (while dd writes 4 MiB and reads it back)"
	"$IOMON" trace -d "$LOOP" -w 3 -D "$W" 2> >(tee "$W/trace.err" >&2) &
	pid=$!
	# the load starts once the kernel traces (it says so on stderr)
	for i in $(seq 300); do
		grep -q 'capturing through' "$W/trace.err" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	dd if=/dev/urandom of="$LOOP" bs=64k count=64 oflag=direct 2>/dev/null
	dd if="$LOOP" of=/dev/null bs=256k count=16 iflag=direct 2>/dev/null
	wait $pid || { losetup -d "$LOOP"; return 1; }
	losetup -d "$LOOP"
	N=${LOOP#/dev/}
	echo
	echo "\$ iomon parse -D $W -i $N    (first 12 lines, then the summary)"
	"$IOMON" parse -D "$W" -i "$N" | head -12
	echo "..."
	"$IOMON" parse -D "$W" -i "$N" | sed -n '/^CPU\|^Total/,$p' | tail -22
	echo
	echo "\$ iomon top -C -i $W/$N 3600    (biotop's table of the same capture)"
	"$IOMON" top -C -i "$W/$N" 3600
	echo
	echo "\$ iomon plot -i $W/$N -o iomon-demo.svg -T 'dd on $LOOP'"
	"$IOMON" plot -i "$W/$N" -o "$TOP_DIR/iomon-demo.svg" -T "dd on $LOOP" &&
		echo "a picture of this capture: $TOP_DIR/iomon-demo.svg (open it in a browser)"
	rm -rf "$W"
}
if ! live; then
	echo "(no live capture here: needs root, a loop device and block tracing; parsing a bundled real trace instead)"
	cd tests/fixtures/ext4
	echo "\$ iomon parse -i nullb0   (ext4 on null_blk, captured in Debian's 6.1 kernel; first 12 lines)"
	"$IOMON" parse -i nullb0 | head -12
	echo "..."
	echo "\$ iomon parse -i nullb0 -q -s -f ''   (per process, first two)"
	"$IOMON" parse -i nullb0 -q -s -f '' | head -20
	echo "\$ iomon parse -i nullb0 | tail   (summary)"
	"$IOMON" parse -i nullb0 | tail -22
	echo "\$ iomon top -C -i nullb0 3600   (biotop's table: who did the I/O)"
	"$IOMON" top -C -i nullb0 3600
	echo "\$ iomon plot -i nullb0 -o iomon-demo.svg -T 'ext4 on null_blk'"
	"$IOMON" plot -i nullb0 -o "$TOP_DIR/iomon-demo.svg" -T "ext4 on null_blk" &&
		echo "a picture of this trace: $TOP_DIR/iomon-demo.svg (open it in a browser)"
fi
