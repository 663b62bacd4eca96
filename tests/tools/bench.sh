#!/usr/bin/env bash
# make bench: iomon parse against Debian's blkparse on one large trace, in
# the same run.  Prints times, the ratio and peak resident memory.
set -eu
cd "$(dirname "$0")/../.."
EVENTS=${EVENTS:-5000000}
B=${BENCH_DIR:-/tmp/iomon-bench}
mkdir -p "$B"
if [ ! -s "$B/big.blktrace.0" ] || [ "$(cat "$B/events" 2>/dev/null)" -lt "$EVENTS" ]; then
	python3 tests/tools/bigtrace.py tests/fixtures/mq-randrw/nullb0 "$B/big" "$EVENTS" >"$B/events"
fi
echo "trace: $(cat "$B/events") events, $(du -ch "$B"/big.blktrace.* | tail -1 | cut -f1)"
PEAK=$PWD/tests/tools/peakrss	# built static by make bench
# pair: the commands in the arrays X and Y run in turn, RUNS times each,
# so that a slow spell of a shared machine falls on both alike (run one
# after the other, the ratio swung by a quarter here): the best wall
# seconds and the peak RSS of each, then the RSS of each at its exit,
# stdin from IN.  The times are peakrss's, fork to reaping: a `date`
# around it added the shell's process starts (3 ms here) to both tools.
RUNS=${RUNS:-5}
run1() {	# command...: wall seconds, peak RSS and RSS at exit in KiB
	"$PEAK" "$@" <"${IN:-/dev/null}" >/dev/null 2>"$B/stderr" || true
	awk '/^peakrss: [0-9]+ KiB$/ { r = $2 } /^exitrss: / { x = $2 } /^wall: / { w = $2 }
	     END { printf "%.3f %s %s\n", w == "" ? 999 : w, r == "" ? "?" : r, x == "unknown" || x == "" ? "?" : x }' "$B/stderr"
}
measure() {	# command...: best of 3 wall seconds, and that run's RSS (peak, at exit)
	local i t r x best= rss xr
	for i in 1 2 3; do
		read -r t r x < <(run1 "$@")
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t rss=$r xr=$x; fi
	done
	echo "$best $rss $xr"
}
# With XDIR and YDIR, each run starts in its folder emptied (untimed), as
# a first run does: overwriting the last run's files (300 MB with every
# output) cost whichever tool opened them 0.1 to 0.3 s more here: the
# truncation freeing the old pages at open, and at close ext4 starting the
# new bytes' writeback, as it does for a file truncated and rewritten
# (auto_da_alloc); the same for both tools and neither one's work.
pair() {	# [XDIR YDIR]: each run there (the RSS is the best run's)
	local i t r x bx= by= rx ry xx xy
	for i in $(seq "$RUNS"); do
		[ -z "${1:-}" ] || { rm -rf "$1" "$2"; mkdir -p "$1" "$2"; }
		read -r t r x < <(cd "${1:-.}" && run1 "${X[@]}")
		if [ -z "$bx" ] || awk "BEGIN{exit !($t < $bx)}"; then bx=$t rx=$r xx=$x; fi
		read -r t r x < <(cd "${2:-.}" && run1 "${Y[@]}")
		if [ -z "$by" ] || awk "BEGIN{exit !($t < $by)}"; then by=$t ry=$r xy=$x; fi
	done
	echo "$bx $rx $by $ry $xx $xy"
}
cd "$B"
if command -v blkparse >/dev/null; then
	X=("$OLDPWD/iomon" parse -i big) Y=(blkparse -i big)
	read -r it ir bt br ix bx < <(pair)
	echo "iomon parse:    ${it}s  peak RSS ${ir} KiB, at exit ${ix} KiB (best of $RUNS, run in turn with blkparse)"
	echo "blkparse 1.2.0: ${bt}s  peak RSS ${br} KiB, at exit ${bx} KiB"
	awk -v a="$bt" -v b="$it" 'BEGIN { printf "ratio: iomon is %.1fx faster than blkparse\n", a / b }'
else
	read -r it ir ix < <(measure "$OLDPWD/iomon" parse -i big)
	echo "iomon parse:    ${it}s  peak RSS ${ir} KiB, at exit ${ix} KiB"
	echo "blkparse: not installed, no ratio (tests/tools/setup-deps.sh installs it)"
fi
# zstd (make ZSTD=1): the same trace compressed at zstd's default level
IOMON_BIN=$OLDPWD/iomon
if printf '\x28\xb5\x2f\xfd' | "$IOMON_BIN" parse -i - 2>&1 | grep -q 'built without it'; then
	echo "iomon parse of .zst: this iomon is built without zstd (make ZSTD=1)"
