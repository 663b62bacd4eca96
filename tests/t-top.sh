# top: biotop's table from trace replays, checked against counts computed
# independently from blkparse-format text (tests/topref.py).
for f in mq-randrw ext4 discard-flush remap; do
	( cd "$FIX/$f" && "$IOMON" parse -i nullb0 ) >"$OUT/top.txt" 2>/dev/null
	python3 tests/topref.py "$OUT/top.txt" | head -20 >"$OUT/top.exp"
	( cd "$FIX/$f" && "$IOMON" top -C -i nullb0 3600 ) >"$OUT/top.out" 2>&1
	awk 'NR > 3 && NF == 9 { print $1, $3, $7, $8, $9 }' "$OUT/top.out" >"$OUT/top.got"
	# rows with equal bytes may come in either order: compare as sets
	sort "$OUT/top.got" >"$OUT/top.g"; sort "$OUT/top.exp" >"$OUT/top.e"
	same "top -i $f: pid, direction, I/O, Kbytes, AVGms per row" "$OUT/top.g" "$OUT/top.e"
done
( cd "$FIX/mq-randrw" && "$IOMON" top -C -i nullb0 3600 ) >"$OUT/top.out"
check "top: biotop's header" grep -q '^PID     COMM             D MAJ MIN DISK       I/O  Kbytes  AVGms$' "$OUT/top.out"
check "top: a clock line first" grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: ' "$OUT/top.out"
check "top: rows sorted by bytes" sh -c "awk 'NR > 3 && NF == 9 { print \$8 }' '$OUT/top.out' | sort -rn -c"
check "top: names from PROCESS notes" grep -q ' iogen ' "$OUT/top.out"
( cd "$FIX/mq-randrw" && "$IOMON" top -C -r 2 -i nullb0 3600 ) >"$OUT/top.r"
check "top -r 2: two rows" test "$(awk 'NR > 3 && NF == 9' "$OUT/top.r" | wc -l)" = 2
( cd "$FIX/mq-randrw" && "$IOMON" top -C -i nullb0 1 ) >"$OUT/top.1"
( cd "$FIX/ext4" && "$IOMON" top -C -i nullb0 0.25 2>&1 ) >/dev/null
( cd "$FIX/discard-flush" && "$IOMON" top -C -i nullb0 1 ) >"$OUT/top.df"
check "top: intervals in trace time, the last partial one printed ($(grep -c '^PID' "$OUT/top.df") tables)" \
	test "$(grep -c '^PID' "$OUT/top.df")" -ge 2
"$IOMON" top -C -i - 3600 <"$FIX/stream/nullb0.stream" >"$OUT/top.s"
check "top -i -: a stream" grep -q '^PID' "$OUT/top.s"
