# vfmt (output/out.c), iomon's own printf subset, against the C library's
# snprintf: tests/fmtcheck.c runs every conversion iomon uses over edge and
# random values, one new seed per run (rerun with FMT_SEED=N).  glibc on
# the host is the reference; musl's printf too where musl-gcc is, and a
# big-endian host under qemu where the s390x cross tools are.
FC=$OUT/fmtcheck
FMT_SEED=${FMT_SEED:-$(( $(date +%s) % 1000000 ))}
if ! cc -O2 -Wall -Wextra -I"$TOP" -o "$FC" "$TOP/tests/fmtcheck.c" "$TOP/output/out.c" -lm 2>"$OUT/fmtcheck.err"; then
	fail "fmtcheck builds" "$(head -c 400 "$OUT/fmtcheck.err")"
else
	check "vfmt equals glibc's snprintf (seed $FMT_SEED)" "$FC" "$FMT_SEED" 20000
	check "vfmt equals glibc's snprintf (seed 1)" "$FC" 1 2000
fi
if command -v musl-gcc >/dev/null; then
	if musl-gcc -O2 -static -I"$TOP" -o "$FC-musl" "$TOP/tests/fmtcheck.c" "$TOP/output/out.c" 2>"$OUT/fmtcheck.err"; then
		check "vfmt equals musl's snprintf (seed $FMT_SEED)" "$FC-musl" "$FMT_SEED" 5000
	else
		fail "fmtcheck builds with musl-gcc" "$(head -c 400 "$OUT/fmtcheck.err")"
	fi
else
	skip "vfmt against musl's snprintf" "musl-gcc is not installed (tests/setup-deps.sh)"
fi
S390_SPECS=/usr/lib/s390x-linux-musl/musl-gcc.specs
if command -v s390x-linux-gnu-gcc >/dev/null && [ -f $S390_SPECS ] && command -v qemu-s390x-static >/dev/null; then
	if s390x-linux-gnu-gcc -specs $S390_SPECS -static -O2 -I"$TOP" -o "$FC-s390x" "$TOP/tests/fmtcheck.c" \
		"$TOP/output/out.c" 2>"$OUT/fmtcheck.err"; then
		check "vfmt on a big-endian host (s390x, qemu; seed $FMT_SEED)" qemu-s390x-static "$FC-s390x" "$FMT_SEED" 2000
	else
		fail "fmtcheck builds for s390x" "$(head -c 400 "$OUT/fmtcheck.err")"
	fi
else
	skip "vfmt on a big-endian host" "no s390x cross compiler / musl-dev:s390x / qemu-user-static (tests/setup-deps.sh installs them)"
fi
