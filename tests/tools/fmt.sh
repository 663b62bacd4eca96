# tests/tools/fmt.sh: sourced by tests/t-fmt.sh (a fixed seed, make check)
# and tests/long/t-fmt.sh (a new seed, make check-long).  With FMT_SEED set:
# tests/tools/fmtcheck.c (vfmt against glibc's and musl's snprintf, and on
# a big-endian host under qemu) and optcheck.c (opt_get against musl's
# getopt and getopt_long) over values drawn from that seed.
FC=$OUT/fmtcheck
if ! cc -O2 -Wall -Wextra -I"$TOP" -o "$FC" "$TOOLS/fmtcheck.c" "$TOP/text.c" "$TOP/textd.c" -lm 2>"$OUT/fmtcheck.err"; then
	fail "fmtcheck builds" "$(head -c 400 "$OUT/fmtcheck.err")"
else
	check "vfmt equals glibc's snprintf (seed $FMT_SEED)" "$FC" "$FMT_SEED" 20000
fi
# against musl itself: what vfmt replaces, and opt_get against musl's
# getopt and getopt_long, which it replaces (base.c)
musl_check() {	# NAME PROGRAM.c COUNT
	local bin=$OUT/${2%.c}-musl
	if ! command -v musl-gcc >/dev/null; then
		skip "$1" "musl-gcc is not installed (tests/tools/setup-deps.sh)"
	# (base.c's packed messages as the literals they are: build/usage.h,
	# usage-z.h in a build with zstd)
	elif musl-gcc -O1 -static -I"$TOP" -DTEXT_CHECK -include "$TOP/build/usage$([ "${ZSTD:-0}" = 1 ] && echo -z).h" -o "$bin" "$TOOLS/$2" "$TOP/text.c" "$TOP/textd.c" 2>"$OUT/musl-check.err"; then
		check "$1 (seed $FMT_SEED)" "$bin" "$FMT_SEED" "$3"
	else
		fail "$2 builds with musl-gcc" "$(head -c 400 "$OUT/musl-check.err")"
	fi
}
musl_check "vfmt equals musl's snprintf" fmtcheck.c 5000
musl_check "opt_get parses as musl's getopt/getopt_long" optcheck.c 20000
S390_SPECS=/usr/lib/s390x-linux-musl/musl-gcc.specs
if command -v s390x-linux-gnu-gcc >/dev/null && [ -f $S390_SPECS ] && command -v qemu-s390x-static >/dev/null; then
	if s390x-linux-gnu-gcc -specs $S390_SPECS -static -O2 -I"$TOP" -o "$FC-s390x" "$TOOLS/fmtcheck.c" \
		"$TOP/text.c" "$TOP/textd.c" 2>"$OUT/fmtcheck.err"; then
		check "vfmt on a big-endian host (s390x, qemu; seed $FMT_SEED)" qemu-s390x-static "$FC-s390x" "$FMT_SEED" 2000
	else
		fail "fmtcheck builds for s390x" "$(head -c 400 "$OUT/fmtcheck.err")"
	fi
else
	skip "vfmt on a big-endian host" "no s390x cross compiler / musl-dev:s390x / qemu-user-static (tests/tools/setup-deps.sh installs them)"
fi

