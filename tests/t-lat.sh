# needs: python3
# lat: biolatency's histograms from trace replays, checked against counts
# and exact percentiles computed independently from blkparse's own text
# (tests/tools/latref.py) and against Debian btt's per-I/O files on every
# fixture (tests/tools/latbtt.py), the layout against a hand-written table
# in BCC's format, and live on a loop device.

# histogram counts, bucket by bucket: D to C, -Q (Q to C), -m
for f in mq-randrw ext4 discard-flush remap; do
	zcat "$FIX/$f/nullb0.blkparse.txt.gz" >"$OUT/lat.txt"
	for o in "" -Q -m "-Q -m"; do
		python3 "$TOOLS/latref.py" "$OUT/lat.txt" hist $o >"$OUT/lat.e"
		( cd "$FIX/$f" && "$IOMON" lat $o -i nullb0 ) | awk '$2 == "->" { print $1, $3, $5 }' >"$OUT/lat.g"
		same "lat $o -i $f: every log2 bucket's count, as from blkparse's text" "$OUT/lat.g" "$OUT/lat.e"
	done
done

# -D: a histogram headed "disk = NAME", the same counts
zcat "$FIX/mq-randrw/nullb0.blkparse.txt.gz" >"$OUT/lat.txt"
python3 "$TOOLS/latref.py" "$OUT/lat.txt" hist >"$OUT/lat.e"
( cd "$FIX/mq-randrw" && "$IOMON" lat -D -i nullb0 ) >"$OUT/lat.D"
check "lat -D: headed 'disk = nullb0' after a blank line" sh -c "grep -B1 '^disk = nullb0\$' '$OUT/lat.D' | head -1 | grep -q '^\$'"
awk '$2 == "->" { print $1, $3, $5 }' "$OUT/lat.D" >"$OUT/lat.g"
same "lat -D: that disk's counts" "$OUT/lat.g" "$OUT/lat.e"
( cd "$FIX/mq-randrw" && "$IOMON" lat -d nope -i nullb0 ) >"$OUT/lat.d"
check "lat -d DISK: another disk's I/O left out (no table)" sh -c "! grep -q -- '->' '$OUT/lat.d'"
( cd "$FIX/mq-randrw" && "$IOMON" lat -d nullb0 -i nullb0 ) | awk '$2 == "->" { print $1, $3, $5 }' >"$OUT/lat.g"
same "lat -d nullb0: all of it" "$OUT/lat.g" "$OUT/lat.e"
"$IOMON" lat -i - <"$FIX/stream/nullb0.stream" >"$OUT/lat.s"
check "lat -i -: a stream" grep -q ' : count     distribution$' "$OUT/lat.s"
( cd "$FIX/mq-randrw" && "$IOMON" lat -F -i nullb0 ) >"$OUT/lat.F"
check "lat -F: a histogram per flag set (Sync-Read, Sync-Write)" \
	sh -c "grep -qx 'flags = Sync-Read' '$OUT/lat.F' && grep -qx 'flags = Sync-Write' '$OUT/lat.F'"
"$IOMON" lat -D -F -i - </dev/null >/dev/null 2>"$OUT/lat.err"
check "lat -D -F: refused, as biolatency does" grep -q 'only use -D or -F' "$OUT/lat.err"
# one trace each: a second -i is refused, not put in the first one's place
for a in lat snoop top bitesize biopattern; do
	"$IOMON" $a -i one -i two >/dev/null 2>"$OUT/lat.err"; rc=$?
	check "$a -i one -i two: refused, exit 1 ($rc), both named" \
		sh -c "test $rc = 1 && grep -qx '$a: -i two: one trace only (-i one given)' '$OUT/lat.err'"
done
( cd "$FIX/discard-flush" && "$IOMON" lat -i nullb0 1 2 ) >"$OUT/lat.c2"
check "lat interval count: a replay stops after count tables ($(grep -c 'count     distribution' "$OUT/lat.c2"))" \
	test "$(grep -c 'count     distribution' "$OUT/lat.c2")" = 2
