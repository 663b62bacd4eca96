# needs: python3
# bitesize and biopattern: their counts against counts made from
# blkparse's text of the same trace (tests/tools/patref.py), their layouts
# against BCC's format strings, pools, and live on a loop device.

for f in mq-randrw ext4 discard-flush remap two-devs split; do
	for d in $(ls "$FIX/$f" | sed -n 's/\.blktrace\.0$//p'); do
		zcat "$FIX/$f/$d.blkparse.txt.gz" >"$OUT/p.txt"
		python3 "$TOOLS/patref.py" "$OUT/p.txt" bitesize >"$OUT/b.exp"
		( cd "$FIX/$f" && "$IOMON" bitesize -i "$d" ) >"$OUT/b.out"
		awk '/^Process Name = / { n = substr($0, 16) } $2 == "->" { print n, $1, "->", $3, $5 }' "$OUT/b.out" >"$OUT/b.got"
		same "bitesize -i $f $d: every name's every slot, as counted from blkparse's D lines" "$OUT/b.got" "$OUT/b.exp"
		python3 "$TOOLS/patref.py" "$OUT/p.txt" biopattern | cut -d' ' -f2- >"$OUT/p.exp"
		( cd "$FIX/$f" && "$IOMON" biopattern -i "$d" ) >"$OUT/p.out"
		awk 'NR > 1 { print $3, $4, $5, $6 }' "$OUT/p.out" >"$OUT/p.got"
		same "biopattern -i $f $d: %RND %SEQ COUNT KBYTES as counted from blkparse's C lines" "$OUT/p.got" "$OUT/p.exp"
	done
done

# The layouts: BCC's format strings (bitesize: print_log2_hist's, as
# biolatency's; biopattern: its header and line) on the same values
( cd "$FIX/ext4" && "$IOMON" biopattern -i nullb0 ) >"$OUT/p.out"
python3 - "$OUT/p.out" >"$OUT/p.exp" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
print("%-9s %-7s %5s %5s %8s %10s" % ("TIME", "DISK", "%RND", "%SEQ", "COUNT", "KBYTES"))
w = lines[1].split()
print("%-9s %-7s %5d %5d %8d %10d" % (w[0], w[1], int(w[2]), int(w[3]), int(w[4]), int(w[5])))
PY
same "biopattern: BCC's header and line, byte for byte" "$OUT/p.out" "$OUT/p.exp"
check "biopattern: TIME is HH:MM:SS" grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}  nullb0 ' "$OUT/p.out"
( cd "$FIX/ext4" && "$IOMON" bitesize -i nullb0 ) >"$OUT/b.out"
check "bitesize: BCC's first line, sections headed 'Process Name = NAME' after a blank line" \
	sh -c "head -1 '$OUT/b.out' | grep -qx 'Tracing block I/O... Hit Ctrl-C to end.' &&
		grep -B1 '^Process Name = cat\$' '$OUT/b.out' | head -1 | grep -q '^\$' &&
		grep -qx '     Kbytes              : count     distribution' '$OUT/b.out' &&
		grep -qx '        64 -> 127        : 64       |\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*|' '$OUT/b.out'"
# biopattern's percentage is Python's round(): a half goes to the even
python3 - >"$OUT/h.stream" <<'PY'
import struct, sys
TC = lambda b: 1 << (b + 16)
out = []
# 8 completions: the first sets the place; of the 7 after it... 1 random
# in 8 counted would be 12.5 %: round() gives 12 (even), not 13
secs = [0, 8, 16, 24, 32, 40, 48, 56, 1000]
for i, s in enumerate(secs):
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, i + 1, 1000 * (i + 1), s + 8, 4096, TC(1) | TC(7) | 8, 1, 8 << 20, 0, 0, 0))
sys.stdout.buffer.write(b"".join(out))
PY
"$IOMON" biopattern -i - <"$OUT/h.stream" | awk 'NR == 2 { print $3, $4, $5, $6 }' >"$OUT/h.got"
check "biopattern: 1 random of 8 is 12 % (round half to even, as Python), 88 sequential, 32 KiB ($(cat "$OUT/h.got"))" \
	test "$(cat "$OUT/h.got")" = "12 88 8 32"
