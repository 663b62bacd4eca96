#!/usr/bin/env bash
# make bench VM=1, network: Debian's 6.1 kernel under qemu (user networking)
# sends the same null_blk load to iomon's server on this host, through
# Debian's blktrace client and through iomon's, same -b/-n, -s.  Prints
# events, drops and the client's CPU time per run (TCG: compare the two,
# not the absolute numbers).
set -eu
cd "$(dirname "$0")/../.."
VMCAP=../shared/tools/vm-capture.sh
[ -f "$VMCAP" ] || { echo "bench-vmnet: needs ../shared/tools/vm-capture.sh"; exit 0; }
B=${BENCH_DIR:-/tmp/iomon-bench}; O=$B/vmnet; rm -rf "$O" "$B/vmnet-srv"; mkdir -p "$B/vmnet-srv"
PORT=$((20000 + $$ % 20000))
# the same VM with a network card, as tests/long/t-vmnet.sh boots it
sed -e "s|^here=.*|here=$(dirname "$VMCAP")|" \
    -e 's|fs/jbd2/jbd2.ko|& drivers/net/ethernet/intel/e1000/e1000.ko|' \
    -e 's|crc32c_generic ext4; do|crc32c_generic ext4 e1000; do|' \
    -e 's|^cd /out$|ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0\n&|' \
    -e 's|-serial mon:stdio|-netdev user,id=n0 -device e1000,netdev=n0 &|' "$VMCAP" >"$B/vmnet.sh"
# bench.sh's helpers (up to its runs), then these runs
{ sed '/^# ---- the runs/,$d' tests/vm/bench.sh; sed "s/@PORT@/$PORT/g" tests/vm/benchnet.sh; } >"$B/benchnet.sh"
cp iomon "$B/iomon"
./iomon trace -l -p $PORT -D "$B/vmnet-srv" >"$B/vmnet-srv.out" 2>&1 & spid=$!
EXTRA_BIN="$B/iomon" timeout -k 10 900 bash "$B/vmnet.sh" "$O" "$B/benchnet.sh" >/dev/null 2>&1 || true
kill -INT $spid 2>/dev/null; wait $spid || true
[ -f "$O/bench.txt" ] || { echo "bench-vmnet: the VM gave no figures (see $O)"; exit 0; }
# (bt, io: a quiet guest; bth, ioh: a busy loop on each of its CPUs beside)
awk 'function k(s) { sub(/[0-9]+$/, "", s); return s }
     /cpu_ms=/ { split($2, a, "="); t = k($1); cpu[t] += a[2]; n[t]++ }
     / Total:/ { t = k($1); ev[t] += $3; sub(/[),]+/, "", $6); dr[t] += $6; all[t] = all[t] " " $6 }
     END { for (t in n) printf "%-8s %-17s %d runs: %8.0f events, %6.0f dropped (%s), %6.0f ms CPU per run\n",
	       t ~ /h$/ ? "CPU load" : "quiet", t ~ /^bt/ ? "blktrace -h -s" : "iomon trace -h -s",
	       n[t], ev[t]/n[t], dr[t]/n[t], substr(all[t], 2), cpu[t]/n[t] }' "$O/bench.txt" | sort