( cd "$FIX/discard-flush" && "$IOMON" lat -T -i nullb0 1 ) >"$OUT/lat.T"
check "lat -T: a HH:MM:SS line before each table" \
	test "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} *$' "$OUT/lat.T")" = "$(grep -c 'count     distribution' "$OUT/lat.T")"

# -P: within 1 % of the exact nearest-rank percentiles, max exact, per
# direction, from the same latencies
for f in mq-randrw ext4 discard-flush; do
	zcat "$FIX/$f/nullb0.blkparse.txt.gz" >"$OUT/lat.txt"
	for o in "" -Q -m; do
		( cd "$FIX/$f" && "$IOMON" lat -P $o -i nullb0 ) >"$OUT/lat.P"
		check "lat -P $o -i $f: p50 p90 p99 p99.9 within 1 %, max exact" \
			python3 "$TOOLS/latref.py" "$OUT/lat.txt" pct $o "$OUT/lat.P"
	done
done

# Against Debian btt's per-I/O files (-l's D2C, -q's Q2C) on every fixture
# (tests/tools/latbtt.py): the table is btt's values binned as biolatency
# bins them, one a request, plus the requests btt lists none for (a flush,
# a split bio's pieces, a Q before the trace: biolatency.8), each checked
# from blkparse's text, whose pairing must make btt's file line for line;
# -P's percentiles within 1 % of the exact ones of those values.  A
# version-8 trace is rewritten as version 7 for both (traceconv.py; zone
# operations have no version-7 form).
is_v8() { case $(od -An -tx1 -N4 "$1" | tr -d ' ') in 08746165|65617408) return 0 ;; esac; return 1; }
lat_btt() {	# NAME DIR DEV...: DIR's trace of DEV (or - : DIR/DEV.stream)
	local n=$1 dir=$2 d W src o b rc; shift 2
	for d; do
		W=$OUT/lb-$n-$d src=$dir; rm -rf "$W"; mkdir -p "$W"
		if [ "$d" = - ]; then
			blkparse -i - -f "$SECFMT" <"$dir/nullb0.stream" >"$W/text" 2>/dev/null
			blkparse -i - -d "$W/dump" -O <"$dir/nullb0.stream" >/dev/null 2>&1
		else
			if is_v8 "$dir/$d.blktrace.0"; then
				src=$W/v7; mkdir -p "$src"
				for b in "$dir/$d".blktrace.*; do python3 "$TOOLS/traceconv.py" "$b" "$src/${b##*/}"; done
			fi
			{ ( cd "$src" && blkparse -i "$d" -f "$SECFMT" ) >"$W/text"; } 2>/dev/null; rc=$?
			if [ $rc -ge 128 ]; then
				skip "lat -i $n $d against btt" "Debian's blkparse dies on it (signal $((rc - 128)))"
				continue
			fi
			( cd "$src" && blkparse -i "$d" -d "$W/dump" -O ) >/dev/null 2>&1
		fi
		( cd "$W" && btt -i dump -l d2c -q q2c -o out >/dev/null 2>&1 )
		for o in "" -Q -m "-Q -m"; do
			# (-P: the table, then the percentiles)
			if [ "$d" = - ]; then "$IOMON" lat -P $o -i - <"$dir/nullb0.stream"
			else ( cd "$src" && "$IOMON" lat -P $o -i "$d" ); fi >"$W/lat"
			case $o in *Q*) b=$(ls "$W"/q2c_*_q2c.dat 2>/dev/null) ;; *) b=$(ls "$W"/d2c_*_d2c.dat 2>/dev/null) ;; esac
			python3 "$TOOLS/latbtt.py" $o "$W/text" "${b:-/dev/null}" "$W/lat" "$W/lat" >"$W/r$o" 2>&1; rc=$?
			check "lat $o -i $n $d: btt's $(case $o in *Q*) echo -q ;; *) echo -l ;; esac) values binned, one a request, and those btt lists none for; -P within 1 % ($(tail -1 "$W/r$o"))" test $rc = 0
			[ $rc = 0 ] || head -5 "$W/r$o"
		done
	done
}
if need "lat against btt" btt && have_oracle; then
	for dir in "$FIX"/*/; do
		dir=${dir%/}
		lat_btt "${dir##*/}" "$dir" $(ls "$dir" | sed -n 's/\.blktrace\.0$//p')
	done
	lat_btt stream "$FIX/stream" -
	# the kinds of request btt leaves out, pinned (biolatency.8)
	check "lat, discard-flush: btt lists no flush: 306 of biolatency's 1791" grep -qx "1791 requests: btt 1485, flush 306; btt's 5673 lines, all equal" "$OUT/lb-discard-flush-nullb0/r"
	check "lat, ext4: btt lists no split bio's piece (193) and no flush (19)" grep -qx "307 requests: btt 95, flush 19, split 193; btt's 157 lines, all equal" "$OUT/lb-ext4-nullb0/r"
	check "lat -Q, ext4: a split bio's first piece only, from its Q" grep -qx "168 requests: btt 95, flush 8, split 65; btt's 157 lines, all equal" "$OUT/lb-ext4-nullb0/r-Q"
	check "lat, split: btt lists none; 928 pieces' Qs before the trace" grep -qx "7320 requests: no-Q 928, split 6392; btt's 0 lines, all equal" "$OUT/lb-split-nullb0/r"
	check "lat, loop-shared: a write and a read at one sector at once, btt's line for the write the read's D (shared 1)" \
		grep -qx "363 requests: btt 361, no-Q 1, shared 1; btt's 362 lines, all equal" "$OUT/lb-loop-shared-loop0/r"
	# three requests at one sector (brd): the read's C ends in btt with
	# a later write's Q, queued after btt had let the read's Q go
	check "lat -Q, brd-shared3: a read, and a write queued at its sector while it was in flight after btt had ended it (shared 2)" \
		grep -qx "66 requests: btt 63, no-Q 1, shared 2; btt's 65 lines, all equal" "$OUT/lb-brd-shared3-ram0/r-Q"
	# a dm-mirror's leg (7.2): 64 KiB bios split at 255 sectors whose
	# pieces, still in flight across a held Q, stop btt's tree walk
	# (unreached: btt lists none for them); most latencies a microsecond
	# or two, so btt's rounding reorders ranks (-P's p50 1.800 us, exact
	# 1.793, where btt's rounded values alone give 1.854)
	check "lat, mirror-leg: split pieces, and requests btt's tree walk never reaches" \
		grep -qx "943 requests: btt 231, split 705, unreached 7; btt's 231 lines, all equal" "$OUT/lb-mirror-leg-nullb0/r"
	check "lat, mq-randrw: every request btt's, merged into none" grep -qx "5853 requests: btt 5853; btt's 5853 lines, all equal" "$OUT/lb-mq-randrw-nullb0/r"
	# (two threads' flushes queued at sector 0 48 us apart: two requests,
	# as BCC's keyed by the request's address counts them)
	check "lat -Q, loop-flush: a flush apart from the write queued at its sector, and two flushes at once, all counted" grep -qx "8 requests: btt 2, flush 6; btt's 104 lines, all equal" "$OUT/lb-loop-flush-loop0/r-Q"
	# two readers queue one sector, the second before the first completes
	# (each completing in its own context): two requests, each its own
	# latency; btt keeps the later Q only
	check "lat -Q, sameblock: two requests at one sector at once, each ended by its own process's C" grep -qx "2 requests: btt 1, no-Q 1; btt's 1 lines, all equal" "$OUT/lb-sameblock-dm-0/r-Q"
	# a request whose own Q came before the trace: btt lists the 30 bios
	# merged into it, biolatency -Q never saw it start (nor would BCC's)
	check "lat -Q, nullb-noq: a request whose first Q is not in the trace is not counted" grep -qx "90 requests: btt 90; btt's 1019 lines, all equal; not counted: 1 whose first Q came before the trace (btt lists their merged bios)" "$OUT/lb-nullb-noq-nullb0/r-Q"
	# records lost (fixtures/lost-records: a read's D and C among them):
	# the next request at its sector is not the second there, ended by
	# the older's completion (a write's 4 us counted as 140 ms)
	check "lat -Q, lost-records: every request btt's, none ended by the read whose C was lost" grep -qx "13582 requests: btt 13582; btt's 13582 lines, all equal" "$OUT/lb-lost-records-nullb0/r-Q"
	# brd's read never completes at its start (fixtures/brd-discard): the
	# discards after it at that sector end each other's, not the read
	( cd "$FIX/brd-discard" && "$IOMON" lat -Q -i ram0 ) >"$OUT/bd.out" 2>&1
	check "lat -Q, brd-discard: the discards' 25 us and 1.964 ms, as btt's Q2C, not one of 2.43 ms" \
		sh -c "grep -qE '^ +16 -> 31 +: 1 ' '$OUT/bd.out' && grep -qE '^ +1024 -> 2047 +: 1 ' '$OUT/bd.out' && ! grep -qE '^ +2048 -> 4095 +: [1-9]' '$OUT/bd.out'"
	( cd "$FIX/lost-records" && "$IOMON" lat -Q -P -i nullb0 ) >"$OUT/lr.P"
	check "lat -Q -P, lost-records: W's max 448.258 us, not the lost read's 140 ms" grep -qE '^nullb0 +W +6722 .* 448\.258$' "$OUT/lr.P"
	( cd "$FIX/sameblock" && "$IOMON" lat -Q -P -i dm-0 ) >"$OUT/sb.P"
	check "lat -Q -P, sameblock: R's max is the first reader's 4738.470 us, p50 the second's 2 us" \
		awk '$2 == "R" { f = ($3 == 2 && $4 + 0 >= 1.98 && $4 + 0 <= 2.02 && $8 == "4738.470") } END { exit !f }' "$OUT/sb.P"
