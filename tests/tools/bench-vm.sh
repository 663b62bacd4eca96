#!/usr/bin/env bash
# make bench VM=1: capture cost in Debian's 6.1 kernel under qemu, Debian's
# blktrace against iomon trace on the same null_blk load, same -b/-n.
# Prints events, drops and CPU time per run (TCG emulation: compare the two,
# not the absolute numbers).
set -eu
cd "$(dirname "$0")/../.."
VMCAP=../shared/tools/vm-capture.sh
[ -f "$VMCAP" ] || { echo "bench-vm: needs ../shared/tools/vm-capture.sh"; exit 0; }
O=${BENCH_DIR:-/tmp/iomon-bench}/vm; rm -rf "$O"
cp iomon "${BENCH_DIR:-/tmp/iomon-bench}/iomon"
EXTRA_BIN="${BENCH_DIR:-/tmp/iomon-bench}/iomon" bash "$VMCAP" "$O" tests/vm/bench.sh >/dev/null 2>&1
awk '/cpu_ms=/ { split($2, a, "="); cpu[substr($1,1,2)] += a[2]; n[substr($1,1,2)]++ }
     / Total:/ { t = substr($1,1,2); ev[t] += $3; sub(/\)/, "", $6); dr[t] += $6 }
     END { for (t in n) printf "%-8s %d runs: %8.0f events, %6.0f dropped, %6.0f ms CPU per run\n",
	       t == "bt" ? "blktrace" : t == "iz" ? "iomon -z" : "iomon", n[t], ev[t]/n[t], dr[t]/n[t], cpu[t]/n[t] }' "$O/bench.txt" | sort
