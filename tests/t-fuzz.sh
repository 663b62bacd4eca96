# needs: python3
# Fuzzing's regression inputs, replayed through each libFuzzer target
# (tests/tools/fuzz.sh, tests/fuzz/*.c; building them takes about 7 s, 1 s
# when built before).  Fuzzing itself is random: make check-long fuzzes
# each target for a minute (tests/long/t-fuzz.sh), `make fuzz` for longer.

# Found by fuzz_decode, checked on the real binary too: a version-8
# record whose header arrives in two reads and its payload in a third
# (a pipe from blktrace splits reads anywhere) is read, not "truncated".
# (the sleeps: pacing, not a wait; they make each part a read of its own)
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
		fail "fuzz targets build" "$(tail -5 "$OUT/fuzz-build.log")" "bash tests/tools/fuzz.sh build"
	fi
else
	FZ=$TOP/build/fuzz
	for t in decode parse monitor; do
		set -- "$TOP"/tests/fuzz/regress/$t/*
		if [ -e "$1" ]; then
			check "fuzz $t: $# regression inputs replay clean" "$FZ/fuzz_$t" -close_fd_mask=3 "$@"
		fi
	done
fi