fi

# The layout, byte for byte, on a crafted stream: 4 KiB writes issued
# and completed 0.5, 3, 5, 5, 5, 100 and 100 us apart
python3 - >"$OUT/lat.stream" <<'PY'
import struct, sys
TC = lambda b: 1 << (b + 16)
seq, out = 0, []
def rec(t, sector, action):
    global seq
    seq += 1
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector, 4096, action, 1, 8 << 20, 0, 0, 0))
t = 1000000
for i, d in enumerate((500, 3000, 5000, 5000, 5000, 100000, 100000)):
    rec(t, 8 * i, TC(1) | TC(6) | 7)
    rec(t + d, 8 * i, TC(1) | TC(7) | 8)
    t += 1000000
sys.stdout.buffer.write(b"".join(out))
PY
{
	echo 'Tracing block device I/O... Hit Ctrl-C to end.'
	echo
	echo '     usecs               : count     distribution'
	echo '         0 -> 1          : 1        |*************                           |'
	echo '         2 -> 3          : 1        |*************                           |'
	echo '         4 -> 7          : 3        |****************************************|'
	echo '         8 -> 15         : 0        |                                        |'
	echo '        16 -> 31         : 0        |                                        |'
	echo '        32 -> 63         : 0        |                                        |'
	echo '        64 -> 127        : 2        |**************************              |'
	echo
	echo 'avg = 31 usecs, total: 218 usecs, count: 7'
	echo
} >"$OUT/lat.exp"
"$IOMON" lat -e -i - <"$OUT/lat.stream" >"$OUT/lat.out"
same "lat -e: BCC's table and avg line, byte for byte" "$OUT/lat.out" "$OUT/lat.exp"
{
	echo 'Tracing block device I/O... Hit Ctrl-C to end.'
	echo
	echo
	echo 'disk = 8,0'
	echo '     msecs               : count     distribution'
	echo '         0 -> 1          : 7        |****************************************|'
} >"$OUT/lat.exp"
"$IOMON" lat -m -D -i - <"$OUT/lat.stream" >"$OUT/lat.out"
same "lat -m -D: msecs, the disk's section (a stream's disk by number)" "$OUT/lat.out" "$OUT/lat.exp"

