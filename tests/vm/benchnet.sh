# Runs inside Debian's 6.1 kernel under qemu with user networking (see
# tests/tools/bench-vmnet.sh, which starts iomon's server on the host and
# puts its port in for @PORT@): the null_blk load of tests/vm/bench.sh sent
# to the server by Debian's blktrace client and by iomon's, both with -s
# (Debian's without it fails on 6.1's relay sendfile) and the same -b/-n,
# three rounds each: events, drops and the client's CPU time.
insmod /lib/mod/null_blk.ko queue_mode=2 irqmode=0 gb=1 submit_queues=2
sleep 0.3
cpu_ms() {	# utime+stime of a pid, in ms (USER_HZ 100)
	set -- $(cat /proc/$1/stat 2>/dev/null | sed 's/.*) //')
	echo $(( (${12} + ${13}) * 10 ))
}
run() {	# NAME CMD...: trace for 4 s under load, report
	name=$1; shift
	"$@" > /out/$name.sum 2>&1 &
	pid=$!
	sleep 1.5
	iogen /dev/nullb0 randrw 3 2 4096
	sleep 0.2
	ms=$(cpu_ms $pid)
	wait $pid
	echo "$name cpu_ms=$ms" >> /out/bench.txt
	grep 'Total' /out/$name.sum | sed "s/^/$name /" >> /out/bench.txt
}
for r in 1 2 3; do
	run bt$r blktrace.real -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	sleep 1
	run io$r iomon trace -s -d /dev/nullb0 -b 256 -n 4 -w 5 -h 10.0.2.2 -p @PORT@
	sleep 1
done
