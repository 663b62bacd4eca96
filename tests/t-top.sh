# needs: python3
# serial: its live screen is timed, and other files' load would stretch it
# top: biotop's table from trace replays, checked against counts computed
# independently from blkparse-format text (tests/tools/topref.py).

# Started first, checked further down ("a silent tag helper"): the tiny
# build waits TOP_HELPER_MS (5 s) for an answer that never comes, and the
# other cases run meanwhile.
if [ -x "$IOMON_TINY" ] && command -v python3 >/dev/null; then
	( cd "$FIX/mq-randrw" && exec "$IOMON_TINY" top -C -i nullb0 3600 --tag-helper "cat >/dev/null" ) >/dev/null 2>"$OUT/tag.se" &
	silent=$!
fi

# Live with the example tag helper, on a loop device of its own: a slow
# start (seconds, for an interpreter) delays the first interval, it loses
# no records.  Started here, it runs its three 2-s intervals (three, not
# two: a busy machine once left dd's last records past the second) while
# the cases below run; checked at the end of this file.
tlpid=
if live_ok "top live --tag-helper"; then
	TI2=$OUT/top-loop2.img; rm -f "$TI2"; truncate -s 8M "$TI2"
	TL2=$(losetup -f --show "$TI2"); TN2=${TL2#/dev/}
	rm -f "$OUT/tl.err"; timeout 60 "$IOMON" top -C -d "$TL2" --tag-helper "$TOP/stats/tag-by-pid.py" 2 3 >"$OUT/tl.txt" 2>"$OUT/tl.err" &
	tlpid=$!; capturing "$OUT/tl.err" $tlpid; dd if=/dev/zero of="$TL2" bs=4k count=100 oflag=direct 2>/dev/null
fi
for f in mq-randrw ext4 discard-flush remap; do
	( cd "$FIX/$f" && "$IOMON" parse -i nullb0 ) >"$OUT/top.txt" 2>/dev/null
	python3 "$TOOLS/topref.py" "$OUT/top.txt" | head -20 >"$OUT/top.exp"
	( cd "$FIX/$f" && "$IOMON" top -C -i nullb0 3600 ) >"$OUT/top.out" 2>&1
	awk '$1 ~ /^[0-9]+$/ && NF == 9 { print $1, $3, $7, $8, $9 }' "$OUT/top.out" >"$OUT/top.got"
	# rows with equal bytes may come in either order: compare as sets
	sort "$OUT/top.got" >"$OUT/top.g"; sort "$OUT/top.exp" >"$OUT/top.e"
	same "top -i $f: pid, direction, I/O, Kbytes, AVGms per row" "$OUT/top.g" "$OUT/top.e"
done
( cd "$FIX/mq-randrw" && "$IOMON" top -C -i nullb0 3600 ) >"$OUT/top.out"
check "top: biotop's header" grep -q '^PID     COMM             D MAJ MIN DISK       I/O  Kbytes  AVGms$' "$OUT/top.out"
check "top: a clock line first" grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: ' "$OUT/top.out"
check "top: rows sorted by bytes" sh -c "awk '\$1 ~ /^[0-9]+\$/ && NF == 9 { print \$8 }' '$OUT/top.out' | sort -rn -c"
check "top: names from PROCESS notes" grep -q ' iogen ' "$OUT/top.out"
( cd "$FIX/mq-randrw" && "$IOMON" top -C -r 2 -i nullb0 3600 ) >"$OUT/top.r"
check "top -r 2: two rows" test "$(awk '$1 ~ /^[0-9]+$/ && NF == 9' "$OUT/top.r" | wc -l)" = 2
( cd "$FIX/mq-randrw" && "$IOMON" top -C -i nullb0 1 ) >"$OUT/top.1"
( cd "$FIX/ext4" && "$IOMON" top -C -i nullb0 0.25 2>&1 ) >/dev/null
( cd "$FIX/discard-flush" && "$IOMON" top -C -i nullb0 1 ) >"$OUT/top.df"
check "top: intervals in trace time, the last partial one printed ($(grep -c '^PID' "$OUT/top.df") tables)" \
	test "$(grep -c '^PID' "$OUT/top.df")" -ge 2
"$IOMON" top -C -i - 3600 <"$FIX/stream/nullb0.stream" >"$OUT/top.s"
check "top -i -: a stream" grep -q '^PID' "$OUT/top.s"
( cd "$FIX/discard-flush" && "$IOMON" top -C -i nullb0 3600 ) >/dev/null 2>"$OUT/top.bm"
check "top: back-merged bios leave no request behind (4188 merges, nothing aged out)" \
	sh -c "! grep -q 'aged out' '$OUT/top.bm'"
( cd "$FIX/discard-flush" && "$IOMON" top -C -i nullb0 1 2 ) >"$OUT/top.c2"
check "top interval count: a replay stops after count tables ($(grep -c '^PID' "$OUT/top.c2"))" \
	test "$(grep -c '^PID' "$OUT/top.c2")" = 2
( cd "$FIX/mq-randrw" && "$IOMON" top -i nullb0 3600 ) >"$OUT/top.nc"
check "top without -C, stdout not a terminal: a plain table, no escape codes" \
	sh -c "grep -q '^PID' '$OUT/top.nc' && ! grep -q \"\$(printf '\\033')\" '$OUT/top.nc'"
# -p PID: biotop's filter; the rows are that pid's rows, nothing else
( cd "$FIX/mq-randrw" && "$IOMON" parse -i nullb0 ) >"$OUT/mq.txt"
p1=$(python3 "$TOOLS/topref.py" "$OUT/mq.txt" | awk 'NR == 1 { print $1 }')
p2=$(python3 "$TOOLS/topref.py" "$OUT/mq.txt" | awk '$1 != '"$p1"' { print $1; exit }')
python3 "$TOOLS/topref.py" "$OUT/mq.txt" | awk '$1 == '"$p1" | sort >"$OUT/top.pe"
( cd "$FIX/mq-randrw" && "$IOMON" top -C -p "$p1" -i nullb0 3600 ) |
	awk '$1 ~ /^[0-9]+$/ && NF == 9 { print $1, $3, $7, $8, $9 }' | sort >"$OUT/top.pg"
same "top -p $p1: only that process's rows, as computed from the text" "$OUT/top.pg" "$OUT/top.pe"
"$IOMON" top -p x -i - </dev/null >/dev/null 2>"$OUT/top.pe"
check "top -p x: refused, named" grep -q "bad -p 'x'" "$OUT/top.pe"

# -e: iomon's ERR column (biotop has none).  craft.py's failing trace, its
# times 100-fold so that it spans 4 one-second intervals: each row's ERR
# is the number of blkparse's C lines with an error ([65531] is -5) of
# that process's requests, as topref.py counts them from the text, in the
# whole trace and interval by interval; the closing line is biosnoop's.
if have_oracle "top -e against blkparse's failed C lines"; then
	python3 "$TOOLS/craft.py" failing 100 >"$OUT/fe.stream"
	blkparse -i - <"$OUT/fe.stream" >"$OUT/fe.txt"
	rows10() { awk '$1 ~ /^[0-9]+$/ && NF == 10 { print $1, $3, $7, $8, $9, $10 }' "$1" | sort; }
	"$IOMON" top -C -e -i - 3600 <"$OUT/fe.stream" >"$OUT/fe.out"
	rows10 "$OUT/fe.out" >"$OUT/fe.got"
	python3 "$TOOLS/topref.py" "$OUT/fe.txt" -e | sort >"$OUT/fe.exp"
	nf=$(awk '$6 == "C" && $NF ~ /^\[[1-9][0-9]*\]$/' "$OUT/fe.txt" | wc -l)
	same "top -e: each row's ERR, the failed C lines of its process (blkparse's: $nf)" "$OUT/fe.got" "$OUT/fe.exp"
	check "top -e: ERR sums to blkparse's $nf failed C lines, both rows have some" \
		awk -v n="$nf" '{ s += $6; z += !$6 } END { exit !(n > 0 && s == n && !z && NR == 2) }' "$OUT/fe.got"
	check "top -e: biotop's header, ERR after it" \
		grep -qx 'PID     COMM             D MAJ MIN DISK       I/O  Kbytes  AVGms   ERR' "$OUT/fe.out"
	"$IOMON" top -C -e -i - 1 <"$OUT/fe.stream" >"$OUT/fe.1"
	awk '/^PID/ { k++ } $1 ~ /^[0-9]+$/ && NF == 10 { print k - 1, $1, $3, $7, $8, $9, $10 }' "$OUT/fe.1" | sort >"$OUT/fe.got"
	python3 "$TOOLS/topref.py" "$OUT/fe.txt" -e -i 1 | sort >"$OUT/fe.exp"
	same "top -e 1: ERR counts the interval's failures only ($(grep -c '^PID' "$OUT/fe.1") tables)" "$OUT/fe.got" "$OUT/fe.exp"
	# the closing line from blkparse's text: errnos in order of their first
	# failure, the first 8 sectors of each, then "..."
	python3 "$TOOLS/failref.py" "$OUT/fe.txt" >"$OUT/fe.close"
	tail -1 "$OUT/fe.out" >"$OUT/fe.got"
	same "top -e: the closing line counts blkparse's failed C lines, 8 sectors an errno" "$OUT/fe.got" "$OUT/fe.close"
	tail -1 "$OUT/fe.1" >"$OUT/fe.got"
	same "top -e 1: one closing line, after the last table" "$OUT/fe.got" "$OUT/fe.close"
	check "top -e 1: no other closing line" test "$(grep -c 'failed (' "$OUT/fe.1")" = 1
	# two requests on one sector at once (two readers of one block, both
	# failing; fixtures/sameblock): each counts, in its own process's row
	( cd "$FIX/sameblock" && blkparse -i dm-0 ) >"$OUT/sb.txt"
	( cd "$FIX/sameblock" && "$IOMON" top -C -e -i dm-0 3600 ) >"$OUT/sb.out"
	rows10 "$OUT/sb.out" >"$OUT/sb.got"
	python3 "$TOOLS/topref.py" "$OUT/sb.txt" -e | sort >"$OUT/sb.exp"
	same "top -e: two requests on one sector in flight, a row each (fixtures/sameblock)" "$OUT/sb.got" "$OUT/sb.exp"
	check "top -e: both of fixtures/sameblock's failures in ERR" \
		awk '{ s += $6 } END { exit !(s == 2 && NR == 2) }' "$OUT/sb.got"
	# records lost (fixtures/lost-records): iogen 165's write at the
	# sector of its read whose D and C were lost is a write, not that read
	( cd "$FIX/lost-records" && "$IOMON" top -C -i nullb0 3600 ) >"$OUT/lr.out"
	check "top, lost-records: iogen 165's 3068 writes and 3149 reads, none taken for the lost read" \
		sh -c "grep -qE '^165 +iogen +W 253 0 +nullb0 +3068 +196352 ' '$OUT/lr.out' && grep -qE '^165 +iogen +R 253 0 +nullb0 +3149 +201536 ' '$OUT/lr.out'"
	# -p: that process's failures, in its row and in the closing line
	p=$(awk '$6 == "C" && $NF ~ /^\[[1-9]/ { print $5; exit }' "$OUT/fe.txt")
	np=$(awk -v p="$p" '$6 == "C" && $5 == p && $NF ~ /^\[[1-9]/' "$OUT/fe.txt" | wc -l)
	"$IOMON" top -C -e -p "$p" --errors -i - 3600 <"$OUT/fe.stream" >"$OUT/fe.p"
	check "top -e -p $p: one row, its ERR and the closing line count its $np failures only" \
		sh -c "awk 'NF == 10 && \$1 ~ /^[0-9]+\$/ { n++; e = \$10 } END { exit !(n == 1 && e == $np) }' '$OUT/fe.p' && tail -1 '$OUT/fe.p' | grep -q '^$np I/Os failed ('"
	# without -e: biotop's table, byte for byte as before: no column, no line
	"$IOMON" top -C -i - 3600 <"$OUT/fe.stream" >"$OUT/fe.0"
	sed -E '/failed \(/d; s/ +(ERR|[0-9]+)$//' "$OUT/fe.out" >"$OUT/fe.cut"
	same "top without -e: the same table less ERR, no closing line" "$OUT/fe.0" "$OUT/fe.cut"
	# the tiny build's FAIL_ERRNOS 1 and FAIL_LIST 2, as biosnoop's: the
	# errnos past the table are counted as others; its TOP_REQS 4 ages
	# requests out (up to 8 are in flight), and the closing line, which
	# needs no request, still counts every failure
	if [ -x "$IOMON_TINY" ]; then
		"$IOMON_TINY" top -C -e -i - 3600 <"$OUT/fe.stream" >"$OUT/fe.t" 2>&1
		check "tiny top -e: requests aged out of TOP_REQS, said" grep -q 'aged out of TOP_REQS 4' "$OUT/fe.t"
		check "tiny top -e: all $nf failures in the closing line, errnos past FAIL_ERRNOS as others" \
			grep -qx "$nf I/Os failed (EIO: sectors 100000 100024 ...; other errnos: 3)" "$OUT/fe.t"
	fi
fi
# a real capture: dm-flakey going down (fixtures/flakey, from the VM;
# t-vmdiff checks each new one the same way): every failure in ERR and
# the closing line
if have_oracle "top -e on a dm-flakey capture"; then
	( cd "$FIX/flakey" && blkparse -i dm-0 ) >"$OUT/fl.txt" 2>/dev/null
	( cd "$FIX/flakey" && "$IOMON" top -C -e -r 1000 -i dm-0 3600 ) >"$OUT/fl.top"
	python3 "$TOOLS/failsum.py" "$OUT/fl.txt" top "$OUT/fl.top" >"$OUT/fl.r" 2>&1; rc=$?
	check "top -e, dm-flakey capture: ERR and the closing line count blkparse's C lines with an error ($(tail -1 "$OUT/fl.r"))" test $rc = 0
fi

# Tag helpers (iowatcher's protocol) with the example helper, end to end:
# every record goes through it, and its tags make the rows.
TH=$TOP/stats/tag-by-pid.py
if ! command -v python3 >/dev/null; then
	skip "top --tag-helper" "python3 missing (the example helper is Python)"
else
	( cd "$FIX/mq-randrw" && pinned "$IOMON" top -C -i nullb0 3600 --tag-helper "$TH" ) >"$OUT/tag.out" 2>"$OUT/tag.err"
	rc=$?
	check "tag helper: exit 0 ($rc), nothing on stderr" sh -c "test $rc = 0 && ! test -s '$OUT/tag.err'"
	check "tag helper: rows headed TAG and LABEL" grep -q '^TAG     LABEL            D MAJ' "$OUT/tag.out"
	# "comm (pid)" labels: the pid inside the label stands for the pid column
	sed -n 's/^[0-9]\{1,\} \{1,\}[^ ]\{1,\} (\([0-9]\{1,\}\)) \{1,\}\([RW]\) \{1,\}[0-9]\{1,\} \{1,\}[0-9]\{1,\} \{1,\}[^ ]\{1,\} \{1,\}\([0-9]\{1,\}\) \{1,\}\([0-9]\{1,\}\) \{1,\}\([0-9.]\{1,\}\)$/\1 \2 \3 \4 \5/p' \
		"$OUT/tag.out" | sort >"$OUT/tag.got"
	python3 "$TOOLS/topref.py" "$OUT/mq.txt" | head -20 | sort >"$OUT/tag.exp"
	same "tag helper: one tag per process, the same rows as without it" "$OUT/tag.got" "$OUT/tag.exp"
	check "tag helper: labels name the process from its PROCESS note" grep -q "iogen ($p1)" "$OUT/tag.out"
	# -g: two processes in one named group, their requests summed
	( cd "$FIX/mq-randrw" && pinned "$IOMON" top -C -i nullb0 3600 --tag-helper "$TH -g pair:$p1,$p2" ) >"$OUT/tag.g" 2>&1
	awk '$2 == "pair" { print $2, $3, $7, $8, $9 }' "$OUT/tag.g" | sort >"$OUT/tag.gg"
	python3 "$TOOLS/topref.py" "$OUT/mq.txt" -g "pair:$p1,$p2" | awk '$1 == "pair"' | sort >"$OUT/tag.ge"
	same "tag helper -g pair:$p1,$p2: one row per direction, both processes' I/O" "$OUT/tag.gg" "$OUT/tag.ge"
	check "tag helper -g: the grouped pids have no rows of their own" \
		sh -c "! grep -qE '\\(($p1|$p2)\\)' '$OUT/tag.g'"
	# records carrying cgroup ids (a flag in the action, the id ahead of a
	# note's name) are tagged as any other: the same rows as without it
	if [ -x "$TOOLS/gentrace" ]; then
		"$TOOLS/gentrace" -s 5 -n 3000 -G -S >"$OUT/tag.cg" 2>/dev/null
		cols() { awk '$1 ~ /^([0-9]+|-)$/ && NF >= 9 { print $(NF - 6), $(NF - 2), $(NF - 1), $NF }' "$1" | sort; }
		"$IOMON" top -C -r 1000 -i - 3600 <"$OUT/tag.cg" >"$OUT/tag.c0" 2>&1
		pinned "$IOMON" top -C -r 1000 -i - 3600 --tag-helper "$TH" <"$OUT/tag.cg" >"$OUT/tag.c1" 2>&1
		cols "$OUT/tag.c0" >"$OUT/tag.c0c"; cols "$OUT/tag.c1" >"$OUT/tag.c1c"
		check "tag helper, cgroup records: none left untagged" sh -c "! grep -q '(untagged)' '$OUT/tag.c1' && test -s '$OUT/tag.c1c'"
		same "tag helper, cgroup records: the same rows as without it" "$OUT/tag.c1c" "$OUT/tag.c0c"
	else
		skip "tag helper, cgroup records" "tests/tools/gentrace not built (make check builds it)"
	fi
	# a stream too, and every record reaches the helper: it counts them
	pinned "$IOMON" top -C -i - 3600 --tag-helper "python3 $TOOLS/taghelper.py count $OUT/tag.n" <"$FIX/stream/nullb0.stream" >/dev/null 2>&1
	# (the same counter run over the file itself: records, notes included)
	python3 "$TOOLS/taghelper.py" count "$OUT/tag.nexp" <"$FIX/stream/nullb0.stream" >/dev/null
	check "tag helper: every record of a stream is handed over ($(cat "$OUT/tag.n" 2>/dev/null) of $(cat "$OUT/tag.nexp") records)" \
		test "$(cat "$OUT/tag.n" 2>/dev/null)" = "$(cat "$OUT/tag.nexp")" -a "$(cat "$OUT/tag.nexp")" -gt 1000
	# a helper that fails: a clear message, the table so far, exit 1
	tagfail() {	# NAME HELPER MESSAGE
		( cd "$FIX/mq-randrw" && pinned "$IOMON" top -C -i nullb0 3600 --tag-helper "$2" ) >"$OUT/tag.f" 2>"$OUT/tag.fe"
		local rc=$?
		check "tag helper $1: exit 1 ($rc), said" sh -c 'test "$1" = 1 && grep -qE "$2" "$3"' _ "$rc" "$3" "$OUT/tag.fe"
	}
	tagfail "that exits at once" true "tag helper 'true' (went away|closed its output) \(after [0-9]+ records\)"
	# 0x07000007 reads the same in either byte order (qemu-user runs s390x)
	tagfail "with an unknown answer" "printf '\\007\\000\\000\\007'; cat >/dev/null" "sent an unknown message type 117440519"
	# one that answers 3000 records (tagging none) and dies: the rows so far
	tagfail "dying mid-trace" "python3 '$TOOLS/taghelper.py' die 3000" "after 3001 records"
	check "tag helper dying mid-trace: the untagged rows so far are printed" \
		grep -qE '^-       \(untagged\) +[RW] 254 0 +nullb0 +[0-9]+' "$OUT/tag.f"
	tagfail "exiting 3 at the end" "$TH; exit 3" "exited with status 3"
fi

# The live screen, as a person sees it: tmux runs `iomon top` on a loop
# device under load; the screen is read twice, an interval apart.
if live_ok "top live screen" tmux; then
	TI=$OUT/top-loop.img; rm -f "$TI"; truncate -s 32M "$TI"
	TL=$(losetup -f --show "$TI"); TN=${TL#/dev/}
	TS="tmux -L iomon-top-test-$$"
	$TS kill-server 2>/dev/null
	# the pane outlives the program, so its last words and exit code stay
	# (its sleep 60 keeps the pane, not a wait; kill-server ends it)
	rm -f "$OUT/tt.err"
	$TS new-session -d -s top -x 100 -y 30 "sh -c 'echo \$\$ >$OUT/tt.pid; exec $IOMON top -d $TL 1' 2>'$OUT/tt.err'; echo EXIT=\$?; sleep 60"
	# each step waits for what it needs to see, so a slow machine is slower,
	# not wrong
	poll 30 grep -qs 'capturing through' "$OUT/tt.err"
	( while :; do dd if=/dev/zero of="$TL" bs=4k count=20 oflag=direct 2>/dev/null; sleep 0.1; done ) &	# pacing, not a wait
	lp=$!
	shot() { $TS capture-pane -p -t top >"$1"; }
	dd_row() { shot "$OUT/tt.1"; grep -qE "^[0-9]+ +dd +W 7 +[0-9]+ +$TN +[0-9]+ " "$OUT/tt.1"; }
	moved() { shot "$OUT/tt.2"; [ "$(head -c 8 "$OUT/tt.1")" != "$(head -c 8 "$OUT/tt.2")" ]; }
	check "top live: dd's writes on $TN in a row" poll 30 dd_row
	check "top live: the clock moves between two looks" poll 30 moved
	check "top live: the screen starts with the clock line (cleared, redrawn in place)" \
		grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: [0-9.]+ ' <(head -1 "$OUT/tt.2")
	check "top live: one table on the screen, not a scroll of them" test "$(grep -c '^PID     COMM' "$OUT/tt.2")" = 1
	kill $lp 2>/dev/null; wait $lp 2>/dev/null
	$TS send-keys -t top C-c
	ended() { shot "$OUT/tt.3"; grep -q '^EXIT=' "$OUT/tt.3"; }
	poll 30 ended
	check "top live: Ctrl-C ends it: biotop's Detaching..., exit 0" \
		sh -c "grep -q '^Detaching\\.\\.\\.\$' '$OUT/tt.3' && grep -q '^EXIT=0\$' '$OUT/tt.3'"
	check "top live: no tracefs instance left" gone "$(cat "$OUT/tt.pid")"
	$TS kill-server 2>/dev/null
	losetup -d "$TL"; rm -f "$TI"
fi

# Live on a loop device of its own.  Tables follow the clock, not the
# records: idle, top still prints COUNT tables and ends by itself; under a
# slow load (a 4 KiB write every 0.5 s) and a fast one, the writes show in
# a table while top still runs.  Each step polls for what it needs to see
# (a slow machine is slower, not wrong), never a fixed sleep.
if live_ok "top live: idle, slow and fast loads"; then
	TI3=$OUT/top-loop3.img; rm -f "$TI3"; truncate -s 8M "$TI3"
	TL3=$(losetup -f --show "$TI3"); TN3=${TL3#/dev/}
	timeout 30 "$IOMON" top -C -d "$TL3" 1 2 >"$OUT/idle.txt" 2>"$OUT/idle.err"
	rc=$?
	check "top live, idle: -d $TN3 1 2 prints 2 tables ($(grep -c '^PID' "$OUT/idle.txt")) and exits 0 by itself ($rc)" \
		sh -c "test $rc = 0 && test \$(grep -c '^PID' '$OUT/idle.txt') = 2 && grep -q '^Detaching' '$OUT/idle.txt'"
	# FILE MIN-IO [PID]: a table row of at least MIN-IO writes on $TN3 is in
	# FILE, and PID (top) still runs after it was seen
	row_on() {
		awk -v d="$TN3" -v m="$2" 'NF == 9 && $3 == "W" && $6 == d && $7 >= m { f = 1 } END { exit !f }' "$1" &&
			{ [ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null; }
	}
	live_load() {	# NAME MIN-IO LOAD
		local tp lp rc
		rm -f "$OUT/lv.err"; "$IOMON" top -C -d "$TL3" 1 >"$OUT/lv.txt" 2>"$OUT/lv.err" &
		tp=$!; capturing "$OUT/lv.err" $tp
		( while :; do eval "$3"; done ) >/dev/null 2>&1 &
		lp=$!
		check "top live, $1: $TN3's writes in a table while top runs" poll 20 row_on "$OUT/lv.txt" "$2" $tp
		kill $lp; wait $lp 2>/dev/null
		kill -INT $tp; wait $tp; rc=$?
		check "top live, $1: Ctrl-C ends it, exit 0 ($rc), nothing damaged" \
			sh -c "test $rc = 0 && ! grep -qE 'not whole records|bad trace magic' '$OUT/lv.err'"
	}
	live_load "slow load (a 4 KiB write every 0.5 s)" 1 "dd if=/dev/zero of=$TL3 bs=4k count=1 oflag=direct; sleep 0.5"
	live_load "fast load (dd of 2000 writes)" 500 "dd if=/dev/zero of=$TL3 bs=4k count=2000 oflag=direct"

	# Every whole disk (no -d), in a mount namespace whose /sys/block and
	# /dev list crafted disks: xa is the loop device, xb a block node with
	# no driver (open: ENXIO), xc has no media (size 0), loop9 is a loop
	# device.  Only xb is said (skipped); xa is traced, the rest left out.
	free=$(awk '/^Block/ { b = 1 } b && $1 ~ /^[0-9]+$/ { u[$1] = 1 }
		END { for (m = 60; m < 64; m++) if (!u[m]) { print m; exit } }' /proc/devices)
	if ! need "top, every whole disk: one that cannot be opened is skipped" unshare mknod; then :
	elif [ -z "$free" ]; then
		skip "top, every whole disk: one that cannot be opened is skipped" "no free block major in 60-63 for a node without a driver"
	elif ! unshare -m true 2>/dev/null; then
		skip "top, every whole disk: one that cannot be opened is skipped" "unshare -m cannot make / private here (a chroot?): the check needs its own /sys/block and /dev"
	else
		( while :; do dd if=/dev/zero of="$TL3" bs=4k count=50 oflag=direct; sleep 0.2; done ) >/dev/null 2>&1 &	# pacing, not a wait
		lp=$!
		timeout 30 unshare -m sh -c '
			mount -t tmpfs none /sys/block && mount -t tmpfs none /dev || exit 125
			for d in xa:16384 xb:16384 xc:0 loop9:16384; do
				mkdir /sys/block/${d%:*} && echo ${d#*:} >/sys/block/${d%:*}/size || exit 125
			done
			mknod /dev/null c 1 3 && mknod /dev/xa b ${1%:*} ${1#*:} && mknod /dev/xb b $2 0 && mknod /dev/xc b $2 1 || exit 125
			exec "$3" top -C 1 2' _ "$(cat /sys/block/$TN3/dev)" "$free" "$IOMON" >"$OUT/every.txt" 2>"$OUT/every.err"
		rc=$?
		kill $lp; wait $lp 2>/dev/null
		if [ $rc = 125 ]; then
			skip "top, every whole disk: one that cannot be opened is skipped" "could not craft /sys/block and /dev in a mount namespace"
		else
			check "top, every whole disk: exit 0 ($rc), 2 tables" sh -c "test $rc = 0 && test \$(grep -c '^PID' '$OUT/every.txt') = 2"
			check "top, every whole disk: the unopenable one skipped with one note, no other said" \
				sh -c "grep -q '^top: /dev/xb: skipped, cannot open it' '$OUT/every.err' && test \$(grep -cE '/dev/(x[abc]|loop9)' '$OUT/every.err') = 1"
			check "top, every whole disk: the others traced (xa, the loop device, in a row)" row_on "$OUT/every.txt" 1
		fi
	fi
	losetup -d "$TL3"; rm -f "$TI3"
fi

# The tag table in the tiny build (TOP_TAGS 2): tags past it are counted
# and said; their requests still count, under "?".
if [ -x "$IOMON_TINY" ] && command -v python3 >/dev/null; then
	( cd "$FIX/mq-randrw" && pinned "$IOMON_TINY" top -C -i nullb0 3600 --tag-helper "$TOP/stats/tag-by-pid.py" ) >"$OUT/tag.t" 2>"$OUT/tag.te"
	check "tiny: tags over TOP_TAGS counted and said" grep -qE '^top: [0-9]+ tags over TOP_TAGS 2 were not kept$' "$OUT/tag.te"
	# a helper that never answers (TOP_HELPER_MS 5000 in the tiny build: an
	# interpreter may take seconds to start): started at the top of this file
	wait $silent
	rc=$?
	check "tiny: a silent tag helper: exit 1 ($rc), said after its first record" \
		sh -c "test $rc = 1 && grep -q \"tag helper 'cat >/dev/null' did not answer within 5000 ms (after 1 records)\" '$OUT/tag.se'"
	check "tiny: tags kept in the table keep their labels; any row of a later tag is ?" \
		sh -c "awk '\$1 ~ /^[0-9]+\$/ && NF >= 9 { n++; if ((\$1 > 2) != (\$2 == \"?\")) bad++ } END { exit !(n && !bad) }' '$OUT/tag.t'"
else
	skip "tiny: tag table" "$IOMON_TINY or python3 missing"
fi

# Requests that never complete (lost records) fill the request pool: the
# oldest age out, counted, and what comes after still counts exactly.
python3 "$TOOLS/craft.py" leaks 10000 500 | "$IOMON" top -C -i - 3600 >"$OUT/leak.txt" 2>&1
check "top: a pool full of leaked requests ages them out, counted" \
	grep -qE '^\(untracked: [1-9][0-9]* requests aged out of TOP_REQS [0-9]+, 0 completions' "$OUT/leak.txt"
check "top: after the leaks, all 500 writes of 4 KiB still counted" \
	grep -qE '^200 +\? +W 8 +0 +- +500 +2000 ' "$OUT/leak.txt"

# the live tag helper's capture, started at the top of this file
if [ -n "$tlpid" ]; then
	wait $tlpid
	rc=$?
	check "top live --tag-helper: exit 0 ($rc)" test $rc = 0
	# (summed over the tag rows: the label is the PROCESS note's, and the
	# tracefs backend has once named dd by its pre-exec name, bash: an open
	# naming race, see the session note)
	check "top live --tag-helper: dd's 100 writes, tagged" \
		sh -c "awk '\$4 == \"W\" && \$7 == \"$TN2\" && \$1 ~ /^[0-9]+\$/ { io += \$8 } END { exit io != 100 }' '$OUT/tl.txt'"
	losetup -d "$TL2"; rm -f "$TI2"
fi

# every whole disk, where the kernel refuses the device node (this machine's
# /dev/vda gives EPERM): tracefs needs no node, so the disk is traced, not
# skipped (the build before printed "top: /dev/vda: Operation not
# permitted" and exited 1 with an empty table)
ep=
for b in /sys/block/*; do
	n=${b##*/}; case $n in loop*|ram*|zram*) continue ;; esac
	[ "$(cat "$b/size" 2>/dev/null)" != 0 ] || continue
	python3 -c 'import os, sys, errno
try: os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK))
except OSError as e: sys.exit(0 if e.errno in (errno.EPERM, errno.EACCES) else 1)
sys.exit(1)' "/dev/${n//!//}" 2>/dev/null && { ep=/dev/${n//!//}; break; }
done
if [ -z "$CROSS" ] && [ -n "$ep" ] && live_ok "top, every disk, one refused"; then
	timeout 60 "$IOMON" top -C 1 1 >"$OUT/ep.txt" 2>"$OUT/ep.err"
	rc=$?
	check "top without -d, $ep refused: exit 0 ($rc)" test $rc = 0
	check "top without -d, $ep refused: tracefs takes it" grep -q "$ep: .*trying tracefs, which needs no device node" "$OUT/ep.err"
	check "top without -d, $ep refused: not skipped" sh -c "! grep -q 'skipped' '$OUT/ep.err'"
	check "top without -d, $ep refused: one table" test "$(grep -c '^PID' "$OUT/ep.txt")" = 1
else
	skip "top, every disk, one refused" "no whole disk here whose node gives EPERM (or not the host's build)"
fi
