# What replaced libc's printf, strtod and getopt.
# vfmt (output/out.c), iomon's own printf subset, against the C library's
# snprintf: tests/fmtcheck.c runs every conversion iomon uses over edge and
# random values, one new seed per run (rerun with FMT_SEED=N).  glibc on
# the host is the reference; musl's printf too where musl-gcc is, and a
# big-endian host under qemu where the s390x cross tools are.
FC=$OUT/fmtcheck
FMT_SEED=${FMT_SEED:-$(( $(date +%s) % 1000000 ))}
if ! cc -O2 -Wall -Wextra -I"$TOP" -o "$FC" "$TOP/tests/fmtcheck.c" "$TOP/text.c" -lm 2>"$OUT/fmtcheck.err"; then
	fail "fmtcheck builds" "$(head -c 400 "$OUT/fmtcheck.err")"
else
	check "vfmt equals glibc's snprintf (seed $FMT_SEED)" "$FC" "$FMT_SEED" 20000
	check "vfmt equals glibc's snprintf (seed 1)" "$FC" 1 2000
fi
# against musl itself: what vfmt replaces, and opt_get against musl's
# getopt and getopt_long, which it replaces (applet.c)
musl_check() {	# NAME PROGRAM.c COUNT
	local bin=$OUT/${2%.c}-musl
	if ! command -v musl-gcc >/dev/null; then
		skip "$1" "musl-gcc is not installed (tests/setup-deps.sh)"
	elif musl-gcc -O1 -static -I"$TOP" -o "$bin" "$TOP/tests/$2" "$TOP/text.c" 2>"$OUT/musl-check.err"; then
		check "$1 (seed $FMT_SEED)" "$bin" "$FMT_SEED" "$3"
	else
		fail "$2 builds with musl-gcc" "$(head -c 400 "$OUT/musl-check.err")"
	fi
}
musl_check "vfmt equals musl's snprintf" fmtcheck.c 5000
musl_check "opt_get parses as musl's getopt/getopt_long" optcheck.c 20000
S390_SPECS=/usr/lib/s390x-linux-musl/musl-gcc.specs
if command -v s390x-linux-gnu-gcc >/dev/null && [ -f $S390_SPECS ] && command -v qemu-s390x-static >/dev/null; then
	if s390x-linux-gnu-gcc -specs $S390_SPECS -static -O2 -I"$TOP" -o "$FC-s390x" "$TOP/tests/fmtcheck.c" \
		"$TOP/text.c" 2>"$OUT/fmtcheck.err"; then
		check "vfmt on a big-endian host (s390x, qemu; seed $FMT_SEED)" qemu-s390x-static "$FC-s390x" "$FMT_SEED" 2000
	else
		fail "fmtcheck builds for s390x" "$(head -c 400 "$OUT/fmtcheck.err")"
	fi
else
	skip "vfmt on a big-endian host" "no s390x cross compiler / musl-dev:s390x / qemu-user-static (tests/setup-deps.sh installs them)"
fi

# parse -w reads seconds with its own scanner now, not strtod: what it
# accepts, the window it makes of it and its complaints, against blkparse
# Out-of-range seconds (inf, nan, 1e400) convert as x86-64 blkparse's do, on
# every arch (C leaves it undefined; s390x would saturate).
if ! have_oracle; then
	skip "parse -w against blkparse" "Debian's blkparse is not installed (tests/setup-deps.sh)"
else
	for w in 0.25 " 0.25" "+0.1:0.3" 1e-1:3e-1 .1:.3 0.1: :0.3 0.1:0.3x 0.3:0.1 abc "" 1e 0x 0x0.4p0 0x.4:0x.8 \
		inf:x infinity:x "nan(1):x" "nan(:x" 0.1:1.2.3 2.5E-1 00000.250000000000000000001 1e-400:1e400 \
		nan:1 -1:2 -5 0x1p70 1e9:1e11 -1e300:1; do
		( cd "$FIX/ext4" && blkparse -i nullb0 -w "$w"; echo "rc $?" ) >"$OUT/w.exp" 2>"$OUT/w.experr"
		( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -w "$w"; echo "rc $?" ) >"$OUT/w.txt" 2>"$OUT/w.err"
		grep Invalid "$OUT/w.experr" >>"$OUT/w.exp"
		grep Invalid "$OUT/w.err" | sed 's/^parse: //' >>"$OUT/w.txt"
		same "parse -w '$w' as blkparse (window, exit code, message)" "$OUT/w.txt" "$OUT/w.exp"
	done
fi
