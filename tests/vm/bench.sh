# Runs inside Debian's 6.1 kernel (see tests/tools/bench-vm.sh): the same null_blk
# load traced by Debian's blktrace and by iomon trace with the same -b/-n,
# three rounds each, recording events, drops and the tracer's CPU time.
insmod /lib/mod/null_blk.ko queue_mode=2 irqmode=0 gb=1 submit_queues=2
sleep 0.3
cpu_ms() {	# utime+stime of a pid and its children (iomon -h's reader per CPU), in ms (USER_HZ 100)
	t=0
	for p in $1 $(cat /proc/$1/task/*/children 2>/dev/null); do
		s=$(sed 's/.*) //' /proc/$p/stat 2>/dev/null)
		[ -n "$s" ] || continue
		set -- $s
		t=$((t + ${12} + ${13}))
	done
	echo $((t * 10))
}
run() {	# NAME CMD...: trace for 4 s under LOAD (iogen's mixed I/O unless set), report
	name=$1; shift
	rm -rf /out/$name; mkdir -p /out/$name
	"$@" > /out/$name.sum 2>&1 &
	pid=$!
	sleep ${WARM:-0.5}
	${LOAD:-iogen /dev/nullb0 randrw 3 2 4096}
	sleep 0.2
	ms=$(cpu_ms $pid)
	wait $pid
	echo "$name cpu_ms=$ms" >> /out/bench.txt
	grep 'Total' /out/$name.sum | sed "s/^/$name /" >> /out/bench.txt
	rm -rf /out/$name	# (the trace: the figures are what comes back)
}
# ---- the runs (tests/tools/bench-vmnet.sh takes the lines above, then its own)
# -z (an iomon built with zstd): the same load, compressed at level 3
z=; iomon trace -z -d /dev/null 2>&1 | grep -q 'built without' || z=1
for r in 1 2 3; do
	run bt$r blktrace.real -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/bt$r
	run io$r iomon trace -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/io$r
	[ -z "$z" ] || run iz$r iomon trace -z -d /dev/nullb0 -b 256 -n 4 -w 4 -D /out/iz$r
done
# drops at the default buffers (-b 512 -n 4): 3 s of 4 KiB random writes
# from 4 threads, the same load under each tracer in turn
for r in 1 2 3; do
	LOAD="livelat randw /dev/nullb0 3 4" run btw$r blktrace.real -d /dev/nullb0 -w 4 -D /out/btw$r
	LOAD="livelat randw /dev/nullb0 3 4" run iow$r iomon trace -d /dev/nullb0 -w 4 -D /out/iow$r
done
# live: from an I/O's completion to its C line on the parser's stdout.
# livelat write logs the clock as each paced write returns (null_blk has
# completed it then), livelat stamp as each line reaches it; SECTOR tells
# each run's writes apart.  (said and made: tests/vm/guest.sh, put first)
mkdir -p /dev/pts; mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
tracer() {	# CMD...: run CMD, its pid in /tmp/tpid for lat's SIGINT
	sh -c 'echo $$ > /tmp/tpid; exec "$@"' tracer "$@"
}
lat() {	# NAME SECTOR WHO: the pipeline started, wait for its tracer (WHO iomon or bt), write, stop it
	n=0
	while [ ! -s /tmp/tpid ] && [ "$n" -lt 300 ]; do n=$((n + 1)); sleep 0.1; done
	if [ "$3" = iomon ]; then
		said /out/lat-$1.err; sleep 0.5
	else
		made /sys/kernel/debug/block/nullb0/trace0 "$(cat /tmp/tpid)"
	fi
	livelat write /dev/nullb0 ${LAT_N:-40} ${LAT_MS:-100} $2 > /out/lat-$1.w
	sleep 2
	livelat now > /out/lat-$1.int	# lines stamped later came at the tracer's exit
	kill -INT $(cat /tmp/tpid)
	wait
	rm -f /tmp/tpid
}
rm -f /tmp/tpid
tracer iomon trace -d /dev/nullb0 -o - 2> /out/lat-io.err | iomon parse -i - | livelat stamp > /out/lat-io.lines &
lat io 1000000 iomon
tracer iomon trace --backend=tracefs -d /dev/nullb0 -o - 2> /out/lat-tfs.err | iomon parse -i - | livelat stamp > /out/lat-tfs.lines &
lat tfs 1100000 iomon
tracer blktrace.real -d /dev/nullb0 -o - 2> /out/lat-bt.err | blkparse.real -i - | livelat stamp > /out/lat-bt.lines &
lat bt 1200000 bt
# the same with blkparse's stdout a terminal (a pty livelat opens)
tracer blktrace.real -d /dev/nullb0 -o - 2> /out/lat-btpty.err | livelat stamp blkparse.real -i - > /out/lat-btpty.lines &
lat btpty 1300000 bt
