# needs: python3
# btrecord (iomon record): its .replay files against Debian's btrecord on
# every fixture, byte for byte but the header's two counts, which are
# checked against the bunches and I/Os the file holds (Debian's leave out
# the last bunch: the deliberate difference); version 8 through Debian on
# the same trace rewritten as version 7 (tests/tools/traceconv.py);
# either byte order; the options; damaged input.

is_v8() { [ "$(od -An -tx1 -N4 "$1" | tr -d ' ')" = 08746165 ] || [ "$(od -An -tx1 -N4 "$1" | tr -d ' ')" = 65617408 ]; }

if need "btrecord: Debian's btrecord to compare with" btrecord; then
	for dir in "$FIX"/*/; do
		f=$(basename "$dir")
		ls "$dir" | grep -q '\.blktrace\.0$' || continue
		# Debian's oracle on version 8: the same trace as version 7
		src=$OUT/v7/$f; mkdir -p "$src"
		for t in "$dir"*.blktrace.*; do
			if is_v8 "$t"; then python3 "$TOOLS/traceconv.py" "$t" "$src/$(basename "$t")"
			else ln -sf "$t" "$src/$(basename "$t")"; fi
		done
		mkdir -p "$OUT/deb/$f" "$OUT/our/$f"
		( cd "$OUT/deb/$f" && btrecord -d "$src" -F -v 2>err ) || fail "btrecord $f: Debian's ran" "exit $?"
		( cd "$OUT/our/$f" && "$IOMON" btrecord -d "$dir" -F -v 2>err )
		check "btrecord $f: exit 0" test $? = 0
		# a big-endian host writes its own order, as Debian's would
		# there; compared in x86's (replayle.py), every CPU's (.replay.71 too)
		host_be && python3 "$TOOLS/replayle.py" $(ls "$OUT/our/$f"/*.replay.[0-9]* | grep -v '\.rec$')
		n=0
		for e in "$OUT/deb/$f"/*.replay.[0-9]*; do
			g=$OUT/our/$f/$(basename "$e")
			case $e in
			*.rec) check "btrecord -v $f $(basename "$e"): the text file as Debian's" cmp "$g" "$e" ;;
			*) check "btrecord $f $(basename "$e"): Debian's bytes but the header's counts" body "$g" "$e"
			   check "btrecord $f $(basename "$e"): header counts the file's bunches and I/Os (Debian's miss the last bunch)" true_counts "$g" "$e"
			   n=$((n + 1)) ;;
			esac
		done
		check "btrecord $f: as many files as Debian's ($n)" test "$(ls "$OUT/our/$f" | grep -cv '\.rec$\|^err$')" = "$n"
	done
	# Debian's header is wrong where it can be seen: ext4's CPU 0 holds
	# 25 bunches and 151 I/Os; Debian's says 24 and 147
	check "Debian's header on ext4 CPU 0 says 24 bunches, 147 I/Os (the file: 25, 151)" \
		test "$(counts "$OUT/deb/ext4/nullb0.replay.0")" = "24 147 25 151 4"
	check "ours on ext4 CPU 0 says 25 bunches, 151 I/Os" \
		test "$(counts "$OUT/our/ext4/nullb0.replay.0")" = "25 151 25 151 4"
	# the options, against Debian's
	for o in "-M 1" "-M 512" "-m 1" "-m 100000000 -M 64" "-o base"; do
		rm -rf "$OUT/o1" "$OUT/o2"; mkdir -p "$OUT/o1" "$OUT/o2"
		# shellcheck disable=SC2086
		btrecord -d "$FIX/mq-randrw" -D "$OUT/o1" $o nullb0 2>/dev/null
		# shellcheck disable=SC2086
		"$IOMON" btrecord -d "$FIX/mq-randrw" -D "$OUT/o2" $o nullb0
		host_be && python3 "$TOOLS/replayle.py" "$OUT/o2"/*
		for e in "$OUT/o1"/*; do
			check "btrecord $o -D: $(basename "$e") as Debian's but the counts" body "$OUT/o2/$(basename "$e")" "$e"
		done
	done
fi

# Version 8 and big-endian input: the same files as version 7 little-endian
for p in "ext4 ext4-v8" "ext4 ext4-be" "remap remap-be"; do
	set -- $p
	mkdir -p "$OUT/x/$1" "$OUT/x/$2"
	( cd "$OUT/x/$1" && "$IOMON" btrecord -d "$FIX/$1" nullb0 ) && ( cd "$OUT/x/$2" && "$IOMON" btrecord -d "$FIX/$2" nullb0 )
	for c in 0 1; do
		same "btrecord $2 CPU $c: the same file as $1's" "$OUT/x/$2/nullb0.replay.$c" "$OUT/x/$1/nullb0.replay.$c"
	done
done

# Damaged input: the file and byte offset, exit 1; what came before is kept
mkdir -p "$OUT/bad"
head -c 1000 "$FIX/ext4/nullb0.blktrace.0" >"$OUT/bad/t.blktrace.0"
( head -c 960 "$FIX/ext4/nullb0.blktrace.0"; printf 'garbage%.0s' 1 2 3 4 5 6 7 ) >"$OUT/bad/m.blktrace.0"
python3 - "$FIX/ext4/nullb0.blktrace.0" "$OUT/bad/b.blktrace.0" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read()[:4096])
d[480:484] = b"XXXX"	# a record's magic, if 480 starts one; else a field
open(sys.argv[2], "wb").write(bytes(d))
PY
( cd "$OUT/bad" && "$IOMON" btrecord t ) 2>"$OUT/bad/t.err"
check "btrecord: a truncated trace exits 1" test $? = 1
check "btrecord: ... naming the file and the byte offset" grep -q 't.blktrace.0: truncated record at byte 976' "$OUT/bad/t.err"
check "btrecord: ... and the file up to the damage is written" test -s "$OUT/bad/t.replay.0"
( cd "$OUT/bad" && "$IOMON" btrecord m b ) 2>"$OUT/bad/m.err"
check "btrecord: garbage after a record exits 1" test $? = 1
check "btrecord: ... naming each file and a byte offset" \
	sh -c "grep -q 'm.blktrace.0: .* at byte [0-9]' '$OUT/bad/m.err' && grep -q 'b.blktrace.0: .* at byte [0-9]' '$OUT/bad/m.err'"
( cd "$OUT/bad" && "$IOMON" btrecord nothere ) 2>"$OUT/bad/n.err"
check "btrecord: a device without traces: exit 1, named" sh -c "test $? = 1 && grep -q 'No traces found for nothere' '$OUT/bad/n.err'"
"$IOMON" btrecord -M 513 -d "$FIX/ext4" nullb0 2>"$OUT/bad/M.err"
check "btrecord -M 513: refused, exit 1" sh -c "test $? = 1 && grep -q 'Invalid max pkts' '$OUT/bad/M.err'"
"$IOMON" btrecord 2>"$OUT/bad/e.err"
check "btrecord with no device: exit 1" sh -c "test $? = 1 && grep -q 'Missing required input' '$OUT/bad/e.err'"
