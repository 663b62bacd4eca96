# needs: python3
# Hostile input and faults: the catalogue of damaged inputs (docs/applets.md,
# "Damaged input"), one test each, through parse (files and -i -), monitor
# and top replays; outputs that fail; a capture killed and the next one;
# trace files no link can redirect; memory bounded on 5M events.
E=$FIX/ext4
H=$OUT/hostile
# dmg KIND WHERE N: fresh copies of the ext4 files and the stream fixture
# with one damaged (WHERE 0 or 1: that CPU's file; s: the stream); $off is
# the damage's byte offset
dmg() {
	rm -rf "$H"; mkdir -p "$H"
	cp "$E"/nullb0.blktrace.* "$H/"; cp "$FIX/stream/nullb0.stream" "$H/x.stream"; chmod u+w "$H"/*
	if [ "$2" = s ]; then off=$(python3 "$TOOLS/damage.py" "$H/x.stream" "$1" "$3")
	else off=$(python3 "$TOOLS/damage.py" "$H/nullb0.blktrace.$2" "$1" "$3"); fi
}
# run NAME CMD...: in $H, output NAME.out, NAME.err, exit status NAME.rc
run() { local n=$1; shift; ( cd "$H" && "$@" ) >"$H/$n.out" 2>"$H/$n.err"; echo $? >"$H/$n.rc"; }
rc() { test "$(cat "$H/$1.rc")" = "$2"; }
# same, but a monitor stream's "time:" lines are the wall clock (its one
# interval is an hour: a loaded machine must not split the replay otherwise)
msame() { grep -v '^time: ' "$2" >"$2.nt"; grep -v '^time: ' "$3" >"$3.nt"; same "$1" "$2.nt" "$3.nt"; }
# the three replays of the damaged files and of the damaged stream
replays() {
	run p "$IOMON" parse -i nullb0
	run m "$IOMON" monitor -I 1 -i nullb0 -h -
	run t "$IOMON" top -C -i nullb0 1
	run ps sh -c "exec '$IOMON' parse -i - <x.stream"
	run ms sh -c "exec '$IOMON' monitor -I 3600 -h - <x.stream"
	run ts sh -c "exec '$IOMON' top -C -i - 1 <x.stream"
}
# the same replays of undamaged input, as references
rm -rf "$OUT/hclean"; mkdir -p "$OUT/hclean"
cp "$E"/nullb0.blktrace.* "$FIX/stream/nullb0.stream" "$OUT/hclean/"
( cd "$OUT/hclean" && "$IOMON" parse -i nullb0 >p.ref && "$IOMON" monitor -I 1 -i nullb0 -h m.ref &&
  "$IOMON" top -C -i nullb0 1 >t.ref && "$IOMON" parse -i - <nullb0.stream >ps.ref &&
  "$IOMON" monitor -I 3600 -h ms.ref <nullb0.stream && "$IOMON" top -C -i - 1 <nullb0.stream >ts.ref ) 2>/dev/null
R=$OUT/hclean
events() { grep -c '^254,0 ' "$1"; }

# ---- framing damage: the record boundary is lost, so stop there ----
# file and offset named, exit 1, everything before it printed: parse as
# blkparse prints it; monitor and top as they print the file cut there
for kind in cut payload pdulen magic version; do
	n=250; [ $kind = payload ] && n=260
	dmg $kind 0 $n
	replays
	for a in p m t; do
		check "$kind ($a, files): exit 1" rc $a 1
		check "$kind ($a, files): file and byte offset named" grep -q "nullb0.blktrace.0: .* at byte $off\b" "$H/$a.err"
	done
	if have_oracle; then
		( cd "$H" && blkparse -i nullb0 ) >"$H/bp" 2>/dev/null
		same "$kind (parse, files): every valid record printed, as blkparse" "$H/p.out" "$H/bp"
	else
		skip "$kind: compare with blkparse" "blkparse not installed"
	fi
	truncate -s "$off" "$H/nullb0.blktrace.0"
	run mc "$IOMON" monitor -I 1 -i nullb0 -h -
	run tc "$IOMON" top -C -i nullb0 1
	same "$kind (monitor, files): the statistics of what came before" "$H/m.out" "$H/mc.out"
	same "$kind (top, files): the table of what came before" "$H/t.out" "$H/tc.out"
done
# the same in the stream
for kind in cut payload pdulen magic version; do
	n=2500; [ $kind = payload ] && n=0
	dmg $kind s $n
	replays
	at=$off; [ $kind = pdulen ] && at=$((off + 48 + 65535))	# the payload is believed; the next magic is not there
	for a in ps ms ts; do
		check "$kind ($a, stream): exit 1" rc $a 1
		check "$kind ($a, stream): byte offset named" grep -q "(stdin): .* at byte $at\b" "$H/$a.err"
	done
	head -c "$at" "$H/x.stream" >"$H/cut.stream"
	if [ "$at" = 0 ]; then	# damage in the first record: nothing came before
		for a in ps ms ts; do same_empty "$kind ($a, stream): nothing before the damage, nothing printed" "$H/$a.out"; done
		continue
	fi
	if have_oracle "t-hostile.sh line 73: against Debian's blkparse"; then
		blkparse -i - <"$H/cut.stream" >"$H/bp" 2>/dev/null
		same "$kind (parse, stream): every valid record printed, as blkparse prints the stream cut there" "$H/ps.out" "$H/bp"
	fi
	"$IOMON" monitor -I 3600 -h "$H/mc.out" <"$H/cut.stream" 2>/dev/null
	"$IOMON" top -C -i - 1 <"$H/cut.stream" >"$H/tc.out" 2>/dev/null
	msame "$kind (monitor, stream): the statistics of what came before" "$H/ms.out" "$H/mc.out"
	same "$kind (top, stream): the table of what came before" "$H/ts.out" "$H/tc.out"
done
if have_oracle "t-hostile.sh line 82: against Debian's blkparse"; then
	dmg magic s 2500
	blkparse -i - <"$H/x.stream" >"$H/bp" 2>/dev/null
	"$IOMON" parse -i - <"$H/x.stream" >"$H/ip" 2>/dev/null
	check "bad magic in a stream: blkparse trusts the broken record's length and reads on, $(events "$H/bp") events to iomon's $(events "$H/ip") before the damage (why iomon stops)" \
		test "$(events "$H/bp")" -gt "$(events "$H/ip")"
fi

# ---- damage that keeps the framing: read on ----
# an empty file or stream: nothing, exit 0, as blkparse
dmg empty 1 0
replays
for a in p m t; do check "empty CPU file ($a): exit 0" rc $a 0; done
have_oracle "t-hostile.sh line 95: against Debian's blkparse" && { ( cd "$H" && blkparse -i nullb0 ) >"$H/bp" 2>/dev/null; same "empty CPU file (parse): as blkparse" "$H/p.out" "$H/bp"; }
: >"$H/x.stream"
replays
for a in ps ms ts; do
	check "empty stream ($a): exit 0, no output" sh -c "test \"\$(cat '$H/$a.rc')\" = 0 && test ! -s '$H/$a.out'"
done

# damage that is read on: every applet exits 0 and prints what it printed
# without the damage (record 250 of a file, 2500 of the stream)
readon() {	# KIND 1|s LABEL
	local a n=250; [ "$2" = s ] && n=2500
	dmg "$1" "$2" $n
	replays
	for a in p m t ps ms ts; do
		case $a in *s) [ "$2" = s ] || continue ;; *) [ "$2" = s ] && continue ;; esac
		check "$3 ($a): exit 0" rc $a 0
		msame "$3 ($a): output as without it" "$H/$a.out" "$R/$a.ref"
	done
}
# unfilled (all-zero) records: stepped over, counted, named (blkparse ends
# that CPU there: t-errors.sh)
for w in 1 s; do
	readon zero $w "unfilled record"
	for a in p m t ps ms ts; do
		case $a in *s) [ $w = s ] || continue ;; *) [ $w = s ] && continue ;; esac
		check "unfilled record ($a): offset named" grep -q "unfilled (all-zero) records, the first in .* at byte $off\$" "$H/$a.err"
	done
done
# the byte order flips mid-stream: each record says its own, so nothing changes
for w in 1 s; do readon swap $w "byte order flip"; done
if have_oracle "t-hostile.sh line 125: against Debian's blkparse"; then
	blkparse -i - <"$H/x.stream" >"$H/bp" 2>"$H/bp.err"
	check "byte order flip: blkparse says Bad magic and loses the rest (why iomon differs)" grep -q 'Bad magic' "$H/bp.err"
fi

# time backwards, sequence gaps and duplicates, an unknown action, a
# process name without NUL: per-CPU files print exactly as blkparse's
for kd in "back 263" "gap 250" "dup 250" "action 250" "nonul 0"; do
	set -- $kd
	dmg $1 1 $2
	replays
	for a in p m t; do check "$1 ($a, files): exit 0" rc $a 0; done
	if have_oracle "t-hostile.sh line 137: against Debian's blkparse"; then
		( cd "$H" && blkparse -i nullb0 ) >"$H/bp" 2>/dev/null
		same "$1 (parse, files): as blkparse" "$H/p.out" "$H/bp"
	fi
done
check "nonul: the name shows, cut at 15 bytes as blkparse cuts it" grep -q '\[xxxxxxxxxxxxxxx\]$' "$H/p.out"
dmg action 1 250
replays
check "unknown action: said, as blkparse" grep -q '^parse: Bad fs action 101a003f$' "$H/p.err"
check "unknown action: the rest printed" test "$(events "$H/p.out")" = "$(($(events "$R/p.ref") - 1))"
dmg back 1 263
run md "$IOMON" monitor -I 1 -i nullb0 -h /dev/null -D -
mis() { sed -n 's/.* \([0-9]*\) mismatch,.*/\1/p' "$1"; }
( cd "$R" && "$IOMON" monitor -I 1 -i nullb0 -h /dev/null -D md.ref )
check "time backwards (monitor): a completion before its issue is one more counted mismatch" \
	test "$(mis "$H/md.out")" = "$(($(mis "$R/md.ref") + 1))"
# in the stream: no record is held back (blkparse waits for the missing
# one until EOF: docs/applets.md, deliberate differences)
for kind in back gap dup action; do
	dmg $kind s 2500
	replays
	for a in ps ms ts; do check "$kind ($a, stream): exit 0" rc $a 0; done
	want=$(events "$R/ps.ref"); [ $kind = action ] && want=$((want - 1))
	check "$kind (parse, stream): every record printed" test "$(events "$H/ps.out")" = "$want"
done
dmg gap s 2500
run ps sh -c "exec '$IOMON' parse -i - <x.stream"
check "gap (parse, stream): counted" grep -q '^Skips: 1 forward' "$H/ps.out"

# inputs that are not trace files
rm -rf "$H"; mkdir -p "$H/dir.blktrace.0"
run m "$IOMON" monitor -I 1 -i dir -h -
run t "$IOMON" top -C -i dir 1
for a in m t; do
	check "directory ($a): exit 1" rc $a 1
	check "directory ($a): named, as parse names it" grep -q 'dir.blktrace.0: is a directory' "$H/$a.err"
	check "directory ($a): not also said missing" sh -c "! grep -q 'No input files' '$H/$a.err'"
done
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# root reads any file: drop the capabilities that let it
	cp "$E/nullb0.blktrace.0" "$H/"; chmod 000 "$H/nullb0.blktrace.0"
	np="setpriv --bounding-set=-dac_override,-dac_read_search"
	run p $np "$IOMON" parse -i nullb0
	run m $np "$IOMON" monitor -I 1 -i nullb0 -h -
	run t $np "$IOMON" top -C -i nullb0 1
	for a in p m t; do
		check "unreadable file ($a): exit 1" rc $a 1
		check "unreadable file ($a): named with the reason" grep -q 'nullb0.blktrace.0: Permission denied' "$H/$a.err"
	done
else
	skip "unreadable file" "needs root and setpriv"
fi
# a FIFO as a per-CPU file: monitor and top read it as a file
rm -rf "$H"; mkdir -p "$H"
for a in m t; do
	mkfifo "$H/f.blktrace.0"
	head -c 10010 "$E/nullb0.blktrace.0" >"$H/f.blktrace.0" &
	[ $a = m ] && run m timeout 20 "$IOMON" monitor -I 1 -i f -h -
	[ $a = t ] && run t timeout 20 "$IOMON" top -C -i f 1
	wait; rm -f "$H/f.blktrace.0"
	check "FIFO, cut ($a): exit 1" rc $a 1
	check "FIFO, cut ($a): file and offset named" grep -q 'f.blktrace.0: truncated record at byte 9960 ' "$H/$a.err"
done

# ---- outputs that fail ----
cd "$E"
if [ -w /dev/full ]; then
	for c in "parse -i nullb0" "parse -i nullb0 -q -d /dev/full" "monitor -I 1 -i nullb0 -h /dev/full" \
		 "monitor -I 1 -i nullb0 -b /dev/full" "monitor -I 1 -i nullb0 --json /dev/full" "top -C -i nullb0 1"; do
		$IOMON $c >/dev/full 2>"$H/e.err"
		check "$c, to /dev/full: exit 1" test $? = 1
		check "$c, to /dev/full: says so" grep -q 'No space left on device' "$H/e.err"
	done
else
	skip "output to /dev/full" "/dev/full is not writable here"
fi
mkdir -p "$H/tiny"; umount "$H/tiny" 2>/dev/null
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16k tmpfs "$H/tiny" 2>/dev/null; then
	head -c 1M /dev/zero >"$H/tiny/fill" 2>/dev/null	# now full
	for c in "parse -i nullb0 -o $H/tiny/o.txt" "monitor -I 1 -i nullb0 -h $H/tiny/h.txt" "monitor -I 1 -i nullb0 -b $H/tiny/b.bin"; do
		$IOMON $c >/dev/null 2>"$H/e.err"
		check "${c%% $H*} to a full tmpfs: exit 1" test $? = 1
		check "${c%% $H*} to a full tmpfs: says so" grep -q 'No space left on device' "$H/e.err"
	done
	umount "$H/tiny"
else
	skip "output to a full tmpfs" "needs root to mount a small tmpfs"
fi
# a reader that goes away before we write: SIGPIPE ends us quietly, as it
# does blkparse; with SIGPIPE ignored, a message and exit 1
for c in "parse -i nullb0" "monitor -I 1 -i nullb0 -h -" "top -C -i nullb0 1"; do
	widowed $IOMON $c
	check "$c, reader gone: SIGPIPE (status 141)" test $? = 141
	( trap '' PIPE; widowed $IOMON $c 2>"$H/e.err" )
	check "$c, reader gone, SIGPIPE ignored: exit 1" test $? = 1
	check "$c, reader gone, SIGPIPE ignored: no noise about it" test ! -s "$H/e.err"
done
cd "$TOP"

# ---- capture: planted links, file modes, a killed capture, btrace faults ----
mine() { [ -d "$TRACEFS/instances/iomon-$1" ]; }	# other runs may trace meanwhile
if live_ok "capture faults"; then
	LI=$OUT/hloop.img; rm -f "$LI"; truncate -s 16M "$LI"
	LOOP=$(losetup -f --show "$LI"); LN=${LOOP#/dev/}
	io() { dd if=/dev/zero of="$LOOP" bs=4k count=50 oflag=direct 2>/dev/null; }
	rm -rf "$H"; mkdir -p "$H/cap"
	# a symlink planted where a trace file goes, by another user or by root
	for owner in 65534 0; do
		rm -f "$H/victim" "$H/cap"/*
		ln -s "$H/victim" "$H/cap/$LN.blktrace.0"; chown -h $owner "$H/cap/$LN.blktrace.0"
		rm -f "$H/e.err"; "$IOMON" trace -d "$LOOP" -w 2 -D "$H/cap" >/dev/null 2>"$H/e.err" &
		pid=$!; capturing "$H/e.err" $pid; io; wait $pid
		check "trace: a symlink (uid $owner) at the trace file: exit 1" test $? = 1
		check "trace: a symlink (uid $owner): not followed" test ! -e "$H/victim"
		check "trace: a symlink (uid $owner): says so" grep -q "$LN.blktrace.0: a symbolic link (owned by uid $owner); trace files are never written through one" "$H/e.err"
		check "trace: a symlink (uid $owner): kernel trace torn down" sh -c "! grep -q 'could not remove' '$H/e.err' && ! [ -d $TRACEFS/instances/iomon-$pid ]"
	done
	# files 0600 under umask 000, and an old 0644 file replaced
	rm -f "$H/cap"/*; install -m 644 /dev/null "$H/cap/$LN.blktrace.0"
	# (each capture here is ended by SIGINT once its load is done: no
	# window to guess)
	rm -f "$H/e.err"; ( umask 000; exec "$IOMON" trace -d "$LOOP" -D "$H/cap" >/dev/null 2>"$H/e.err" ) &
	pid=$!; capturing "$H/e.err" $pid; io; kill -INT $pid; wait $pid
	check "trace: umask 000: exit 0" test $? = 0
	check "trace: umask 000 still gives 0600 files" test "$(stat -c %a "$H/cap"/$LN.blktrace.* | sort -u)" = 600
	check "trace: an old 0644 trace file is replaced by a 0600 one" test "$(stat -c %a "$H/cap/$LN.blktrace.0")" = 600
	# (SIGKILL and the next capture clearing its instance: t-trace.sh,
	# which runs alone, so no other file's capture clears it first)
	# btrace to a full disk and to a reader that goes away
	if [ -w /dev/full ]; then
		rm -f "$H/e.err"; "$IOMON" btrace "$LOOP" >/dev/full 2>"$H/e.err" &
		pid=$!; capturing "$H/e.err" $pid; io; io; kill -INT $pid; wait $pid
		check "btrace to /dev/full: exit 1" test $? = 1
		check "btrace to /dev/full: says so" grep -q 'No space left on device' "$H/e.err"
		check "btrace to /dev/full: kernel trace torn down" sh -c "! [ -d $TRACEFS/instances/iomon-$pid ]"
	fi
	rm -f "$H/e.err"; ( "$IOMON" btrace "$LOOP" 2>"$H/e.err" & echo $! >"$H/pid"; wait ) | head -c 10 >/dev/null &
	capturing "$H/e.err" $!; io; io
	check "btrace, reader gone: the capture ends" poll 15 sh -c "! kill -0 $(cat "$H/pid") 2>/dev/null"
	kill "$(cat "$H/pid")" 2>/dev/null; wait 2>/dev/null
	check "btrace, reader gone: kernel trace torn down" sh -c "! [ -d $TRACEFS/instances/iomon-$(cat "$H/pid") ]"
	losetup -d "$LOOP"
fi

# ---- bounded memory: 5M events through parse, monitor, top and btt ----
# files and a piped stream with lost records (gentrace -g); peak RSS
# from tests/tools/peakrss (GNU time cannot see below its own ~400 KiB)
GT=$TOOLS/gentrace PEAK=$TOOLS/peakrss BIG=$OUT/hbig
if [ -n "$CROSS" ]; then
	skip "bounded memory" "under qemu-user ($CROSS) peak RSS would be qemu's"
elif [ ! -x "$GT" ] || [ ! -x "$PEAK" ]; then
	skip "bounded memory" "tests/tools/gentrace or tests/tools/peakrss not built (make check builds them)"
elif ! { rm -rf "$BIG"; mkdir -p "$BIG" && "$GT" -n 5000000 -c 2 -D "$BIG" -o big 2>/dev/null &&
	 "$GT" -S -g -n 5000000 -c 2 >"$BIG/lost.stream" 2>/dev/null; }; then
	rm -rf "$BIG"; skip "bounded memory" "no room for two 240 MB traces under $OUT"
else
	kib() { sed -n 's/^peakrss: \([0-9]*\) KiB$/\1/p' "$1"; }
	# This kernel counts RSS per CPU in batches of 32 pages, so one run
	# of the same program may read 128 KiB above another: a run over the
	# bound is repeated once, and the lower figure counts.
	rss() {	# NAME INPUT CMD...: peak RSS at most LIMIT KiB (512), and it ran through
		local n=$1 in=$2 k1 k lim=${LIMIT:-512}; shift 2
		( cd "$BIG" && "$PEAK" "$@" <"$in" >"$BIG/o" 2>"$BIG/e" )
		k=$(kib "$BIG/e"); k1=$k
		if [ "${k:-999999}" -gt "$lim" ]; then
			( cd "$BIG" && "$PEAK" "$@" <"$in" >"$BIG/o" 2>"$BIG/e" )
			k=$(kib "$BIG/e"); [ "${k:-999999}" -gt "$k1" ] && k=$k1
		fi
		check "$n: ran to the end" test -s "$BIG/o"
		check "$n: peak RSS ${k:-?} KiB <= $lim KiB" test "${k:-999999}" -le "$lim"
		RSS_FIG="$RSS_FIG; $n: $k1${k1:+ KiB}"
	}
	RSS_FIG=
	rss "parse, 5M events in files" /dev/null "$IOMON" parse -i big
	check "parse, 5M events: all of them" grep -qE '^Events \(big\): 50[0-9]{5} entries' "$BIG/o"
	rss "monitor, 5M events in files" /dev/null "$IOMON" monitor -I 1 -i big -h -
	rss "top, 5M events in files" /dev/null "$IOMON" top -C -i big 1
	rss "parse, 5M-event stream with lost records" "$BIG/lost.stream" "$IOMON" parse -i -
	check "parse, stream with lost records: the gaps counted" grep -qE '^Skips: [1-9][0-9]* forward' "$BIG/o"
	rss "monitor, 5M-event stream with lost records" "$BIG/lost.stream" "$IOMON" monitor -I 1 -h -
	rss "top, 5M-event stream with lost records" "$BIG/lost.stream" "$IOMON" top -C -i - 1
	# btt: random requests, most never completed, fill its pools (BTT_REQS
	# Qs, BTT_SEEKS distances: 1.8 MiB of them); past them it counts and
	# says so, and its memory stays where the pools put it
	LIMIT=4096 rss "btt, 5M events in files" /dev/null "$IOMON" btt -i big
	check "btt, 5M events: the pools' overflow said" grep -q "(BTT_SEEKS) kept, or of 2^48 sectors or more: their MEDIAN and MODE are approximate" "$BIG/e"
	LIMIT=4096 rss "btt, 5M-event stream with lost records" "$BIG/lost.stream" "$IOMON" btt -i -
	check "btt, stream with lost records: its report" grep -q "^==================== All Devices ====================" "$BIG/o"
	[ -n "${VERBOSE:-}" ] && echo "peak RSS (KiB):$RSS_FIG"
	rm -rf "$BIG"
fi
