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
	check "tiny: request table overflow reported" grep -q 'request table full: .* (TRACK_MAX 4)' "$OUT/tiny2.err"
	check "tiny: per-process table overflow reported" grep -q 'process statistics full: .* (PPI_MAX 2)' "$OUT/tiny2.err"
	check "tiny: a trace file beyond STREAMS_MAX is an error, named" grep -q 'nullb0.blktrace.1: more than 1 trace files' "$OUT/tiny2.err"
	check "tiny: summary still printed" grep -q '^Events (nullb0): ' "$OUT/tiny2.txt"
	python3 tests/dropone.py "$S" "$OUT/g3.stream" 5 500 900
	"$T" parse -i - <"$OUT/g3.stream" >"$OUT/tiny3.txt" 2>"$OUT/tiny3.err"
	check "tiny: gap table overflow reported" grep -q 'gap table full: [0-9]* gaps uncounted' "$OUT/tiny3.err"
	"$T" parse -i x -f '%a%a%a%a%a%a%a%a%a%a%a%a%a' >/dev/null 2>"$OUT/tiny4.err"
	check "tiny: format space overflow is refused with a message" grep -q 'formats longer than 24 bytes' "$OUT/tiny4.err"
	"$TOP/tests/gentrace" -s 16 -n 3000 -c 2 -S 2>/dev/null | "$T" parse -i - -b 40 >/dev/null 2>"$OUT/tiny6.err"
	check "tiny: late-record table overflow reported" grep -q 'late-record table full: .* (HOLD_MAX 1)' "$OUT/tiny6.err"
	"$TOP/tests/gentrace" -s 1 -n 3000 -c 3 -S 2>/dev/null | "$T" parse -i - >/dev/null 2>"$OUT/tiny7.err"
	check "tiny: cpu table overflow reported" grep -q 'cpu table full: .* (CPUS_MAX 2)' "$OUT/tiny7.err"
	"$T" monitor -I 1 -i "$FIX/mq-randrw/nullb0" -h "$OUT/tm.txt" -D "$OUT/tm.dbg"
	check "tiny: monitor's pool ages records out and counts them" grep -qE '^[1-9][0-9]* aged out of the pool \(MON_PENDING 2\)' "$OUT/tm.dbg"
	check "tiny: monitor still reports what matched" grep -q '^sizes read (bytes): num [1-9]' "$OUT/tm.txt"
	( cd "$FIX/two-devs" && "$T" parse -i nullb0 -i nullb1 ) >/dev/null 2>"$OUT/tiny5.err"
	check "tiny: too many inputs refused, named" grep -q 'nullb1: more than 1 inputs (DEVS_MAX)' "$OUT/tiny5.err"
fi
