# needs: python3
# Every fixed pool driven past its limit (build/tiny/iomon, pools of 1 to 4
# entries): counted, reported on stderr, no crash, and what fit is right.
T=$IOMON_TINY
if [ ! -x "$T" ]; then
	skip "tiny pools" "build/tiny/iomon not built (make build/tiny/iomon)"
else
	S=$FIX/stream/nullb0.stream
	"$T" parse -i - <"$S" >"$OUT/tiny.txt" 2>"$OUT/tiny.err"
	check "tiny: exits 0 when only tables overflow" test $? = 0
	check "tiny: process table overflow reported" grep -q 'process table full: .* (PROC_MAX 3)' "$OUT/tiny.err"
	"$IOMON" parse -i - <"$S" >"$OUT/full.txt" 2>/dev/null
	# event lines: identical but for names that did not fit
	strip() { grep '^254,0 ' "$1" | sed 's/ \[[^]]*\]\( [0-9]*\)\{0,1\}$/ [X]\1/'; }
	# (sorted: a 16-record window orders ties between CPUs differently)
	strip "$OUT/tiny.txt" | sort >"$OUT/tiny.ev"; strip "$OUT/full.txt" | sort >"$OUT/full.ev"
	same "tiny: every event line still printed right" "$OUT/tiny.ev" "$OUT/full.ev"
	check "tiny: some names still known" grep -q '\[kworker' "$OUT/tiny.txt"
	( cd "$FIX/ext4" && "$T" parse -i nullb0 -s -t ) >"$OUT/tiny2.txt" 2>"$OUT/tiny2.err"
	check "tiny: forgotten requests that change -t's text reported" grep -q -- '-t: requests forgotten (TRACK_MAX 4): [1-9][0-9]* lines may differ' "$OUT/tiny2.err"
	check "tiny: per-process table overflow reported" grep -q 'process statistics full: .* (PPI_MAX 2)' "$OUT/tiny2.err"
	check "tiny: a trace file beyond STREAMS_MAX is an error, named" grep -q 'nullb0.blktrace.1: more than 1 trace files' "$OUT/tiny2.err"
	check "tiny: summary still printed" grep -q '^Events (nullb0): ' "$OUT/tiny2.txt"
	python3 "$TOOLS/dropone.py" "$S" "$OUT/g3.stream" 5 500 900
	"$T" parse -i - <"$OUT/g3.stream" >"$OUT/tiny3.txt" 2>"$OUT/tiny3.err"
	check "tiny: gap table overflow reported" grep -q 'gap table full: [0-9]* gaps uncounted' "$OUT/tiny3.err"
	"$T" parse -i x -f '%a%a%a%a%a%a%a%a%a%a%a%a%a' >/dev/null 2>"$OUT/tiny4.err"
	check "tiny: format space overflow is refused with a message" grep -q 'formats longer than 24 bytes' "$OUT/tiny4.err"
	"$TOOLS/gentrace" -s 16 -n 3000 -c 2 -S 2>/dev/null | "$T" parse -i - -b 40 >/dev/null 2>"$OUT/tiny6.err"
	check "tiny: late-record table overflow reported" grep -q 'late-record table full: .* (HOLD_MAX 1, HOLD_BYTES 8)' "$OUT/tiny6.err"
	# HOLD_BYTES: a late record whose 16-byte payload does not fit is
	# printed where it came, said; with room it is printed last, as blkparse does
	python3 "$TOOLS/craft.py" late | "$T" parse -i - -b 16 >"$OUT/tiny8.txt" 2>"$OUT/tiny8.err"
	python3 "$TOOLS/craft.py" late | "$IOMON" parse -i - -b 16 >"$OUT/full8.txt" 2>/dev/null
	check "tiny: a late payload over HOLD_BYTES said" grep -q 'late-record table full: 1 records printed early (HOLD_MAX 1, HOLD_BYTES 8)' "$OUT/tiny8.err"
	check "tiny: ... and printed where it came (event 48 of 61), not last" \
		test "$(grep -n ' D ' "$OUT/tiny8.txt" | cut -d: -f1)" = 48
	check "full pools: the same late record held and printed last (event 61)" \
		test "$(grep -n ' D ' "$OUT/full8.txt" | cut -d: -f1)" = 61
	"$TOOLS/gentrace" -s 1 -n 3000 -c 3 -S 2>/dev/null | "$T" parse -i - >/dev/null 2>"$OUT/tiny7.err"
	check "tiny: cpu table overflow reported" grep -q 'cpu table full: .* (CPUS_MAX 2)' "$OUT/tiny7.err"
	"$T" monitor -I 1 -i "$FIX/mq-randrw/nullb0" -h "$OUT/tm.txt" -D "$OUT/tm.dbg" 2>/dev/null
	check "tiny: monitor's pool ages records out and counts them" grep -qE '^[1-9][0-9]* aged out of the pool \(MON_PENDING 2\)' "$OUT/tm.dbg"
	na=$(sed -n 's/^\([0-9]*\) aged out of the pool.*/\1/p' "$OUT/tm.dbg")
	check "tiny: -D shows each record aged out (${na:-no} of them)" test "$(grep -c -- '--- aged out ---' "$OUT/tm.dbg")" = "${na:-x}"
	check "tiny: monitor still reports what matched" grep -q '^sizes read (bytes): num [1-9]' "$OUT/tm.txt"
	( cd "$FIX/two-devs" && "$T" parse -i nullb0 -i nullb1 ) >/dev/null 2>"$OUT/tiny5.err"
	check "tiny: too many inputs refused, named" grep -q 'nullb1: more than 1 inputs (DEVS_MAX)' "$OUT/tiny5.err"

	# pools the tests above leave alone
	# DEVS_MAX in a stream: a second device's records are dropped, counted
	# once each (not per lookup), and the first device's lines are whole
	cat "$FIX/two-devs/nullb0.blktrace.0" "$FIX/two-devs/nullb1.blktrace.0" >"$OUT/two.stream"
	"$T" parse -i - <"$OUT/two.stream" >"$OUT/tdev.txt" 2>"$OUT/tdev.err"
	check "tiny: device table overflow in a stream reported" grep -q 'device table full: 306 events dropped (DEVS_MAX 1)' "$OUT/tdev.err"
	"$IOMON" parse -i - <"$FIX/two-devs/nullb0.blktrace.0" >"$OUT/tdev0.txt" 2>/dev/null
	grep '^254,0 ' "$OUT/tdev.txt" | wc -l >"$OUT/tdev.n"; grep '^254,0 ' "$OUT/tdev0.txt" | wc -l >"$OUT/tdev0.n"
	same "tiny: the device that fit has all its lines" "$OUT/tdev.n" "$OUT/tdev0.n"
	check "tiny: no line of the dropped device" test "$(grep -c '^254,1 ' "$OUT/tdev.txt")" = 0
	# and the product's: a stream of 48 devices (a server's LUNs) is
	# blkparse's whole, where 32 kept (DEVS_MAX before) dropped 32 records
	python3 "$TOOLS/manydevs.py" 48 "$OUT/48.stream"
	"$IOMON" parse -i - <"$OUT/48.stream" >"$OUT/48.txt" 2>"$OUT/48.err"
	check "parse -i -, 48 devices: a write issued and completed on each ($(grep -cE '^ *8,[0-9]+ .* C +WS? +[0-9]+ \+ 8 ' "$OUT/48.txt"))" \
		test "$(grep -cE '^ *8,[0-9]+ .* C +WS? +[0-9]+ \+ 8 ' "$OUT/48.txt")" = 48
	check "parse -i -, 48 devices: nothing dropped or said" test ! -s "$OUT/48.err"
	if have_oracle; then
		blkparse -i - <"$OUT/48.stream" >"$OUT/48.bp" 2>/dev/null
		same "parse -i -, 48 devices: blkparse's text" "$OUT/48.txt" "$OUT/48.bp"
	fi
	# MON_DEVS: a second device's requests are counted and said on stderr
	"$T" monitor -I 1 --clock=trace -h "$OUT/tmd.txt" <"$OUT/two.stream" 2>"$OUT/tmd.err"
	check "tiny: monitor device table overflow reported on stderr" grep -qE 'device table full: [1-9][0-9]* requests unreported \(MON_DEVS 1\)' "$OUT/tmd.err"
	check "tiny: monitor reports the device that fit" grep -q '^device: 254,0$' "$OUT/tmd.txt"
	check "tiny: monitor leaves out the one that did not" test "$(grep -c '^device: 254,1$' "$OUT/tmd.txt")" = 0
	# IFT_AGE_FIFO: a request that outlives a ringful of others is still
	# the oldest; a full table forgets it first, not the first of those
	# after it (the ring once dropped its oldest pair when full, and with
	# it that request from the order for good)
	python3 "$TOOLS/craft.py" outlive 5 4 end >"$OUT/ol.bin"
	"$T" parse -i - -t <"$OUT/ol.bin" >"$OUT/ol.txt" 2>"$OUT/ol.err"
	check "tiny: -t's full table forgets the write that outlived five others (its C has no figure)" \
		grep -qE ' C +W 5000 \+ 8 \[0\]$' "$OUT/ol.txt"
	check "tiny: ... and keeps the first of the four queued after them (its C has its figure)" \
		grep -qE ' C +W 1000 \+ 8 \( +[0-9]+\) \[0\]$' "$OUT/ol.txt"
	if have_oracle; then
		blkparse -i - -t <"$OUT/ol.bin" >"$OUT/ol.exp" 2>/dev/null
		check "tiny: -t against blkparse: only the forgotten write's C differs, and said" \
			sh -c "test \"\$(diff '$OUT/ol.txt' '$OUT/ol.exp' | grep '^<')\" = '<   8,0    0       50     0.000049000   990  C   W 5000 + 8 [0]' &&
				grep -q 'requests forgotten (TRACK_MAX 4): 1 lines may differ' '$OUT/ol.err'"
	fi
	python3 "$TOOLS/craft.py" outlive 3 2 >"$OUT/om.bin"
	"$T" monitor -I 1 --clock=trace -h "$OUT/om.txt" -D "$OUT/om.dbg" <"$OUT/om.bin" 2>/dev/null
	check "tiny: monitor's full pool ages the write that never completes (sector 5000), and only it" \
		sh -c "test \"\$(grep -A2 -- '--- aged out ---' '$OUT/om.dbg' | sed -n 's/^sector  *//p')\" = 5000"
	check "tiny: ... so all five writes that complete are matched" grep -q '^d2c write (usec): num 5,' "$OUT/om.txt"
	# MON_PENDING: aging is said on stderr too, not only in -D
	"$T" monitor -I 1 -i "$FIX/mq-randrw/nullb0" -h /dev/null 2>"$OUT/tma.err"
	check "tiny: monitor's aged records reported on stderr" grep -qE 'pending pool full: [1-9][0-9]* unmatched records aged out \(MON_PENDING 2\)' "$OUT/tma.err"
	# MON_FAILS: failures past the exports' rows (craft.py failing: 13 in
	# five device, direction and errno rows) are counted and said, and the
	# rows that fit still count all of theirs
	python3 "$TOOLS/craft.py" failing >"$OUT/tmf.stream"
	"$T" monitor -I 1 --clock=trace --prom "$OUT/tmf.prom" -D "$OUT/tmf.dbg" <"$OUT/tmf.stream" 2>"$OUT/tmf.err"
	check "tiny: monitor's failure rows full: the rest counted on stderr" grep -q 'failure table full: 3 failed requests not in --json or --prom (MON_FAILS 2)' "$OUT/tmf.err"
	check "tiny: and in -D" grep -q '^3 failures not in the exports (MON_FAILS 2)$' "$OUT/tmf.dbg"
	check "tiny: the rows that fit count all theirs" sh -c "grep -q '^iomon_failed_requests_total{device=\"8,0\",direction=\"read\",errno=\"EIO\"} 5\$' '$OUT/tmf.prom' && grep -q '^iomon_failed_requests_total{device=\"8,0\",direction=\"write\",errno=\"EIO\"} 5\$' '$OUT/tmf.prom' && test \$(grep -c '^iomon_failed' '$OUT/tmf.prom') = 2"
	# PIPE_WINDOW: -b above the window is cut to it; every line still out
	"$T" parse -i - -b 1000 <"$S" >"$OUT/tpw.txt" 2>/dev/null
	strip "$OUT/tpw.txt" | sort >"$OUT/tpw.ev"
	same "tiny: -b beyond PIPE_WINDOW prints every event" "$OUT/tpw.ev" "$OUT/full.ev"
	# PATH_LEN: a name too long for a path is refused, named
	"$T" parse -i "$(printf 'n%.0s' $(seq 600))" >/dev/null 2>"$OUT/tpl.err"
	check "tiny: a name beyond PATH_LEN refused" grep -q 'path too long' "$OUT/tpl.err"
	# STREAMS_MAX: replayed per-CPU files beyond it are named and make exit 1
	"$T" monitor -I 1 -i "$FIX/ext4/nullb0" -h "$OUT/trf.txt" 2>"$OUT/trf.err"
	check "tiny: replay files beyond STREAMS_MAX: exit 1" test $? = 1
	check "tiny: replay files beyond STREAMS_MAX named" grep -q 'nullb0.blktrace.1: more than 1 trace files, ignored (STREAMS_MAX)' "$OUT/trf.err"
	check "tiny: monitor still reports the files that fit" grep -q '^sizes write (bytes): num [1-9]' "$OUT/trf.txt"
	# NOTICE_BUF: notices longer than the buffer go out in pieces, whole
	( cd "$FIX/ext4" && "$T" parse -i nullb0 -o "$OUT/tnb.txt" ) >"$OUT/tnb.out" 2>/dev/null
	printf 'Input file nullb0.blktrace.0 added\n' >"$OUT/tnb.want"
	same "tiny: notices beyond NOTICE_BUF all written" "$OUT/tnb.out" "$OUT/tnb.want"
	# CAP_DEVS: one device too many is refused before anything is traced
	"$T" monitor -I 1 -t /dev/x -t /dev/y 2>"$OUT/tcd.err"
	check "tiny: monitor -t beyond CAP_DEVS refused" grep -q 'more than 1 devices (CAP_DEVS)' "$OUT/tcd.err"
	"$T" top -d /dev/x -d /dev/y 1 1 >/dev/null 2>"$OUT/tcd2.err"
	check "tiny: top -d beyond CAP_DEVS refused" grep -q 'more than 1 devices (CAP_DEVS)' "$OUT/tcd2.err"
	BDEV=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -1)
	if [ -n "$BDEV" ]; then
		"$T" trace -d "$BDEV" -d "$BDEV" -w 1 -o "$OUT/tcd" >/dev/null 2>"$OUT/tcd3.err"
		check "tiny: trace -d beyond CAP_DEVS refused, named" grep -q "$BDEV: more than 1 devices (CAP_DEVS)" "$OUT/tcd3.err"
		# CAP_CPUS 1: a machine with more CPUs is refused before any setup
		if [ "$(nproc --all)" -gt 1 ]; then
			"$T" trace -d "$BDEV" -w 1 -o "$OUT/tcc" >/dev/null 2>"$OUT/tcc.err"
			rc=$?
			check "tiny: more CPUs than CAP_CPUS refused, exit 1 ($rc), said" sh -c \
				"test $rc = 1 && grep -qE '^trace: [0-9]+ CPUs; this build handles 1 \(CAP_CPUS\)\$' '$OUT/tcc.err'"
		else
			skip "tiny: CAP_CPUS" "one CPU here"
		fi
	else
		skip "tiny: trace beyond CAP_DEVS" "no block device in /dev"
	fi
	# TOP_ROWS, TOP_REQS: top counts what did not fit in its table's
	# footnote; the rows that fit are the busiest as counted
	"$T" top -i "$FIX/ext4/nullb0" >"$OUT/ttop.txt" 2>"$OUT/ttop.err"
	check "tiny: top's request pool overflow counted" grep -qE 'untracked: [1-9][0-9]* requests aged out of TOP_REQS 4' "$OUT/ttop.txt"
	"$T" top -i "$FIX/mq-randrw/nullb0" >"$OUT/ttop2.txt" 2>"$OUT/ttop2.err"
	check "tiny: top's row table overflow counted" grep -qE '[1-9][0-9]* completions found no row in TOP_ROWS 2' "$OUT/ttop2.txt"
	check "tiny: top prints at most TOP_ROWS rows" test "$(awk '/^PID/ { n = 0; next } /^[0-9]/ { if (++n > m) m = n } END { print m + 0 }' "$OUT/ttop2.txt")" -le 2
fi