( cd "$FIX/mq-randrw" && "$IOMON" biopattern -d nope -i nullb0 ) >"$OUT/p.d"
check "biopattern -d another disk: the header alone" test "$(wc -l <"$OUT/p.d")" = 1
( cd "$FIX/discard-flush" && "$IOMON" biopattern -i nullb0 1 2 ) >"$OUT/p.c"
check "biopattern interval count: a replay stops after count outputs" test "$(wc -l <"$OUT/p.c")" = 3
if [ -x "$IOMON_TINY" ]; then
	( cd "$FIX/ext4" && "$IOMON_TINY" bitesize -i nullb0 ) >"$OUT/t.out" 2>"$OUT/t.err"
	check "bitesize, tiny pools: names past BITE_NAMES counted and said, 2 tables" \
		sh -c "grep -q 'past BITE_NAMES 2 not counted' '$OUT/t.err' && test \$(grep -c '^Process Name' '$OUT/t.out') = 2"
	cat "$FIX/two-devs/nullb0.blktrace.0" "$FIX/two-devs/nullb1.blktrace.0" | "$IOMON_TINY" biopattern -i - >"$OUT/t.out" 2>"$OUT/t.err"
	check "biopattern, tiny pools: a disk past PAT_DEVS counted and said" grep -q 'on disks past PAT_DEVS 1 not counted' "$OUT/t.err"
fi

# Live, on a loop device of its own: biopattern's lines each interval
# while the capture runs; bitesize's table for dd on Ctrl-C
if live_ok "pattern live"; then
	PI=$OUT/pat-loop.img; rm -f "$PI"; truncate -s 8M "$PI"
	PL=$(losetup -f --show "$PI"); PN=${PL#/dev/}
	rm -f "$OUT/pl.err"; timeout 60 "$IOMON" biopattern -t "$PL" 1 >"$OUT/pl.txt" 2>"$OUT/pl.err" &
	plpid=$!; capturing "$OUT/pl.err" $plpid
	rm -f "$OUT/bl.err"; timeout 60 "$IOMON" bitesize -t "$PL" >"$OUT/bl.txt" 2>"$OUT/bl.err" &
	blpid=$!; capturing "$OUT/bl.err" $blpid
	dd if=/dev/zero of="$PL" bs=4k count=300 oflag=direct 2>/dev/null
	wait_for 30 "biopattern's line for dd's sequential writes" grep -qE "^[0-9:]+ +$PN +[0-9]+ +[0-9]+ +[0-9]+ " "$OUT/pl.txt"
	check "biopattern live: a line while it runs, mostly sequential ($(grep " $PN " "$OUT/pl.txt" | head -1))" \
		sh -c "! exited $plpid && grep ' $PN ' '$OUT/pl.txt' | head -1 | awk '{ exit !(\$4 >= 90) }'"
	kill -INT $plpid $blpid; wait $plpid; rc1=$?; wait $blpid; rc2=$?
	check "biopattern, bitesize live: Ctrl-C ends them, exit 0 ($rc1 $rc2)" test "$rc1$rc2" = 00
	n=$(awk '/^Process Name = dd$/ { d = 1 } d && $1 == 4 && $2 == "->" { print $5; exit }' "$OUT/bl.txt")
	check "bitesize live: dd's 300 4 KiB writes in its 4 -> 7 slot (${n:-none})" test "${n:-0}" -ge 300
	losetup -d "$PL"; rm -f "$PI"
fi

# Damaged input: a message naming the input and the byte offset, exit 1
{ head -c 1000 "$FIX/ext4/nullb0.blktrace.0"; printf 'not a record, not a record, not a record, not one'; } >"$OUT/bad.bin"
for a in bitesize biopattern; do
	"$IOMON" $a -i - <"$OUT/bad.bin" >/dev/null 2>"$OUT/bad.err"; rc=$?
	check "$a, damaged input: exit 1 ($rc), the input and byte offset named" \
		sh -c "test $rc = 1 && grep -q '^$a: (stdin): .* at byte [0-9]' '$OUT/bad.err'"
done
