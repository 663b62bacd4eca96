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
# BTT_FILES: the options of the files btt writes beside the .avg that
# iomon does too, and the globs of those files' names
BTT_FILES="-l L -q Q -z Z -I I"
BTT_GLOBS="L_* Q_* Z_* I"
# btt_files NAME DUMP: btt and iomon btt, each in a folder of its own with
# BTT_FILES, write the same files (names too: the folders' listings) with
# the same bytes
btt_files() {
	local n=$1 dump=$2 f
	mkdir -p "$OUT/ref-$n.d" "$OUT/got-$n.d"
	(cd "$OUT/ref-$n.d" && btt -i "$dump" $BTT_FILES >/dev/null 2>&1)
	(cd "$OUT/got-$n.d" && "$IOMON" btt -i "$dump" $BTT_FILES >/dev/null 2>"$OUT/got-$n.d.err")
	(cd "$OUT/ref-$n.d" && ls -d $BTT_GLOBS 2>/dev/null; echo "(end)") >"$OUT/ref-$n.ls"
	(cd "$OUT/got-$n.d" && ls -d $BTT_GLOBS 2>/dev/null; echo "(end)") >"$OUT/got-$n.ls"
	same "btt $n: $BTT_FILES make the files btt makes" "$OUT/got-$n.ls" "$OUT/ref-$n.ls"
	while read -r f; do
		[ "$f" = "(end)" ] && continue
		same "btt $n: $f as btt's" "$OUT/got-$n.d/$f" "$OUT/ref-$n.d/$f"
	done <"$OUT/ref-$n.ls"
}
# fix_dump FIXTURE: its dump (every NAME.blktrace.0 in the folder merged)
fix_dump() {
	local d=$FIX/$1 a=() f
	for f in "$d"/*.blktrace.0; do a+=(-i "${f%.blktrace.0}"); done
	blkparse "${a[@]}" -d "$OUT/$1.dump" -O >/dev/null 2>&1
	[ -s "$OUT/$1.dump" ] || "$IOMON" parse "${a[@]}" -d "$OUT/$1.dump" -O >/dev/null 2>&1
}

if need "btt vs Debian's btt" btt blkparse; then
	for d in "$FIX"/*/; do
		f=$(basename "$d")
		ls "$d"*.blktrace.0 >/dev/null 2>&1 || continue
		fix_dump "$f" && btt_case "$f" "$OUT/$f.dump" && btt_files "$f" "$OUT/$f.dump"
	done
	# v8 records (Debian's blkparse reads none): iomon parse -d writes v7
	"$IOMON" parse -i "$FIX/v8-ext4-part/nullb0" -d "$OUT/v8.dump" -O >/dev/null 2>&1
	btt_case v8-by-iomon-parse "$OUT/v8.dump"
	btt_files v8-by-iomon-parse "$OUT/v8.dump"
	# -S: iostat's interval (0: a block at every record)
	BTT_FILES="-I I -S 0" btt_files S0-discard-flush "$OUT/discard-flush.dump"
	BTT_FILES="-I I -S 2" btt_files S2-two-devs "$OUT/two-devs.dump"
	# Qs at a start btt's tree holds already: the newer takes the older's
	# node (not erased and inserted: the D and C lines come in that order)
	python3 - "$OUT/dupq.dump" <<-'PY'
	import struct, sys
	def rec(i, t, act, sector, nsec):
	    return struct.pack("<IIQQIIIIIHH", 0x65617407, i, t, sector, nsec * 512,
	                       act | 1 << 16, 42, 254 << 20, 0, 0, 0)
	ev = [(1000, 1, 200, 8), (2000, 1, 100, 8), (3000, 1, 200, 8), (4000, 7, 100, 108),
	      (5000, 8, 100, 108), (6000, 1, 300, 8), (7000, 1, 300, 8), (8000, 1, 300, 8),
	      (9000, 7, 300, 8), (9500, 8, 300, 8)]
	open(sys.argv[1], "wb").write(b"".join(rec(i + 1, *e) for i, e in enumerate(ev)))
	PY
	btt_case dup-starts "$OUT/dupq.dump"
	btt_files dup-starts "$OUT/dupq.dump"
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
	mkdir -p "$OUT/tiny.d"
	(cd "$OUT/tiny.d" && "$IOMON_TINY" btt -i "$OUT/two-devs.dump" -l L 2>/dev/null)
	check "tiny btt: -l writes the first device's file only" test "$(ls "$OUT/tiny.d")" = "L_254,0_d2c.dat"
else
	skip "tiny btt pools" "no two-devs dump (needs Debian's blkparse or the run above)"
fi
testcmd "btt: -i is needed" "btt 2>&1; echo rc=\$?" "btt: -i DUMP is needed\nrc=1\n"
# the dump on stdin (-i -): the same report as from the file
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON" btt -i - <"$OUT/two-devs.dump" >"$OUT/stdin.avg" 2>/dev/null
	"$IOMON" btt -i "$OUT/two-devs.dump" >"$OUT/file.avg" 2>/dev/null
	same "btt -i -: the dump read from stdin gives the file's report" "$OUT/stdin.avg" "$OUT/file.avg"
	testcmd "btt: a -l file that cannot be made is said, and fails" \
		"btt -i '$OUT/two-devs.dump' -l /nonexistent/L -o '$OUT/nx' 2>&1 >/dev/null; echo rc=\$?" \
		"btt: /nonexistent/L_254,0_d2c.dat: No such file or directory\nbtt: /nonexistent/L_254,1_d2c.dat: No such file or directory\nrc=1\n"
	long=$(printf 'L%.0s' $(seq 600))
	testcmd "btt: a -l name too long for PATH_LEN is said, not cut short" \
		"btt -i '$OUT/two-devs.dump' -l $long -o '$OUT/nx' 2>&1 >/dev/null | sort -u | cut -c1-20; echo rc=\${PIPESTATUS[0]}" \
		"btt: LLLLLLLLLLLLLLL\nrc=1\n"
fi
