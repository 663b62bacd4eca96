#!/usr/bin/env bash
# make bench: iomon parse against Debian's blkparse on one large trace, in
# the same run.  Prints times, the ratio and peak resident memory.
set -eu
cd "$(dirname "$0")/.."
EVENTS=${EVENTS:-5000000}
B=${BENCH_DIR:-/tmp/iomon-bench}
mkdir -p "$B"
if [ ! -s "$B/big.blktrace.0" ] || [ "$(cat "$B/events" 2>/dev/null)" -lt "$EVENTS" ]; then
	python3 tests/bigtrace.py tests/fixtures/mq-randrw/nullb0 "$B/big" "$EVENTS" >"$B/events"
fi
echo "trace: $(cat "$B/events") events, $(du -ch "$B"/big.blktrace.* | tail -1 | cut -f1)"
PEAK=$PWD/tests/peakrss
[ -x "$PEAK" ] || ${CC:-cc} -O2 -static -o "$PEAK" tests/peakrss.c 2>/dev/null || ${CC:-cc} -O2 -o "$PEAK" tests/peakrss.c
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
	echo "blkparse: not installed, no ratio (tests/setup-deps.sh installs it)"
fi
read -r qt qr < <(measure "$OLDPWD/iomon" parse -i big -q -O -d /dev/null)
echo "iomon parse -O -d /dev/null (merge only): ${qt}s  peak RSS ${qr} KiB"
if [ -n "${VM:-}" ]; then
	echo "capture in Debian's 6.1 kernel under qemu, null_blk, -b 256 -n 4, 3 runs each:"
	BENCH_DIR=$B bash "$OLDPWD/tests/bench-vm.sh"
fi
