# Runs inside Debian's 6.1 kernel under qemu with user networking (the host
# is 10.0.2.2; see tests/long/t-vmnet.sh, which puts the port in for
# @PORT@); nb, load, made and said come from tests/vm/guest.sh.
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
# busy PID: load on both devices until the capture PID has ended (a client
# connecting under TCG takes a while to start the trace).  No pause between
# clients: each waits for the server's answer to its last close, and the
# server ends that run (its summary) before it takes another connection.
busy() { while kill -0 "$1" 2>/dev/null; do load /dev/nullb0 1 & load /dev/nullb1 1; wait $!; sleep 0.2; done; }
# 1. Debian's client with -s (a connection per CPU), two devices, relay
blktrace.real -s -d /dev/nullb0 -d /dev/nullb1 -h 10.0.2.2 -p @PORT@ -w 6 > /out/c1.out 2>&1 &
busy $!; wait
# 2. iomon's client through relay, a connection per CPU and device
iomon trace -d /dev/nullb0 -d /dev/nullb1 -h 10.0.2.2 -p @PORT@ -w 6 > /out/c2.out 2> /out/c2.err & c2=$!
said /out/c2.err
# its readers, a process on each CPU (as blktrace's threads): each one's
# allowed CPUs, once three iomon processes run (the client and two)
procs() { for p in /proc/[0-9]*; do [ "$(cat "$p/comm" 2>/dev/null)" = iomon ] && sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$p/status"; done; }
n=0; while [ "$(procs | wc -l)" -lt 3 ] && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
procs | sort > /out/c2.procs
busy $c2; wait
# 3. Debian's client without -s: sendfile() from relay files, which 6.1
#    refuses (EINVAL), so a header comes without its records
blktrace.real -d /dev/nullb0 -h 10.0.2.2 -p @PORT@ -w 3 > /out/c3.out 2>&1 &
made /sys/kernel/debug/block/nullb0/trace0; load /dev/nullb0 2; wait
