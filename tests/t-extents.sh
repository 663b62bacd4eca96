# needs: python3
# extents: the written sectors against the union of the write, discard and
# write-zeroes Qs in Debian blkparse's text of every fixture
# (tests/tools/extref.py), exact with the full pool and rounded out to the
# chunk printed with a tiny one; what marks a device unknown; live on a
# loop device: SIGUSR1, -o FILE, the end.

for f in mq-randrw ext4 discard-flush remap split brd-seq two-devs ext4-be remap-be s390x-discard-flush ext4-v8 v8-ext4-part; do
	for d in $(ls "$FIX/$f" | sed -n 's/\.blktrace\.0$//p'); do
		zcat "$FIX/$f/$d.blkparse.txt.gz" >"$OUT/p.txt"
		python3 "$TOOLS/extref.py" "$OUT/p.txt" >"$OUT/e.exp"
		( cd "$FIX/$f" && "$IOMON" extents -i "$d" ) >"$OUT/e.out"
		grep -v '^#' "$OUT/e.out" >"$OUT/e.got"
		if [ -s "$OUT/e.exp" ]; then
			same "extents -i $f $d: the union of blkparse's write Qs ($(wc -l <"$OUT/e.exp") extents)" "$OUT/e.got" "$OUT/e.exp"
		else
			check "extents -i $f $d: no write Q in blkparse's text, no extent" test ! -s "$OUT/e.got"
		fi
		check "extents -i $f $d: complete, chunk 1" grep -q '^# [0-9]*,[0-9]* complete: .* chunk 1$' "$OUT/e.out"
		if [ -x "$IOMON_TINY" ]; then
			( cd "$FIX/$f" && "$IOMON_TINY" extents -i "$d" ) >"$OUT/t.out" 2>/dev/null
			c=$(sed -n '1s/.* chunk \([0-9]*\)$/\1/p' "$OUT/t.out")
			# (STREAMS_MAX 1: CPU 0's file only)
			python3 "$TOOLS/extref.py" "$OUT/p.txt" "${c:-1}" 0 >"$OUT/t.exp"
			grep -v '^#' "$OUT/t.out" >"$OUT/t.got"
			[ -s "$OUT/t.exp" ] &&
				same "tiny pool (EXT_MAX 4): extents -i $f $d: CPU 0's union rounded out to its chunk ($c)" "$OUT/t.got" "$OUT/t.exp"
		fi
	done
done
check "tiny pool: the chunk grew where the extents outnumber the pool" \
	sh -c "cd '$FIX/mq-randrw' && '$IOMON_TINY' extents -i nullb0 2>/dev/null | grep -q '^# 254,0 .*: [1-4] extents, .* chunk [0-9]*[02468]\$'"
"$IOMON" extents -i - <"$FIX/stream/nullb0.stream" >"$OUT/st.out"
check "extents -i - (a stream, no Q): complete and empty" grep -qx '# 254,0 complete: 0 extents, 0 sectors, chunk 1' "$OUT/st.out"

# What could hide a write: the device is unknown, never complete
python3 "$TOOLS/dropone.py" "$FIX/stream/nullb0.stream" "$OUT/gap.stream" 700
"$IOMON" extents -i - <"$OUT/gap.stream" >"$OUT/gap.out"
check "extents: a record missing from a stream (a sequence gap): unknown" grep -q '^# 254,0 unknown, a sequence gap:' "$OUT/gap.out"
( cd "$FIX/v8-zoned" && "$IOMON" extents -i nullb0 ) >"$OUT/z.out"
check "extents: a zone reset (no size in the trace): unknown" grep -q '^# 254,0 unknown, a zone reset:' "$OUT/z.out"
check "extents: ... and its writes still listed" test "$(grep -vc '^#' "$OUT/z.out")" -gt 0
if [ -x "$IOMON_TINY" ]; then
	"$IOMON_TINY" extents -i - <"$FIX/stream/nullb0.stream" >"$OUT/tc.out"
	check "tiny (EXT_CPUS 1): records of CPU 1 cannot be followed: unknown" grep -q 'unknown, a CPU past EXT_CPUS' "$OUT/tc.out"
fi
{ head -c 1000 "$FIX/ext4/nullb0.blktrace.0"; printf 'not a record, not a record, not a record, not one'; } >"$OUT/bad.bin"
"$IOMON" extents -i - <"$OUT/bad.bin" >/dev/null 2>"$OUT/bad.err"; rc=$?
check "extents, damaged input: exit 1 ($rc), the byte offset named" sh -c "[ $rc = 1 ] && grep -q 'at byte [0-9]' '$OUT/bad.err'"
"$IOMON" extents -o /nonexistent/dir/x -i - <"$FIX/stream/nullb0.stream" >/dev/null 2>"$OUT/o.err"; rc=$?
check "extents -o into a missing folder: exit 1 ($rc), said" sh -c "[ $rc = 1 ] && grep -q '/nonexistent/dir/x' '$OUT/o.err'"

# Live: SIGUSR1 prints the set so far, to stdout and -o FILE; the end
# marks it unknown (what comes next is not seen)
if live_ok "extents live"; then
	EI=$OUT/ext.img; rm -f "$EI"; truncate -s 8M "$EI"
	EL=$(losetup -f --show "$EI"); EM=$(stat -c '%Hr,%Lr' "$EL")
	rm -f "$OUT/el.err" "$OUT/el.ext"; timeout 120 "$IOMON" extents -o "$OUT/el.ext" "$EL" >"$OUT/el.txt" 2>"$OUT/el.err" &
	elpid=$!; capturing "$OUT/el.err" $elpid
	eipid=$(pgrep -P $elpid)	# timeout passes INT on, not USR1
	dd if=/dev/zero of="$EL" bs=4k count=2 seek=16 oflag=direct 2>/dev/null
	dd if=/dev/zero of="$EL" bs=4k count=1 seek=18 oflag=direct 2>/dev/null
	dd if=/dev/zero of="$EL" bs=512 count=1 seek=4000 oflag=direct 2>/dev/null
	blkdiscard -o $((1024 * 1024)) -l 65536 "$EL" 2>/dev/null
	dd if="$EL" of=/dev/null bs=4k count=4 skip=200 iflag=direct 2>/dev/null
	printf '%s\n' "$EM 128 24" "$EM 2048 128" "$EM 4000 1" >"$OUT/el.exp"
	got_set() { grep -v '^#' "$OUT/el.ext" >"$OUT/el.got" 2>/dev/null && cmp -s "$OUT/el.got" "$OUT/el.exp"; }
	pr() { kill -USR1 $eipid; got_set; }
	wait_for 30 "extents' set on SIGUSR1 (writes, the discard; the read not)" pr
	check "extents live: -o FILE says complete while it runs" grep -q "^# $EM complete: 3 extents, 153 sectors, chunk 1" "$OUT/el.ext"
	check "extents live: stdout printed it too" grep -q "^$EM 2048 128\$" "$OUT/el.txt"
	kill -INT $elpid; wait $elpid; rc=$?
	check "extents live: Ctrl-C ends it, exit 0 ($rc)" test "$rc" = 0
	check "extents live: at the end, unknown: the capture ended" grep -q "^# $EM unknown, the capture ended: 3 extents" "$OUT/el.ext"
	losetup -d "$EL"; rm -f "$EI"
fi
