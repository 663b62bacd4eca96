# Differential: the same input through Debian's blkparse 1.2.0 (the oracle)
# and iomon parse, every option at least once, stdout and -d dumps compared
# byte for byte.
if ! have_oracle; then
	skip "oracle tests" "Debian's blkparse is not installed (run tests/tools/setup-deps.sh as root)"
else
	# testoracle NAME "ARGS" DIR (tests/lib.sh): `iomon parse ARGS` and
	# `blkparse ARGS` in DIR (under tests/fixtures), stdout compared; ARGS
	# is shell text, quoted as typed.
	E=$FIX/ext4 M=$FIX/mq-randrw R=$FIX/remap D=$FIX/discard-flush
	for args in "-q" "-s" "-h -s" "-s -q" "-a write" "-a READ -a complete" "-a fs -a discard" \
		"-A 0x40" "-A c0" "-w 0.25" "-w 0.1:0.3" "-b 7" "-b 1" "-b 100000" "-v" "-M" \
		"-f '%D|%a|%C|%d|%e|%M|%m|%n|%N|%p|%s|%S|%t|%T|%c\n'" \
		"-f '%5T.%-9t%%%z\t%-16C%3c%a\n'" "-F 'Q,%S+%n(%p)\n' -F 'C,%S:%e\n'" \
		"-F 'A,%a->%D\n'" "-F 'X,split %S\n' -f '%a\n'" "--quiet --per-program-stats" \
		"--act-mask=queue --hash-by-name -s"; do
		testoracle "oracle ext4 $args" "-i nullb0 $args" ext4
	done
	for args in "" "-s" "-q -a issue" "-f '%a%d\n'"; do
		testoracle "oracle remap $args" "-i nullb0 $args" remap
		testoracle "oracle discard-flush $args" "-i nullb0 $args" discard-flush
		testoracle "oracle mq-randrw $args" "-i nullb0 $args" mq-randrw
	done
	testoracle "oracle -D and long options" "--input-directory='$E' --input=nullb0 --batch=32 --verbose" /
	testoracle "oracle -i with a folder in the name" "-i '$R/nullb0' -s" /
	( cd "$E" && blkparse -i nullb0 -o "$OUT/o.exp" -s ) >"$OUT/o.so.exp" 2>/dev/null
	( cd "$E" && "$IOMON" parse -i nullb0 --output="$OUT/o.txt" -s ) >"$OUT/o.so.txt" 2>/dev/null
	same "oracle -o FILE" "$OUT/o.txt" "$OUT/o.exp"
	same "oracle -o FILE, stdout" "$OUT/o.so.txt" "$OUT/o.so.exp"
	rm -f "$OUT/fifo"; mkfifo "$OUT/fifo"
	cat "$FIX/stream/nullb0.stream" >"$OUT/fifo" & blkparse -i "$OUT/fifo" >"$OUT/f.exp" 2>/dev/null; wait
	cat "$FIX/stream/nullb0.stream" >"$OUT/fifo" & "$IOMON" parse -i "$OUT/fifo" >"$OUT/f.txt" 2>/dev/null; wait
	# how a live pipe splits into batches depends on timing, for both tools
	grep -vE "depth:|^Throughput" "$OUT/f.txt" | sort >"$OUT/f.s1"; grep -vE "depth:|^Throughput" "$OUT/f.exp" | sort >"$OUT/f.s2"
	same "oracle -i FIFO is a stream (same lines)" "$OUT/f.s1" "$OUT/f.s2"
	# a stream whose second CPU began before the first: its earlier
	# records are held and printed last (fixtures/late-cpu/README)
	cat "$FIX/late-cpu/loop0.blktrace.0" "$FIX/late-cpu/loop0.blktrace.1" >"$OUT/late.stream"
	blkparse -i - <"$OUT/late.stream" >"$OUT/late.exp" 2>&1
	"$IOMON" parse -i - <"$OUT/late.stream" >"$OUT/late.txt" 2>&1
	same "oracle a stream with 70 records before its first CPU's first (held, printed last)" "$OUT/late.txt" "$OUT/late.exp"
	# two devices (7,1: the same records again), each with 70 records on
	# CPU 1 from before the first batch (issue 29).  blkparse stops at
	# the first record that fails its sequence check and leaves it, and
	# every record sorting behind it of either device, to its final pass:
	# 7,0's CPU 0, 7,1's, then each one's CPU 1 (its early records late
	# for their CPU, 7,1's held behind 7,0's though not late for theirs);
	# and the devices one after the other (7,0's CPU 1 early records split
	# across two batches: the second's first newer record fails as a gap
	# whose records sort after it).  Its -d dump has that order, which btt
	# reads from the stream too.
	for c in 0 1; do python3 "$TOOLS/redev.py" 7,1 "$FIX/late-cpu/loop0.blktrace.$c" "$OUT/late71.$c"; done
	L=$FIX/late-cpu/loop0.blktrace
	cat "$L.0" "$OUT/late71.0" "$L.1" "$OUT/late71.1" >"$OUT/late2.stream"
	cat "$L.0" "$L.1" "$OUT/late71.0" "$OUT/late71.1" >"$OUT/late2b.stream"
	for st in late2 late2b; do
		blkparse -i - -d "$OUT/$st.dexp" <"$OUT/$st.stream" >"$OUT/$st.exp" 2>&1
		"$IOMON" parse -i - -d "$OUT/$st.dump" <"$OUT/$st.stream" >"$OUT/$st.txt" 2>&1
		same "oracle a stream of two devices with early CPU 1 records ($st)" "$OUT/$st.txt" "$OUT/$st.exp"
		same_dump "oracle -d of that stream, in blkparse's order ($st)" "$OUT/$st.dump" "$OUT/$st.dexp"
		rm -rf "$OUT/bs" "$OUT/bd"; mkdir -p "$OUT/bs" "$OUT/bd"
		( cd "$OUT/bs" && "$IOMON" btt -i - -p per -o s <"$OUT/$st.stream" >/dev/null 2>&1 )
		( cd "$OUT/bd" && "$IOMON" btt -i "$OUT/$st.dexp" -p per -o s >/dev/null 2>&1 )
		same "oracle btt -p on that stream is btt -p on blkparse's dump of it ($st)" "$OUT/bs/per" "$OUT/bd/per"
	done
	n71=$(awk '$1 == "7,1" && $2 == 1 && $4 > 1000000 { n++ } END { print n + 0 }' "$OUT/late2.exp")
	check "oracle late2: blkparse prints 7,1's $n71 early CPU 1 records after every record from the first batch on" \
		awk '$1 ~ /^7,[01]$/ && $4 < 1000000 { if (seen) exit 1 } $1 == "7,1" && $2 == 1 && $4 > 1000000 { seen = 1 } END { exit !seen }' "$OUT/late2.exp"
	# -t -v's "not found" lines on stderr, blkparse's words without
	# iomon's name, and its device (0,0) reading files (only a stream
	# binds it)
	for f in ext4/nullb0 split/nullb0 discard-flush/nullb0; do
		( cd "$FIX/${f%/*}" && blkparse -i "${f#*/}" -t -v 2>&1 >/dev/null ) >"$OUT/v.exp"
		( cd "$FIX/${f%/*}" && "$IOMON" parse -i "${f#*/}" -t -v 2>&1 >/dev/null ) >"$OUT/v.txt"
		same "oracle -t -v stderr, ${f%/*} ($(grep -c 'not found' "$OUT/v.exp") not found)" "$OUT/v.txt" "$OUT/v.exp"
	done
	blkparse -i - -t -v <"$OUT/late.stream" 2>&1 >/dev/null | cat >"$OUT/v.exp"
	"$IOMON" parse -i - -t -v <"$OUT/late.stream" 2>&1 >/dev/null | cat >"$OUT/v.txt"
	same "oracle -t -v stderr, a stream ($(cat "$OUT/v.exp"))" "$OUT/v.txt" "$OUT/v.exp"
	# the same on a real capture (fixtures/dm-merge/README): 13,748 Qs
	# back-merged on 253,0, piped; the text the same but for the
	# documented figures (tdiff.py), stderr blkparse's
	if need "oracle dm-merge: xz" xz; then
		for o in "" "-t" "-t -v" "-q -s -t" "linear48" "linear48 -t" "linear48 -t -v" "linear48 -q -s -t"; do
			case "$o" in linear48*) xz -dc "$FIX/dm-merge/linear48.xz" >"$OUT/dmm.stream"; o=${o#linear48};;
			*) xz -dc "$FIX/dm-merge/stream.xz" >"$OUT/dmm.stream";; esac
			blkparse -i - $o <"$OUT/dmm.stream" >"$OUT/dmm.exp" 2>"$OUT/dmm.eerr"
			"$IOMON" parse -i - $o <"$OUT/dmm.stream" >"$OUT/dmm.txt" 2>"$OUT/dmm.err"
			python3 "$TOOLS/tdiff.py" "$OUT/dmm.txt" "$OUT/dmm.exp" >"$OUT/dmm.d"
			check "oracle dm-merge stream $o ($(stat -c %s "$OUT/dmm.stream") bytes): $(tail -1 "$OUT/dmm.d")" test $? = 0
			if [ -s "$OUT/dmm.eerr" ]; then
				same "oracle dm-merge stream $o: stderr ($(grep -c 'not found' "$OUT/dmm.eerr") not found)" "$OUT/dmm.err" "$OUT/dmm.eerr"
			else
				check "oracle dm-merge stream $o: nothing on stderr, as blkparse" test ! -s "$OUT/dmm.err"
			fi
		done
	fi
	# -t on fixtures/nullb-reread: back-merged Qs on 253 that blkparse
	# keeps, met again by the reads of the same sectors (their files and
	# their stream); nothing on stderr, as blkparse
	cat "$FIX/nullb-reread"/nullb0.blktrace.* >"$OUT/nr.stream"
	for o in -t "-q -s -t" "-t -v"; do
		for i in files -; do
			if [ $i = - ]; then
				blkparse -i - $o <"$OUT/nr.stream" >"$OUT/nr.exp" 2>"$OUT/nr.eerr"
				"$IOMON" parse -i - $o <"$OUT/nr.stream" >"$OUT/nr.txt" 2>"$OUT/nr.err"
			else
				( cd "$FIX/nullb-reread" && blkparse -i nullb0 $o ) >"$OUT/nr.exp" 2>"$OUT/nr.eerr"
				( cd "$FIX/nullb-reread" && "$IOMON" parse -i nullb0 $o ) >"$OUT/nr.txt" 2>"$OUT/nr.err"
			fi
			python3 "$TOOLS/tdiff.py" "$OUT/nr.txt" "$OUT/nr.exp" >"$OUT/nr.d"
			check "oracle nullb-reread $o ($i): $(tail -1 "$OUT/nr.d")" test $? = 0
			same0 "oracle nullb-reread $o ($i): stderr as blkparse's" "$OUT/nr.err" "$OUT/nr.eerr"
		done
	done
	# -t on fixtures/loop-flush: a C whose request blkparse made at a G
	# after the last C there freed the one before (no D since): blkparse
	# prints a dispatch time it never set, iomon no figure (blkparse.1)
	for o in -t "-q -s -t"; do
		( cd "$FIX/loop-flush" && blkparse -i loop0 $o ) >"$OUT/lf.exp" 2>/dev/null
		( cd "$FIX/loop-flush" && "$IOMON" parse -i loop0 $o ) >"$OUT/lf.txt" 2>/dev/null
		python3 "$TOOLS/tdiff.py" "$OUT/lf.txt" "$OUT/lf.exp" >"$OUT/lf.d"
		check "oracle loop-flush $o: $(tail -1 "$OUT/lf.d")" grep -q "and 1 C figures from its unset dispatch time" "$OUT/lf.d"
	done
	# -t on a major blkparse takes for dm (253): it keeps every Q that was
	# back-merged, which never completes at its own sector, for good; so
	# does iomon, and prints the same, saying nothing (issue 29)
	python3 "$TOOLS/craft.py" backmerge 12000 9000 >"$OUT/bm.stream"
	for o in "-t" "-t -s" "-t -v"; do
		blkparse -i - $o <"$OUT/bm.stream" >"$OUT/bm.exp" 2>&1
		"$IOMON" parse -i - $o <"$OUT/bm.stream" >"$OUT/bm.txt" 2>&1
		same "oracle $o: 11,625 back-merged Qs on 253,0 and 9,000 never completed, kept as blkparse keeps them" "$OUT/bm.txt" "$OUT/bm.exp"
	done
	# 70,000 Qs that never complete after 11,625 merged ones fill the table
	# (TRACK_MAX 65536): the oldest 16,089 are forgotten, the merged ones
	# and the first 4,464 leaked; the Cs at the first merged Q's sector
	# and the first leaked one's then print otherwise (the last leaked
	# one's as blkparse's), and iomon says how many records may
	python3 "$TOOLS/craft.py" backmerge 12000 70000 >"$OUT/bm1.stream"
	blkparse -i - -t <"$OUT/bm1.stream" >"$OUT/bm1.exp" 2>/dev/null
	"$IOMON" parse -i - -t <"$OUT/bm1.stream" >"$OUT/bm1.txt" 2>"$OUT/bm1.err"
	check "oracle -t, table full: only the Cs at the first merged and first leaked Qs' sectors differ" \
		test "$(diff "$OUT/bm1.txt" "$OUT/bm1.exp" | grep '^<' | awk '{ print $7, $9 }' | tr '\n' ' ')" = "C 8 C 96000 "
	check "oracle -t, table full: iomon says 2 lines may differ" \
		grep -q -- "-t: requests forgotten (TRACK_MAX [0-9]*): 2 lines may differ" "$OUT/bm1.err"
	testoracle "oracle two devices, two -i" "-i nullb0 -i nullb1" two-devs
	testoracle "oracle two devices, bare names and -s" "nullb1 nullb0 -s" two-devs
	testoracle "oracle big-endian s390x trace -s" "-i nullb0 -s" s390x-discard-flush
	mkdir -p "$OUT/bin"; "$IOMON" --install "$OUT/bin" >/dev/null 2>&1
	( cd "$E" && PATH=$OUT/bin:$PATH blkparse -V ) >"$OUT/V.txt" 2>&1
	( cd "$E" && blkparse -V ) >"$OUT/V.exp" 2>&1
	same "oracle -V through the blkparse symlink" "$OUT/V.txt" "$OUT/V.exp"
	# A missing CPU 0 file is an error in both; an empty one is skipped.
	mkdir -p "$OUT/holes"; rm -f "$OUT/holes"/*
	: >"$OUT/holes/x.blktrace.0"; cp "$E/nullb0.blktrace.1" "$OUT/holes/x.blktrace.1"
	testoracle "oracle empty cpu0 file" "-i x" "$OUT/holes"
	( cd "$OUT/holes" && "$IOMON" parse -i nothere ) >/dev/null 2>&1
	rc=$?; [ $rc -eq 1 ] && pass "missing input exits 1" || fail "missing input exits 1" "rc=$rc"

	# -d: the merged binary dump btt reads, and what blkparse reads back.
	for args in "" "-M" "-O" "-a complete" "-w 0.1:0.5"; do
		( cd "$E" && blkparse -i nullb0 -d "$OUT/d.exp" $args ) >/dev/null 2>&1
		( cd "$E" && "$IOMON" parse -i nullb0 -d "$OUT/d.bin" $args ) >/dev/null 2>&1
		same_dump "oracle -d dump ext4 $args" "$OUT/d.bin" "$OUT/d.exp"
	done
	( cd "$R" && blkparse -i nullb0 -d "$OUT/d.exp" ) >/dev/null 2>&1
	( cd "$R" && "$IOMON" parse -i nullb0 -d "$OUT/d.bin" ) >/dev/null 2>&1
	same_dump "oracle -d dump remap" "$OUT/d.bin" "$OUT/d.exp"
	( cd "$FIX/ext4-v8" && "$IOMON" parse -i nullb0 -d "$OUT/d.bin" ) >/dev/null 2>&1
	( cd "$E" && blkparse -i nullb0 -d "$OUT/d.exp" ) >/dev/null 2>&1
	same_dump "oracle -d dump of a version-8 trace is blkparse's version-7 dump" "$OUT/d.bin" "$OUT/d.exp"
	testoracle "oracle dump read back as a stream" "-i - <d.bin" "$OUT"
	# stream options
	S=$FIX/stream/nullb0.stream
	for args in "" "-s" "-b 64" "-a complete" "-w 0.2" "-w 0.1:0.3" "-f '%a%T.%t\n'" "-q -s"; do
		testoracle "oracle stream $args" "-i - $args <nullb0.stream" stream
	done
	blkparse -i - -d "$OUT/pd.exp" <"$S" >/dev/null 2>&1
	"$IOMON" parse -i - -d "$OUT/pd.bin" <"$S" >/dev/null 2>&1
	same_dump "oracle stream -d dump" "$OUT/pd.bin" "$OUT/pd.exp"

	# -t: identical except where blkparse reads uninitialised memory (a D
	# or C whose request was never inserted): it prints a figure there,
	# iomon prints none.  Every other line must match exactly.
	toracle() {	# NAME DIR ARGS
		( cd "$2" && eval "blkparse $3 -t" ) >"$OUT/t.exp" 2>/dev/null
		( cd "$2" && eval "\"\$IOMON\" parse $3 -t" ) >"$OUT/t.txt" 2>/dev/null
		if awk 'NR == FNR { ours[FNR] = $0; n = FNR; next }
			{ o = ours[FNR]; if (o == $0) { same++; next }
			  t = $0; if ((o ~ / [DC] /) && sub(/ \( *[0-9]+\)/, "", t) && t == o) { garbage++; next }
			  print "line " FNR ": " o " | " $0; bad++; exit 1 }
			END { if (!bad && (FNR != n || same < 100 || !garbage)) { print "counts: " same " " garbage " " n " " FNR; exit 1 } }' \
			"$OUT/t.txt" "$OUT/t.exp" >"$OUT/t.log"; then
			pass "$1 (lines equal but blkparse's uninitialised figures)"
		else
			fail "$1" "$(head -3 "$OUT/t.log")"
		fi
	}
	for f in ext4 mq-randrw remap split; do
		toracle "oracle -t $f" "$FIX/$f" "-i nullb0"
	done

	# a machine of many CPUs: each real capture's records spread over the
	# per-CPU files of 200 and 256 CPUs (cpuspread.py; each file a CPU's
	# own, its records in order), read as one parse: blkparse's text, its
	# per-CPU summaries (-s), short batches, the dump and -t.  (Before,
	# a parse read 64 files and named the 65th.)
	for f in ext4 ext4-be mq-randrw remap; do
		for n in 200 256; do
			d=$OUT/cpus-$f-$n; rm -rf "$d"; mkdir -p "$d"
			python3 "$TOOLS/cpuspread.py" $n "$FIX/$f/nullb0" "$d/nullb0" >/dev/null
			( cd "$d" && "$IOMON" parse -i nullb0 ) >/dev/null 2>"$d/err"
			check "oracle $n CPUs' files ($f): read whole, nothing said" test $? = 0 -a ! -s "$d/err"
			for a in "" "-s" "-b 5"; do
				testoracle "oracle $n CPUs' files ($f)${a:+ $a}" "-i nullb0 $a" "$d"
			done
			toracle "oracle $n CPUs' files ($f) -t" "$d" "-i nullb0"
		done
	done
	# the dump: blkparse's bytes while a file's share of the pool holds
	# blkparse's batch of 512 records (128 files); past that a batch is
	# read in parts and notes further on in it come later in the dump
	# (blkparse.1): the same records, each CPU's in the same order
	for n in 128 256; do
		d=$OUT/cpus-mq-randrw-$n; rm -rf "$d"; mkdir -p "$d"
		python3 "$TOOLS/cpuspread.py" $n "$FIX/mq-randrw/nullb0" "$d/nullb0" >/dev/null
		( cd "$d" && blkparse -i nullb0 -d "$d/bp.dump" -O ) >/dev/null 2>&1
		( cd "$d" && "$IOMON" parse -i nullb0 -d "$d/io.dump" -O ) >/dev/null 2>&1
	done
	same_dump "oracle 128 CPUs' files -d dump" "$OUT/cpus-mq-randrw-128/io.dump" "$OUT/cpus-mq-randrw-128/bp.dump"
	# (each CPU's records, and each CPU's notes, in the order dumped)
	bycpu() { python3 "$TOOLS/recdump.py" "$1" | awk '{ print ($6 ~ /^action=.[4-7c-f]/ ? "note" : "rec") $9, $0 }' | sort -s -k1,1; }
	bycpu "$d/io.dump" >"$d/io.recs"; bycpu "$d/bp.dump" >"$d/bp.recs"
	same "oracle 256 CPUs' files -d dump: the same records and notes, each CPU's in order" "$d/io.recs" "$d/bp.recs"
	check "oracle 256 CPUs' files -d dump: notes moved (so the check above is needed)" sh -c "! cmp -s '$d/io.dump' '$d/bp.dump'"
	# one file past STREAMS_MAX: named, exit 1, the 256 before it printed
	python3 "$TOOLS/cpuspread.py" 257 "$FIX/mq-randrw/nullb0" "$d/x" >/dev/null
	( cd "$d" && "$IOMON" parse -i x ) >"$d/x.txt" 2>"$d/x.err"
	check "oracle 257 CPUs' files: exit 1" test $? = 1
	check "oracle 257 CPUs' files: the 257th named" grep -q 'x.blktrace.256: more than 256 trace files, ignored (STREAMS_MAX)' "$d/x.err"
	mkdir -p "$d/y"; for i in $(seq 0 255); do ln -sf "../x.blktrace.$i" "$d/y/"; done
	( cd "$d/y" && blkparse -i x ) >"$d/y.exp" 2>/dev/null
	same "oracle 257 CPUs' files: the first 256 printed, as blkparse prints them alone" "$d/x.txt" "$d/y.exp"
fi
# -t where a request starts at time 0 (the trace's first records; with
# -b 6 each pipe batch restarts at 0, as blkparse's genesis does when it
# was 0): time 0 is a start like any other, its D and C figures printed
# (blkparse's own "no G" test, allocation time 0, still leaves I bare)
if have_oracle "oracle -t: starts at time 0"; then
	mkdir -p "$OUT/zs"
	python3 "$TOOLS/craft.py" zerostart >"$OUT/zs/z.stream"
	cp "$OUT/zs/z.stream" "$OUT/zs/nullb0.blktrace.0"
	if grep -q '( 4410300)' <(blkparse -i - -t <"$OUT/zs/z.stream"); then
		testoracle "oracle -t time-0 starts, files" "-i nullb0 -t" "$OUT/zs"
		testoracle "oracle -t time-0 starts, pipe" "-i - -t <z.stream" "$OUT/zs"
		testoracle "oracle -t time-0 starts, pipe batches restarting at 0" "-i - -t -b 6 <z.stream" "$OUT/zs"
	else
		fail "oracle -t: starts at time 0" "blkparse printed no ( 4410300) for the dm request queued at 0"
	fi
fi
# the actions blkparse only shows (S for PC and FS; P, B for FS): a
# crafted stream, one record each, read by both
python3 - "$OUT/shown.stream" <<'PY'
import struct, sys
def rec(seq, act, nb):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, 1000 * seq, 8 * seq, nb, act, 1, 8 << 20, 0, 0, 0)
PC, FS, READ = 1 << 25, 1 << 24, 1 << 16
acts = [PC | 5, FS | 5, FS | 9, FS | 14]	# sleeprq, sleeprq, plug, bounce
open(sys.argv[1], "wb").write(b"".join(rec(i + 1, a | READ, 4096) for i, a in enumerate(acts)))
PY
if have_oracle "oracle: shown-only actions, PC and FS"; then
	"$IOMON" parse -i - <"$OUT/shown.stream" >"$OUT/shown.got" 2>"$OUT/shown.err"
	blkparse -i - <"$OUT/shown.stream" >"$OUT/shown.exp" 2>/dev/null
	same "oracle: shown-only actions (PC S; FS S P B), as blkparse" "$OUT/shown.got" "$OUT/shown.exp"
	same_empty "oracle: shown-only actions: no complaint on stderr" "$OUT/shown.err"
fi
