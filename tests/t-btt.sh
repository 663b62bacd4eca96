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
# btt_pair DIR ARGS...: btt ARGS and iomon btt ARGS, each run in a folder
# of its own, DIR/ref and DIR/got (btt writes *_fp.dat where it runs),
# their stdout into the file "stdout" there
btt_pair() {
	local d=$OUT/$1
	shift
	rm -rf "$d" && mkdir -p "$d/ref" "$d/got"
	(cd "$d/ref" && btt "$@" >stdout 2>/dev/null)
	(cd "$d/got" && "$IOMON" btt "$@" >stdout 2>../got.err)
}
# btt_same DIR WHAT: the two folders hold the same files with the same bytes
btt_same() {
	local d=$OUT/$1 f
	(cd "$d/ref" && ls) >"$d/ref.ls"
	(cd "$d/got" && ls) >"$d/got.ls"
	same "btt $1: $2 make the files btt makes" "$d/got.ls" "$d/ref.ls"
	for f in $(cat "$d/ref.ls"); do
		if [ -s "$d/ref/$f" ]; then
			same "btt $1: $f as btt's" "$d/got/$f" "$d/ref/$f"
		else
			check "btt $1: $f empty, as btt's" test -f "$d/got/$f" -a ! -s "$d/got/$f"
		fi
	done
}
# btt_case NAME DUMP: btt's and iomon's files agree: with -o the report
# (its done sections named apart), the range data, the size histograms,
# the messages; and the per-second rates; without -o the report and the
# range data on stdout; with -A the per-process and per-device tables
btt_case() {
	local n=$1 dump=$2
	btt_pair "$n.o" -i "$dump" -o out
	cp "$OUT/$n.o/ref/out.avg" "$OUT/ref-$n.avg"
	cp "$OUT/$n.o/got/out.avg" "$OUT/got-$n.avg"
	btt_sections "$OUT/ref-$n.avg" >"$OUT/ref-$n.sec"
	same "btt $n: $BTT_DONE" "$OUT/got-$n.avg" "$OUT/ref-$n.sec"
	btt_same "$n.o" "-o NAME"
	btt_pair "$n.s" -i "$dump"
	btt_same "$n.s" "no -o (the report and range data on stdout)"
	btt_pair "$n.A" -A -i "$dump" -o out
	btt_same "$n.A" "-A"
}
cd "$OUT" || exit 1	# btt writes *_fp.dat in the current folder
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
		btt_files "$f" "$OUT/$f.dump"
		# the trace files by name (-i NAME per device, several per-CPU
		# files, v8, big-endian): btt's report on blkparse's dump of them
		"$IOMON" btt "${FIX_IN[@]}" -o "$OUT/files-$f" 2>/dev/null
		same "btt -i NAME ($f): the trace files give btt's report on blkparse -d's dump" \
			"$OUT/files-$f.avg" "$OUT/ref-$f.avg"
	done
	# brd's Cs carry the sector past the bio's end, so no Q completes
	# (fixtures/brd-unmatched): past BTT_REQS in flight, said, and -A's Per
	# Process Q2Q (compared whole above) counts every Q all the same
	if [ -s "$OUT/brd-unmatched.dump" ]; then
		"$IOMON" btt -A -i "$OUT/brd-unmatched.dump" -o "$OUT/bu" >/dev/null 2>"$OUT/bu.err"
		check "btt -A, brd-unmatched: the Qs in flight past BTT_REQS are said" grep -q "^btt: 5646 requests found 8192 (BTT_REQS) in flight" "$OUT/bu.err"
		check "btt -A, brd-unmatched: Per Process Q2Q counts every Q, those past BTT_REQS too (14,088, as btt)" \
			grep -qE '^iogen +0\.000004848 +0\.000010647 +0\.002068925 +14088$' "$OUT/bu.avg"
	fi
	# fixtures/requeue: null_blk throttled (configfs mbps) under
	# mq-deadline, so requests come back (99 R): 3,406 Qs merge into 432
	# requests, dispatched 531 times; btt counts each R as a Q again
	# (handle_requeue): #Q is 3,406 + 99, where Qs alone gave 3,406
	# (compared whole above too)
	if [ -s "$OUT/requeue.dump" ]; then
		"$IOMON" btt -i "$OUT/requeue.dump" -o "$OUT/rq" >/dev/null 2>&1
		check "btt, requeue: Device Merge Information's #Q counts the 99 requeues (3,505), as btt" \
			grep -qE '^ \(254,  0\) \|     3505      531     6\.6 \|' "$OUT/rq.avg"
	fi
	# a raw trace stream on stdin (blktrace -o -), as blkparse -i - -d and btt
	blkparse -i - -d "$OUT/stream.dump" -O <"$FIX/stream/nullb0.stream" >/dev/null 2>&1
	(cd "$OUT" && btt -i stream.dump >ref-stream.avg 2>/dev/null)
	"$IOMON" btt -i - <"$FIX/stream/nullb0.stream" >"$OUT/got-stream.avg" 2>/dev/null
	same "btt -i -: a raw trace stream on stdin gives btt's report and range data on blkparse's dump" \
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
	btt_files v8-by-iomon-parse "$OUT/v8.dump"
	# -S: iostat's interval (0: a block at every record)
	BTT_FILES="-I I -S 0" btt_files S0-discard-flush "$OUT/discard-flush.dump"
	BTT_FILES="-I I -S 2" btt_files S2-two-devs "$OUT/two-devs.dump"
	# -d SECS: btt's range data join gaps under SECS (0.1 by default)
	for d in 0.0005 0.01 2; do
		btt_pair "d$d-two-devs" -d $d -i "$OUT/two-devs.dump" -o out
		btt_same "d$d-two-devs" "-d $d"
	done
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
	# qgidc FILE SECTOR...: a 4 KiB write at each sector in turn (Q G I D C,
	# sequence numbers and times counting up)
	qgidc() {
		python3 - "$@" <<-'PY'
		import struct, sys
		out, seq = b"", 0
		for s in map(int, sys.argv[2:]):
		    for act in (1, 4, 12, 7, 8):
		        seq += 1
		        out += struct.pack("<IIQQIIIIIHH", 0x65617407, seq, 1000 * seq, s, 4096,
		                           act | 2 << 16, 42, 8 << 20, 0, 0, 0)
		open(sys.argv[1], "wb").write(out)
		PY
	}
	# The report once built the seek trees in the hash chains' pages
	# (bttseek.c), where the nil node's colour byte was a chain's: a last
	# new distance hashed to the chain under that byte made it red, and
	# rising distances a red parent with no uncle, so the first tree built
	# (Q2Q's, for its MEDIAN) took the wrong shape (kept against a return).  1000 and 3000 both reach half the
	# seeks: the first in pre-order is the median (btt's 3000, the root)
	qgidc "$OUT/seekred.dump" $(python3 - <<-'PY'
	def h(key):	# bttseek.c's bucket of a distance on device 0 (BTT_SEEK_HASH 16384)
	    return (key * 0x9e3779b97f4a7c15 % (1 << 64)) >> 40 & 16383
	x = 3001	# three distances: the colour byte is bucket 2 * (3 + 1)'s
	while h(x) != 8:
	    x += 1
	end = 0
	for d in (1000, 3000, x, 1000, 3000):	# the sectors, each d past the last one's end
	    print(end + d)
	    end += d + 8
	PY
	)
	btt_case seek-colours "$OUT/seekred.dump"
	# a seek of 2^48 sectors or more (128 PiB) has no node: counted in
	# NSEEKS and MEAN, left out of MEDIAN and MODE, and said (here four:
	# there and back, Q2Q and D2D)
	qgidc "$OUT/farseek.dump" 8 $((1 << 49)) 16
	"$IOMON" btt -i "$OUT/farseek.dump" >"$OUT/farseek.avg" 2>"$OUT/farseek.err"
	check "btt: seeks of 2^48 sectors or more are said" grep -q "^btt: 4 seeks of new distances .* or of 2^48 sectors or more" "$OUT/farseek.err"
	check "btt: seeks of 2^48 sectors or more count in NSEEKS" grep -qE "^ \(  8,  0\) \|               3 " "$OUT/farseek.avg"
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
	# times going backwards (a dump of a raw stream): btt's differences
	# are unsigned, a D before its Q a Q2D of 18446744073.709541 s in
	# the -z file, an -I interval "ending" before it began a row of 0.00
	# (a time of about 2^64 ns); every file as btt's
	python3 "$TOOLS/craft.py" backwards >"$OUT/backwards.dump"
	btt_case backwards "$OUT/backwards.dump"
	btt_files backwards "$OUT/backwards.dump"
	check "btt backwards: the crafted dump does go back (btt's Q2D near 2^64 ns)" \
		grep -q "^0.499990 18446744073.709541$" "$OUT/ref-backwards.d/Z_8,0_q2d.dat"