elif command -v zstd >/dev/null; then
	mkdir -p "$B/z"
	for f in big.blktrace.*; do
		[ -s "z/$f.zst" ] || zstd -q -f -3 "$f" -o "z/$f.zst"	# (made once, as big is)
	done
	X=("$IOMON_BIN" parse -i big) Y=("$IOMON_BIN" parse -i z/big)	# plain and .zst in turn
	read -r pt pr zt zr _ _ < <(pair)
	awk -v a="$(cat big.blktrace.* | wc -c)" -v b="$(cat z/big.blktrace.*.zst | wc -c)" -v t="$zt" -v p="$pt" \
		'BEGIN { printf "iomon parse of .zst (zstd -3, ratio %.1f): %ss, %.2fx plain input\n", a / b, t, t / p }'
	echo "  peak RSS ${zr} KiB"
fi
read -r qt qr _ < <(measure "$OLDPWD/iomon" parse -i big -q -O -d /dev/null)
echo "iomon parse -O -d /dev/null (merge only): ${qt}s  peak RSS ${qr} KiB"
if [ -n "${VM:-}" ]; then
	echo "capture in Debian's 6.1 kernel under qemu, null_blk, -b 256 -n 4, 3 runs each:"
	BENCH_DIR=$B bash "$OLDPWD/tests/tools/bench-vm.sh"
	echo "network capture from that kernel to iomon's server on this host (-s), 3 runs each:"
	BENCH_DIR=$B bash "$OLDPWD/tests/tools/bench-vmnet.sh"
fi
# monitor: a 5M-event issue/complete stream through iomon monitor and
# Debian's blkiomon (its statistics come out at EOF only in iomon; blkiomon
# is timed on the same input all the same)
if [ ! -s "$B/mon.stream" ]; then
	python3 - "$OLDPWD/tests/fixtures/stream/nullb0.stream" "$B/mon.stream" "$EVENTS" <<'PY'
import struct, sys
src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = open(src, "rb").read()
recs, off, last = [], 0, 0
while off + 48 <= len(d):
    n = 48 + struct.unpack_from("<H", d, off + 46)[0]
    recs.append(d[off:off + n]); last = max(last, struct.unpack_from("<Q", d, off + 8)[0]); off += n
step, out, k = last + 1000, open(dst, "wb"), 0
while k * len(recs) < want:
    chunk = bytearray()
    for r in recs:
        b = bytearray(r); t = struct.unpack_from("<Q", b, 8)[0]
        struct.pack_into("<Q", b, 8, t + k * step); chunk += b
    out.write(chunk); k += 1
PY
fi
n=$(( $(stat -c %s "$B/mon.stream") / 48 ))
rate() { awk -v n=$n -v t="$1" 'BEGIN { printf "%.1f", n / t / 1e6 }'; }
if command -v blkiomon >/dev/null; then
	X=("$OLDPWD/iomon" monitor -I 3600 -h /dev/null) Y=(blkiomon -I 3600 -h /dev/null)
	read -r mt mr bt br mx _ < <(IN=$B/mon.stream pair)
	echo "iomon monitor:  ${mt}s for ~$n events ($(rate "$mt")M events/s)  peak RSS ${mr} KiB, at exit ${mx} KiB (best of $RUNS, in turn with blkiomon)"
	echo "blkiomon 0.3:   ${bt}s ($(rate "$bt")M events/s)"
	awk -v a="$bt" -v b="$mt" 'BEGIN { printf "ratio: iomon monitor is %.1fx blkiomon'"'"'s event rate\n", a / b }'
else
	read -r mt mr _ < <(IN=$B/mon.stream run1 "$OLDPWD/iomon" monitor -I 3600 -h /dev/null)
	echo "iomon monitor:  ${mt}s for ~$n events ($(rate "$mt")M events/s)  peak RSS ${mr} KiB"
fi
# btt on the big trace's dump (blkparse -d's bytes, made by iomon parse -d)
[ -s "$B/big.dump" ] || "$OLDPWD/iomon" parse -i big -d "$B/big.dump" -O -q >/dev/null 2>&1
if command -v btt >/dev/null; then
	X=("$OLDPWD/iomon" btt -i big.dump -o "$B/bench-iomon") Y=(btt -i big.dump -o "$B/bench-btt")
	read -r tt tr dt dr tx dx < <(pair)
	echo "iomon btt:      ${tt}s  peak RSS ${tr} KiB, at exit ${tx} KiB (best of $RUNS, run in turn with btt)"
	echo "btt 1.2.0:      ${dt}s  peak RSS ${dr} KiB, at exit ${dx} KiB"
	awk -v a="$dt" -v b="$tt" 'BEGIN { printf "ratio: iomon btt is %.2fx btt'"'"'s speed\n", a / b }'
	cmp -s "$B/bench-iomon.avg" "$B/bench-btt.avg" && echo "btt: the same .avg, byte for byte" ||
		echo "btt: the .avg files differ (diff $B/bench-iomon.avg $B/bench-btt.avg)"
