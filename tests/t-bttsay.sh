# needs: btt python3
# What btt says beyond its report: -v's lines on stdout, against Debian's
# btt with the timed figures masked; and where btt's own figure is
# impossible, iomon prints btt's number (scripts read it) and says once on
# stderr what is wrong and what the right figure is (crafted dumps,
# tests/tools/craft.py wrongg and nog).
CRAFT=$TOOLS/craft.py
cd "$OUT" || exit 1
iomon_parse() { "$IOMON" parse -i "$1" -d "$2" -O -q >/dev/null 2>&1; }
iomon_parse "$FIX/mq-randrw/nullb0" "$OUT/mq.dump"
iomon_parse "$FIX/two-devs/nullb0" "$OUT/one.dump"
( cd "$FIX/two-devs" && "$IOMON" parse -i nullb0 -i nullb1 -d "$OUT/two.dump" -O -q >/dev/null 2>&1 )

# -v: btt's progress (a line a second, timed) taken out, its rate and
# seconds masked; the rest byte for byte, the report after it included
vmask() {	# FILE: progress segments out, the timed figures masked
	python3 -c '
import re, sys
s = open(sys.argv[1], "rb").read().decode("latin-1")
s = re.sub(r" *[0-9]+ t \( *[0-9]+\.[0-9]{2}%\)\r\n?", "", s)
s = re.sub(r"traces @ [0-9.]+ Ktps in [0-9.]+ seconds", "traces @ X Ktps in Y seconds", s)
sys.stdout.write(s)' "$1"
}
for c in "mq" "two" "one"; do
	for o in "" "-o v" "-o v -X"; do
		n=$c$(echo "$o" | tr -d ' -')
		rm -rf "$OUT/$n" && mkdir -p "$OUT/$n/ref" "$OUT/$n/got"
		(cd "$OUT/$n/ref" && btt -v -i "$OUT/$c.dump" $o >stdout 2>/dev/null)
		(cd "$OUT/$n/got" && "$IOMON" btt -v -i "$OUT/$c.dump" $o >stdout 2>../got.err)
		vmask "$OUT/$n/ref/stdout" >"$OUT/$n/ref.txt"
		vmask "$OUT/$n/got/stdout" >"$OUT/$n/got.txt"
		check "btt -v $c $o: a count of traces at the end" grep -qa "^.*[0-9] traces @ X Ktps in Y seconds$" "$OUT/$n/ref.txt"
		same "btt -v $c $o: stdout as btt's, progress and timed figures aside" "$OUT/$n/got.txt" "$OUT/$n/ref.txt"
		[ -n "$o" ] && same "btt -v $c $o: the report as btt's" "$OUT/$n/got/v.avg" "$OUT/$n/ref/v.avg"
	done
done
# the progress line: the dump piped in two halves, the second once the
# wall clock has passed its next whole second (btt looks at it every
# record, iomon every 1000th): a line comes at the next thousandth record
python3 "$TOOLS/bigtrace.py" "$FIX/mq-randrw/nullb0" "$OUT/big" 200000 >/dev/null && iomon_parse "$OUT/big" "$OUT/big.dump"
rm -f "$OUT"/big.blktrace.*
half=$(($(stat -c %s "$OUT/big.dump") / 2))
{ head -c $half "$OUT/big.dump"; python3 -c 'import time; time.sleep(1.02 - time.time() % 1)'; tail -c +$((half + 1)) "$OUT/big.dump"; } |
	"$IOMON" btt -v -i - -o big >"$OUT/big.v" 2>/dev/null
check "btt -v: a progress segment, btt's '%10lu t (%6.2f%%)\\r' (the share 0 from a pipe)" python3 -c '
import re, sys
s = open(sys.argv[1], "rb").read().decode("latin-1")
prog = [x for x in re.findall(r"([^\r\n]*)\r", s) if x.strip()]
sys.exit(not prog or not all(re.fullmatch(r" *[0-9]+000 t \(  0\.00%\)", x) for x in prog))' "$OUT/big.v"
check "btt -v: the end counts the dump's traces ($(grep -ao '[0-9]* traces @' "$OUT/big.v"))" \
	test "$(grep -ao '[0-9]* traces @' "$OUT/big.v" | cut -d' ' -f1)" -ge 180000
