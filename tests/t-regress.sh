# Regressions: small traces that once broke iomon (found in review), each
# checked against blkparse where blkparse itself copes.
R=$FIX/regress
( cd "$R" && "$IOMON" parse -i pc ) >"$OUT/rg.txt" 2>&1
check "an 11,000-byte PC payload prints whole (it overran the output buffer)" \
	sh -c "grep -q ' D  *R 4096 (41 41 41' '$OUT/rg.txt' && test \$(grep ' D ' '$OUT/rg.txt' | wc -c) -gt 33000"
( cd "$R" && "$IOMON" parse -i z ) >"$OUT/rg.txt" 2>&1
check "v8 RWBS with every letter (FZRAFASM) fits" test $? = 0
if have_oracle "t-regress.sh: against Debian's blkparse"; then
	# testoracle NAME "ARGS" DIR: iomon parse ARGS against blkparse ARGS (tests/lib.sh)
	testoracle "a file whose batch starts with 64 KiB of notes keeps its records" "-i n" "$R"
	testoracle "-t names a pid 'unknown' only when it creates the request" "-i u -t" "$R"
	testoracle "names known as blkparse knows them in a batch of long messages" "-i w -q" "$R"
	testoracle "a stream that starts with 64 KiB of notes keeps its records" "-i - <notes-first.stream" "$R"
	testoracle "%z in pipe mode starts at the first event, as blkparse's" "-i - -q -f '%z %a\n' <nullb0.stream" stream
fi
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -q -o /dev/stdout ) >"$OUT/rg.txt" 2>&1
check "-o /dev/stdout works (a link to a device or pipe is fine)" grep -q '254,0 .* Q ' "$OUT/rg.txt"
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -q -f '%300p|\n' ) | head -1 >"$OUT/rg.txt"
check "a field 300 wide is 300 wide" test "$(wc -c <"$OUT/rg.txt")" = 302