else
	read -r tt tr tx < <(measure "$OLDPWD/iomon" btt -i big.dump -o "$B/bench-iomon")
	echo "iomon btt:      ${tt}s  peak RSS ${tr} KiB, at exit ${tx} KiB"
fi
# btt with every output on (each per-I/O and option file, -p -l -q among
# them), in two folders, every file compared; on the big trace's dump and
# on one of another real capture replayed as long (fixtures/split: I/Os
# split at 4 KiB under dm, most never completing whole); each tool in a
# folder of its own, for the files btt writes where it runs
[ -s "$B/split.dump" ] || { python3 "$OLDPWD/tests/tools/bigtrace.py" "$OLDPWD/tests/fixtures/split/nullb0" "$B/split" "$EVENTS" >/dev/null &&
	"$OLDPWD/iomon" parse -i split -d "$B/split.dump" -O -q >/dev/null 2>&1 && rm -f "$B"/split.blktrace.*; }
if command -v btt >/dev/null; then
	all() { local d=$1; echo -A -l $d/L -q $d/Q -z $d/Z -I $d/I -B $d/B -p $d/P -P $d/T -Q $d/Q2 -s $d/S -m $d/M -u $d/U -L 0.5 -X -Z -o $d/out; }
	for t in big split; do
		rm -rf "$B/all-iomon" "$B/all-btt"; mkdir -p "$B/all-iomon" "$B/all-btt"
		X=("$OLDPWD/iomon" btt -i "$B/$t.dump" $(all "$B/all-iomon")) Y=(btt -i "$B/$t.dump" $(all "$B/all-btt"))
		read -r tt tr dt dr tx dx < <(pair "$B/all-iomon" "$B/all-btt")
		echo "iomon btt, every output, $t.dump: ${tt}s  peak RSS ${tr} KiB, at exit ${tx} KiB (best of $RUNS, run in turn with btt)"
		echo "btt 1.2.0, every output, $t.dump: ${dt}s  peak RSS ${dr} KiB"
		awk -v a="$dt" -v b="$tt" 'BEGIN { printf "ratio: iomon btt is %.2fx btt'"'"'s speed with every output\n", a / b }'
		diff -rq "$B/all-iomon" "$B/all-btt" >/dev/null && echo "btt, every output, $t.dump: $(ls "$B/all-btt" | wc -l) files, the same bytes" ||
			echo "btt, every output, $t.dump: files differ (diff -r $B/all-iomon $B/all-btt)"
	done
fi
# copy (issue 32): a 256 MiB loop device copied to another while three
# threads write to it at random (tests/tools/cwriter.py); once copy says
# the passes are small the writers stop and it is told.  The bytes copied
# after the first pass against what a second full pass copies (the naive
# way: copy everything again once the writers are stopped).
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -d /sys/kernel/tracing/instances ]; then
	M=$((256 * 1024 * 1024))
	for f in cs cd; do rm -f "$B/$f.img"; truncate -s $M "$B/$f.img"; done
	head -c $M /dev/urandom >"$B/cs.img"
	S=$(losetup -f --show "$B/cs.img") D=$(losetup -f --show "$B/cd.img")
	rm -f "$B/cstop" "$B/cstop.on"
	python3 "$OLDPWD/tests/tools/cwriter.py" "$S" 1 "$B/cstop" >"$B/cw.n" & wp=$!
	i=0; while [ ! -e "$B/cstop.on" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done	# the writers writing first
	"$OLDPWD/iomon" copy "$S" "$D" >"$B/copy.out" 2>"$B/copy.err" </dev/null & cpid=$!
	i=0; while ! grep -q 'press Enter' "$B/copy.err" && kill -0 $cpid 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	touch "$B/cstop"; wait $wp
	kill -USR1 $cpid 2>/dev/null; wait $cpid || true
	eq=$(cmp -s "$S" "$D" && echo "equal" || echo "NOT equal")
	losetup -d "$S" "$D"; rm -f "$B/cs.img" "$B/cd.img"
	p=$(grep -c '^pass ' "$B/copy.out")
	later=$(sed -n 's/.*passes: \([0-9]*\) bytes copied after the first.*/\1/p' "$B/copy.out")
	echo "iomon copy:     256 MiB with $(cat "$B/cw.n") random writes during it: $p passes, DST $eq"
	echo "                ${later:-?} bytes copied after the first pass, against $M for a second full pass ($(awk -v a="${later:-0}" -v b=$M 'BEGIN { printf "%.1f%%", 100 * a / b }'))"
else
	echo "iomon copy: not measured (needs root, losetup and tracefs instances)"
fi
