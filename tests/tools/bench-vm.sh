#!/usr/bin/env bash
# make bench VM=1: capture in Debian's 6.1 kernel under qemu (TCG: compare
# the tools, not the absolute numbers), tests/vm/bench.sh's runs:
#  - Debian's blktrace against iomon trace on the same null_blk load, same
#    -b/-n: events, drops and CPU time per run, and CPU per event;
#  - the same at the default buffers under 4 KiB random writes from 4
#    threads: drops;
#  - live: from an I/O's completion to its line on stdout through
#    `TRACE -o - | PARSE -i -`, median and max over paced writes.
set -eu
cd "$(dirname "$0")/../.."
VMCAP=../shared/tools/vm-capture.sh
[ -f "$VMCAP" ] || { echo "bench-vm: needs ../shared/tools/vm-capture.sh"; exit 0; }
B=${BENCH_DIR:-/tmp/iomon-bench}; O=$B/vm; rm -rf "$O"
cp iomon "$B/iomon"
# the guest's load and line stamps (static: the guest has no libc)
command -v musl-gcc >/dev/null || { echo "bench-vm: needs musl-gcc (musl-tools)"; exit 0; }
musl-gcc -O2 -static -o "$B/livelat" tests/tools/livelat.c -lpthread
cat tests/vm/guest.sh tests/vm/bench.sh >"$B/bench-guest.sh"	# (said, made)
EXTRA_BIN="$B/iomon $B/livelat" bash "$VMCAP" "$O" "$B/bench-guest.sh" >/dev/null 2>&1 || true
[ -f "$O/bench.txt" ] || { echo "bench-vm: the VM gave no figures (see $O)"; exit 0; }
# NAME ROUND lines: bt/io/iz at -b 256 -n 4, btw/iow at the defaults
table() {	# GROUP...: one row each, CPU per event against blktrace's (bt or btw)
	awk -v want="$*" '
	{ t = $1; sub(/[0-9]+$/, "", t) }
	/cpu_ms=/ { split($2, a, "="); cpu[t] += a[2]; n[t]++ }
	/ Total:/ { d = $6; sub(/\).*/, "", d); d += 0; ev[t] += $3; dr[t] += d; runs[t] = runs[t] (runs[t] == "" ? "" : ", ") d; if (d) some[t] = 1 }
	END {
		k = split(want, g, " ")
		for (i = 1; i <= k; i++) {
			t = g[i]; if (!n[t]) continue
			pe[t] = ev[t] ? cpu[t] * 1000 / ev[t] : 0
			if (t ~ /^bt/) ref = pe[t]
			printf "%-9s %d runs: %8.0f events, %6.0f dropped, %5.0f ms CPU per run, %.3f us per event",
			       t ~ /^bt/ ? "blktrace" : t == "iz" ? "iomon -z" : "iomon", n[t], ev[t]/n[t], dr[t]/n[t], cpu[t]/n[t], pe[t]
			if (t !~ /^bt/ && ref) printf " (%.2fx blktrace'"'"'s)", pe[t] / ref
			if (some[t]) printf "; dropped per run: %s", runs[t]
			printf "\n"
		}
	}' "$O/bench.txt"
}
table bt io iz
echo "default buffers (-b 512 -n 4), 3 s of 4 KiB random writes from 4 threads, 3 runs each:"
table btw iow
# live: NAME.w holds "SECTOR NS" per write, NAME.lines "NS LINE" per line,
# NAME.int the clock when SIGINT went to the tracer (2 s after the last write)
n=$(wc -l <"$O/lat-io.w" 2>/dev/null || echo 0)
echo "live, an I/O's completion to its C line on stdout, $n writes 100 ms apart (median, max):"
for t in io tfs bt btpty; do
	case $t in
	io) what="iomon trace -o - | iomon parse -i -, relay  ";;
	tfs) what="iomon trace -o - | iomon parse -i -, tracefs";;
	bt) what="blktrace -o - | blkparse -i -, pipe         ";;
	btpty) what="blktrace -o - | blkparse -i -, on a pty     ";;
	esac
	[ -s "$O/lat-$t.w" ] || { echo "$what: no figures (see $O/lat-$t.*)"; continue; }
	awk -v sig="$(cat "$O/lat-$t.int" 2>/dev/null || echo 0)" '
	FNR == NR { w[$1] = $2; nw++; next }
	$7 == "C" && ($9 in w) && !($9 in got) {
		got[$9] = 1; ms = ($1 - w[$9]) / 1e6
		print ms
		if ($1 > sig) late++
	}
	END { printf "# %d %d %d\n", nw, length(got) + 0, late + 0 }' "$O/lat-$t.w" "$O/lat-$t.lines" |
	sort -n | awk -v what="$what" '
	/^#/ { nw = $2; ng = $3; late = $4; next }
	{ v[++n] = $1 }
	END {
		if (!n) { printf "%s: no C line of its writes\n", what; exit }
		med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%s: %7.1f ms, %7.1f ms", what, med, v[n]
		if (ng < nw) printf "; %d of %d lines missing", nw - ng, nw
		if (late) printf "; %d of %d came only at the tracer'"'"'s exit (SIGINT 2 s after the last write)", late, ng
		printf "\n"
	}'
done