# Live, on a loop device of its own: the table while the capture runs
if live_ok "lat live"; then
	LI=$OUT/lat-loop.img; rm -f "$LI"; truncate -s 8M "$LI"
	LL=$(losetup -f --show "$LI"); LN=${LL#/dev/}
	rm -f "$OUT/ll.err"; timeout 60 "$IOMON" lat -D -t "$LL" 2 3 >"$OUT/ll.txt" 2>"$OUT/ll.err" &
	llpid=$!; capturing "$OUT/ll.err" $llpid
	dd if=/dev/zero of="$LL" bs=4k count=200 oflag=direct 2>/dev/null
	wait_for 30 "lat's first table with counts" grep -q '^disk = '"$LN"'$' "$OUT/ll.txt"
	wait $llpid; rc=$?
	check "lat live: exit 0 after count tables ($rc)" test "$rc" = 0
	check "lat live: the header line first" sh -c "head -1 '$OUT/ll.txt' | grep -qx 'Tracing block device I/O... Hit Ctrl-C to end.'"
	n=$(awk '$2 == "->" { s += $5 } END { print s + 0 }' "$OUT/ll.txt")
	check "lat live: dd's 200 writes counted ($n), in a table for $LN" test "$n" -ge 200
	# no interval: biolatency's default, one table when interrupted
	rm -f "$OUT/li.err"; timeout 60 "$IOMON" lat -t "$LL" >"$OUT/li.txt" 2>"$OUT/li.err" &
	lipid=$!; capturing "$OUT/li.err" $lipid
	dd if=/dev/zero of="$LL" bs=4k count=50 oflag=direct 2>/dev/null
	kill -INT $lipid; wait $lipid; rc=$?	# the capture reads what is left first
	n=$(awk '$2 == "->" { s += $5 } END { print s + 0 }' "$OUT/li.txt")
	check "lat live, no interval: Ctrl-C prints the one table, exit 0 ($rc), dd's 50 writes ($n)" \
		sh -c "test $rc = 0 && test $n -ge 50 && test \$(grep -c 'count     distribution' '$OUT/li.txt') = 1"
	losetup -d "$LL"; rm -f "$LI"
fi

# Failed completions: the closing line after the last table, its count
# blkparse's C lines carrying an error ([65531] is -5), the first 8
# sectors of each errno in completion order, then "..."
if have_oracle; then
	python3 "$TOOLS/craft.py" failing >"$OUT/lf.stream"
	blkparse -i - <"$OUT/lf.stream" | python3 "$TOOLS/failref.py" >"$OUT/lf.exp"
	"$IOMON" lat -i - <"$OUT/lf.stream" >"$OUT/lf.out"
	tail -1 "$OUT/lf.out" >"$OUT/lf.got"
	same "lat: the closing line names blkparse's failed C lines by errno ($(cut -d' ' -f1 "$OUT/lf.exp"))" "$OUT/lf.got" "$OUT/lf.exp"
	"$IOMON" lat -i - 1 <"$OUT/lf.stream" | grep -c 'I/Os failed' >"$OUT/lf.n"
	check "lat with an interval: the closing line once, at the end" test "$(cat "$OUT/lf.n")" = 1
	"$IOMON" lat -d nope -i - <"$OUT/lf.stream" >"$OUT/lf.d"
	check "lat -d another disk: its failures not counted" sh -c "! grep -q failed '$OUT/lf.d'"
fi
( cd "$FIX/mq-randrw" && "$IOMON" lat -i nullb0 ) >"$OUT/lf.none"
check "lat: no closing line when no I/O failed" sh -c "! grep -q 'failed (' '$OUT/lf.none'"
