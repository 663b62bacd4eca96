# The multi-call binary: names, --list, --install, --help, static and
# heap-free, warning-free.
"$IOMON" --list >"$OUT/list.txt"
check "--list names blkparse and parse" grep -qx blkparse "$OUT/list.txt"
check "--list names parse" grep -qx parse "$OUT/list.txt"
rm -rf "$OUT/inst"; mkdir -p "$OUT/inst"
check "--install DIR" "$IOMON" --install "$OUT/inst"
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
while read -r a; do
	"$IOMON" "$a" --help >"$OUT/help.txt" 2>&1
	check "iomon $a --help starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
	"$OUT/inst/$a" --help >"$OUT/help.txt" 2>&1
	check "$a --help (as symlink) starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
done <"$OUT/list.txt"
"$IOMON" --help >"$OUT/help.txt"
check "iomon --help starts with usage:" grep -q '^usage:' <(head -1 "$OUT/help.txt")
"$IOMON" >/dev/null 2>&1
check "iomon alone: exit 1" test $? = 1
"$IOMON" frobnicate >/dev/null 2>"$OUT/e.err"
check "unknown applet: says so" grep -q "unknown applet 'frobnicate'" "$OUT/e.err"
check "static binary" sh -c "file -L '$IOMON_BIN' | grep -q 'statically linked'"
check "no heap allocator linked in (malloc, calloc, realloc, free)" \
	sh -c "! nm '$TOP/iomon_unstripped' | grep -qwE 'malloc|calloc|realloc|free'"
check "no stdio streams of our own (fopen, fdopen)" \
	sh -c "! nm '$TOP/iomon_unstripped' | grep -qwE 'fopen|fdopen|setvbuf'"
check "sources build with -Wall -Wextra -Werror" sh -c "cd '$TOP' && for f in \$(make -s -f Makefile print-srcs); do \${CC:-cc} -I. -Wall -Wextra -Werror -fsyntax-only \$f || exit 1; done"