fi

# btt's option files: each option against Debian's btt on every fixture,
# every file it writes (names and bytes) and its stdout.  -m -s: btt's two
# streams on one name; -t alone: btt stops at the first record (-T is 0)
if need "btt's options vs Debian's btt" btt; then
	for f in "$FIX"/*/; do
		f=$(basename "$f")
		[ -s "$OUT/$f.dump" ] || continue
		for o in "-B B" "-p P" "-P T" "-Q Q" "-u U" "-s S" "-s S -m M" "-a -s S" "-L 0.05" "-Z" \
			"-X -o out" "-a -o out" "-r -o out" "-t 0.2 -T 1.5 -o out -l L" "-t 0.5" "-T 0.3 -A -o out"; do
			k=$(echo "$o" | tr -d ' .-')
			btt_pair "opt$k-$f" -i "$OUT/$f.dump" $o
			btt_same "opt$k-$f" "$o"
		done
	done
	btt_pair optV -V
	btt_same optV "-V"
	btt_pair optm -i "$OUT/two-devs.dump" -m M
	check "btt -m without -s: refused as btt refuses it" test -s "$OUT/optm/got.err"
fi

# every output at once (the files share one pool of chunks; each written
# when it has the most waiting): on every fixture, each file btt's; and
# the same from build/pool/iomon, whose 3 chunks are fewer than the files,
# so files give up the chunk they fill and write a few lines at a time
ALL_OUT="-A -l L -q Q -z Z -I I -B B -p P -P T -Q Q2 -s S -m M -u U -L 0.05 -X -Z -o out"
if need "every output at once vs Debian's btt" btt; then
	if make -s -C "$TOP" build/pool/iomon >/dev/null 2>&1; then
		POOL3=$TOP/build/pool/iomon
	else
		check "btt with a pool of 3 chunks: build/pool/iomon builds" false
		POOL3=
	fi
	for f in mq-randrw split two-devs ext4 dm-stripe; do
		[ -s "$OUT/$f.dump" ] || continue
		btt_pair "all-$f" -i "$OUT/$f.dump" $ALL_OUT
		btt_same "all-$f" "every output at once"
		check "btt all-$f: every output at once, every file written (nothing said)" \
			test ! -s "$OUT/all-$f/got.err"
		[ -n "$POOL3" ] || continue
		d=$OUT/all3-$f
		rm -rf "$d" && mkdir -p "$d/got" && cp -r "$OUT/all-$f/ref" "$d/ref"
		(cd "$d/got" && "$POOL3" btt -i "$OUT/$f.dump" $ALL_OUT >stdout 2>../got.err)
		btt_same "all3-$f" "3 chunks for every output"
	done
	# (three devices: more option files than the 32 the table once had)
	check "every output at once, dm-stripe: btt writes over 32 option files" \
		test "$(cd "$OUT/all-dm-stripe/ref" 2>/dev/null && ls B_* S_* M_* Q2_* *_plat.dat *_pit.dat *_live.dat | wc -l)" -gt 32
	check "every output at once: -p's file past the pool's 128 KiB (the pool ran out)" \
		test "$(stat -c %s "$OUT/all-mq-randrw/ref/P" 2>/dev/null || echo 0)" -gt 131072
fi

# -D (the devices reported, in its order) and -M (their names) against
# Debian's btt, with every file option: btt reads -D's text as "%u,%u"
# pieces past each ';' (so "254,1:254,0" is 254,1 alone, a device named
# twice is listed twice); -M's map file is runs of its characters, a name
# then MAJ,MIN, stopping at "Device", a tab or a line of one word
if need "btt -D -M vs Debian's btt" btt; then
	DM_ALL="-A -l L -q Q -z Z -I I -B B -p P -P T -Q Q2 -s S -m M -u U -L 0.5 -X -Z -o out"
	printf 'nullb0 254,0\nverylongdevicename_abcdefghij 254,1\nsda 8,0\n' >"$OUT/map1"
	printf '  disk-a 254,1 extra\n\nother 254,0\ntwice 254,1\nDevice x\nlate 8,0\n' >"$OUT/map2"
	printf 'first\t254,0\nnever 254,1\n' >"$OUT/map3"
	for f in two-devs remap mq-randrw ext4 discard-flush; do
		[ -s "$OUT/$f.dump" ] || continue
		for o in "-D 254,0" "-D 254,1;254,0" "-D 254,1:254,0" "-D 254,0;254,0;254,1" "-D +254,-0" \
			"-D x" "-M $OUT/map1" "-M $OUT/map2 -D 254,1" "-M $OUT/map3" "-M $OUT/map1 -M $OUT/map2"; do
			[ "$f" = two-devs ] || case "$o" in *"254,1"*) continue;; esac
			k=$(echo "$o" | tr -dc 'a-zA-Z0-9')
			btt_pair "dm$k-$f" -i "$OUT/$f.dump" $DM_ALL $o
			btt_same "dm$k-$f" "$o with every file option"
			btt_pair "dms$k-$f" -i "$OUT/$f.dump" -I I $o
			btt_same "dms$k-$f" "$o on stdout"
		done
	done
	# a device -D names that the trace lacks: btt 1.2.0 crashes; iomon
	# leaves it out, says so and fails (the rest is btt's for the others)
	btt_pair dmgone -i "$OUT/two-devs.dump" -o out -D "254,1"
	"$IOMON" btt -i "$OUT/two-devs.dump" -o "$OUT/dmgone/x" -D "254,1;9,9" 2>"$OUT/dmgone.err"
	check "btt -D 9,9 (not in the trace): fails" test $? -ne 0
	check "btt -D 9,9 (not in the trace): said" grep -q "^btt: -D 254,1;9,9: a device the trace does not have" "$OUT/dmgone.err"
	same "btt -D 254,1;9,9: the report of 254,1 as btt's" "$OUT/dmgone/x.avg" "$OUT/dmgone/ref/out.avg"
	"$IOMON" btt -i "$OUT/two-devs.dump" -M "$OUT/nomap" >/dev/null 2>"$OUT/nomap.err"
	check "btt -M a missing file: fails" test $? -ne 0
	check "btt -M a missing file: names it" grep -q "nomap" "$OUT/nomap.err"
fi

# the tiny build's pools (BTT_DEVS=1, BTT_REQS=4, BTT_PERIODS=2) run out, and say so
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON_TINY" btt -i "$OUT/two-devs.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: devices past BTT_DEVS are counted and named" grep -q "(BTT_DEVS) left out" "$OUT/tiny.err"
	"$IOMON_TINY" btt -i "$OUT/split.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: requests past BTT_REQS are counted and named" grep -q "(BTT_REQS) in flight" "$OUT/tiny.err"
	"$IOMON_TINY" btt -i "$OUT/mq-randrw.dump" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: busy periods past BTT_PERIODS make an announced approximation" grep -q "(BTT_PERIODS) kept: the I/O Active Period figures are approximate" "$OUT/tiny.err"
	check "tiny btt: seek distances past BTT_SEEKS make an announced approximation" grep -q "(BTT_SEEKS) kept, or of 2^48 sectors or more: their MEDIAN and MODE are approximate" "$OUT/tiny.err"
	check "tiny btt: busy ranges past BTT_RANGES make an announced approximation" grep -q "(BTT_RANGES) joined the one before: the range data are approximate" "$OUT/tiny.err"
	"$IOMON_TINY" btt -A -i "$OUT/ext4.dump" >"$OUT/tinyA.avg" 2>"$OUT/tiny.err"
	check "tiny btt -A: processes past BTT_PROCS are counted and named" grep -q "(BTT_PROCS): the Per Process figures leave them out" "$OUT/tiny.err"
	mkdir -p "$OUT/tinyp.d"
	(cd "$OUT/tinyp.d" && "$IOMON_TINY" btt -i "$OUT/ext4.dump" -p P >/dev/null 2>"$OUT/tiny.err")
	check "tiny btt -p: I/Os a D or C meets past BTT_OPT_QS are counted and named" grep -q "past 1 (BTT_OPT_QS)" "$OUT/tiny.err"
	check "tiny btt -A: names past PROC_MAX are counted and named" grep -q "(PROC_MAX): their processes go by pidNNNNNNNNN" "$OUT/tiny.err"
	check "tiny btt -A: the first BTT_PROCS names are still reported" grep -q "^mount " "$OUT/tinyA.avg"
	mkdir -p "$OUT/tiny.d"
	(cd "$OUT/tiny.d" && "$IOMON_TINY" btt -i "$OUT/two-devs.dump" -l L >/dev/null 2>&1)
	check "tiny btt: -l writes the first device's file only" test "$(cd "$OUT/tiny.d" && echo L_*)" = "L_254,0_d2c.dat"
else
	skip "tiny btt pools" "no two-devs dump (needs Debian's blkparse or the run above)"
fi
testcmd "btt: -i is needed" "btt 2>&1; echo rc=\$?" "btt: one of -i INPUT, --trace DEV, --listen\nrc=1\n"
testcmd "btt: inputs of one kind, several only of trace names" "btt -i - -i - 2>&1 >/dev/null; echo rc=\$?" "btt: one dump, one -, trace names, or devices to trace\nrc=1\n"
# the dump on stdin (-i -): the same report as from the file
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON_TINY" btt -i "$FIX/two-devs/nullb0" -i "$FIX/two-devs/nullb1" >/dev/null 2>"$OUT/tiny.err"
	check "tiny btt: inputs past DEVS_MAX or MERGE_INPUTS are refused, and said" grep -q "more than 1 inputs (DEVS_MAX, MERGE_INPUTS)" "$OUT/tiny.err"
	"$IOMON" btt -i - <"$OUT/two-devs.dump" >"$OUT/stdin.avg" 2>/dev/null
	"$IOMON" btt -i "$OUT/two-devs.dump" >"$OUT/file.avg" 2>/dev/null
	same "btt -i -: the dump read from stdin gives the file's report" "$OUT/stdin.avg" "$OUT/file.avg"
	if [ -s "$OUT/ext4.dump" ]; then
		"$IOMON" btt -A -i - <"$OUT/ext4.dump" >"$OUT/stdinA.avg" 2>/dev/null
		"$IOMON" btt -A -i "$OUT/ext4.dump" >"$OUT/fileA.avg" 2>/dev/null
		same "btt -A -i -: the notes before the first request name the processes as from the file" "$OUT/stdinA.avg" "$OUT/fileA.avg"
	fi
	testcmd "btt: a -l file that cannot be made is said, and fails" \
		"btt -i '$OUT/two-devs.dump' -l /nonexistent/L -o '$OUT/nx' 2>&1 >/dev/null; echo rc=\$?" \
		"btt: /nonexistent/L_254,0_d2c.dat: No such file or directory\nbtt: /nonexistent/L_254,1_d2c.dat: No such file or directory\nrc=1\n" "$OUT"
	# btt opens its input before it makes NAME.msg: perror's words, no file
	rm -rf "$OUT/nx2" "$OUT/nx3"; mkdir -p "$OUT/nx2" "$OUT/nx3"
	testcmd "btt: an input that is no file and no trace: btt's perror, exit 1, no file made" \
		"btt -i nonexist -o out 2>&1; echo rc=\$?; ls" "nonexist: No such file or directory\nrc=1\n" "$OUT/nx2"
	if command -v btt >/dev/null; then
		( cd "$OUT/nx3" && btt -i nonexist -o out 2>&1; echo rc=$?; ls ) >"$OUT/nx3.deb" 2>&1
		( cd "$OUT/nx3" && rm -f ./*; "$IOMON" btt -i nonexist -o out 2>&1; echo rc=$?; ls ) >"$OUT/nx3.our" 2>&1
		same "btt: a missing input: the same words, exit and files as Debian's btt" "$OUT/nx3.deb" "$OUT/nx3.our"
	fi
	long=$(printf 'L%.0s' $(seq 600))
	testcmd "btt: a -l name too long for PATH_LEN is said, not cut short" \
		"btt -i '$OUT/two-devs.dump' -l $long -o '$OUT/nx' 2>&1 >/dev/null | sort -u | cut -c1-20; echo rc=\${PIPESTATUS[0]}" \
		"btt: LLLLLLLLLLLLLLL\nrc=1\n" "$OUT"	# (its *_fp.dat there)
fi

# -A on a crafted dump: two processes by their notes, one named with
# printf's '%' (printed as it is), requests alternating between them
python3 - "$OUT/procs.dump" <<-'PY'
import struct, sys
W, Q, D, C, N = 1 << 17, 1 << 20, 1 << 22, 1 << 23, 1 << 26
out, t = b"", 0
def rec(time, sec, act, pid, pdu=b""):
    global out
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, 0 if act == N else 4096, act, pid, 8 << 20, 0, 0, len(pdu)) + pdu
rec(0, 0, N, 7, b"a%d%s".ljust(16, b"\0"))
rec(0, 0, N, 8, b"kworker/1:2".ljust(16, b"\0"))
for i in range(6):
    pid = 7 + (i & 1) if i < 5 else 9
    rec(t, 8 * i, W | Q | 1, pid); rec(t + 2000, 8 * i, W | D | 7, pid); rec(t + 5000 + i, 8 * i, W | C | 8, pid)
    t += 10000
open(sys.argv[1], "wb").write(out)
PY
"$IOMON" btt -A -i "$OUT/procs.dump" >"$OUT/procs.avg" 2>&1
check "btt -A: a process named with '%' is printed as it is" grep -q "^a%d%s  " "$OUT/procs.avg"
check "btt -A: kworker/1:2 counts as kworker" grep -q "^kworker  " "$OUT/procs.avg"
check "btt -A: a pid without a note is pidNNNNNNNNN" grep -q "^pid000000009  " "$OUT/procs.avg"
if need "btt -A on a crafted dump vs Debian's btt" btt; then
	(cd "$OUT" && btt -A -i procs.dump >procs-ref.avg 2>/dev/null)
	same "btt -A: the crafted processes' report as btt's" "$OUT/procs.avg" "$OUT/procs-ref.avg"
fi

# messages (one with '%' and a NUL, one before the device's first Q,
# which btt drops but which makes the device first), a process known
# only by its note (it still takes a place in the range data), a gap of
# more than 0.1 s, a 1 MiB request (the size histograms' last bucket)
python3 - "$OUT/msgs.dump" <<-'PY'
import struct, sys
W, Q, D, C, N = 1 << 17, 1 << 20, 1 << 22, 1 << 23, 1 << 26
A, B, out = 8 << 20, (8 << 20) | 16, b""
def rec(time, dev, sec, act, pid, nbytes=4096, pdu=b""):
    global out
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, nbytes, act, pid, dev, 0, 0, len(pdu)) + pdu
rec(0, 0, 0, N, 5, 0, b"lonely".ljust(16, b"\0"))
rec(0, 0, 0, N, 7, 0, b"app/3".ljust(16, b"\0"))
rec(500, B, 0, N | 2, 9, 0, b"before any Q")
rec(1000, A, 8, W | Q | 1, 7)
rec(1500, A, 0, N | 2, 9, 0, b"hello %s\0hidden")
rec(2000, A, 8, W | D | 7, 7)
rec(3000, A, 8, W | C | 8, 0)
rec(4000, B, 64, W | Q | 1, 11, 8192)
rec(4500, B, 0, N | 2, 11, 0, b"on the second")
rec(5000, B, 64, W | D | 7, 11, 8192)
rec(6000, B, 64, W | C | 8, 11, 8192)
rec(500000000, A, 16, W | Q | 1, 7, 1 << 20)
rec(500001000, A, 16, W | D | 7, 7, 1 << 20)
rec(1600000000, A, 16, W | C | 8, 12, 1 << 20)
open(sys.argv[1], "wb").write(out)
PY
if need "btt's files on a crafted dump vs Debian's btt" btt; then
	btt_pair msgs.o -i "$OUT/msgs.dump" -o out
	btt_same msgs.o "messages, a note's process, -o"
	btt_pair msgs.s -i "$OUT/msgs.dump"
	btt_same msgs.s "messages, a note's process, stdout"
	check "btt: the crafted messages are written" grep -q "^(  8,  0)     0.000001500 hello %s$" "$OUT/msgs.o/got/out.msg"
	# -e: only the processes listed, in the list's order; one known by its
	# note only takes a number in the range data but shows nothing, one
	# unknown takes none
	btt_pair exes.m -A -e app,nope,lonely,pid000000011 -i "$OUT/msgs.dump" -o out
	btt_same exes.m "-A -e with a note's process and an unknown one,"
	btt_pair exes.s -e lonely,app -i "$OUT/msgs.dump"
	btt_same exes.s "-e on stdout,"
	# an empty list: no Per Process section at all; a name past btt's 15
	# bytes matches no process, not the one its first 15 bytes name
	btt_pair exes.e -A -e '' -i "$OUT/msgs.dump" -o out
	btt_same exes.e "-A -e '',"
	python3 - "$OUT/long.dump" <<-'PY'
	import struct, sys
	W, Q, D, C, N = 1 << 17, 1 << 20, 1 << 22, 1 << 23, 1 << 26
	out = b""
	def rec(time, sec, act, pid, pdu=b""):
	    global out
	    out += struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, 0 if act == N else 4096, act, pid, 8 << 20, 0, 0, len(pdu)) + pdu
	rec(0, 0, N, 7, b"abcdefghijklmno\0")
	rec(0, 0, N, 8, b"short".ljust(16, b"\0"))
	for i in range(4):
	    pid = 7 + (i & 1)
	    rec(1000 * i, 8 * i, W | Q | 1, pid); rec(1000 * i + 200, 8 * i, W | D | 7, pid); rec(1000 * i + 500, 8 * i, W | C | 8, pid)
	open(sys.argv[1], "wb").write(out)
	PY
	btt_pair exes.l -A -e abcdefghijklmnoXYZ,short -i "$OUT/long.dump" -o out
	btt_same exes.l "-A -e: a name past 15 bytes is not its first 15 bytes' process,"
	check "btt -A -e: the name past 15 bytes shows no process" sh -c "! grep -q abcdefghijklmn '$OUT/exes.l/got/out.avg'"
fi
if need "btt -e on a crafted dump vs Debian's btt" btt; then
	btt_pair exes.p -A -e kworker,a%d%s -i "$OUT/procs.dump" -o out
	btt_same exes.p "-A -e in the list's order, not by name,"
fi

# two Qs holding one sector (96+16 queued after 100+16): a G, I, or M
# finds the one btt's tree search meets first (the older here, at the
# root), not the newest; iomon took the newest until 2026-11-23
python3 - "$OUT/overlap.dump" <<-'PY'
import struct, sys
W, Q, G, I, D, C = 1 << 17, 1 | 1 << 20, 4 | 1 << 20, 12 | 1 << 20, 7 | 1 << 22, 8 | 1 << 23
out = b""
def rec(time, sec, act, nbytes):
    global out
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, nbytes, W | act, 7, 8 << 20, 0, 0, 0)
for t, sec, act, n in ((1000, 100, Q, 8192), (2000, 96, Q, 8192), (3000, 100, G, 8192), (3500, 96, G, 8192),
                       (4000, 96, I, 8192), (4500, 100, I, 8192), (5000, 96, D, 20480), (6000, 96, C, 20480)):
    rec(t, sec, act, n)
open(sys.argv[1], "wb").write(out)
PY
"$IOMON" btt -i "$OUT/overlap.dump" >"$OUT/overlap.avg" 2>&1
check "btt: a G inside two Qs stamps the one at the tree's root (Q2G 2 us)" \
	grep -q "^Q2G               0.000001500   0.000001750   0.000002000           2$" "$OUT/overlap.avg"
if need "btt on overlapping Qs vs Debian's btt" btt; then
	btt_pair overlap -i "$OUT/overlap.dump" -o out -q q2c -l d2c
	btt_same overlap "two Qs holding one sector"
fi

# an empty dump: btt writes nothing at all (no .avg, no -I file) and exits 0
mkdir -p "$OUT/empty.d" && : >"$OUT/empty.d/e.dump"
(cd "$OUT/empty.d" && "$IOMON" btt -i e.dump -o E -I I -l L >out 2>&1; echo "rc=$?" >>out)
check "btt: an empty dump makes no files and no output, as btt" test "$(ls "$OUT/empty.d" | tr '\n' ' ')$(cat "$OUT/empty.d/out")" = "e.dump out rc=0"

# beyond btt: --hist, --json, --prom.  A crafted dump: five requests on
# 8,0, one after another, 2 us from Q to D and D2C of 0.5, 1, 3 and 100 us
# and 5 s: each lands in the bucket its whole microseconds say
python3 - "$OUT/craft.dump" <<-'PY'
import struct, sys
W, Q, D, C = 1 << 17, 1 << 20, 1 << 22, 1 << 23
out, t, seq = b"", 0, 0
def rec(time, sec, act):
    global out, seq
    seq += 1
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, seq, time, sec, 4096, act, 1, 8 << 20, 0, 0, 0)
for i, d2c in enumerate((500, 1000, 3000, 100000, 5000000000)):
    rec(t, 8 * i, W | Q | 1); rec(t + 2000, 8 * i, W | D | 7); rec(t + 2000 + d2c, 8 * i, W | C | 8)
    t += 2000 + d2c + 1000
open(sys.argv[1], "wb").write(out)
PY
"$IOMON" btt -i "$OUT/craft.dump" >"$OUT/craft.avg" 2>&1
"$IOMON" btt -i "$OUT/craft.dump" --hist --json "$OUT/craft.json" --prom "$OUT/craft.prom" >"$OUT/crafth.avg" 2>&1
check "btt --hist: btt's report first, unchanged" cmp -n "$(wc -c <"$OUT/craft.avg")" "$OUT/craft.avg" "$OUT/crafth.avg"
check "btt --hist: a section after it" grep -q "^==================== Latency Histograms ====================" "$OUT/crafth.avg"
# bucket: counts as [index, count] pairs where not 0
hb() { python3 -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(j["device"], [[i, n] for i, n in enumerate(j[sys.argv[2]]) if n])' "$@"; }
testcmd "btt --json: D2C buckets (0.5 1 3 100 us, 5 s)" "true; hb '$OUT/craft.json' d2c_hist_usec" "8,0 [[0, 1], [1, 1], [3, 1], [8, 1], [23, 1]]\n"
testcmd "btt --json: Q2C buckets" "true; hb '$OUT/craft.json' q2c_hist_usec" "8,0 [[2, 1], [3, 1], [4, 1], [8, 1], [23, 1]]\n"
testcmd "btt --json: Q2D buckets" "true; hb '$OUT/craft.json' q2d_hist_usec" "8,0 [[2, 5]]\n"
check "btt --hist: the text shows the 5 s D2C above the last bound" sh -c "grep -A6 '^(  8,  0) D2C (usec):' '$OUT/crafth.avg' | grep -q '> 2097152:     1'"
# prom_ok FILE: every line a comment or NAME{LABELS} VALUE; each histogram's
# buckets cumulative, +Inf its _count
prom_ok() { python3 - "$1" <<-'PY'
	import re, sys
	b = {}
	for l in open(sys.argv[1]):
	    l = l.rstrip("\n")
	    if l.startswith("# TYPE ") or l.startswith("# HELP "):
	        continue
	    m = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_]+="[^"]*"(,[a-zA-Z_]+="[^"]*")*\})? (\S+)', l)
	    assert m, l
	    v = float(m.group(4))
	    n, lab = m.group(1), m.group(2) or ""
	    dev = re.search(r'device="([^"]*)"', lab).group(1)
	    if n.endswith("_bucket"):
	        k = (n[:-7], dev); assert v >= b.get(k, 0), l; b[k] = v
	    elif n.endswith("_count"):
	        assert b[(n[:-6], dev)] == v, l
	PY
}
check "btt --prom: Prometheus text that parses, buckets cumulative" prom_ok "$OUT/craft.prom"
check "btt --prom: the 5 s D2C in the +Inf bucket only" sh -c "grep -q 'iomon_btt_d2c_seconds_bucket{device=\"8,0\",le=\"2.097152\"} 4' '$OUT/craft.prom' && grep -q 'iomon_btt_d2c_seconds_count{device=\"8,0\"} 5' '$OUT/craft.prom'"
# on a real trace: each histogram counts what btt counts
if [ -s "$OUT/two-devs.dump" ]; then
	"$IOMON" btt -i "$OUT/two-devs.dump" -o "$OUT/two" --json - >"$OUT/two.json" 2>/dev/null
	check "btt --json: lines of valid JSON" sh -c "python3 -m json.tool --json-lines '$OUT/two.json' >/dev/null"
	check "btt --json: D2C and Q2C buckets sum to their counts, per device" python3 -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    assert sum(j["d2c_hist_usec"]) == j["d2c_ns"]["num"] > 0 and sum(j["q2c_hist_usec"]) == j["q2c_ns"]["num"], l' "$OUT/two.json"
fi

# live (-t DEV): a loop device, 100 direct 4 KiB writes, the report at the
# end counts each of them from Q to C; -w ends the capture by itself
if live_ok "btt live"; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 16M "$LI"
	LOOP=$(losetup -f --show "$LI")
	"$IOMON" btt --trace "$LOOP" -o "$OUT/live" 2>"$OUT/live.err" &
	pid=$!
	# (once dd has returned its records are in the kernel's buffers, and
	# a capture drains those when signalled: nothing to wait for)
	capturing "$OUT/live.err" $pid && dd if=/dev/zero of="$LOOP" bs=4k count=100 oflag=direct 2>/dev/null
	kill -INT $pid; wait $pid
	check "btt --trace: exit 0 on SIGINT" test $? = 0
	nfig() { awk -v f="$1" '$1 == f { print $5; exit }' "$2"; }
	check "btt --trace: D2C counts the 100 writes ($(nfig D2C "$OUT/live.avg"))" test "$(nfig D2C "$OUT/live.avg")" = 100
	check "btt --trace: Q2C counts the 100 writes ($(nfig Q2C "$OUT/live.avg"))" test "$(nfig Q2C "$OUT/live.avg")" = 100
	check "btt --trace: the device's overhead line" grep -q "^ (  7, *[0-9]*) |" "$OUT/live.avg"
	# -S 1: the exports each second and at the end; they add up to the run
	# -l: the files' pool is written out at each interval, so a file
	# followed shows the lines while the capture runs: the 100 writes at
	# once, then one write at a time
	lv_lines() { [ "$(cat "$OUT"/lv_7,*_d2c.dat 2>/dev/null | wc -l)" -ge "$1" ]; }
	rm -f "$OUT"/lv_7,*_d2c.dat
	"$IOMON" btt --trace "$LOOP" -S 1 -l "$OUT/lv" -o "$OUT/lives" --json "$OUT/live.json" --prom "$OUT/live.prom" >"$OUT/live.iv" 2>"$OUT/lives.err" &
	pid=$!
	if capturing "$OUT/lives.err" $pid; then
		dd if=/dev/zero of="$LOOP" bs=4k count=100 oflag=direct 2>/dev/null
		# an interval's exports written; SIGINT's end makes the second
		wait_for 10 "btt --trace -S 1 to print an interval" at_least 1 '^=+ \( *7, *[0-9]+\) at [0-9]+ s =+$' "$OUT/live.iv" &&
			wait_for 10 "btt --trace -S 1 to write an interval's JSON" at_least 1 '^\{' "$OUT/live.json"
		wait_for 10 "btt --trace -S 1 -l: the 100 writes' D2C lines in the file as it runs" lv_lines 100
		for n in 101 102; do
			dd if=/dev/zero of="$LOOP" bs=4k count=1 oflag=direct 2>/dev/null
			wait_for 10 "btt --trace -S 1 -l: write $n's line in the file as it runs" lv_lines $n
		done
		check "btt --trace -S 1 -l: those lines came while it ran" kill -0 $pid
	fi
	kill -INT $pid; wait $pid
	check "btt --trace -S 1 -l: 102 lines at its end ($(cat "$OUT"/lv_7,*_d2c.dat 2>/dev/null | wc -l))" lv_lines 102
	check "btt --trace -S 1: two JSON lines at least ($(wc -l <"$OUT/live.json"))" test "$(wc -l <"$OUT/live.json")" -ge 2
	check "btt --trace -S 1: the intervals' D2C counts and buckets add up to the 102 writes" python3 -c 'import json, sys
n = h = 0
for l in open(sys.argv[1]):
    j = json.loads(l); n += j["d2c_ns"]["num"]; h += sum(j["d2c_hist_usec"])
assert n == h == 102, (n, h)' "$OUT/live.json"
	check "btt --trace -S 1: an interval report on stdout, a block a second" test "$(grep -c '^==================== (  7, *[0-9]*) at [0-9]* s ====================$' "$OUT/live.iv")" -ge 2
	check "btt --trace -S 1: the interval reports' D2C counts add up to the 102 writes" test "$(awk '$1 == "D2C" { n += $5 } END { print n }' "$OUT/live.iv")" = 102
	check "btt --trace -S 1: the report at the end still counts all 102" test "$(nfig D2C "$OUT/lives.avg")" = 102
	check "btt --trace --prom: the run's D2C count" grep -qE '^iomon_btt_d2c_seconds_count\{device="7,[0-9]+"\} 102$' "$OUT/live.prom"
	rm -f "$OUT/livew.err"
	timeout 20 "$IOMON" btt --trace "$LOOP" -w 2 >"$OUT/livew.avg" 2>"$OUT/livew.err" & pid=$!
	capturing "$OUT/livew.err" $pid && dd if=/dev/zero of="$LOOP" bs=4k count=10 oflag=direct 2>/dev/null
	wait $pid
	check "btt --trace -w 2: ends by itself, exit 0" test $? = 0
	check "btt --trace -w 2: a report on stdout" grep -q "^==================== All Devices" "$OUT/livew.avg"
	losetup -d "$LOOP"
fi
