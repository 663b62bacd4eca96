# serial: it compares the kernel's global tracing state before and after
# Live capture on this machine: a loop device, real I/O, the files read
# back and checked against the I/O actually issued.  Needs root and loop
# devices; on a kernel in lockdown (as here) relay is refused and the
# tracefs backend takes over, which these tests check too.
if live_ok "live capture"; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 64M "$LI"
	LOOP=$(losetup -f --show "$LI")
	LN=${LOOP#/dev/}
	state() { for f in current_tracer tracing_on trace_options buffer_size_kb; do echo "$f: $(cat $TRACEFS/$f 2>/dev/null | tr '\n' ' ')"; done; }
	state >"$OUT/state.before"
	load() {	# 100 x 4 KiB direct writes, 10 x 64 KiB direct reads
		dd if=/dev/zero of="$LOOP" bs=4k count=100 oflag=direct 2>/dev/null
		dd if="$LOOP" of=/dev/null bs=64k count=10 iflag=direct 2>/dev/null
	}
	# Each capture below starts its load once the capture says the kernel
	# traces, and is ended by SIGINT (as Ctrl-C ends blktrace) once the
	# load is done: no window to guess, none to wait out.  -w has its own
	# case after this one.
	rm -rf "$OUT/cap"; mkdir -p "$OUT/cap"
	rm -f "$OUT/cap.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/cap" >"$OUT/cap.sum" 2>"$OUT/cap.err" &
	pid=$!; capturing "$OUT/cap.err" $pid; load; kill -INT $pid; wait $pid
	check "trace: exit 0" test $? = 0
	check "trace: names its backend" grep -qE 'capturing through (tracefs|relay)' "$OUT/cap.err"
	check "trace: blktrace's summary layout" grep -qE "^  Total: +[0-9]+ events \(dropped 0\), +[0-9]+ KiB data$" "$OUT/cap.sum"
	check "trace: files are mode 0600" test "$(stat -c %a "$OUT/cap/$LN.blktrace.0")" = 600
	"$IOMON" parse -D "$OUT/cap" -i "$LN" >"$OUT/cap.txt" 2>&1
	n() { grep -cE "$1" "$OUT/cap.txt"; }
	check "trace: 100 queued 4 KiB writes from dd ($(n ' Q +WS? [0-9]+ \+ 8 \[dd\]'))" test "$(n ' Q +WS? [0-9]+ \+ 8 \[dd\]')" = 100
	check "trace: 100 write completions of 8 sectors ($(n ' C +WS? [0-9]+ \+ 8 \[0\]'))" test "$(n ' C +WS? [0-9]+ \+ 8 \[0\]')" = 100
	check "trace: 10 queued 64 KiB reads from dd ($(n ' Q +RS? [0-9]+ \+ 128 \[dd\]'))" test "$(n ' Q +RS? [0-9]+ \+ 128 \[dd\]')" -ge 10
	check "trace: write sectors 0..792 in order" sh -c "grep -E ' Q +WS? ' '$OUT/cap.txt' | awk '{print \$8}' | tr '\n' ' ' | grep -q '^0 8 16 24 '"
	check "trace: a TIMESTAMP note (wall clock for %z)" sh -c "'$IOMON' parse -D '$OUT/cap' -i $LN -q -f '%z\n' | head -1 | grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$'"
	if have_oracle "t-trace.sh line 29: against Debian's blkparse"; then
		( cd "$OUT/cap" && blkparse -i "$LN" ) >"$OUT/cap.bp" 2>&1
		( cd "$OUT/cap" && "$IOMON" parse -i "$LN" ) >"$OUT/cap.ip" 2>&1
		same "trace: Debian's blkparse reads the files as iomon does" "$OUT/cap.ip" "$OUT/cap.bp"
	fi
	# SIGKILL leaves the tracefs instance; the next capture clears it
	rm -f "$OUT/k.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/cap" >/dev/null 2>"$OUT/k.err" &
	pid=$!; capturing "$OUT/k.err" $pid; kill -KILL $pid; wait $pid 2>/dev/null
	if [ -d "$TRACEFS/instances/iomon-$pid" ]; then
		rm -f "$OUT/e.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/cap" >/dev/null 2>"$OUT/e.err" &
		p2=$!; capturing "$OUT/e.err" $p2; kill -INT $p2; wait $p2
		check "trace after a SIGKILLed one: exit 0" test $? = 0
		check "trace after a SIGKILLed one: the dead capture's instance removed, with a message" \
			sh -c "grep -q 'instances/iomon-$pid: removed, left by a capture that died (pid $pid)' '$OUT/e.err' && ! [ -d $TRACEFS/instances/iomon-$pid ]"
	else
		skip "trace after a SIGKILLed one" "the killed capture used relay (tests/long/t-vm.sh covers it)"
	fi
	# Captures of one device at once under lockdown: each sets up the
	# relay trace in turn on its way to tracefs, so one found another's
	# setup without relay files open and cleared it as a dead capture's
	# ("cleared a trace left behind"), and a capture whose setup was
	# cleared under it found no relay files and failed.  Three at once,
	# six times: each must capture through tracefs and clear nothing.
	if grep -q 'relay files refused' "$OUT/cap.err"; then
		rm -f "$OUT"/at.*; r=0
		while [ $r -lt 6 ]; do
			r=$((r + 1))
			ps=
			for c in a b c; do
				timeout 30 "$IOMON" trace -d "$LOOP" -w 1 -D "$OUT/cap" -o at.$r$c >/dev/null 2>"$OUT/at.$r$c.err" &
				ps="$ps $!"
			done
			for p in $ps; do wait "$p"; echo "rc=$?" >>"$OUT/at.rc"; done
		done
		check "trace, three captures of one device at once (lockdown): each exits 0 ($(grep -vc 'rc=0' "$OUT/at.rc") did not)" \
			test "$(grep -c '^rc=0$' "$OUT/at.rc")" = 18
		check "trace, three at once (lockdown): each through tracefs ($(cat "$OUT"/at.*.err | grep -c 'capturing through tracefs') of 18)" \
			test "$(cat "$OUT"/at.*.err | grep -c 'capturing through tracefs')" = 18
		check "trace, three at once (lockdown): each says why ($(cat "$OUT"/at.*.err | grep -c 'relay files refused') of 18 name the refused relay files)" \
			test "$(cat "$OUT"/at.*.err | grep -c 'relay files refused')" = 18
		check "trace, three at once (lockdown): none clears another's setup or fails to remove its own" \
			sh -c "! cat '$OUT'/at.*.err | grep -E 'cleared a trace|BLKTRACETEARDOWN|no device'"
	else
		skip "trace, three captures of one device at once" "relay works here: the second is refused, naming the first (tests/long/t-vm.sh)"
	fi
	# the tracefs blk tracer (sysfs trace/enable) on the device: its trace
	# has no relay files, and it is refused, named with how to free it
	if echo 1 >/sys/block/$LN/trace/enable 2>/dev/null; then
		timeout 30 "$IOMON" trace -d "$LOOP" -w 1 -D "$OUT/cap" -o blk >/dev/null 2>"$OUT/blk.err"
		rc=$?; echo 0 >/sys/block/$LN/trace/enable
		check "trace, the tracefs blk tracer on: refused, exit 1 ($rc)" test $rc = 1
		check "trace, the tracefs blk tracer on: said, with how to free it" \
			grep -qF "$LOOP: the tracefs blk tracer is on for this device; not touching it (echo 0 > /sys/block/$LN/trace/enable frees it)" "$OUT/blk.err"
	else
		skip "trace, the tracefs blk tracer on" "/sys/block/$LN/trace/enable cannot be written here"
	fi
	state >"$OUT/state.after"
	same "trace: global tracing state left as found" "$OUT/state.after" "$OUT/state.before"
	# -w: the window ends the capture by itself (timeout: a window that
	# never ends fails here rather than hanging the run)
	rm -rf "$OUT/capw"; mkdir -p "$OUT/capw"
	timeout 30 "$IOMON" trace -d "$LOOP" -w 1 -D "$OUT/capw" >"$OUT/capw.sum" 2>"$OUT/capw.err"
	rc=$?
	check "trace -w 1: the window ends it, exit 0 ($rc)" test $rc = 0
	check "trace -w 1: blktrace's summary" grep -qE "^  Total: +[0-9]+ events \(dropped 0\)" "$OUT/capw.sum"

	# a firmware that names far more CPU slots than the machine holds
	# ("smpboot: Allowing 384 CPUs, 382 hotplug CPUs"): cpu/possible
	# past CAP_CPUS (256), the present CPUs followed, as the original
	# counts them; refused, said, only where those are past it too
	if ! unshare -m true 2>/dev/null; then
		skip "trace, 384 possible CPUs" "unshare -m cannot make / private here (a chroot?): the check needs its own /sys/devices/system/cpu/possible"
	else
		C=/sys/devices/system/cpu
		echo 0-383 >"$OUT/possible"; echo 0-299 >"$OUT/present"
		# cpus SH ARGS...: trace ARGS after SH (mounts) in a mount
		# namespace of its own, the same process all the way (exec)
		cpus() { exec unshare -m sh -c "$1 && exec \"\$@\"" - "$IOMON" trace "${@:2}"; }
		b="mount --bind '$OUT/possible' $C/possible"
		rm -rf "$OUT/cap384"; mkdir -p "$OUT/cap384"
		rm -f "$OUT/cap384.err"; (cpus "$b" -d "$LOOP" -D "$OUT/cap384") >"$OUT/cap384.sum" 2>"$OUT/cap384.err" &
		pid=$!; capturing "$OUT/cap384.err" $pid; load; kill -INT $pid; wait $pid; rc=$?
		check "trace, 384 possible CPUs, $(tr -d '\n' <$C/present) present: exit 0 ($rc: $(head -c 200 "$OUT/cap384.err" | tr '\n' ' '))" test $rc = 0
		check "trace, 384 possible CPUs: the 100 writes in its files" \
			test "$("$IOMON" parse -D "$OUT/cap384" -i "$LN" 2>&1 | grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]')" = 100
		(cpus "$b && mount --bind '$OUT/present' $C/present" -d "$LOOP" -D "$OUT/cap384") >/dev/null 2>"$OUT/cap300.err"; rc=$?
		check "trace, 300 present CPUs: refused, exit 1 ($rc), said" \
			sh -c "test $rc = 1 && grep -q '^trace: 300 CPUs; this build handles 256 (CAP_CPUS)' '$OUT/cap300.err'"
	fi

	# -I: devices listed in a file
	echo "$LOOP" >"$OUT/devs.txt"
	rm -rf "$OUT/capI"; mkdir -p "$OUT/capI"
	rm -f "$OUT/capI.err"; "$IOMON" trace -I "$OUT/devs.txt" -D "$OUT/capI" >/dev/null 2>"$OUT/capI.err" &
	pid=$!; capturing "$OUT/capI.err" $pid; load; kill -INT $pid; wait $pid
	check "trace -I FILE: the listed device traced" test -s "$OUT/capI/$LN.blktrace.0" -o -s "$OUT/capI/$LN.blktrace.1"
	# 40 devices at once (a server's disks): more than the 16 a capture
	# took (CAP_DEVS) and the 32 a parse kept (DEVS_MAX) before; a write
	# on each, each device's files and the stream of all read as blkparse
	# reads them (a device at a time: 40 devices' files on every CPU can
	# pass the STREAMS_MAX files one parse opens)
	if many_loops 40 "$OUT/many"; then
		manyload() { local d; for d in $(cat "$OUT/many.devs"); do dd if=/dev/zero of="$d" bs=4k count=1 oflag=direct 2>/dev/null; done; }
		rm -rf "$OUT/many"; mkdir -p "$OUT/many"
		rm -f "$OUT/many.err"; "$IOMON" trace $(sed 's/^/-d /' "$OUT/many.devs") -D "$OUT/many" >"$OUT/many.sum" 2>"$OUT/many.err" &
		pid=$!; capturing "$OUT/many.err" $pid; manyload; kill -INT $pid; wait $pid
		check "trace, 40 devices: exit 0, a summary for each" sh -c "test $? = 0 && test \$(grep -c '^  Total:' '$OUT/many.sum') = 40"
		check "trace, 40 devices: nothing refused" sh -c "! grep -q CAP_DEVS '$OUT/many.err'"
		# under a soft limit of 64 open files (40 devices take 160 and
		# more): raised as blktrace raises it, not "No file descriptors"
		rm -rf "$OUT/manyl"; mkdir -p "$OUT/manyl"
		rm -f "$OUT/manyl.err"; (ulimit -S -n 64 && exec "$IOMON" trace $(sed 's/^/-d /' "$OUT/many.devs") -D "$OUT/manyl") >"$OUT/manyl.sum" 2>"$OUT/manyl.err" &
		pid=$!; capturing "$OUT/manyl.err" $pid; manyload; kill -INT $pid; wait $pid
		check "trace, 40 devices under ulimit -n 64: exit 0, a summary for each" sh -c "test $? = 0 && test \$(grep -c '^  Total:' '$OUT/manyl.sum') = 40"
		n=0; for d in $(sed 's,^/dev/,,' "$OUT/many.devs"); do "$IOMON" parse -D "$OUT/manyl" -i "$d" 2>/dev/null | grep -qE ' Q +WS? 0 \+ 8 \[dd\]' && n=$((n + 1)); done
		check "trace, 40 devices under ulimit -n 64: each device's write in its files ($n)" test $n = 40
		# under a hard limit of 64 too: root raises both, as blktrace does
		# (where root may: CAP_SYS_RESOURCE; t-vm does it in the VMs)
		if [ $(( 0x$(awk '/^CapEff/ { print $2 }' /proc/self/status) >> 24 & 1 )) = 1 ]; then
			rm -rf "$OUT/manyh"; mkdir -p "$OUT/manyh"
			rm -f "$OUT/manyh.err"; (ulimit -n 64 && exec "$IOMON" trace $(sed 's/^/-d /' "$OUT/many.devs") -D "$OUT/manyh") >"$OUT/manyh.sum" 2>"$OUT/manyh.err" &
			pid=$!; capturing "$OUT/manyh.err" $pid; manyload; kill -INT $pid; wait $pid
			check "trace, 40 devices under a hard limit of 64 files: exit 0, a summary for each" sh -c "test $? = 0 && test \$(grep -c '^  Total:' '$OUT/manyh.sum') = 40"
		else
			skip "trace under a hard limit of 64 files" "root here lacks CAP_SYS_RESOURCE (t-vm raises it in the VMs)"
		fi
		# a process that may not raise the hard limit (no CAP_SYS_RESOURCE)
		# still takes the soft one up to it: as many devices as 48 files
		# hold (up to 8), under a soft limit of 16 and a hard one of 64
		k=$((48 / (2 * $(nproc)))); [ $k -gt 8 ] && k=8
		if [ $k -lt 2 ]; then
			skip "trace without CAP_SYS_RESOURCE" "$(nproc) CPUs: not two devices' files under a hard limit of 64"
		elif setpriv --bounding-set=-sys_resource --inh-caps=-sys_resource true 2>/dev/null; then
			head -$k "$OUT/many.devs" >"$OUT/eight.devs"
			rm -rf "$OUT/manyc"; mkdir -p "$OUT/manyc"
			rm -f "$OUT/manyc.err"; (ulimit -S -n 16 && ulimit -H -n 64 && exec setpriv --bounding-set=-sys_resource --inh-caps=-sys_resource "$IOMON" trace $(sed 's/^/-d /' "$OUT/eight.devs") -D "$OUT/manyc") >"$OUT/manyc.sum" 2>"$OUT/manyc.err" &
			pid=$!; capturing "$OUT/manyc.err" $pid; manyload; kill -INT $pid; wait $pid
			check "trace, $k devices under 16 of a hard 64 files, without CAP_SYS_RESOURCE: exit 0, a summary for each" sh -c "test $? = 0 && test \$(grep -c '^  Total:' '$OUT/manyc.sum') = $k"
		else
			skip "trace without CAP_SYS_RESOURCE" "setpriv cannot drop it here"
		fi
		: >"$OUT/many.txt"; : >"$OUT/many.perr"; : >"$OUT/many.ip"; : >"$OUT/many.bp"
		for d in $(sed 's,^/dev/,,' "$OUT/many.devs"); do
			"$IOMON" parse -D "$OUT/many" -i "$d" >>"$OUT/many.txt" 2>>"$OUT/many.perr"
			if have_oracle; then
				( cd "$OUT/many" && blkparse -i "$d" ) >>"$OUT/many.bp" 2>&1
				( cd "$OUT/many" && "$IOMON" parse -i "$d" ) >>"$OUT/many.ip" 2>&1
			fi
		done
		check "parse, 40 devices' files: each device's write ($(grep -cE ' Q +WS? 0 \+ 8 \[dd\]' "$OUT/many.txt"))" \
			test "$(grep -cE ' Q +WS? 0 \+ 8 \[dd\]' "$OUT/many.txt")" = 40
		check "parse, 40 devices' files: nothing said" test ! -s "$OUT/many.perr"
		rm -f "$OUT/manys.err"; "$IOMON" trace -o - $(sed 's/^/-d /' "$OUT/many.devs") >"$OUT/many.bin" 2>"$OUT/manys.err" &
		pid=$!; capturing "$OUT/manys.err" $pid; manyload; kill -INT $pid; wait $pid
		"$IOMON" parse -i - <"$OUT/many.bin" >"$OUT/manys.txt" 2>"$OUT/manys.perr"
		check "parse -i -, a stream of 40 devices: each device's write ($(grep -cE ' Q +WS? 0 \+ 8 \[dd\]' "$OUT/manys.txt"))" \
			test "$(grep -cE ' Q +WS? 0 \+ 8 \[dd\]' "$OUT/manys.txt")" = 40
		check "parse -i -, a stream of 40 devices: nothing dropped" test ! -s "$OUT/manys.perr"
		if have_oracle "t-trace.sh: 40 devices against Debian's blkparse"; then
			same "trace, 40 devices: Debian's blkparse reads each device's files as iomon does" "$OUT/many.ip" "$OUT/many.bp"
			blkparse -i - <"$OUT/many.bin" >"$OUT/manys.bp" 2>&1
			same "trace -o -, 40 devices: Debian's blkparse reads the stream as iomon does" "$OUT/manys.txt" "$OUT/manys.bp"
		fi
	else
		skip "trace, 40 devices" "only $(wc -l <"$OUT/many.devs") loop devices could be made"
	fi
	many_loops_gone "$OUT/many"

	mkdir -p "$OUT/bin"; "$IOMON" --install "$OUT/bin" >/dev/null 2>&1
	if command -v blktrace >/dev/null; then
		check "blktrace -V as Debian's prints it" test "$(PATH=$OUT/bin:$PATH blktrace -V)" = "$(blktrace -V)"
	fi

	# the stream on stdout, straight into the parser
	rm -f "$OUT/st.err" "$OUT/st.pid"
	{ "$IOMON" trace -o - "$LOOP" 2>"$OUT/st.err" & echo $! >"$OUT/st.pid"; wait; } | "$IOMON" parse -i - >"$OUT/st.txt" 2>&1 &
	pp=$!; poll 30 test -s "$OUT/st.pid"; pid=$(cat "$OUT/st.pid")
	capturing "$OUT/st.err" $pid; load; kill -INT $pid; wait $pp
	check "trace -o - | parse -i -: 100 queued writes" test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/st.txt")" = 100
	check "trace -o -: summary on stderr" grep -q '^=== ' "$OUT/st.err"

	# drops: the tracer is stopped (SIGSTOP) while the load runs, so its
	# small buffer (-b 4 -n 1) overflows; the summary counts the loss and
	# the warning follows, as blktrace's
	rm -f "$OUT/drop.err"; "$IOMON" trace -d "$LOOP" -b 4 -n 1 -D "$OUT/cap" >"$OUT/drop.sum" 2>"$OUT/drop.err" &
	pid=$!; capturing "$OUT/drop.err" $pid; kill -STOP $pid; load; load; kill -CONT $pid; kill -INT $pid; wait $pid
	check "trace: drops counted in the summary" grep -qE '^  Total: .*\(dropped [1-9][0-9]*\)' "$OUT/drop.sum"
	check "trace: drops warned about, as blktrace does" \
		grep -q '^Consider using a larger buffer size (-b) and/or more buffers (-n)$' "$OUT/drop.err"
	( cd "$OUT/cap" && "$IOMON" parse -i "$LN" ) >"$OUT/drop.txt" 2>&1
	check "trace: what survived the drops still parses" grep -q "^Events (" "$OUT/drop.txt"

	# btrace: capture and text in one process
	rm -f "$OUT/bt.err"; "$IOMON" btrace -s "$LOOP" >"$OUT/bt.txt" 2>"$OUT/bt.err" &
	pid=$!; capturing "$OUT/bt.err" $pid; load; kill -INT $pid; wait $pid
	check "btrace: exit 0" test $? = 0
	check "btrace: 100 queued writes, live text" test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/bt.txt")" = 100
	check "btrace: blkparse's summary on stdout" grep -q "^Events ($(printf '%d,%d' 0x$(stat -L -c '%t' "$LOOP") 0x$(stat -L -c '%T' "$LOOP"))): " "$OUT/bt.txt"
	check "btrace -s: per-process block for dd" grep -qE '^dd \([0-9]+\)$' "$OUT/bt.txt"
	check "btrace: blktrace's summary on stderr" grep -q '^=== ' "$OUT/bt.err"
	check "btrace: no instance left" gone $pid
	ln -sf "$IOMON" "$OUT/btrace"
	"$OUT/btrace" >/dev/null 2>"$OUT/bt.err"
	check "btrace without a device: its usage, exit 2" sh -c "test $? = 2 && grep -q '^usage: btrace' '$OUT/bt.err'"

	# monitor -t: blkiomon's statistics from a live capture, no pipe
	rm -f "$OUT/lm.err"; "$IOMON" monitor -I 1 -t "$LOOP" -h "$OUT/lm.txt" 2>"$OUT/lm.err" &
	pid=$!; capturing "$OUT/lm.err" $pid; load
	# an interval printed (monitor prints none without requests): the
	# load's, or its first part; SIGINT then ends the run
	wait_for 10 "monitor -t -I 1 to print an interval" grep -q '^time:' "$OUT/lm.txt"
	kill -INT $pid; wait $pid
	check "monitor -t: ends cleanly on SIGINT" test $? = 0
	check "monitor -t: the 100 writes matched D to C" \
		sh -c "awk '/^sizes write/ { sub(/,/, \"\", \$5); n += \$5 } END { exit n != 100 }' '$OUT/lm.txt'"
	check "monitor -t: no instance left" gone $pid

	# top, live: biotop's table for the loop device, a table a second;
	# Ctrl-C once the tables show the load
	dd_rows() { awk '$2 == "dd" && $3 == "W" && $6 == "'"$LN"'" { io += $7; kb += $8 } END { exit !(io == 100 && kb == 400) }' "$OUT/lt.txt"; }
	rm -f "$OUT/lt.err"; "$IOMON" top -C -d "$LOOP" 1 >"$OUT/lt.txt" 2>"$OUT/lt.err" &
	pid=$!; capturing "$OUT/lt.err" $pid; load
	check "top -d: dd's 100 writes of 4 KiB in one row" poll 30 dd_rows
	kill -INT $pid; wait $pid
	check "top -d: SIGINT ends it, exit 0" test $? = 0
	check "top -d: the live clock line has the load average" grep -qE '^[0-9:]{8} loadavg: [0-9.]+ ' "$OUT/lt.txt"
	check "top -d: no instance left" gone $pid
	# Ctrl-C at once after the load, before any interval ends: the table
	# it prints counts what the capture drained at its end
	rm -f "$OUT/lc.err"; "$IOMON" top -C -d "$LOOP" 3600 >"$OUT/lt.txt" 2>"$OUT/lc.err" &
	pid=$!; capturing "$OUT/lc.err" $pid; load; kill -INT $pid; wait $pid
	check "top -d, Ctrl-C right after the load: exit 0" test $? = 0
	check "top -d, Ctrl-C right after the load: its one table has dd's 100 writes" dd_rows
	# ... and with a count it stops by itself
	# (one that does not stop fails here, rather than hanging the run)
	"$IOMON" top -C -d "$LOOP" 1 1 >"$OUT/lt1.txt" 2>"$OUT/lt1.err" &
	pid=$!
	check "top -d 1 1: ends by itself" poll 30 sh -c "! kill -0 $pid 2>/dev/null"
	kill $pid 2>/dev/null; wait $pid
	check "top -d: exits after its count" test $? = 0
	check "top -d 1 1: its one table" test "$(grep -c '^PID' "$OUT/lt1.txt")" = 1
	check "top -d 1 1: no instance left" gone $pid

	# signals: the capture ends cleanly, kernel state removed
	for sig in INT TERM HUP; do
		rm -rf "$OUT/sig"; mkdir -p "$OUT/sig"
		rm -f "$OUT/sig.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/sig" >"$OUT/sig.sum" 2>"$OUT/sig.err" &
		pid=$!; capturing "$OUT/sig.err" $pid; load; kill -$sig $pid; wait $pid
		check "trace: SIG$sig ends it with exit 0" test $? = 0
		check "trace: SIG$sig: summary printed" grep -q '^=== ' "$OUT/sig.sum"
		check "trace: SIG$sig: no tracefs instance left" gone $pid
	done
	# a reader that goes away
	rm -f "$OUT/pipe.err"; ( "$IOMON" trace -o - "$LOOP" 2>"$OUT/pipe.err" & echo $! >"$OUT/pipe.pid"; wait ) | head -c 100 >/dev/null &
	capturing "$OUT/pipe.err" $!; load
	check "trace: closed stdout ends the capture" poll 15 sh -c "! kill -0 $(cat "$OUT/pipe.pid") 2>/dev/null"
	kill "$(cat "$OUT/pipe.pid")" 2>/dev/null; wait 2>/dev/null
	check "trace: closed stdout: no instance left" gone "$(cat "$OUT/pipe.pid")"
	# a full disk
	mkdir -p "$OUT/tiny"; umount "$OUT/tiny" 2>/dev/null
	if mount -t tmpfs -o size=16k tmpfs "$OUT/tiny" 2>/dev/null; then
		rm -f "$OUT/full.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/tiny" -w 5 >/dev/null 2>"$OUT/full.err" &
		pid=$!; capturing "$OUT/full.err" $pid; load; load; wait $pid
		check "trace: full disk: exit 1" test $? = 1
		check "trace: full disk: says so" grep -q 'No space left' "$OUT/full.err"
		check "trace: full disk: no instance left" gone $pid
		umount "$OUT/tiny"
	else
		skip "trace: full disk" "cannot mount a small tmpfs"
	fi
	# tracefs plug events name no device: iomon gives one to the device
	# its task queued on last.  A process that reads another disk (its plug
	# there named "bash") on CPU 1, then execs dd to write ours on CPU 0:
	# CPU 0's page is read first, so the older plug arrives after dd's
	# writes.  It is not our device's plug, and it must not rename dd (a
	# fresh machine's cold exec read once did, in CI).
	if [ "$(nproc)" -ge 2 ] && need "trace: another disk's plug" taskset; then
		LO=$OUT/other.img; rm -f "$LO"; truncate -s 4M "$LO"; OTHER=$(losetup -f --show "$LO")
		rm -rf "$OUT/pl"; mkdir -p "$OUT/pl"
		rm -f "$OUT/pl.err"; "$IOMON" trace -d "$LOOP" -D "$OUT/pl" >/dev/null 2>"$OUT/pl.err" &
		pid=$!; capturing "$OUT/pl.err" $pid
		for i in 1 2 3 4 5; do
			blockdev --flushbufs "$OTHER"
			taskset -c 1 dd if="$LOOP" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
			taskset -c 1 bash -c 'read -rN 40000 x <"$1"; exec taskset -c 0 dd if=/dev/zero of="$2" bs=4k count=2 oflag=direct 2>/dev/null' - "$OTHER" "$LOOP"
		done
		kill -INT $pid; wait $pid
		losetup -d "$OTHER"
		"$IOMON" parse -D "$OUT/pl" -i "$LN" >"$OUT/pl.txt" 2>&1
		check "trace: another disk's plug: dd's 10 writes ($(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/pl.txt"))" \
			test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/pl.txt")" = 10
		check "trace: another disk's plug: none before its task's first queue here" \
			awk '$6 == "Q" { q[$5] = 1 } ($6 == "P" || $6 == "U") && !q[$5] { bad = 1 } END { exit bad }' "$OUT/pl.txt"
		( cd "$OUT/pl" && "$IOMON" top -C -i "$LN" ) >"$OUT/pl.top" 2>&1
		check "trace: another disk's plug: top names the writer dd" \
			awk '$3 == "W" { w += $7; if ($2 != "dd") bad = 1 } END { exit bad || w != 10 }' "$OUT/pl.top"
	fi
	# clear words
	"$IOMON" trace -d /dev/nosuchdisk -w 1 >/dev/null 2>"$OUT/e.err"
	check "trace: no such device" grep -q '/dev/nosuchdisk: no such device' "$OUT/e.err"
	"$IOMON" trace -d "$LOOP" -a bogus -w 1 >/dev/null 2>"$OUT/e.err"
	check "trace: unknown mask name" grep -q 'Invalid action mask bogus' "$OUT/e.err"
	"$IOMON" trace -d "$LI" -w 1 >/dev/null 2>"$OUT/e.err"
	check "trace: not a block device" grep -q 'not a block device' "$OUT/e.err"
	if command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$IOMON" trace -d "$LOOP" -w 1 >/dev/null 2>"$OUT/e.err"
		check "trace: not root" grep -q 'needs root' "$OUT/e.err"
	fi
	if ! need "trace: disk and partition" sfdisk; then
		:
	elif printf 'label: dos\n,16M\n,\n' | sfdisk -q "$LOOP" >/dev/null 2>&1 && losetup -d "$LOOP" &&
		LOOP=$(losetup -f --show -P "$LI") &&
		{ poll 5 test -b "${LOOP}p1" || { partx -a "$LOOP" 2>/dev/null && poll 5 test -b "${LOOP}p1"; }; }; then
		# (6.18's loop driver may not read the table: partx adds it)
		"$IOMON" trace -d "$LOOP" -d "${LOOP}p1" -w 1 >/dev/null 2>"$OUT/e.err"
		check "trace: disk and partition at once refused" grep -q 'cannot be traced together' "$OUT/e.err"
	else
		skip "trace: disk and partition" "no partitions on the loop device, even after partx -a"
	fi
	# a kernel without the blktrace ioctls (CONFIG_BLK_DEV_IO_TRACE off):
	# strace makes every ioctl fail with ENOTTY
	if command -v strace >/dev/null; then
		strace -f -o /dev/null -e trace=ioctl -e inject=ioctl:error=ENOTTY \
			"$IOMON" trace -d "$LOOP" -w 1 -D "$OUT/nt" >/dev/null 2>"$OUT/nt.err"
		check "no blktrace ioctls: said plainly" grep -q 'this kernel has no blktrace ioctls (CONFIG_BLK_DEV_IO_TRACE is off)' "$OUT/nt.err"
		check "no blktrace ioctls: tracefs takes over" grep -q 'capturing through tracefs' "$OUT/nt.err"
		strace -f -o /dev/null -e trace=ioctl -e inject=ioctl:error=ENOTTY \
			"$IOMON" trace --backend=relay -d "$LOOP" -w 1 -D "$OUT/nt" >/dev/null 2>"$OUT/nt.err"
		check "no blktrace ioctls, relay forced: exit 1" test $? = 1
	else
		skip "kernel without blktrace ioctls" "strace is not installed"
	fi
	# a full disk (issue 27, 7): one message naming the file, the capture
	# stops by itself (exit 1), and what was written ends at a whole record
	FD=$OUT/fulldisk; mkdir -p "$FD"; umount "$FD" 2>/dev/null
	if mount -t tmpfs -o size=64k tmpfs "$FD" 2>/dev/null; then
		rm -f "$OUT/fd.err"; timeout 60 "$IOMON" trace -d "$LOOP" -D "$FD" >/dev/null 2>"$OUT/fd.err" &
		pid=$!; capturing "$OUT/fd.err" $pid
		while kill -0 $pid 2>/dev/null; do dd if=/dev/zero of="$LOOP" bs=4k count=200 oflag=direct 2>/dev/null; done
		wait $pid; rc=$?
		check "full disk: the capture stops by itself, exit 1 ($rc)" test $rc = 1
		check "full disk: one message, naming the file" test "$(grep -c 'No space left on device' "$OUT/fd.err")" = 1
		check "full disk: the message names the file and says where it ends" \
			grep -qE "write $FD/$LN\.blktrace\.[0-9]+: No space left on device; capture stopped, the file ends at its last whole record" "$OUT/fd.err"
		( cd "$FD" && "$IOMON" parse -i "$LN" ) >"$OUT/fd.txt" 2>"$OUT/fd.perr"
		check "full disk: iomon parse reads every file to its end, exit 0 ($?)" sh -c "test -s '$OUT/fd.txt' && ! grep -q . '$OUT/fd.perr'"
		if have_oracle "t-trace.sh: full disk, against Debian's blkparse"; then
			( cd "$FD" && blkparse -i "$LN" ) >"$OUT/fd.bp" 2>&1
			same "full disk: Debian's blkparse reads the cut files as iomon does" "$OUT/fd.txt" "$OUT/fd.bp"
		fi
		umount "$FD"
	else
		skip "full disk" "cannot mount a small tmpfs"
	fi
	# relay's reads, here where lockdown refuses the kernel's relay files:
	# the ioctls still work on a loop device, so -r points at a folder
	# whose trace<cpu> are FIFOs fed with a real relay capture.  With 1 KiB
	# reads (-b 1) most reads cut a record; a stream passes whole records
	# only (the rest of a cut one read at once), so every record arrives.
	# The feeder writes whole records, as a relay file holds them.
	FR=$OUT/fakerelay; rm -rf "$FR"; mkdir -p "$FR/block/$LN"; : >"$FR/block/$LN/dropped"
	RF=$TOP/tests/fixtures/mq-randrw
	for c in 0 1; do mkfifo "$FR/block/$LN/trace$c"; done
	ncpu=$(( $(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1 ))
	for c in $(seq 2 $((ncpu - 1))); do : >"$FR/block/$LN/trace$c"; done
	{ for c in 0 1; do python3 "$TOP/tests/tools/relayfeed.py" "$RF/nullb0.blktrace.$c" "$FR/block/$LN/trace$c" & done; wait; } &
	feeder=$!
	timeout 60 "$IOMON" trace --backend=relay -r "$FR" -b 1 -d "$LOOP" -o - >"$OUT/fr.bin" 2>"$OUT/fr.err" &
	pid=$!
	wait $feeder; kill -INT $pid; wait $pid
	check "relay reads cut mid-record (FIFOs): exit 0" test $? = 0
	check "relay reads cut mid-record: nothing dropped as no whole record" sh -c "! grep -q 'no whole record' '$OUT/fr.err'"
	fmt='%c %a %d %S %n %s\n'
	"$IOMON" parse -i - -f "$fmt" <"$OUT/fr.bin" 2>/dev/null | grep -E '^[0-9]+ ' | sort >"$OUT/fr.got"
	"$IOMON" parse -D "$RF" -i nullb0 -f "$fmt" 2>/dev/null | grep -E '^[0-9]+ ' | sort >"$OUT/fr.want"
	check "relay reads cut mid-record: every record of both CPUs in the stream ($(wc -l <"$OUT/fr.want"))" \
		sh -c "test -s '$OUT/fr.want' && cmp -s '$OUT/fr.got' '$OUT/fr.want'"
	"$IOMON" trace -k -d "$LOOP" >/dev/null 2>"$OUT/k.err"
	check "trace -k: exit 0" test $? = 0
	losetup -d "$LOOP"
fi
