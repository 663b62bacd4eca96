# needs: python3
# snoop: biosnoop's lines, the layout byte for byte against BCC's format
# strings applied to a crafted trace's known facts, LAT and QUE request by
# request against Debian btt's per-I/O D2C and Q2D files of the fixtures
# (tests/tools/snoopref.py), failed completions against blkparse's C lines
# with an error, and live on a loop device while the capture runs.

# The layout: craft.py's "failing" trace, its facts in its doc string, put
# through biosnoop.py's own format strings (header and line) by Python.
python3 "$TOOLS/craft.py" failing >"$OUT/f.stream"
cat >"$OUT/bcc.py" <<'PY'
import sys
queue, pattern = "-Q" in sys.argv, "-P" in sys.argv
out = "%-11s %-14s %-7s %-9s %-1s %-10s %-7s" % ("TIME(s)", "COMM", "PID", "DISK", "T", "SECTOR", "BYTES")
if pattern:
    out += "%-1s " % "P"
if queue:
    out += "%7s " % "QUE(ms)"
out += "%7s\n" % "LAT(ms)"
start, last = None, None
for i in range(30):
    s = 100000 + 8 * i if i < 10 else 300000 + 64 * i
    q = 1000000 * (i + 1); d = q + 20000 + 1000 * i; c = d + 250000 * i + 5000
    ts = c // 1000                       # biosnoop's event.ts: us
    start = ts if start is None else start
    out += "%-11.6f %-14.14s %-7s %-9s %-1s %-10s %-7s" % (
        float(ts - start) / 1000000, ["dd", "kworker/0:1H"][i % 2], 600 + i % 2, "8,0", "W" if i % 2 else "R", s, 4096)
    if pattern:
        out += "%-1s " % ("?" if last is None else "S" if s == last else "R")
        last = s + 4096 // 512
    if queue:
        out += "%7.2f " % (float(d - q) / 1000000)
    out += "%7.2f\n" % (float(c - d) / 1000000)
sys.stdout.write(out)
PY
for o in "" -Q -P "-Q -P"; do
	python3 "$OUT/bcc.py" $o >"$OUT/f.exp"
	"$IOMON" snoop $o -i - <"$OUT/f.stream" | grep -v 'failed (' >"$OUT/f.out"
	same "snoop $o: biosnoop's header and lines, byte for byte (its format strings on the trace's facts)" "$OUT/f.out" "$OUT/f.exp"
done
"$IOMON" snoop --queue --pattern -i - <"$OUT/f.stream" | grep -v 'failed (' >"$OUT/f.out"
python3 "$OUT/bcc.py" -Q -P >"$OUT/f.exp"
same "snoop --queue --pattern: biosnoop's long names" "$OUT/f.out" "$OUT/f.exp"

# Failed completions: every one blkparse shows with an error ([65531] is
# -5) is a line of --errors with its sector, size and errno, and the
# closing line counts them all, the first 8 sectors of each errno listed
if have_oracle; then
	blkparse -i - <"$OUT/f.stream" >"$OUT/f.txt"
	python3 - "$OUT/f.txt" >"$OUT/f.failed" <<'PY'
import errno, sys
for l in open(sys.argv[1]):
    w = l.split()
    if len(w) > 9 and w[5] == "C" and w[-1] != "[0]":
        e = 65536 - int(w[-1][1:-1])
        print(w[7], int(w[9]) * 512, errno.errorcode.get(e, str(e)))
PY
	"$IOMON" snoop --errors -i - <"$OUT/f.stream" >"$OUT/f.err"
	awk 'NR > 1 && !/failed \(/ { print $6, $7, $9 }' "$OUT/f.err" >"$OUT/f.got"
	same "snoop --errors: each failed I/O with its sector, size and errno, as blkparse's C lines with an error" "$OUT/f.got" "$OUT/f.failed"
	check "snoop --errors: the ERRNO column's header" sh -c "head -1 '$OUT/f.err' | grep -q 'LAT(ms) ERRNO\$'"
	python3 - "$OUT/f.failed" >"$OUT/f.close" <<'PY'
import sys
by = {}
for l in open(sys.argv[1]):
    s, _, e = l.split()
    by.setdefault(e, []).append(s)
n = sum(len(v) for v in by.values())
print("%d I/O%s failed (%s)" % (n, "" if n == 1 else "s", "; ".join(
    "%s: sector%s %s%s" % (e, "" if len(v) == 1 else "s", " ".join(v[:8]), " ..." if len(v) > 8 else "") for e, v in by.items())))