rm -f "$OUT/big.dump"

# Q2G over 100 %: a G found a big Q queued earlier (never completed)
# before its own; btt's figure printed, stderr: the completed I/Os' own
# Q2G over the same Q2C (from btt's figures: Q2G's total less the one
# wrong G, its MAX, over Q2C's total)
python3 "$CRAFT" wrongg >"$OUT/wrongg.dump"
btt -i "$OUT/wrongg.dump" >"$OUT/wrongg.ref" 2>/dev/null
"$IOMON" btt -i "$OUT/wrongg.dump" >"$OUT/wrongg.got" 2>"$OUT/wrongg.err"
same "btt wrongg: the report as btt's, Q2G over 100 % included" "$OUT/wrongg.got" "$OUT/wrongg.ref"
q2g=$(awk '$1 == "(" && $4 == "|" { print $5; exit } $3 == "|" && /%/ { print $4; exit }' "$OUT/wrongg.ref")
right=$(awk '$1 == "Q2G" && !q { q = 1; qt = $3 * $5; qm = $4 } $1 == "Q2C" && !c { c = 1; ct = $3 * $5 }
	END { printf "%.4f", 100 * (qt - qm) / ct }' "$OUT/wrongg.ref")
check "btt wrongg: btt's Q2G share is over 100 % ($q2g)" python3 -c "import sys; sys.exit(not float('${q2g%\%}') > 100)"
said=$(sed -n "s/^btt: (  8,  0): Q2G $q2g is over 100%: a G taken for an older Q's; the completed I\/Os' own: \([0-9.]*\)%$/\1/p" "$OUT/wrongg.err")
check "btt wrongg: stderr names the device, btt's figure and the completed I/Os' own Q2G (${said:-none}; from btt's rounded figures $right %)" \
	python3 -c "import sys; sys.exit(not abs(float('${said:-nan}') - $right) < 0.001)"
check "btt wrongg: said once" test "$(wc -l <"$OUT/wrongg.err")" = 1
# avgqu-sz below 0: Qs issued and completed with no G (a bio-based
# device's), each completion taken off btt's queue all the same
python3 "$CRAFT" nog >"$OUT/nog.dump"
mkdir -p "$OUT/nog.r" "$OUT/nog.g"
(cd "$OUT/nog.r" && btt -i "$OUT/nog.dump" -I io >/dev/null 2>&1)
(cd "$OUT/nog.g" && "$IOMON" btt -i "$OUT/nog.dump" -I io >/dev/null 2>../nog.err)
same "btt nog -I: the table as btt's, avgqu-sz below 0 included" "$OUT/nog.g/io" "$OUT/nog.r/io"
aq=$(awk '$1 == "(" { print $13 }' "$OUT/nog.r/io" | head -1)
check "btt nog -I: btt's avgqu-sz is below 0 ($aq)" python3 -c "import sys; sys.exit(not float('$aq') < 0)"
check "btt nog -I: stderr says so once, with the Gs' own queue (none: 0.00)" \
	grep -q "^btt: -I: (  8,  0) avgqu-sz $aq at [0-9.]* s is below 0: completions without a G taken off too; the Gs' own: 0.00$" "$OUT/nog.err"
check "btt nog -I: said once" test "$(wc -l <"$OUT/nog.err")" = 1
# a fixture where btt's figures are sound: nothing said
(cd "$OUT" && "$IOMON" btt -i "$OUT/mq.dump" -I mqio >/dev/null 2>"$OUT/mq.err")
check "btt mq-randrw -I: nothing said of btt's figures" test ! -s "$OUT/mq.err"
