# Runs inside Debian's 6.1 kernel (see tests/tools/bench-vm.sh): the same null_blk
# load traced by Debian's blktrace and by iomon trace with the same -b/-n,
# three rounds each, recording events, drops and the tracer's CPU time.
insmod /lib/mod/null_blk.ko queue_mode=2 irqmode=0 gb=1 submit_queues=2
sleep 0.3
cpu_ms() {	# utime+stime of a pid, in ms (USER_HZ 100)
	set -- $(cat /proc/$1/stat 2>/dev/null | sed 's/.*) //')
	echo $(( (${12} + ${13}) * 10 ))
}
run() {	# NAME CMD...: trace for 4 s under load, report
	name=$1; shift
	rm -rf /out/$name; mkdir -p /out/$name
	"$@" > /out/$name.sum 2>&1 &
	pid=$!
	sleep ${WARM:-0.5}
	iogen /dev/nullb0 randrw 3 2 4096
	sleep 0.2
	ms=$(cpu_ms $pid)
	wait $pid
	echo "$name cpu_ms=$ms" >> /out/bench.txt
	grep 'Total' /out/$name.sum | sed "s/^/$name /" >> /out/bench.txt
}
# ---- the runs (tests/tools/bench-vmnet.sh takes the lines above, then its own)
# -z (an iomon built with zstd): the same load, compressed at level 3
z=; iomon trace -z -d /dev/null 2>&1 | grep -q 'built without' || z=1
for r in 1 2 3; do
	run bt$r blktrace.real -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/bt$r
	run io$r iomon trace -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/io$r
	[ -z "$z" ] || run iz$r iomon trace -z -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/iz$r
done
