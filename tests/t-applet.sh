# The multi-call binary: names, --list, --install, --help, static and
# heap-free, warning-free.
"$IOMON" --list >"$OUT/list.txt"
check "--list names blkparse and parse" grep -qx blkparse "$OUT/list.txt"
check "--list names parse" grep -qx parse "$OUT/list.txt"
rm -rf "$OUT/inst"; mkdir -p "$OUT/inst"
check "--install DIR" "$IOMON" --install --all "$OUT/inst"
check "--install made a blkparse symlink" test -L "$OUT/inst/blkparse"
( cd "$FIX/ext4" && "$OUT/inst/blkparse" -i nullb0 ) >"$OUT/inst.txt"
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 ) >"$OUT/inst.exp"
same "blkparse symlink runs the parser" "$OUT/inst.txt" "$OUT/inst.exp"
cp "$IOMON" "$OUT/whatever"
( cd "$FIX/ext4" && "$OUT/whatever" parse -i nullb0 ) >"$OUT/inst.txt"
same "an unknown name acts as the multiplexer" "$OUT/inst.txt" "$OUT/inst.exp"
rm -rf "$OUT/pfx"
check "make install PREFIX=..." make -s install PREFIX="$OUT/pfx"
check "installed applet links are relative (the tree can move)" \
	test "$(readlink "$OUT/pfx/bin/blkparse")" = iomon
check "make install: the original tools' names only (blktrace blkparse blkiomon btrace btrecord btreplay btt biotop biolatency biosnoop bitesize biopattern blkrawverify verify_blkparse iowatcher)" \
	test "$(cd "$OUT/pfx/bin" && echo *)" = "biolatency biopattern biosnoop biotop bitesize blkiomon blkparse blkrawverify blktrace btrace btrecord btreplay btt iomon iowatcher verify_blkparse"
# Installing never removes what is not ours: a foreign top (procps'), a
# link to another program, Debian's blkparse; a stale link to iomon is
# replaced.
I=$OUT/inst2; rm -rf "$I"; mkdir -p "$I/old"
printf '#!/bin/sh\necho procps top\n' >"$I/top"; chmod +x "$I/top"
cp "$I/top" "$I/blkparse"
ln -s /bin/true "$I/blkiomon"
ln -s old/iomon "$I/blktrace"		# dangling: an iomon since moved
ln -s "$IOMON" "$I/parse"
"$IOMON" --install --all "$I" >"$I.out" 2>"$I.err"
check "--install --all: exit 0 with names skipped" test $? = 0
check "--install: a foreign top survives" test "$("$I/top")" = "procps top"
check "--install: a foreign blkparse survives" sh -c "test ! -L '$I/blkparse' && grep -q procps '$I/blkparse'"
check "--install: a link to another program survives" test "$(readlink "$I/blkiomon")" = /bin/true
check "--install: says which names were skipped and why" sh -c \
	"grep -q '$I/top: skipped: a file of another program, not a link to iomon' '$I.err' &&
	 grep -q '$I/blkiomon: skipped: a link to another program' '$I.err' && test \$(wc -l <'$I.err') = 3"
check "--install: a stale link to iomon is replaced" test "$(readlink "$I/blktrace")" != old/iomon -a -e "$I/blktrace"
check "--install: a link to this iomon is made again" test -e "$I/parse" -a -L "$I/parse"
check "--install --all: generic names too" test -L "$I/trace" -a -L "$I/monitor"
rm -rf "$I"; mkdir -p "$I"
"$IOMON" --install "$I" 2>"$I.err"
check "--install: generic names (top, parse, trace, monitor) only with --all" \
	test "$(cd "$I" && echo *)" = "biolatency biopattern biosnoop biotop bitesize blkiomon blkparse blkrawverify blktrace btrace btrecord btreplay btt iowatcher verify_blkparse"
"$IOMON" --install >/dev/null 2>"$I.err"
check "--install without DIR: usage, exit 1" sh -c "test $? = 1 && grep -q 'usage: iomon --install \\[--all\\] DIR' '$I.err'"
while read -r a; do
	"$IOMON" "$a" --help >"$OUT/help.txt" 2>&1
	check "iomon $a --help starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
	"$OUT/inst/$a" --help >"$OUT/help.txt" 2>&1
	check "$a --help (as symlink) starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
