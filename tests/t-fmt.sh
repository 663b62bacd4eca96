# What replaced libc's printf, strtod and getopt.
# vfmt (text.c), iomon's own printf subset, against the C library's
# snprintf: tests/tools/fmtcheck.c runs every conversion iomon uses over edge and
# random values drawn from a fixed seed (FMT_SEED=N picks another; make
# check-long draws a new one each run: tests/long/t-fmt.sh).  glibc on
# the host is the reference; musl's printf too where musl-gcc is, and a
# big-endian host under qemu where the s390x cross tools are.
FMT_SEED=${FMT_SEED:-4242}
. "$TOOLS/fmt.sh"
[ -x "$FC" ] && check "vfmt equals glibc's snprintf (seed 1)" "$FC" 1 2000
# parse -w reads seconds with its own scanner now, not strtod: what it
# accepts, the window it makes of it and its complaints, against blkparse
# Out-of-range seconds (inf, nan, 1e400) convert as x86-64 blkparse's do, on
# every arch (C leaves it undefined; s390x would saturate).
if ! have_oracle; then
	skip "parse -w against blkparse" "Debian's blkparse is not installed (tests/tools/setup-deps.sh)"
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
