# needs: python3
# The size budget (issue 6): the stripped x86_64 binary with every applet
# fits in SIZE_BUDGET bytes (Makefile), and make size says so and fails
# past it.
if [ -n "$CROSS" ]; then
	skip "size budget" "the budget is for the x86_64 build; make size lists $CROSS's size"
else
	budget=$(make -s -C "$TOP" print-budget)
	size=$(stat -c %s "$IOMON_BIN")
	check "stripped x86_64 iomon ($size bytes) is within the budget ($budget bytes)" \
		test "$size" -le "$budget"
	# the target itself: passes at exactly the size, fails one byte below
	make -s -C "$TOP" size SIZE_BUDGET="$size" >"$OUT/size.txt" 2>&1
	check "make size passes at a budget of exactly the size" test $? = 0
	make -s -C "$TOP" size SIZE_BUDGET=$((size - 1)) >"$OUT/size.over" 2>&1
	check "make size fails one byte past the budget" test $? != 0
	check "make size says OVER past the budget" grep -q "of $((size - 1)) bytes: OVER" "$OUT/size.over"
	check "make size lists each applet's globals" \
		sh -c "grep -q '^  parse  ' '$OUT/size.txt' && grep -q '^  monitor  ' '$OUT/size.txt' && grep -q '^  top  ' '$OUT/size.txt' && grep -q '^  trace  ' '$OUT/size.txt' && grep -q '^  btrace  ' '$OUT/size.txt'"
	check "make size lists text/data/bss per object" grep -qE '^  output/parse\.o +[0-9]+ +[0-9]+ +[0-9]+$' "$OUT/size.txt"
fi

# Profiles (issue 28): make PROFILE=NAME builds only its applets, with
# only their help, into build/profile-NAME/ (./iomon untouched), within
# its budget; make size prints each and fails past one.
if [ -n "$CROSS" ]; then
	# the profiles are held to their budgets on x86_64; make size builds
	# this architecture's too and prints them beside
	# (ARCH= on the command line: this make check's ARCH=$CROSS reaches
	# every make below it, and make size is the host build's)
	make -s -C "$TOP" size ARCH= >"$OUT/size.x" 2>&1
	check "make size passes with $CROSS's build there" test $? = 0
	check "make size prints $CROSS's profile sizes beside x86_64's" \
		test "$(grep -cE "^budget: profile (capture|initramfs) x86_64 [0-9]+ of [0-9]+ bytes: within budget .*$CROSS [0-9]+" "$OUT/size.x")" = 2
	check "make size built $CROSS's profiles" test -x "$TOP/build/$CROSS/profile-capture/iomon" -a -x "$TOP/build/$CROSS/profile-initramfs/iomon"
