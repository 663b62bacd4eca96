# The in-flight table (match/inflight.c) on its own, with tests/tools/iftcheck.c:
# slot order, IFT_DROP / IFT_AGE_FIFO / IFT_AGE_NEAR on a full pool, kinds,
# and ift_move onto a free and onto a taken key.  Built with the host's cc
# (with ASan and UBSan where they link).
IC=$OUT/iftcheck
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void) { return 0; }' >"$OUT/san.c"
cc $san -o "$OUT/san" "$OUT/san.c" 2>/dev/null || san=
if ! cc -O1 -g $san -Wall -Wextra -Wshadow -Wno-unused-parameter -Werror -I"$TOP" -o "$IC" \
	"$TOOLS/iftcheck.c" "$TOP/match/inflight.c" 2>"$OUT/iftcheck.err"; then
	fail "iftcheck builds" "$(head -c 400 "$OUT/iftcheck.err")"
else
	check "in-flight table: slot order, the three full-pool policies, moves onto taken keys" "$IC"
fi
