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
measure() {	# command...: best of 3 wall seconds, and peak RSS in KiB
	local best= rss= i t s
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$PEAK" "$@" >/dev/null 2>"$B/stderr" || true
		t=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
		rss=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$B/stderr")
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
	done
	echo "$best $rss"
}
cd "$B"
read -r it ir < <(measure "$OLDPWD/iomon" parse -i big)
echo "iomon parse:    ${it}s  peak RSS ${ir} KiB"
if command -v blkparse >/dev/null; then
	read -r bt br < <(measure blkparse -i big)
	echo "blkparse 1.2.0: ${bt}s  peak RSS ${br} KiB"
	awk -v a="$bt" -v b="$it" 'BEGIN { printf "ratio: iomon is %.1fx faster than blkparse\n", a / b }'
else
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
	read -r zt zr < <(cd z && measure "$IOMON_BIN" parse -i big)
	awk -v a="$(cat big.blktrace.* | wc -c)" -v b="$(cat z/big.blktrace.*.zst | wc -c)" -v t="$zt" -v p="$it" \
		'BEGIN { printf "iomon parse of .zst (zstd -3, ratio %.1f): %ss, %.2fx plain input\n", a / b, t, t / p }'
	echo "  peak RSS ${zr} KiB"
fi
read -r qt qr < <(measure "$OLDPWD/iomon" parse -i big -q -O -d /dev/null)
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
best() {	# command... < input: best of 3 wall seconds
	local b= i s e t
	for i in 1 2 3; do
		s=$(date +%s.%N); "$@" <"$B/mon.stream" >/dev/null 2>"$B/stderr"; e=$(date +%s.%N)
		t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }')
		if [ -z "$b" ] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
	done
	echo "$b"
}
mt=$(best "$PEAK" "$OLDPWD/iomon" monitor -I 3600 -h /dev/null)
mr=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$B/stderr")
n=$(( $(stat -c %s "$B/mon.stream") / 48 ))
echo "iomon monitor:  ${mt}s for ~$n events ($(awk -v n=$n -v t=$mt 'BEGIN { printf "%.1f", n / t / 1e6 }')M events/s)  peak RSS ${mr} KiB"
if command -v blkiomon >/dev/null; then
	bt=$(best blkiomon -I 3600 -h /dev/null)
	echo "blkiomon 0.3:   ${bt}s ($(awk -v n=$n -v t=$bt 'BEGIN { printf "%.1f", n / t / 1e6 }')M events/s)"
	awk -v a="$bt" -v b="$mt" 'BEGIN { printf "ratio: iomon monitor is %.1fx blkiomon'"'"'s event rate\n", a / b }'
fi
# btt on the big trace's dump (blkparse -d's bytes, made by iomon parse -d)
[ -s "$B/big.dump" ] || "$OLDPWD/iomon" parse -i big -d "$B/big.dump" -O -q >/dev/null 2>&1
read -r tt tr < <(measure "$OLDPWD/iomon" btt -i big.dump -o "$B/bench-iomon")
echo "iomon btt:      ${tt}s  peak RSS ${tr} KiB"
if command -v btt >/dev/null; then
	read -r dt dr < <(measure btt -i big.dump -o "$B/bench-btt")
	echo "btt 1.2.0:      ${dt}s  peak RSS ${dr} KiB"
	awk -v a="$dt" -v b="$tt" 'BEGIN { printf "ratio: iomon btt is %.2fx btt'"'"'s speed\n", a / b }'
	cmp -s "$B/bench-iomon.avg" "$B/bench-btt.avg" && echo "btt: the same .avg, byte for byte" ||
		echo "btt: the .avg files differ (diff $B/bench-iomon.avg $B/bench-btt.avg)"
fi
