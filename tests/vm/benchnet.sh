# Runs inside Debian's 6.1 kernel under qemu with user networking (see
# tests/tools/bench-vmnet.sh, which starts iomon's server on the host and
# puts its port in for @PORT@): the null_blk load of tests/vm/bench.sh sent
# to the server by Debian's blktrace client and by iomon's, both with -s
# (Debian's without it fails on 6.1's relay sendfile) and the same -b/-n,
# three rounds each: events, drops and the client's CPU time; then three
# more of each beside a CPU load in the guest (a busy loop on each CPU,
# the same for both clients: issue 33's loaded host).
# (tests/vm/bench.sh's helpers come first: insmod, cpu_ms, run; WARM is
# how long run lets the capture start: a client connecting takes longer)
WARM=1.5
for r in 1 2 3; do
	run bt$r blktrace.real -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	sleep 1
	run io$r iomon trace -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	sleep 1
done
for r in 1 2 3; do
	hogs=
	for c in $(seq $(grep -c ^processor /proc/cpuinfo)); do sh -c 'while :; do :; done' & hogs="$hogs $!"; done
	run bth$r blktrace.real -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	sleep 1
	run ioh$r iomon trace -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	kill $hogs
	sleep 1
done
