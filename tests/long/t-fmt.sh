# make check-long: tests/t-fmt.sh's seeded checks (tests/tools/fmt.sh:
# vfmt against glibc's and musl's snprintf, opt_get against musl's getopt)
# on a seed no run has tried, new each time and printed; replay a failure
# with `make check-long ONLY=long/t-fmt FMT_SEED=N`.
FMT_SEED=${FMT_SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000 + 2 ))}
echo "fmtcheck seed: $FMT_SEED (replay: make check-long ONLY=long/t-fmt FMT_SEED=$FMT_SEED)"
. "$TOOLS/fmt.sh"