PY
	tail -1 "$OUT/f.err" >"$OUT/f.got"
	same "snoop: the closing line counts blkparse's $(wc -l <"$OUT/f.failed") failed C lines, 8 sectors an errno, then ..." "$OUT/f.got" "$OUT/f.close"
	"$IOMON" snoop -i - <"$OUT/f.stream" | tail -1 >"$OUT/f.got"
	same "snoop without --errors: the closing line too" "$OUT/f.got" "$OUT/f.close"
	# --slower: every line slower, and all of them: D to C from blkparse's text
	awk '$6 == "D" { d[$8] = $4 } $6 == "C" && ($8 in d) && $4 - d[$8] > 0.004 { print $8 }' "$OUT/f.txt" >"$OUT/f.slow"
	"$IOMON" snoop --slower 4 -i - <"$OUT/f.stream" >"$OUT/f.s"
	awk 'NR > 1 && !/failed \(/ { print $6 }' "$OUT/f.s" >"$OUT/f.got"
	same "snoop --slower 4: the $(wc -l <"$OUT/f.slow") I/Os over 4 ms by blkparse's D and C times, no other" "$OUT/f.got" "$OUT/f.slow"
	check "snoop --slower: ERRNO column, - for a success, EIO for a failure" \
		sh -c "grep -q ' -\$' '$OUT/f.s' && grep -q ' EIO\$' '$OUT/f.s'"
	"$IOMON" snoop --slower 4 --errors -i - <"$OUT/f.stream" | awk 'NR > 1 && !/failed \(/ { print $6 }' >"$OUT/f.got"
	grep -xFf "$OUT/f.slow" <(cut -d' ' -f1 "$OUT/f.failed") >"$OUT/f.both"
	same "snoop --slower 4 --errors: both at once" "$OUT/f.got" "$OUT/f.both"
fi
"$IOMON" snoop --slower 1x -i - <"$OUT/f.stream" >/dev/null 2>"$OUT/f.e2"
check "snoop --slower 1x: refused, naming it" grep -q "'1x' is no number" "$OUT/f.e2"
"$IOMON" snoop -d sdz -i - <"$OUT/f.stream" >"$OUT/f.d"
check "snoop -d DISK: another disk's I/O left out (the header alone)" test "$(wc -l <"$OUT/f.d")" = 1

# The tiny build: a request pool of a few entries ages requests out, and says so
if [ -x "$IOMON_TINY" ]; then
	python3 "$TOOLS/craft.py" leaks 10 5 | "$IOMON_TINY" snoop -i - >"$OUT/tiny.out" 2>"$OUT/tiny.err"
	check "snoop, tiny pools: requests never completed age out of SNOOP_REQS, said; the 5 that complete have their lines" \
		sh -c "grep -q 'requests aged out of SNOOP_REQS 4' '$OUT/tiny.err' && test \$(wc -l <'$OUT/tiny.out') = 6"
	cat "$FIX/two-devs/nullb0.blktrace.0" "$FIX/two-devs/nullb1.blktrace.0" | "$IOMON_TINY" snoop -P -i - >/dev/null 2>"$OUT/tiny.err"
	check "snoop -P, tiny pools: a disk past SNOOP_DEVS said" grep -q 'on disks past SNOOP_DEVS 1 had no pattern' "$OUT/tiny.err"
	"$IOMON_TINY" snoop --errors -i - <"$OUT/f.stream" 2>/dev/null | tail -1 >"$OUT/f.got"
	check "snoop, tiny pools: FAIL_LIST sectors then ..., errnos past FAIL_ERRNOS as other" \
		grep -qx '13 I/Os failed (EIO: sectors 100000 100024 ...; other errnos: 3)' "$OUT/f.got"
fi

