# Local time (issues 15 and 17 needed the room musl's time zone code took):
# tz.c's local_tm replaced libc's localtime_r for blkiomon's time line,
# top's clock, the exports' stamps and parse's %z.  tests/tools/tzcheck.c
# builds it with the host cc and compares every field with glibc's
# localtime_r: every zone under /usr/share/zoneinfo (but right/, whose
# leap seconds musl ignored as tz.c does), TZ as ":/path", TZ unset
# (/etc/localtime), POSIX TZ strings (well-formed and not), and TZif files
# made from a real one: version 1 (32-bit times, no footer) and version 2
# with an empty footer or none.  Then the binary: %z in other zones, and
# against blkparse's (glibc's) %z.
TZC=$OUT/tzcheck ZI=/usr/share/zoneinfo
if ! cc -O2 -Wall -Wextra -I"$TOP" -o "$TZC" "$TOOLS/tzcheck.c" 2>"$OUT/tzcheck.err"; then
	fail "tzcheck builds" "$(head -c 400 "$OUT/tzcheck.err")"
else
	check "POSIX TZ strings give glibc's local time" "$TZC" strings
	if [ ! -f $ZI/America/New_York ]; then
		skip "zoneinfo files against glibc" "$ZI is absent (Debian's tzdata is not installed)"
	else
		check "every zone in $ZI gives glibc's local time (to the second around each change)" \
			"$TZC" zones $ZI
		check "TZ unset: /etc/localtime, as glibc" env -u TZ "$TZC" env
		check "TZ=:/absolute/path, as glibc" env TZ=:$ZI/Asia/Kolkata "$TZC" env
		if need "TZif version 1 and footerless files" python3; then
			python3 - "$ZI" "$OUT" <<-'EOF'
			import struct, sys
			zi, out = sys.argv[1:3]
			for name in ("America/New_York", "Europe/Dublin", "Australia/Lord_Howe"):
			    d = open(zi + "/" + name, "rb").read()
			    def size(p, w):
			        ut, std, leap, n, types, chars = struct.unpack(">6I", d[p + 20:p + 44])
			        return 44 + n * (w + 1) + types * 6 + chars + leap * (w + 4) + std + ut
			    v1 = size(0, 4)
			    end = v1 + size(v1, 8)
			    base = out + "/" + name.replace("/", "_")
			    open(base + ".v1", "wb").write(d[:4] + b"\0" + d[5:v1])
			    open(base + ".nofooter", "wb").write(d[:end])
			    open(base + ".emptyfooter", "wb").write(d[:end] + b"\n\n")
			EOF
			for f in "$OUT"/*.v1 "$OUT"/*.nofooter "$OUT"/*.emptyfooter; do
				check "TZif file ${f##*/} as glibc reads it" env TZ=":$f" "$TZC" env
			done
		fi
	fi
fi
# the binary: parse's %z (the trace's wall clock) in India is UTC + 5:30
if [ ! -f $ZI/Asia/Kolkata ]; then
	skip "%z in another zone" "$ZI is absent (Debian's tzdata is not installed)"
else
	( cd "$FIX/ext4" && TZ=UTC0 "$IOMON" parse -i nullb0 -q -f '%z\n' ) | grep '^[0-9][0-9]:' >"$OUT/z.utc"
	( cd "$FIX/ext4" && TZ=Asia/Kolkata "$IOMON" parse -i nullb0 -q -f '%z\n' ) | grep '^[0-9][0-9]:' >"$OUT/z.in"
	awk -F: '{ s = ($1 * 3600 + $2 * 60 + 19800) % 86400; printf "%02d:%02d:%s\n", s / 3600, s / 60 % 60, $3 }' \
		"$OUT/z.utc" >"$OUT/z.exp"
	same "parse %z with TZ=Asia/Kolkata is UTC's + 5:30" "$OUT/z.in" "$OUT/z.exp"
	( cd "$FIX/ext4" && TZ='IST-5:30' "$IOMON" parse -i nullb0 -q -f '%z\n' ) | grep '^[0-9][0-9]:' >"$OUT/z.posix"
	same "parse %z with TZ=IST-5:30 (a POSIX string) too" "$OUT/z.posix" "$OUT/z.exp"
	# a name with '.' in it is not looked up (musl's rule: no climbing out
	# of the zoneinfo folder); it is read as a POSIX string, which fails: UTC
	( cd "$FIX/ext4" && TZ=Asia/../Asia/Kolkata "$IOMON" parse -i nullb0 -q -f '%z\n' ) | grep '^[0-9][0-9]:' >"$OUT/z.dots"
	same "parse %z with TZ=Asia/../Asia/Kolkata is UTC (not read)" "$OUT/z.dots" "$OUT/z.utc"
fi
# against the oracle: Debian's blkparse is a glibc program, so its %z is
# glibc's local time.  A TZ with DST but no rules (EST5EDT is also a
# zoneinfo file; XST5XDT is not) was DST all year under musl's localtime_r:
# November's times an hour off blkparse's.
if ! have_oracle; then
	skip "%z as blkparse's" "Debian's blkparse is not installed (tests/tools/setup-deps.sh)"
elif [ ! -f $ZI/America/New_York ]; then
	skip "%z as blkparse's" "$ZI is absent (Debian's tzdata is not installed)"
else
	for z in EST5EDT XST5XDT America/New_York Europe/Dublin 'CET-1CEST,M3.5.0,M10.5.0/3' '<+0330>-3:30' :Asia/Kolkata; do
		( cd "$FIX/ext4" && TZ=$z blkparse -i nullb0 -q -f '%z\n' ) 2>/dev/null | grep '^[0-9][0-9]:' >"$OUT/z.exp"
		( cd "$FIX/ext4" && TZ=$z "$IOMON" parse -i nullb0 -q -f '%z\n' ) | grep '^[0-9][0-9]:' >"$OUT/z.got"
		same "parse %z with TZ=$z as blkparse's" "$OUT/z.got" "$OUT/z.exp"
	done
fi
