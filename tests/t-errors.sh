# Damaged input and failing output: a message naming the file and byte
# offset, a non-zero exit, and every valid record before the damage printed.
E=$FIX/ext4
if need "damaged files (damage.py)" python3; then
fresh() { rm -rf "$OUT/dmg"; mkdir -p "$OUT/dmg"; cp "$E"/nullb0.blktrace.* "$OUT/dmg/"; chmod u+w "$OUT/dmg"/*; }
runp() { ( cd "$OUT/dmg" && "$IOMON" parse "$@" ) >"$OUT/dmg.txt" 2>"$OUT/dmg.err"; echo $? >"$OUT/dmg.rc"; }

# An unfilled relay record (48 zero bytes) is stepped over and counted.
fresh; off=$(python3 "$TOOLS/damage.py" "$OUT/dmg/nullb0.blktrace.0" zero 300)
runp -i nullb0
gzip -dc "$E/nullb0.blkparse.txt.gz" >"$OUT/dmg.exp"
same "zero record: output as without it" "$OUT/dmg.txt" "$OUT/dmg.exp"
check "zero record: exit 0" test "$(cat "$OUT/dmg.rc")" = 0
check "zero record: reported with file and offset" grep -q "nullb0.blktrace.0 at byte $off" "$OUT/dmg.err"
if have_oracle "t-errors.sh line 14: against Debian's blkparse"; then
	( cd "$OUT/dmg" && blkparse -i nullb0 ) >"$OUT/dmg.bp" 2>/dev/null
	cpu0() { awk '$1 ~ /^[0-9]+,[0-9]+$/ && $2 == "0"' "$1" | wc -l; }
	check "zero record: blkparse loses the rest of that CPU, $(cpu0 "$OUT/dmg.bp") of $(cpu0 "$OUT/dmg.txt") CPU 0 events (why iomon differs)" \
		test "$(cpu0 "$OUT/dmg.bp")" -lt "$(cpu0 "$OUT/dmg.txt")"
fi

for kind in cut magic version; do
	fresh; off=$(python3 "$TOOLS/damage.py" "$OUT/dmg/nullb0.blktrace.1" $kind 250)
	runp -i nullb0
	check "$kind: exit 1" test "$(cat "$OUT/dmg.rc")" = 1
	check "$kind: message names file and byte offset" grep -q "nullb0.blktrace.1: .* at byte $off" "$OUT/dmg.err"
	check "$kind: summary still printed" grep -q '^Events (nullb0): ' "$OUT/dmg.txt"
	if have_oracle; then
		( cd "$OUT/dmg" && blkparse -i nullb0 ) >"$OUT/dmg.bp" 2>/dev/null
		same "$kind: every valid record printed, as blkparse prints them" "$OUT/dmg.txt" "$OUT/dmg.bp"
	else
		skip "$kind: compare with blkparse" "blkparse not installed"
	fi
done
fi

# A stream cut mid-record: the records before it, then the message.
head -c 100010 "$FIX/stream/nullb0.stream" >"$OUT/cut.stream"
"$IOMON" parse -i - <"$OUT/cut.stream" >"$OUT/cut.txt" 2>"$OUT/cut.err"
check "stream cut: exit 1" test $? = 1
check "stream cut: message with offset" grep -q '(stdin): truncated record at byte 1000' "$OUT/cut.err"
check "stream cut: records before it printed" test "$(grep -c '^254,0 ' "$OUT/cut.txt")" -gt 1500

# Inputs that are not there, or not files.
( cd "$OUT" && "$IOMON" parse -i nosuchtrace ) >/dev/null 2>"$OUT/e.err"
check "missing input: exit 1" test $? = 1
check "missing input: says so" grep -q 'No input files found for nosuchtrace' "$OUT/e.err"
mkdir -p "$OUT/dir.blktrace.0"
( cd "$OUT" && "$IOMON" parse -i dir ) >/dev/null 2>"$OUT/e.err"
check "directory as trace file: exit 1" test $? = 1
check "directory as trace file: says so" grep -q 'dir.blktrace.0: is a directory' "$OUT/e.err"
check "directory as trace file: not also said missing" sh -c "! grep -q 'No input files' '$OUT/e.err'"

# Output that fails.
if [ -w /dev/full ]; then
	( cd "$E" && "$IOMON" parse -i nullb0 -o /dev/full ) >/dev/null 2>"$OUT/e.err"
	check "output to a full disk: exit 1" test $? = 1
	check "output to a full disk: says so" grep -q 'No space left' "$OUT/e.err"
else
	skip "output to a full disk" "/dev/full is not writable here"
fi
rm -f "$OUT/victim" "$OUT/trap.txt"; ln -s "$OUT/victim" "$OUT/trap.txt"
if [ "$(id -u)" = 0 ] && chown -h 65534 "$OUT/trap.txt" 2>/dev/null; then
	( cd "$E" && "$IOMON" parse -i nullb0 -o "$OUT/trap.txt" ) >/dev/null 2>"$OUT/e.err"
	check "-o does not follow a symlink planted by another user" test ! -e "$OUT/victim"
	check "-o says why" grep -q 'symbolic link owned by uid 65534' "$OUT/e.err"
else
	skip "-o and a planted symlink" "needs root to make a link owned by another user"
fi
"$IOMON" parse -i nullb0 -Z >/dev/null 2>"$OUT/e.err"
check "unknown option: usage on stderr" grep -q '^usage:' "$OUT/e.err"
"$IOMON" parse -i x -a bogus >/dev/null 2>"$OUT/e.err"
check "unknown mask name: says which" grep -q 'Invalid action mask bogus' "$OUT/e.err"
"$IOMON" btrace -n 5000 /dev/null >/dev/null 2>"$OUT/e.err"
check "btrace -n past 4096: refused as trace refuses it, exit 2" sh -c "test $? = 2 && grep -q 'Invalid buffer nr (5000)' '$OUT/e.err'"
