# needs: btt blkparse python3
# iomon btt against Debian's btt 1.2.0: for every fixture, one dump (made
# by Debian's blkparse -d where it reads the input, else by iomon parse
# -d), then btt -o ref and iomon btt -o got; the sections iomon does so
# far are compared byte for byte.
BTT_DONE="All Devices;Device Overhead;Device Merge Information;Device Q2Q Seek Information;Device D2D Seek Information;Plug Information;Active Requests At Q Information;I/O Active Period Information"
# the sections named in BTT_DONE, out of a .avg, in file order
btt_sections() {
	awk -v want="$BTT_DONE" 'BEGIN { n = split(want, w, ";") }
		/^==================== .* ====================$/ {
			t = $0; sub(/^=+ /, "", t); sub(/ =+$/, "", t); p = 0
			for (i = 1; i <= n; i++) if (w[i] == t) p = 1
		}
		p' "$1"
}
# btt_case NAME DUMP: the done sections of btt's and iomon's report agree
btt_case() {
	local n=$1 dump=$2
	(cd "$OUT" && btt -i "$dump" -o "ref-$n" >/dev/null 2>&1)
	btt_sections "$OUT/ref-$n.avg" >"$OUT/ref-$n.sec"
	"$IOMON" btt -i "$dump" -o "$OUT/got-$n" 2>"$OUT/got-$n.err"
	same "btt $n: $BTT_DONE" "$OUT/got-$n.avg" "$OUT/ref-$n.sec"
	same "btt $n: the whole .avg file as btt's" "$OUT/got-$n.avg" "$OUT/ref-$n.avg"
}
# fix_dump FIXTURE: its dump (every NAME.blktrace.0 in the folder merged)
fix_dump() {
	local d=$FIX/$1 f
	FIX_IN=()
	for f in "$d"/*.blktrace.0; do FIX_IN+=(-i "${f%.blktrace.0}"); done
	blkparse "${FIX_IN[@]}" -d "$OUT/$1.dump" -O >/dev/null 2>&1
	[ -s "$OUT/$1.dump" ] || "$IOMON" parse "${FIX_IN[@]}" -d "$OUT/$1.dump" -O >/dev/null 2>&1
}

if need "btt vs Debian's btt" btt blkparse; then
	for d in "$FIX"/*/; do
		f=$(basename "$d")
		ls "$d"*.blktrace.0 >/dev/null 2>&1 || continue
		fix_dump "$f" && btt_case "$f" "$OUT/$f.dump" || continue
		# the trace files by name (-i NAME per device, several per-CPU
		# files, v8, big-endian): btt's report on blkparse's dump of them
		"$IOMON" btt "${FIX_IN[@]}" -o "$OUT/files-$f" 2>/dev/null
		same "btt -i NAME ($f): the trace files give btt's report on blkparse -d's dump" \
			"$OUT/files-$f.avg" "$OUT/ref-$f.avg"
	done
	# a raw trace stream on stdin (blktrace -o -), as blkparse -i - -d and btt
	blkparse -i - -d "$OUT/stream.dump" -O <"$FIX/stream/nullb0.stream" >/dev/null 2>&1
	(cd "$OUT" && btt -i stream.dump -o ref-stream >/dev/null 2>&1)
	"$IOMON" btt -i - <"$FIX/stream/nullb0.stream" >"$OUT/got-stream.avg" 2>/dev/null
	same "btt -i -: a raw trace stream on stdin gives btt's report on blkparse's dump" \
		"$OUT/got-stream.avg" "$OUT/ref-stream.avg"
	# per-CPU files one after the other (out of time order across CPUs),
	# big-endian: the same records as blkparse -i - -d hands btt
	cat "$FIX"/ext4-be/nullb0.blktrace.* | tee "$OUT/be.stream" | "$IOMON" btt -i - >"$OUT/got-bes.avg" 2>/dev/null
	blkparse -i - -d "$OUT/bes.dump" -O <"$OUT/be.stream" >/dev/null 2>&1
	"$IOMON" btt -i "$OUT/bes.dump" >"$OUT/ref-bes.avg" 2>/dev/null
	same "btt -i -: a big-endian stream through a pipe as through blkparse's dump" \
		"$OUT/got-bes.avg" "$OUT/ref-bes.avg"
	# v8 records (Debian's blkparse reads none): iomon parse -d writes v7
	"$IOMON" parse -i "$FIX/v8-ext4-part/nullb0" -d "$OUT/v8.dump" -O >/dev/null 2>&1
	btt_case v8-by-iomon-parse "$OUT/v8.dump"
	# a big-endian dump (as an s390x blkparse -d writes it) reads the same
	python3 - "$OUT/s390x-discard-flush.dump" "$OUT/be.dump" <<-'PY'
	import struct, sys
	d, out, off = open(sys.argv[1], "rb").read(), bytearray(), 0
	f = "IIQQIIIIIHH"
	while off + 48 <= len(d):
	    h = struct.unpack("<" + f, d[off:off + 48]); n = h[10]
	    out += struct.pack(">" + f, *h) + d[off + 48:off + 48 + n]; off += 48 + n
	open(sys.argv[2], "wb").write(out)
	PY
	"$IOMON" btt -i "$OUT/be.dump" -o "$OUT/be" 2>/dev/null
	same "btt: a big-endian dump reads as the host's" "$OUT/be.avg" "$OUT/got-s390x-discard-flush.avg"
fi

# the tiny build's pools (BTT_DEVS=1, BTT_REQS=4, BTT_LIVES=1) run out, and say so
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON_TINY" btt -i "$OUT/two-devs.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: devices past BTT_DEVS are counted and named" grep -q "(BTT_DEVS) left out" "$OUT/tiny.err"
	"$IOMON_TINY" btt -i "$OUT/split.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: requests past BTT_REQS are counted and named" grep -q "(BTT_REQS) in flight" "$OUT/tiny.err"
	"$IOMON_TINY" btt -i "$OUT/mq-randrw.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: busy periods past BTT_LIVES make an announced approximation" grep -q "(BTT_LIVES) kept: the I/O Active Period figures are approximate" "$OUT/tiny.err"
	check "tiny btt: seek distances past BTT_SEEKS make an announced approximation" grep -q "(BTT_SEEKS) kept: their MEDIAN and MODE are approximate" "$OUT/tiny.err"
else
	skip "tiny btt pools" "no two-devs dump (needs Debian's blkparse or the run above)"
fi
testcmd "btt: -i is needed" "btt 2>&1; echo rc=\$?" "btt: -i DUMP or -t DEV is needed\nrc=1\n"
testcmd "btt: inputs of one kind" "btt -i - -i - 2>&1 >/dev/null; echo rc=\$?" "btt: inputs of one kind: dumps, trace names, one -, or -t\nrc=1\n"
# the dump on stdin (-i -): the same report as from the file
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON" btt -i - <"$OUT/two-devs.dump" >"$OUT/stdin.avg" 2>/dev/null
	"$IOMON" btt -i "$OUT/two-devs.dump" >"$OUT/file.avg" 2>/dev/null
	same "btt -i -: the dump read from stdin gives the file's report" "$OUT/stdin.avg" "$OUT/file.avg"
fi

# live (-t DEV): a loop device, 100 direct 4 KiB writes, the report at the
# end counts each of them from Q to C; -w ends the capture by itself
if live_ok "btt live"; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 16M "$LI"
	LOOP=$(losetup -f --show "$LI")
	"$IOMON" btt -t "$LOOP" -o "$OUT/live" 2>"$OUT/live.err" &
	pid=$!
	if capturing "$OUT/live.err" $pid; then
		dd if=/dev/zero of="$LOOP" bs=4k count=100 oflag=direct 2>/dev/null
		sleep 0.3
	fi
	kill -INT $pid; wait $pid
	check "btt -t: exit 0 on SIGINT" test $? = 0
	nfig() { awk -v f="$1" '$1 == f { print $5; exit }' "$2"; }
	check "btt -t: D2C counts the 100 writes ($(nfig D2C "$OUT/live.avg"))" test "$(nfig D2C "$OUT/live.avg")" = 100
	check "btt -t: Q2C counts the 100 writes ($(nfig Q2C "$OUT/live.avg"))" test "$(nfig Q2C "$OUT/live.avg")" = 100
	check "btt -t: the device's overhead line" grep -q "^ (  7, *[0-9]*) |" "$OUT/live.avg"
	( sleep 0.5; dd if=/dev/zero of="$LOOP" bs=4k count=10 oflag=direct 2>/dev/null ) &
	timeout 20 "$IOMON" btt -t "$LOOP" -w 2 >"$OUT/livew.avg" 2>/dev/null
	check "btt -t -w 2: ends by itself, exit 0" test $? = 0
	check "btt -t -w 2: a report on stdout" grep -q "^==================== All Devices" "$OUT/livew.avg"
	wait
	losetup -d "$LOOP"
fi