# LAT and QUE against Debian btt's per-I/O files, on the fixtures
if need "snoop against btt" btt && have_oracle; then
	# every fixture (a version-8 one rewritten as version 7 for both: zone
	# operations have none), but one Debian's blkparse dies on
	is_v8() { case $(od -An -tx1 -N4 "$1" | tr -d ' ') in 08746165|65617408) return 0 ;; esac; return 1; }
	for dir in "$FIX"/*/; do
		dir=${dir%/} f=${dir##*/}
		for d in $(ls "$dir" | sed -n 's/\.blktrace\.0$//p'); do
			W=$OUT/btt-$f-$d src=$dir; mkdir -p "$W"
			if is_v8 "$dir/$d.blktrace.0"; then
				src=$W/v7; mkdir -p "$src"
				for b in "$dir/$d".blktrace.*; do python3 "$TOOLS/traceconv.py" "$b" "$src/${b##*/}"; done
			fi
			{ ( cd "$src" && blkparse -i "$d" -d "$W/dump" -O ) >/dev/null 2>&1; } 2>/dev/null; rc=$?
			if [ $rc -ge 128 ]; then
				skip "snoop -Q -i $f $d against btt" "Debian's blkparse dies on it (signal $((rc - 128)))"
				continue
			fi
			( cd "$W" && btt -i dump -l d2c -z q2d -o out >/dev/null 2>&1 )
			( cd "$src" && blkparse -i "$d" ) >"$W/text" 2>/dev/null
			( cd "$src" && "$IOMON" snoop -Q -i "$d" ) >"$W/snoop"
			l=$(ls "$W"/d2c_*_d2c.dat 2>/dev/null) q=$(ls "$W"/q2d_*_q2d.dat 2>/dev/null)
			python3 "$TOOLS/snoopref.py" "$W/snoop" "${l:-/dev/null}" "${q:-/dev/null}" "$W/text" >"$W/ref" 2>&1; rc=$?
			check "snoop -Q -i $f $d: each request's LAT is btt's D2C, QUE btt's Q2D where each has one Q ($(head -1 "$W/ref"))" test $rc = 0
			[ $rc = 0 ] || head -5 "$W/ref"
		done
	done
	# where no request merges, btt lists each, and snoop no other
	python3 "$TOOLS/snoopref.py" "$OUT/btt-mq-randrw-nullb0/snoop" "$OUT"/btt-mq-randrw-nullb0/d2c_*_d2c.dat \
		"$OUT"/btt-mq-randrw-nullb0/q2d_*_q2d.dat >"$OUT/mq.ref"
	check "snoop mq-randrw: one line for each of btt's requests, no other" grep -q "^5853 of btt's 5853 requests (5853 lines) found with equal LAT; snoop's 0 other" "$OUT/mq.ref"
	check "snoop mq-randrw: every QUE is btt's Q2D" grep -q '^5853 QUE values equal' "$OUT/mq.ref"
	# completions a few microseconds apart, BCC's whole-microsecond TIME
	# a microsecond off btt's rounded one now and then: each one paired
	check "snoop nullb-usapart: every one of btt's requests found, 2 us apart as they come" grep -q "^1642 of btt's 1642 requests (1648 lines) found with equal LAT" "$OUT/btt-nullb-usapart-nullb0/ref"
	# a read and a write of one sector at once: btt's line for the first
	# completion is the other's D2C, snoop's the request's own
	check "snoop loop-shared: btt's line mixing two requests at one sector is not taken for either" \
		sh -c "grep -q \"^361 of btt's 362 requests (362 lines) found\" '$OUT/btt-loop-shared-loop0/ref' &&
		grep -q '^1 of btt.s D2C lines not compared: two requests at one sector at once' '$OUT/btt-loop-shared-loop0/ref'"
	check "snoop loop-shared: the write's own latency, 0.09 ms (btt's line says 0.08)" \
		sh -c "grep -E ' W +13376 +16384 +[0-9.]+ +0\\.09\$' '$OUT/btt-loop-shared-loop0/snoop'"
fi
"$IOMON" snoop -i - <"$FIX/stream/nullb0.stream" >"$OUT/st.out"
check "snoop -i -: a stream's lines ($(($(wc -l <"$OUT/st.out") - 1)))" test "$(wc -l <"$OUT/st.out")" -gt 100

