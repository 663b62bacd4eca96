# needs: python3
# make check-long: tests/t-gen.sh's cases (tests/tools/gen.sh) on seeds no
# run has tried, new each time and printed.  A failure names its seed;
# replay it with `make check-long ONLY=long/t-gen SEEDS="N"` (or add it to
# the fixed seeds of tests/t-gen.sh once what it found is fixed).
# GEN_SEEDS: how many new seeds (default 4).
if [ ! -x "$TOOLS/gentrace" ]; then
	fail "gentrace built (make check-long builds tests/tools/gentrace)"
elif ! have_oracle; then
	skip "generated traces against blkparse, new seeds" "Debian's blkparse is not installed (tests/tools/setup-deps.sh)"
else
	if [ -z "${SEEDS:-}" ]; then
		SEEDS=
		for _ in $(seq "${GEN_SEEDS:-4}"); do SEEDS="$SEEDS${SEEDS:+ }$(( (RANDOM << 15 | RANDOM) % 1000000 ))"; done
	fi
	echo "gentrace seeds: $SEEDS (replay: make check-long ONLY=long/t-gen SEEDS=\"$SEEDS\")"
	. "$TOOLS/gen.sh"
	for seed in $SEEDS; do gen_seed "$seed" new; done
fi