done <"$OUT/list.txt"
# The usage texts are packed at build time (tests/tools/packtext.c) and
# unpacked by usage_put: each --help gives its source's USAGE() text, byte
# for byte, and no text is left plain in the binary.
usage_src() {	# the USAGE(ID, ...) text of FILE, its C literals decoded
	python3 -c 'import re, sys, codecs
s = open(sys.argv[1]).read()
m = re.search(r"\nUSAGE\(" + sys.argv[2] + r",\n(.*?)\)\n", s, re.S)
lits = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(1))
sys.stdout.write(codecs.decode("".join(lits), "unicode_escape"))' "$TOP/output/$1.c" "$1"
}
if need "usage texts unpacked" python3; then
	for a in parse:parse trace:trace btrace:btrace monitor:monitor top:top btt:btt blkparse:parse \
		blktrace:trace blkiomon:monitor biotop:top lat:lat biolatency:lat snoop:snoop biosnoop:snoop bitesize:bitesize biopattern:biopattern plot:plot blkrawverify:rawverify rawverify:rawverify verify_blkparse:verifyparse verifyparse:verifyparse; do
		grep -qx "${a%:*}" "$OUT/list.txt" || continue
		usage_src "${a#*:}" >"$OUT/usage.exp"
		"$IOMON" "${a%:*}" --help >"$OUT/usage.got" 2>&1
		same "${a%:*} --help: ${a#*:}.c's USAGE() text, unpacked" "$OUT/usage.got" "$OUT/usage.exp"
	done
	check "usage texts packed: blkparse's not plain in the binary" \
		sh -c "! grep -q 'Print block trace records' '$IOMON_BIN'"
fi
# strerror's texts are packed with them (libc.c's USAGE(errs, ...), the
# stream's first: its first words stand as they are)
testcmd "strerror: ENOENT's text unpacked" "parse -i '$OUT/none' -d '$OUT/no/dir' 2>&1 | tail -1" \
	"parse: $OUT/no/dir: No such file or directory\n"
testcmd "strerror: ENOTDIR's, one after a dozen others" "parse -i '$OUT/none' -d /etc/passwd/x 2>&1 | tail -1" \
	"parse: /etc/passwd/x: Not a directory\n"
"$IOMON" --help >"$OUT/help.txt"
check "iomon --help starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
"$IOMON" >/dev/null 2>&1
check "iomon alone: exit 1" test $? = 1
"$IOMON" frobnicate >/dev/null 2>"$OUT/e.err"
check "unknown applet: says so" grep -q "unknown applet 'frobnicate'" "$OUT/e.err"
need "static binary" file && check "static binary" sh -c "file -L '$IOMON_BIN' | grep -q 'statically linked'"
check "no heap allocator linked in (malloc, calloc, realloc, free)" \
	sh -c "! nm '$TOP/iomon_unstripped' | grep -qwE 'malloc|calloc|realloc|free'"
check "no stdio streams of our own (fopen, fdopen)" \
	sh -c "! nm '$TOP/iomon_unstripped' | grep -qwE 'fopen|fdopen|setvbuf'"
check "sources build with -Wall -Wextra -Werror" sh -c "cd '$TOP' && for f in \$(make -s -f Makefile print-srcs); do \${CC:-cc} -I. -Wall -Wextra -Werror -fsyntax-only \$f || exit 1; done"

# The compiler is part of the build: a glibc build made on purpose (CC=cc,
# with a warning) is rebuilt with musl by a plain make; nothing stale stays.
if [ -n "$CROSS" ]; then
	skip "compiler stamp" "checked on the host build"
elif need "compiler stamp" musl-gcc cc; then
	C=$OUT/stamp; rm -rf "$C"; mkdir -p "$C"
	( cd "$TOP" && cp -r Makefile VERSION *.c *.h capture match stats output "$C/" && mkdir -p "$C/tests/tools" && cp tests/tools/packtext.c tests/tools/applets.sh "$C/tests/tools/" )
	make -s -C "$C" CC=cc iomon >"$C/cc.log" 2>&1
	check "make CC=cc: builds, warning it is not the product build" grep -q 'CC=cc: not the product build' "$C/cc.log"
	check "make CC=cc: the stamp names cc" sh -c "head -1 '$C/build/cc.stamp' | grep -q '^cc '"
	g=$(stat -c %s "$C/iomon" 2>/dev/null)
	make -s -C "$C" iomon >"$C/musl.log" 2>&1
	check "then make: rebuilt with musl-gcc (stamp)" sh -c "head -1 '$C/build/cc.stamp' | grep -q '^musl-gcc '"
	m=$(stat -c %s "$C/iomon" 2>/dev/null)
	check "then make: a new binary ($g bytes with glibc, $m with musl)" test -n "$m" -a "${m:-0}" -lt "${g:-0}"
	check "then make: the same binary as this tree's" cmp -s "$C/iomon" "$IOMON_BIN"
	t1=$(stat -c %y "$C/build/obj/applet.o" "$C/iomon")
	make -C "$C" iomon >"$C/again.log" 2>&1
	check "make again: nothing rebuilt" test "$(stat -c %y "$C/build/obj/applet.o" "$C/iomon")" = "$t1"
	rm -rf "$C"
fi

