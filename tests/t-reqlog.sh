# reqlog: its line for every Q (or D with -D) that reads or writes,
# against the same lines made by awk from Debian blkparse's text of every
# fixture, and live on a loop device while the capture runs.

for f in mq-randrw ext4 discard-flush remap split brd-seq two-devs ext4-be remap-be s390x-discard-flush; do
	for d in $(ls "$FIX/$f" | sed -n 's/\.blktrace\.0$//p'); do
		for a in Q D; do
			o=; [ $a = D ] && o=-D
			# sorted: ties in time are in the kernel's order, not blkparse's
			zcat "$FIX/$f/$d.blkparse.txt.gz" | awk -v A=$a '$6 == A && $9 == "+" && $10 > 0 && $7 !~ /D/ && $7 ~ /[RW]/ {
				split($1, m, ","); printf "device %s/%s sector %s %s %s\n", m[1], m[2], $8, ($7 ~ /W/ ? "write" : "read"), $10 }' |
				sort >"$OUT/r.exp"
			( cd "$FIX/$f" && "$IOMON" reqlog $o -i "$d" ) | sort >"$OUT/r.got"
			if [ -s "$OUT/r.exp" ]; then
				same "reqlog $o -i $f $d: a line per $a that reads or writes, as blkparse's $(wc -l <"$OUT/r.exp") say" "$OUT/r.got" "$OUT/r.exp"
			else	# (brd: bio-based, no D)
				check "reqlog $o -i $f $d: no $a in blkparse's text, no line" test ! -s "$OUT/r.got"
			fi
		done
	done
done
"$IOMON" reqlog -i - <"$FIX/stream/nullb0.stream" >"$OUT/st.out"
check "reqlog -i -: a stream read (no Q in it: -a issue -a complete), no line" test ! -s "$OUT/st.out"
"$IOMON" reqlog -D -i - <"$FIX/stream/nullb0.stream" >"$OUT/st.out"
check "reqlog -D -i -: a stream's D lines ($(wc -l <"$OUT/st.out"))" test "$(wc -l <"$OUT/st.out")" -gt 100
"$IOMON" reqlog -x >/dev/null 2>"$OUT/u.err"; rc=$?
check "reqlog -x: usage on stderr, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -q '^usage: reqlog' '$OUT/u.err'"
{ head -c 1000 "$FIX/ext4/nullb0.blktrace.0"; printf 'not a record, not a record, not a record, not one'; } >"$OUT/bad.bin"
"$IOMON" reqlog -i - <"$OUT/bad.bin" >/dev/null 2>"$OUT/bad.err"; rc=$?
check "reqlog, damaged input: exit 1 ($rc), the byte offset named" sh -c "[ $rc = 1 ] && grep -q 'at byte [0-9]' '$OUT/bad.err'"

# Live: each write's line while the capture runs
if live_ok "reqlog live"; then
	RI=$OUT/reqlog.img; rm -f "$RI"; truncate -s 8M "$RI"
	RL=$(losetup -f --show "$RI"); RM=$(stat -c '%Hr/%Lr' "$RL")
	rm -f "$OUT/rl.err"; timeout 120 "$IOMON" reqlog "$RL" >"$OUT/rl.txt" 2>"$OUT/rl.err" &
	rlpid=$!; capturing "$OUT/rl.err" $rlpid
	for i in 1 2 3; do
		dd if=/dev/zero of="$RL" bs=4k count=1 seek=$((i * 16)) oflag=direct 2>/dev/null
		wait_for 30 "reqlog's line for write $i" grep -qx "device $RM sector $((i * 128)) write 8" "$OUT/rl.txt"
	done
	dd if="$RL" of=/dev/null bs=8k count=1 skip=100 iflag=direct 2>/dev/null
	wait_for 30 "reqlog's line for a read" grep -qx "device $RM sector 1600 read 16" "$OUT/rl.txt"
	check "reqlog live: the lines came while it ran" sh -c "! exited $rlpid"
	kill -INT $rlpid; wait $rlpid; rc=$?
	check "reqlog live: Ctrl-C ends it, exit 0 ($rc)" test "$rc" = 0
	losetup -d "$RL"; rm -f "$RI"
fi