# Live, on a loop device of its own: lines while the capture runs, for a
# slow load (a write at a time, each waited for) and a fast one
if live_ok "snoop live"; then
	SI=$OUT/snoop-loop.img; rm -f "$SI"; truncate -s 8M "$SI"
	SL=$(losetup -f --show "$SI"); SN=${SL#/dev/}
	rm -f "$OUT/sl.err"; timeout 120 "$IOMON" snoop -Q -t "$SL" >"$OUT/sl.txt" 2>"$OUT/sl.err" &
	slpid=$!; capturing "$OUT/sl.err" $slpid
	for i in 1 2 3; do
		dd if=/dev/zero of="$SL" bs=4k count=1 seek=$((i * 16)) oflag=direct 2>/dev/null
		wait_for 30 "snoop's line for slow write $i" grep -qE " $SN +W $((i * 128)) +4096 " "$OUT/sl.txt"
	done
	check "snoop live: the slow writes' lines came while it ran" sh -c "! exited $slpid"
	dd if=/dev/zero of="$SL" bs=4k count=500 oflag=direct 2>/dev/null
	wait_for 30 "snoop's lines for 500 fast writes" at_least 500 " $SN +W .* 4096 " "$OUT/sl.txt"
	check "snoop live: the fast load's lines came while it ran" sh -c "! exited $slpid"
	kill -INT $slpid; wait $slpid; rc=$?
	check "snoop live: Ctrl-C ends it, exit 0 ($rc)" test "$rc" = 0
	check "snoop live: the header first, with QUE" sh -c "head -1 '$OUT/sl.txt' | grep -q 'BYTES  QUE(ms) LAT(ms)\$'"
	check "snoop live: the writer named (dd)" grep -qE "^[0-9.]+ +dd +[0-9]+ +$SN +W" "$OUT/sl.txt"
	losetup -d "$SL"; rm -f "$SI"
fi

# Damaged input: a message naming the input and the byte offset, exit 1
{ head -c 1000 "$FIX/ext4/nullb0.blktrace.0"; printf 'not a record, not a record, not a record, not one'; } >"$OUT/bad.bin"
"$IOMON" snoop -i - <"$OUT/bad.bin" >/dev/null 2>"$OUT/bad.err"; rc=$?
check "snoop, damaged input: exit 1 ($rc), the input and byte offset named" \
	sh -c "test $rc = 1 && grep -q '^snoop: (stdin): .* at byte [0-9]' '$OUT/bad.err'"

# A bio-based device (device-mapper, md, brd) has no D: biosnoop never sees
# its requests, and plain snoop lists none; --errors lists every failed one
# still, its size from the C, LAT from its Q (0 with no Q seen)
python3 - "$OUT/bio.stream" <<'PY'
import struct, sys
Q, C, WRITE, FS = (1 << 20) | 1, (1 << 23) | 8, 1 << 17, 1 << 24
def rec(seq, t, sector, act, pid, err=0):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector, 4096, act, pid, 253 << 20, 0, err & 0xffff, 0)
d = (rec(1, 1000, 5000, Q | WRITE | FS, 700) + rec(2, 2001000, 5000, C | WRITE | FS, 700, -5) +
     rec(3, 3000000, 6000, Q | FS, 701) + rec(4, 3500000, 6000, C | FS, 701) +
     rec(5, 4000000, 7000, C | FS, 0, -5))
open(sys.argv[1], "wb").write(d)
PY
"$IOMON" snoop -i - <"$OUT/bio.stream" >"$OUT/bio.all" 2>&1
check "snoop, a bio-based device (no D): no line, as biosnoop" test "$(wc -l <"$OUT/bio.all")" -le 2
"$IOMON" snoop --errors -i - <"$OUT/bio.stream" >"$OUT/bio.err" 2>&1
check "snoop --errors, no D: the failed write, its LAT from its Q (2.00 ms)" grep -qE ' 700 +253,0 +W 5000 +4096 +2\.00 EIO$' "$OUT/bio.err"
check "snoop --errors, no D: a failed C with no Q too (LAT 0)" grep -qE ' 0 +253,0 +R 7000 +4096 +0\.00 EIO$' "$OUT/bio.err"
check "snoop --errors, no D: not the one that succeeded" sh -c "! grep -q ' 6000 ' '$OUT/bio.err'"
check "snoop --errors, no D: the closing line counts both" grep -q '^2 I/Os failed (EIO: sectors 5000 7000)$' "$OUT/bio.err"

# records lost (fixtures/lost-records): a read by iogen 165 at sector
# 1895680 lost its D and C; the next read there (iogen 164's, 4 us) is
# its own line, not the lost one's owner and 28.65 ms of QUE
( cd "$FIX/lost-records" && "$IOMON" snoop -Q -i nullb0 ) >"$OUT/lr.out"
check "snoop -Q, lost-records: the read after lost records its own (iogen 164, QUE 0.00)" \
	grep -qE '^0\.034802 +iogen +164 +nullb0 +R 1895680 +65536 +0\.00 +0\.00$' "$OUT/lr.out"

# two readers queue one sector, the second before the first completes
# (fixtures/sameblock, dm-flakey failing both in each reader's context):
# two lines, each its own owner and latency (one entry a sector gave the
# first's completion the second's owner and the second's none)
( cd "$FIX/sameblock" && "$IOMON" snoop --errors -Q -i dm-0 ) >"$OUT/sb.out"
awk 'NR > 1 && !/failed \(/ { print $3, $9, $10 }' "$OUT/sb.out" >"$OUT/sb.got"
printf '121 0.00 EIO\n122 4.74 EIO\n' >"$OUT/sb.exp"
same "snoop --errors -Q, sameblock: two requests at one sector at once, each its owner's (121 in 2 us, 122 in 4.74 ms)" "$OUT/sb.got" "$OUT/sb.exp"
