# needs: python3
# make check-long: each libFuzzer target (tests/tools/fuzz.sh,
# tests/fuzz/*.c) fuzzed for FUZZ_SMOKE seconds (default 60) from a fresh
# corpus cut from the fixtures.  A find is kept under
# tests/out/long/t-fuzz/fuzz-crash/TARGET/ and belongs in
# tests/fuzz/regress/TARGET/ once fixed (make check replays those:
# tests/t-fuzz.sh).  `make fuzz` runs longer, with a corpus kept in build/.
if ! bash "$TOOLS/fuzz.sh" build >"$OUT/fuzz-build.log" 2>&1; then
	if grep -q 'no clang with libFuzzer' "$OUT/fuzz-build.log"; then
		skip "fuzz targets" "no clang with libFuzzer's runtime (Debian: clang-14 libclang-rt-14-dev)"
	else
		fail "fuzz targets build" "$(tail -5 "$OUT/fuzz-build.log")" "bash tests/tools/fuzz.sh build"
	fi
elif ! python3 "$TOP/tests/fuzz/seeds.py" "$FIX" "$OUT/fuzz-corpus"; then
	fail "fuzz seeds" "tests/fuzz/seeds.py failed" "python3 tests/fuzz/seeds.py tests/fixtures /tmp/corpus"
else
	FZ=$TOP/build/fuzz S=${FUZZ_SMOKE:-60}
	for t in decode parse monitor; do
		mkdir -p "$OUT/fuzz-crash/$t"
		check "fuzz $t: $S s from the fixtures find nothing" \
			timeout -s KILL $((S + 120)) "$FZ/fuzz_$t" -max_total_time="$S" -close_fd_mask=3 -max_len=65536 \
			-timeout=10 -artifact_prefix="$OUT/fuzz-crash/$t/" "$OUT/fuzz-corpus/$t"
	done
fi