else
	before=$(stat -c '%s %Y' "$TOP/iomon")
	for p in capture:blktrace:40960 initramfs:"blkiomon blkparse blktrace btrace":81920; do
		name=${p%%:*} want=${p#*:}; want=${want%:*}; pb=${p##*:}
		P=$TOP/build/profile-$name/iomon
		make -s -C "$TOP" PROFILE=$name >"$OUT/profile-$name.log" 2>&1
		check "make PROFILE=$name builds build/profile-$name/iomon" test -x "$P"
		[ -x "$P" ] || continue
		psize=$(stat -c %s "$P")
		check "profile $name ($psize bytes) is within its budget ($pb)" test "$psize" -le $((pb + $(make -s -C "$TOP" print-budget) - 196608))
		originals=$("$P" --list | grep -x 'blk.*\|btrace\|btt\|biotop' | tr '\n' ' ')
		check "profile $name: --list has its applets ($want)" test "${originals% }" = "$want"
		for a in $want; do
			"$P" "$a" --help >"$OUT/p.help" 2>&1
			check "profile $name: $a --help" grep -q '^usage:' "$OUT/p.help"
		done
		"$P" plot -i x >/dev/null 2>"$OUT/p.err"
		check "profile $name: plot refused, not built in (exit 1)" sh -c "test $? = 1 && grep -qx 'iomon: applet not built in: plot' '$OUT/p.err'"
		ln -sf iomon "$TOP/build/profile-$name/biotop"
		"$TOP/build/profile-$name/biotop" -C >/dev/null 2>"$OUT/p.err"
		check "profile $name: a biotop link refused, not built in (exit 127)" sh -c "test $? = 127 && grep -q 'applet not built in: biotop' '$OUT/p.err'"
		rm -f "$TOP/build/profile-$name/biotop"
		check "profile $name: no other applet's help in the binary" sh -c "! strings '$P' | grep -q 'iowatcher\|per-process block I/O'; ! '$P' btt --help >/dev/null 2>&1"
		"$P" --version >"$OUT/p.ver"
		check "profile $name: --version is iomon's (VERSION)" test "$(cat "$OUT/p.ver")" = "iomon $(cat "$TOP/VERSION")"
	done
	check "profile blktrace: its own version under its name" sh -c "'$TOP/build/profile-capture/iomon' blktrace -V | grep -qx 'blktrace version 2.0.0'"
	check "profile capture: no network mode (NO=NET), said so" sh -c "'$TOP/build/profile-capture/iomon' trace -l 2>&1 | grep -q 'network mode (-l) not built in'"
	"$TOP/build/profile-initramfs/iomon" blkiomon -I 1 --json - </dev/null >/dev/null 2>"$OUT/p.exp"; rc=$?
	check "profile initramfs: no JSON or Prometheus (NO=EXPORT), said so, exit 1 ($rc)" \
		sh -c "test $rc = 1 && grep -q 'JSON and Prometheus exports (--json, --prom) not built in' '$OUT/p.exp'"
	"$TOP/build/profile-initramfs/iomon" blkiomon -I 1 -h - </dev/null >/dev/null 2>&1
	check "profile initramfs: blkiomon's own reports still there (-h)" test $? = 0
	check "profile builds leave ./iomon alone" test "$(stat -c '%s %Y' "$TOP/iomon")" = "$before"
	grep -E '^budget: profile (capture|initramfs) x86_64 [0-9]+ of [0-9]+ bytes: within budget' "$OUT/size.txt" >"$OUT/size.prof"
	check "make size prints each profile's size within its budget" test "$(wc -l <"$OUT/size.prof")" = 2
	cs=$(stat -c %s "$TOP/build/profile-capture/iomon")
	make -s -C "$TOP" size PROFILE_BUDGETS="capture:$((cs - 1)) initramfs:999999" >"$OUT/size.pover" 2>&1
	check "make size fails when a profile is one byte past its budget" test $? != 0
	check "make size says that profile is OVER" grep -q "^budget: profile capture x86_64 $cs of $((cs - 1)) bytes: OVER" "$OUT/size.pover"
	"$IOMON" --version >"$OUT/ver"; "$IOMON" -V >>"$OUT/ver"
	check "iomon --version and -V: iomon's version" test "$(sort -u "$OUT/ver")" = "iomon $(cat "$TOP/VERSION")"
	"$IOMON" parse -V >"$OUT/ver"
	check "iomon parse -V: blkparse's version string stays" grep -qx 'parse version 1.2.0' "$OUT/ver"
fi

# The bss is virtual, but the kernel's default overcommit heuristic refuses
# to start a program whose bss is more than RAM and swap (README, Memory
# and size): the full build's stays under the 160 MiB README states
if [ -z "$CROSS" ] && command -v size >/dev/null; then
	bss=$(size "$IOMON" | awk 'NR == 2 { print $3 }')
	check "bss of the full build: $((bss / 1048576)) MiB, under README's 160 MiB" test "${bss:-999999999999}" -lt $((160 * 1048576))
fi

# bloatcheck (issue 28): two builds compared symbol by symbol; here the
# tiny build against the full one, whose symbols and kinds nm alone sums
if [ -z "$CROSS" ] && [ -f "$TOP/build/tiny/iomon" ] && [ -f "$TOP/iomon_unstripped" ]; then
	bash "$TOOLS/bloatcheck.sh" --bins "$TOP/build/tiny/iomon" "$TOP/iomon_unstripped" >"$OUT/bloat.txt" 2>&1
	check "bloatcheck: exit 0" test $? = 0
	tot() { nm -t d --size-sort -S "$1" | awk '{ s += $2 } END { print s + 0 }'; }
	want=$(( $(tot "$TOP/iomon_unstripped") - $(tot "$TOP/build/tiny/iomon") ))
	check "bloatcheck: its total is nm's sums' difference ($want)" \
		awk -v w="$want" '/^total \(symbols\)/ { f = ($NF + 0 == w) } END { exit !f }' "$OUT/bloat.txt"
	check "bloatcheck: per symbol, largest first (a pool, its name as LTO gives it: pool.lto_priv.0, say)" \
		sh -c "head -1 '$OUT/bloat.txt' | grep -qE '^[a-z_][a-z0-9_.]* +bss +[0-9]+ +[0-9]+ +\\+[0-9]+$'"
	check "bloatcheck: the rows add up to the total" \
		awk '/^kind/ { k = 1; next } !k && NF == 5 { s += $5 } /^total \(symbols\)/ { t = $NF } END { exit s != t }' "$OUT/bloat.txt"
	make -s -C "$TOP" bloatcheck >"$OUT/bloat.noarg" 2>&1
	check "make bloatcheck without OLD: usage, non-zero" sh -c "grep -q 'usage: make bloatcheck OLD=REV' '$OUT/bloat.noarg'"
else
	skip "bloatcheck" "the host's full and tiny builds compare"
fi
