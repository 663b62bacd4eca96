#!/usr/bin/env bash
# Fuzz iomon with libFuzzer (Debian's clang, ASan + UBSan).
#   bash tests/tools/fuzz.sh SECONDS     build, seed, run each target SECONDS
#   bash tests/tools/fuzz.sh build       only build build/fuzz/fuzz_{decode,parse,monitor}
# Targets and how each input gets a fresh iomon: tests/fuzz/*.c, fuzz.h.
# The corpus grows in build/fuzz/corpus/TARGET (seeded from tests/fixtures
# and tests/fuzz/regress/TARGET).  A crash, sanitizer report or timeout
# fails the run; its input is kept in build/fuzz/crashes/ and belongs in
# tests/fuzz/regress/TARGET/ once fixed (t-fuzz.sh replays those).
set -u
cd "$(dirname "$0")/../.."
B=build/fuzz
TARGETS="decode parse monitor"

fuzz_cc() {
	local c
	for c in ${FUZZ_CC:-} clang-14 clang; do
		command -v "$c" >/dev/null 2>&1 || continue
		echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' >"$B/probe.c"
		"$c" -fsanitize=fuzzer,address,undefined -o "$B/probe" "$B/probe.c" 2>/dev/null && { echo "$c"; return 0; }
	done
	return 1
}

# Pools smaller than a release build: every input's reset clears them all
# (and small pools run out, which is a path worth fuzzing too).  A stream
# buffer must still hold the largest record.
POOLS="-DSTREAMS_MAX=4 -DPROC_MAX=64 -DTRACK_MAX=64 -DPPI_MAX=16 -DCPUS_MAX=16 -DDEVS_MAX=4 \
 -DSKIPS_MAX=8 -DPIPE_WINDOW=64 -DHOLD_MAX=8 -DHOLD_BYTES=256 -DMON_PENDING=16 -DMON_DEVS=4 \
 -DNOTICE_BUF=256 -DTOP_ROWS=16 -DTOP_REQS=64 -DTOP_RUNS=4"

build() {
	mkdir -p "$B/obj"
	CC=$(fuzz_cc) || { echo "fuzz: no clang with libFuzzer (apt-get install clang-14 libclang-rt-14-dev)" >&2; return 2; }
	local san="-fsanitize=address,undefined -fno-sanitize-recover=all"
	local cfl="-g -O1 -fno-pic -fno-omit-frame-pointer -I. -Itests/fuzz $POOLS"
	local objs=() s o extra new=0 fresh h
	# iomon: every source, instrumented for coverage; _exit and main renamed
	for s in $(make -s print-srcs); do
		o=$B/obj/${s//\//_}.o
		objs+=("$o")
		fresh=1
		for h in "$s" tests/tools/fuzz.sh *.h */*.h; do [ "$o" -nt "$h" ] || fresh=0; done
		[ $fresh = 1 ] && continue
		extra=; [ "$s" = applet.c ] && extra=-Dmain=iomon_main
		$CC $cfl $san -fsanitize=fuzzer-no-link -D_exit=fuzz_exit $extra -c -o "$o" "$s" || return 1
		new=1
	done
	for s in mark_begin mark_end; do
		$CC -O1 -fno-pic -c -o "$B/obj/$s.o" "tests/fuzz/$s.c" || return 1
	done
	# one relocatable object: its .data and .bss are iomon's, in order,
	# between the markers (fuzz.h)
	ld -r -o "$B/iomon.o" "$B/obj/mark_begin.o" "${objs[@]}" "$B/obj/mark_end.o" || return 1
	check_markers "$B/iomon.o" || return 1
	# the harness's own loops (the reset) need no coverage feedback
	$CC $cfl $san -c -o "$B/obj/common.o" tests/fuzz/common.c || return 1
	for t in $TARGETS; do
		$CC $cfl $san -fsanitize=fuzzer-no-link -c -o "$B/obj/fuzz_$t.o" "tests/fuzz/fuzz_$t.c" &&
		$CC -fsanitize=fuzzer,address,undefined -no-pie -Wl,--wrap=read -Wl,--wrap=signal -o "$B/fuzz_$t" \
			"$B/obj/fuzz_$t.o" "$B/obj/common.o" "$B/iomon.o" || return 1
	done
}

# (nm pads addresses to one width: they compare as strings.)
# Every writable global of iomon must lie between the markers, and iomon
# must have no other writable section the reset would miss.
check_markers() {
	nm "$1" | awk '
		$3 == "fuzz_bss_begin" { bb = "x" $1 } $3 == "fuzz_bss_end" { be = "x" $1 }
		$3 == "fuzz_data_begin" { db = "x" $1 } $3 == "fuzz_data_end" { de = "x" $1 }
		{ v[NR] = "x" $1; t[NR] = $2; n[NR] = $3 }
		END {
			bad = 0
			for (i = 1; i <= NR; i++) {
				if (t[i] ~ /^[bB]$/ && (v[i] < bb || v[i] > be)) { print "fuzz: " n[i] " outside the bss markers"; bad = 1 }
				if (t[i] ~ /^[dD]$/ && n[i] !~ /^__(sancov|asan|odr)/ && (v[i] < db || v[i] > de)) { print "fuzz: " n[i] " outside the data markers"; bad = 1 }
			}
			exit bad
		}' >&2 || return 1
	local other
	other=$(readelf -SW "$1" | awk '$2 ~ /^\./ && $0 ~ / WA/ { print $2 }' |
		grep -vE '^\.(data|bss|(init|fini)_array(\..*)?|data\.rel\.ro.*)$' | grep -v '^\.rela' || true)
	[ -z "$other" ] || { echo "fuzz: writable sections the reset misses: $other" >&2; return 1; }
}

seed() {
	local t
	python3 tests/fuzz/seeds.py tests/fixtures "$B/corpus" || return 1
	for t in $TARGETS; do
		mkdir -p "$B/corpus/$t" "tests/fuzz/regress/$t"
		cp tests/fuzz/regress/$t/* "$B/corpus/$t/" 2>/dev/null
	done
	return 0
}

# fuzz TARGET SECONDS: 0 when nothing was found
fuzz() {
	local t=$1 secs=$2 rc
	mkdir -p "$B/crashes/$t"
	# (killed if libFuzzer's own -timeout cannot end a hang)
	timeout -s KILL $((secs + 300)) "$B/fuzz_$t" -max_total_time="$secs" -close_fd_mask=3 -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$B/crashes/$t/" \
		"$B/corpus/$t" >"$B/$t.log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$B/$t.log" | tr '\n' ' ' | sed "s/^/fuzz $t: /; s/\$/\n/"
	if [ $rc -ne 0 ]; then
		echo "fuzz $t: FOUND a problem (exit $rc); input kept:" >&2
		ls -t "$B/crashes/$t" | head -3 | sed "s|^|  $B/crashes/$t/|" >&2
		grep -E 'ERROR|SUMMARY|runtime error|fuzz_decode:' "$B/$t.log" | head -5 >&2
		return 1
	fi
}

case "${1:-}" in
build) build ;;
''|*[!0-9]*) echo "usage: bash tests/tools/fuzz.sh SECONDS | build" >&2; exit 2 ;;
*)
	build || exit $?
	seed || exit 1
	bad=0
	for t in $TARGETS; do fuzz "$t" "$1" || bad=1; done
	exit $bad ;;
esac
