# Runs inside Debian's 6.1 kernel under qemu (busybox sh, root, debugfs
# mounted, results under /out); see tests/long/t-vmlive.sh.  iomon is in
# /bin; nb and said come from tests/vm/guest.sh.  Live capture through
# relay (issue 27): each consumer's output is watched here while the
# capture runs, and /out/live.log gets a line per expected I/O, times in ms
# of the guest's clock (/proc/uptime, 10 ms steps):
#   NAME slow I START SEEN ALIVE      write I (sector 8000+8I), its dd's start
#   NAME fast START END FIRST ALL ALIVE   2000 writes (sectors 32000..47992)
#   NAME final SLOW FAST              what the output held once the capture ended
#   bitesize alive A, bitesize rc RC  bitesize (a table at its end only) still ran
#                                     after both loads; its exit status on SIGINT
# SEEN, FIRST, ALL are -1 when the guest waited PATIENCE ms in vain; after
# one slow write never showed, the rest are not waited for (SEEN -2);
# ALIVE is 1 when the capture was still running as the line showed.
# The host asserts on these (the guest only records), then compares the
# stream's order, the Ctrl-C pipeline's file and the two backends' records.
# memory_backed and cache_size: a volatile write cache, so fsync sends flushes
nb queue_mode=2 nr_devices=1 irqmode=0 gb=1 memory_backed=1 cache_size=64
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
D=/dev/nullb0
N_SLOW=6 N_FAST=2000 PATIENCE=6000
PER=1	# writes a slow step (sectors 8000 + 8 PER I up): 2 for biopattern
L=/out/live.log
: > $L
ms() { read -r u _ < /proc/uptime; f=${u#*.}; MS=$(( ${u%.*} * 1000 + (1$f - 100) * 10 )); }
alive() { if kill -0 "$1" 2>/dev/null; then A=1; else A=0; fi; }
# within START CMD...: CMD every 50 ms until it succeeds (SEEN: then) or
# PATIENCE ms from START have passed (SEEN=-1)
within() {
	s0=$1; shift
	while ! "$@"; do
		ms; [ $((MS - s0)) -le $PATIENCE ] || { SEEN=-1; return 1; }
		sleep 0.05
	done
	ms; SEEN=$MS
}
slow_load() {	# LOG
	j=0
	while [ $j -lt $N_SLOW ]; do
		ms; s=$MS
		dd if=/dev/zero of=$D bs=4k count=$PER seek=$((1000 + PER * j)) oflag=direct 2>/dev/null & p=$!
		wait $p; ms
		echo "$j $s $MS $p" >> "$1"
		j=$((j + 1)); sleep 0.5
	done
}
VIEWF=/tmp/view.txt
# loads NAME PID: the slow load, then the fast one, each I/O waited for
loads() {
	name=$1 pid=$2 skip=
	rm -f /tmp/slow.log; slow_load /tmp/slow.log & lp=$!
	i=0
	while [ $i -lt $N_SLOW ]; do
		n=0; while ! grep -qs "^$i " /tmp/slow.log && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
		set -- $(grep "^$i " /tmp/slow.log)
		if [ -n "$skip" ]; then
			echo "$name slow $i $2 -2 1" >> $L
		elif within "$2" has_slow $i "$4"; then
			alive $pid; echo "$name slow $i $2 $SEEN $A" >> $L
		else
			alive $pid; echo "$name slow $i $2 -1 $A" >> $L; skip=1
		fi
		i=$((i + 1))
	done
	wait $lp
	cp /tmp/view.txt "/out/view-$name.slow" 2>/dev/null
	rm -f /tmp/fast.pid /tmp/fast.end
	ms; s=$MS
	( dd if=/dev/zero of=$D bs=4k count=$N_FAST seek=4000 oflag=direct 2>/dev/null & echo $! > /tmp/fast.pid
	  wait $!; ms; echo $MS > /tmp/fast.end ) & lp=$!
	n=0; while [ ! -s /tmp/fast.pid ] && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
	FAST_PID=$(cat /tmp/fast.pid)
	within $s has_first_fast; f1=$SEEN
	wait $lp; e=$(cat /tmp/fast.end)
	if [ $f1 -ge 0 ]; then within $e has_fast; f2=$SEEN; else f2=-1; fi
	alive $pid
	echo "$name fast $s $e $f1 $f2 $A" >> $L
	cp /tmp/view.txt "/out/view-$name.fast" 2>/dev/null
}
# ended NAME PID: SIGINT, then what the output held at the end
ended() {
	kill -INT $2; wait $2; echo "$1 rc $?" >> $L
	n=0 i=0
	while [ $i -lt $N_SLOW ]; do has_slow $i "$(sed -n "$((i + 1))s/.* //p" /tmp/slow.log)" && n=$((n + 1)); i=$((i + 1)); done
	if has_fast; then f=all; else f=not-all; fi
	echo "$1 final $n $f" >> $L
}
# start NAME APPLET ARGS...: iomon APPLET ARGS in the background (120 s at
# most), stdout /out/NAME.out, stderr /out/NAME.err; PID once it traces
start() {
	n=$1; shift
	timeout 120 iomon "$@" > /out/$n.out 2> /out/$n.err & PID=$!
	said /out/$n.err
}

# 1. the stream into the parser
KIND=text VIEW=v_pipe
v_pipe() { cp /out/p.txt /tmp/view.txt; }
timeout 120 iomon trace -o - $D 2> /out/p.err | timeout 120 iomon parse -i - > /out/p.txt &
said /out/p.err
# the tracer's pid: the iomon whose stderr is p.err (pidof cannot tell the two apart)
for q in $(pidof iomon); do [ "$(readlink /proc/$q/fd/2)" = /out/p.err ] && PID=$q; done
loads stream $PID
kill -INT $PID; wait; echo "stream rc -" >> $L
if has_fast; then f=all; else f=not-all; fi
n=0 i=0; while [ $i -lt $N_SLOW ]; do has_slow $i 0 && n=$((n + 1)); i=$((i + 1)); done
echo "stream final $n $f" >> $L

# 2. -D: the per-CPU files, parsed as they grow
v_dir() { iomon parse -q -D /out/dir -i nullb0 > /tmp/view.txt; }
VIEW=v_dir
mkdir -p /out/dir
start dir trace -d $D -D /out/dir; loads dir $PID; ended dir $PID

# 3. btrace
v_bt() { cp /out/bt.out /tmp/view.txt; }
VIEW=v_bt
start bt btrace $D; loads btrace $PID; ended btrace $PID

# 4. top, a table a second
KIND=top VIEW=v_top
v_top() { cp /out/top.out /tmp/view.txt; }
start top top -C -d $D 1 120; loads top $PID; ended top $PID

# 5. monitor -t, an interval a second
KIND=count COUNT=monitor VIEW=v_mon
v_mon() { cp /out/mon.txt /tmp/view.txt; }
start mon monitor -I 1 -t $D -h /out/mon.txt; loads monitor $PID; ended monitor $PID

# 6. btt --trace -S 1
COUNT=btt VIEW=v_btt
v_btt() { cp /out/btt.out /tmp/view.txt; }
cd /tmp; start btt btt --trace $D -S 1 -o /tmp/btt; loads btt $PID; ended btt $PID; cd /out

# 6b. btt --trace -S 1 -l: its per-I/O file, the files' pool written out
#     each interval (no report followed: the file is)
COUNT=bttl VIEW=v_bttl
v_bttl() { cat /tmp/bttl_*_d2c.dat > /tmp/view.txt 2>/dev/null; }
cd /tmp; start bttl btt --trace $D -S 1 -l /tmp/bttl; loads bttl $PID; ended bttl $PID; cd /out

# 7. biosnoop, a line a request; biolatency, a table a second; biopattern,
#    a line a second
KIND=snoop VIEW=v_sn
v_sn() { cp /out/sn.out /tmp/view.txt; }
start sn snoop -t $D; loads snoop $PID; ended snoop $PID
KIND=count COUNT=lat VIEW=v_lat
v_lat() { cp /out/lat.out /tmp/view.txt; }
start lat lat -D -t $D 1; loads lat $PID; ended lat $PID
# (a completion alone in its interval only sets where the disk stands, and
# no line shows it: each slow step is two writes back to back, so every
# interval the loads reach has two, and a line counts them all)
COUNT=pattern VIEW=v_pat PER=2
v_pat() { cp /out/pat.out /tmp/view.txt; }
start pat biopattern -t $D 1; loads biopattern $PID; ended biopattern $PID
PER=1
# bitesize prints its table at the end only (as BCC's): the same loads
# while it runs, each waited for, then Ctrl-C
start bs bitesize -t $D
rm -f /tmp/slow.log; slow_load /tmp/slow.log
dd if=/dev/zero of=$D bs=4k count=$N_FAST seek=4000 oflag=direct 2>/dev/null
alive $PID; echo "bitesize alive $A" >> $L
kill -INT $PID; wait $PID; echo "bitesize rc $?" >> $L

# 8. time order across CPUs: direct writes from CPU 1, then buffered ones
#    with conv=fsync from CPU 0, as a stream (the host compares it with
#    its own records split into per-CPU files)
start o trace -o - $D
taskset -c 1 dd if=/dev/zero of=$D bs=4k count=2000 oflag=direct 2>/dev/null
taskset -c 0 dd if=/dev/zero of=$D bs=4k count=2000 seek=2000 conv=fsync 2>/dev/null
kill -INT $PID; wait $PID
mv /out/o.out /out/o.bin

# 9. Ctrl-C: trace -o - | tee | monitor in a process group of its own; the
#    fast load, then a write every 0.5 s, SIGINT to the group after the 7th
setsid sh -c 'iomon trace -o - /dev/nullb0 2> /out/c.err | tee /out/c.bin | iomon monitor -I 2 -h /out/c.mon' &
G=$!
said /out/c.err
dd if=/dev/zero of=$D bs=4k count=$N_FAST seek=4000 oflag=direct 2>/dev/null
: > /out/c.log
i=0
while [ $i -lt 8 ]; do
	dd if=/dev/zero of=$D bs=4k count=1 seek=$((1000 + i)) oflag=direct 2>/dev/null
	ms; echo "$i $MS" >> /out/c.log
	if [ $i = 6 ]; then ms; echo "$MS" > /out/c.kill; kill -INT -$G; fi
	i=$((i + 1)); sleep 0.5
done
n=0; while kill -0 -$G 2>/dev/null && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
if kill -0 -$G 2>/dev/null; then echo "still running after 10 s" > /out/c.ended; kill -KILL -$G; else echo "ended" > /out/c.ended; fi
wait

# 10. relay and tracefs at once on one device, into two folders: the same
#    load (flushes first, writes from both CPUs, reads, buffered writes)
mkdir -p /out/rl /out/tf
start rl trace -d $D -D /out/rl; R=$PID
start tf trace --backend=tracefs -d $D -D /out/tf; T=$PID
dd if=/dev/zero of=$D bs=4k count=10 seek=5000 oflag=direct conv=fsync 2>/dev/null
taskset -c 0 dd if=/dev/zero of=$D bs=4k count=200 seek=6000 oflag=direct 2>/dev/null
taskset -c 1 dd if=/dev/zero of=$D bs=4k count=200 seek=7000 oflag=direct 2>/dev/null
taskset -c 1 dd if=$D of=/dev/null bs=64k count=20 iflag=direct 2>/dev/null
taskset -c 0 dd if=/dev/zero of=$D bs=64k count=20 seek=800 conv=fsync 2>/dev/null
sync
kill -INT $R $T; wait $R; wait $T
echo done >> $L
