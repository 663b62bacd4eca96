# Regressions: small traces that once broke iomon (found in review), each
# checked against blkparse where blkparse itself copes.
R=$FIX/regress
( cd "$R" && "$IOMON" parse -i pc ) >"$OUT/rg.txt" 2>&1
check "an 11,000-byte PC payload prints whole (it overran the output buffer)" \
	sh -c "grep -q ' D  *R 4096 (41 41 41' '$OUT/rg.txt' && test \$(grep ' D ' '$OUT/rg.txt' | wc -c) -gt 33000"
( cd "$R" && "$IOMON" parse -i z ) >"$OUT/rg.txt" 2>&1
check "v8 RWBS with every letter (FZRAFASM) fits" test $? = 0
if have_oracle "t-regress.sh line 9: against Debian's blkparse"; then
	rg() {	# name args...: iomon and blkparse agree
		local n=$1; shift
		( cd "$R" && blkparse "$@" ) >"$OUT/rg.exp" 2>/dev/null
		( cd "$R" && "$IOMON" parse "$@" ) >"$OUT/rg.txt" 2>/dev/null
		same "$n" "$OUT/rg.txt" "$OUT/rg.exp"
	}
	rg "a file whose batch starts with 64 KiB of notes keeps its records" -i n
	rg "-t names a pid 'unknown' only when it creates the request" -i u -t
	rg "names known as blkparse knows them in a batch of long messages" -i w -q
	blkparse -i - <"$R/notes-first.stream" >"$OUT/rg.exp" 2>/dev/null
	"$IOMON" parse -i - <"$R/notes-first.stream" >"$OUT/rg.txt" 2>/dev/null
	same "a stream that starts with 64 KiB of notes keeps its records" "$OUT/rg.txt" "$OUT/rg.exp"
	blkparse -i - -q -f '%z %a\n' <"$FIX/stream/nullb0.stream" >"$OUT/rg.exp" 2>/dev/null
	"$IOMON" parse -i - -q -f '%z %a\n' <"$FIX/stream/nullb0.stream" >"$OUT/rg.txt" 2>/dev/null
	same "%z in pipe mode starts at the first event, as blkparse's" "$OUT/rg.txt" "$OUT/rg.exp"
fi
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -q -o /dev/stdout ) >"$OUT/rg.txt" 2>&1
check "-o /dev/stdout works (a link to a device or pipe is fine)" grep -q '254,0 .* Q ' "$OUT/rg.txt"
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -q -f '%300p|\n' ) | head -1 >"$OUT/rg.txt"
check "a field 300 wide is 300 wide" test "$(wc -c <"$OUT/rg.txt")" = 302