# README's applet table is the drivers' //applet: and //readme: lines
if [ -z "$CROSS" ]; then
	bash "$TOOLS/applets.sh" --readme >"$OUT/applets.want"
	sed -n '/^<!-- applets: /,/^<!-- \/applets -->$/p' "$TOP/README.md" | sed '1d;$d' >"$OUT/applets.readme"
	same "README's applet table is the drivers' header blocks (tests/tools/applets.sh --readme)" "$OUT/applets.readme" "$OUT/applets.want"
	check "README's applet table: a row for every driver" test "$(grep -c '^| ' "$OUT/applets.want")" = $(( $(grep -l '^//applet: ' "$TOP"/output/*.c | wc -l) + 1 ))
fi

# make install INITRAMFS=...: the initramfs-tools hook and init-top script
# and the dracut module, naming the profile's binary where it will be (not
# under DESTDIR); make uninstall takes away what make install put there and
# nothing else.  (tests/long/t-initrd.sh builds and boots the images.)
if [ -n "$CROSS" ]; then
	skip "make install INITRAMFS=both" "installs the host's build; not under ARCH=$CROSS"
else
	# the folders a system with both has (packages own them: they stay)
	D=$OUT/dest; rm -rf "$D"; mkdir -p "$D/usr/bin" "$D/usr/share/man/man1" "$D/usr/share/man/man8" \
		"$D/usr/share/initramfs-tools/hooks" "$D/usr/share/initramfs-tools/scripts/init-top" "$D/usr/lib/dracut/modules.d"
	printf '#!/bin/sh\necho procps top\n' >"$D/usr/bin/top"; ln -s /bin/true "$D/usr/bin/blkparse"
	echo 'not iomons' >"$D/usr/share/man/man1/ls.1"
	list() { (cd "$D" && find . -printf '%p %y %l\n' | sort); }
	list >"$OUT/dest.before"
	check "make install INITRAMFS=both LINKS=all DESTDIR=..." \
		make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr INITRAMFS=both LINKS=all
	H=$D/usr/share/initramfs-tools/hooks/iomon S=$D/usr/share/initramfs-tools/scripts/init-top/iomon
	M=$D/usr/lib/dracut/modules.d/90iomon
	check "INITRAMFS=both: the hook, the init-top script, the dracut module and its hook, executable" \
		test -x "$H" -a -x "$S" -a -x "$M/module-setup.sh" -a -x "$M/iomon-mount.sh"
	check "INITRAMFS=both: the initramfs profile's build as /usr/lib/iomon/iomon" \
		cmp "$D/usr/lib/iomon/iomon" "$TOP/build/profile-initramfs/iomon"
	check "the hook copies /usr/lib/iomon/iomon (no DESTDIR in it) and makes every link (LINKS=all)" \
		grep -qx 'copy_exec /usr/lib/iomon/iomon /bin/iomon' "$H"
	check "the hook makes the links with --install --all" grep -q -- '--install --all "$DESTDIR/bin"' "$H"
	check "the dracut module checks for /usr/lib/iomon/iomon and installs it" \
		sh -c "grep -q '\[ -x /usr/lib/iomon/iomon \]' '$M/module-setup.sh' && grep -q 'inst_simple /usr/lib/iomon/iomon /usr/bin/iomon' '$M/module-setup.sh'"
	check "nothing of the templates' @...@ left" sh -c "! grep -l @ '$H' '$S' '$M/module-setup.sh'"
	check "the mount script answers initramfs-tools' prereqs" test "$(sh "$S" prereqs)" = ""
	check "make uninstall DESTDIR=..." make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr
	list >"$OUT/dest.after"
	same "make uninstall: what was there before make install, and only that (procps' top, a link to true, another man page)" \
		"$OUT/dest.after" "$OUT/dest.before"
	# a file of that name iomon did not install: left alone, and said
	mkdir -p "$M"; echo 'someone else' >"$M/module-setup.sh"
	make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr INITRAMFS=dracut >"$OUT/foreign.out" 2>&1
	check "make install INITRAMFS=dracut over another's module-setup.sh: fails" test $? != 0
	check "... names it, left as it is" grep -q "90iomon/module-setup.sh: skipped: not iomon's; left as it is" "$OUT/foreign.out"
	check "... and it is" grep -qx 'someone else' "$M/module-setup.sh"
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr >"$OUT/foreign.out" 2>&1
	check "make uninstall leaves another's module-setup.sh" grep -qx 'someone else' "$M/module-setup.sh"
	make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr INITRAMFS=grub >"$OUT/bad.out" 2>&1
	check "INITRAMFS=grub: fails, naming the three it takes" \
		sh -c "test $? != 0 && grep -q 'INITRAMFS=grub: one of initramfs-tools, dracut, both' '$OUT/bad.out'"
	D=$OUT/dest2; rm -rf "$D"
	check "make install PROFILE=capture INITRAMFS=initramfs-tools" \
		make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr PROFILE=capture INITRAMFS=initramfs-tools
	check "PROFILE=capture: the image gets the capture profile's build" \
		cmp "$D/usr/lib/iomon/iomon" "$TOP/build/profile-capture/iomon"
	check "PROFILE=capture: and bin/iomon is the build make made" cmp "$D/usr/bin/iomon" "$TOP/build/profile-capture/iomon"
	check "INITRAMFS=initramfs-tools: no dracut module" test ! -e "$D/usr/lib/dracut"
fi
