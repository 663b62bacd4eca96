# needs: python3
# Fuzzing's regression inputs and a short smoke of each libFuzzer target
# (tests/tools/fuzz.sh, tests/fuzz/*.c); `make fuzz` runs them for longer.

# Found by fuzz_decode, checked on the real binary too: a version-8
# record whose header arrives in two reads and its payload in a third
# (a pipe from blktrace splits reads anywhere) is read, not "truncated".
V8=$FIX/ext4-v8/nullb0.blktrace.0
"$IOMON" parse -i - <"$V8" >"$OUT/fz-v8.want" 2>/dev/null
{ head -c 50 "$V8"; sleep 0.3; tail -c +51 "$V8" | head -c 16; sleep 0.3; tail -c +67 "$V8"; } |
	"$IOMON" parse -i - >"$OUT/fz-v8.txt" 2>"$OUT/fz-v8.err"
check "fuzz: v8 header and payload in separate reads: exit 0" test $? = 0
same "fuzz: v8 header and payload in separate reads: same text" "$OUT/fz-v8.txt" "$OUT/fz-v8.want"

# A damaged clock that jumps by 2^62 ns: monitor stepped through 4.6e9
# empty intervals one by one (minutes of CPU); now at once.
tail -c +2 "$TOP/tests/fuzz/regress/monitor/clock-jump-2e62" |
	timeout 20 "$IOMON" monitor -I 1 --clock=trace -h "$OUT/fz-jump.txt" 2>/dev/null
check "fuzz: monitor over a clock jump ends at once" test $? = 0
check "fuzz: monitor over a clock jump reports the interval before it" grep -q '^device: 254,0$' "$OUT/fz-jump.txt"

if ! bash "$TOOLS/fuzz.sh" build >"$OUT/fuzz-build.log" 2>&1; then
	if grep -q 'no clang with libFuzzer' "$OUT/fuzz-build.log"; then
		skip "fuzz targets" "no clang with libFuzzer's runtime (Debian: clang-14 libclang-rt-14-dev)"
	else
		fail "fuzz targets build" "$(tail -5 "$OUT/fuzz-build.log")"
	fi
else
	FZ=$TOP/build/fuzz
	for t in decode parse monitor; do
		set -- "$TOP"/tests/fuzz/regress/$t/*
		if [ -e "$1" ]; then
			check "fuzz $t: $# regression inputs replay clean" "$FZ/fuzz_$t" -close_fd_mask=3 "$@"
		fi
	done
	# the smoke: a fresh corpus from the fixtures each time
	rm -rf "$OUT/fuzz-corpus"
	if python3 "$TOP/tests/fuzz/seeds.py" "$FIX" "$OUT/fuzz-corpus"; then
		for t in decode parse monitor; do
			mkdir -p "$OUT/fuzz-crash/$t"
			check "fuzz $t: ${FUZZ_SMOKE:-10} s from the fixtures find nothing" \
				timeout -s KILL $((${FUZZ_SMOKE:-10} + 120)) "$FZ/fuzz_$t" -max_total_time="${FUZZ_SMOKE:-10}" -close_fd_mask=3 -max_len=65536 \
				-timeout=10 -artifact_prefix="$OUT/fuzz-crash/$t/" "$OUT/fuzz-corpus/$t"
		done
	else
		fail "fuzz seeds" "tests/fuzz/seeds.py failed"
	fi
fi
