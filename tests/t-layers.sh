# The layering rule (issue 12, plan 2.4): records flow one way, bottom ->
# capture -> match -> stats -> output -> driver, and nothing calls, reads
# or includes against that flow.  layers_scan lists every violation of a
# tree, and there must be none.  (During the redesign a ratchet file
# listed the violations left; the last went with the parse split.)
# the built applets, and any a build left out (the drivers' //applet:
# lines), since its driver is still a driver
LAYER_APPLETS=$( { "$IOMON" --list 2>/dev/null; sh "$TOOLS/applets.sh" --names; } | sort -u | tr '\n' ' ')
LAYER_WORDS=(bottom capture match stats output driver)

# layer_rank PATH: 0..5, or -1 for a path outside the ranked tree
layer_rank() {
	local p=$1 b
	b=${p##*/}; b=${b%.[ch]}
	case $p in
	applet.c) echo 5 ;;
	*/*/*) echo -1 ;;
	capture/*.[ch]) echo 1 ;;
	match/*.[ch]) echo 2 ;;
	stats/*.[ch]) echo 3 ;;
	output/*.c) case " $LAYER_APPLETS " in *" $b "*) echo 5 ;; *) echo 4 ;; esac ;;
	output/*.h) echo 4 ;;
	*/*) echo -1 ;;
	*.[ch]) echo 0 ;;
	*) echo -1 ;;
	esac
}

# layers_scan DIR OBJDIR: every violation in DIR, one a line, sorted
layers_scan() { layers_scan_raw "$@" | LC_ALL=C sort -u; }
layers_scan_raw() (
	cd "$1" || exit 1
	objs=$2
	files=$(ls *.[ch] capture/*.[ch] match/*.[ch] stats/*.[ch] output/*.[ch] 2>/dev/null)
	declare -A rank
	for f in $files; do rank[$f]=$(layer_rank "$f"); done
	for f in $files; do
		r=${rank[$f]} b=${f##*/}; b=${b%.[ch]}
		# 1 names: an applet's name only as output/<applet>.c
		case " $LAYER_APPLETS " in *" $b "*)
			[ "$f" = "output/$b.c" ] || echo "name: $f" ;;
		esac
		# 2 includes: ranked, written from the top, not up the flow, no .c, no driver
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r p; do
			pr=${rank[$p]:-}
			if [ -z "$pr" ]; then echo "include: $f -> $p (not a path from the top)"
			elif [ "$pr" -gt "$r" ]; then echo "include: $f -> $p (against the flow)"
			elif [ "$pr" = 5 ] || [ "${p%.c}" != "$p" ]; then echo "include: $f -> $p (a .c or a driver)"; fi
		done
		# 4 argv: only drivers and applet.c take a command line
		[ "$r" != 5 ] && grep -qw argv "$f" && echo "argv: $f"
		# 5 stage line
		l1=$(head -1 "$f")
		if [[ $l1 =~ ^/\*\ ([a-z/]+\.[ch]):\ (bottom|capture|match|stats|output|driver):\  ]]; then
			[ "${BASH_REMATCH[1]}" = "$f" ] || echo "stage: $f names ${BASH_REMATCH[1]}"
			[ "${BASH_REMATCH[2]}" = "${LAYER_WORDS[$r]}" ] || echo "stage: $f says ${BASH_REMATCH[2]}, is ${LAYER_WORDS[$r]}"
		else
			echo "stage: $f has no first-line stage comment"
		fi
		# 6 sizes: files <= 600 lines of code (a TEXT()'s packed message
		# aside), functions <= 80 (vfmt exempt)
		[ "$(awk '/^TEXT\(/ { t = 1 } !t { n++ } t && /\)$/ { t = 0 } END { print n + 0 }' "$f")" -gt 600 ] && echo "size: $f over 600 lines"
		awk -v f="$f" '/^\{/ { start = NR - 1; name = prev; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n] }
			/^\}/ && start { if (NR - start + 1 > 80 && name != "vfmt") print "size: " f " " name "() over 80 lines"; start = 0 }
			{ prev = $0 }' "$f"
	done
	# 3 calls and data, link level; 4 entry points: one nm for every object
	[ -d "$objs" ] || { echo "objects: $objs missing"; exit 0; }
	{
		for f in $files; do echo "R $f ${rank[$f]}"; done
		(cd "$objs" && nm -A -g --defined-only *.o */*.o 2>/dev/null) | sed 's/^/D /'
		(cd "$objs" && nm -A -u *.o */*.o 2>/dev/null) | sed 's/^/U /'
	} | awk '
		$1 == "R" { rank[$2] = $3; next }
		{ split($2, a, ":"); s = a[1]; sub(/\.o$/, ".c", s); if (!(s in rank)) next; sym = $NF }
		$1 == "D" { def[sym] = s
			if ($(NF - 1) == "T" && sym == "main" && s != "applet.c") print "entry: " s " defines main"
			if ($(NF - 1) == "T" && sym ~ /_main$/ && !(rank[s] == 5 && s != "applet.c")) print "entry: " s " defines " sym
			next }
		$1 == "U" { us[++n] = s; usym[n] = sym }
		END { for (i = 1; i <= n; i++) { s = us[i]; d = def[usym[i]]
			if (d == "" || d == s) continue
			if (rank[d] > rank[s]) print "link: " s " -> " usym[i] " (" d ", against the flow)"
			else if (rank[d] == 5 && s != "applet.c") print "link: " s " -> " usym[i] " (" d ", a driver)" } }'
)

if [ -z "$LAYER_APPLETS" ]; then
	fail "layers: applet names from iomon --list" "none"
elif ! command -v nm >/dev/null; then
	skip "layers" "needs nm (binutils)"
else
	LOBJ=$TOP/build/obj
	[ -n "$CROSS" ] && LOBJ=$TOP/build/$CROSS/obj
	layers_scan "$TOP" "$LOBJ" >"$OUT/layers.got"
	if [ -s "$OUT/layers.got" ]; then
		fail "layers: no violation (includes, calls, entry points, argv, names, stage lines, sizes)" "$(cat "$OUT/layers.got")"
	else
		pass "layers: no violation (includes, calls, entry points, argv, names, stage lines, sizes)"
	fi
	# self-test: each planted violation is found
	L=$OUT/layers; rm -rf "$L"; mkdir -p "$L"
	( cd "$TOP" && cp -r *.c *.h capture match stats output "$L/" ) 2>/dev/null
	mkdir -p "$L/obj"; ( cd "$LOBJ" && cp -r . "$L/obj/" )
	layer_plant() {	# NAME FILE LINE [COMPILE]: appends LINE to FILE, rescans
		cp "$L/$2" "$L/$2.orig"
		printf '%s\n' "$3" >>"$L/$2"
		if [ -n "${4:-}" ]; then
			cp "$L/obj/${2%.c}.o" "$L/obj.orig.o"
			${CC:-cc} -I"$L" -c -o "$L/obj/${2%.c}.o" "$L/$2" 2>"$OUT/layers.cc" ||
				{ fail "layers self-test: $1" "does not compile: $(head -3 "$OUT/layers.cc")"; }
		fi
		layers_scan "$L" "$L/obj" >"$OUT/layers.planted"
		check "layers self-test: $1 is found" test -s "$OUT/layers.planted"
		[ -n "${VERBOSE:-}" ] && cat "$OUT/layers.planted"
		mv "$L/$2.orig" "$L/$2"
		[ -n "${4:-}" ] && mv "$L/obj.orig.o" "$L/obj/${2%.c}.o"
	}
	layer_plant "an include against the flow" capture/source.c '#include "output/output.h"'
	layer_plant "an include of a .c" match/procs.c '#include "capture/record.c"'
	layer_plant "a *_main outside a driver" stats/iostats.c 'int foo_main(int c, char **v) { return c + !v; }' cc
	layer_plant "a call against the flow" match/procs.c 'void iostats_add(u64 *a, const u64 *b); void layer_planted(u64 *a) { iostats_add(a, a); }' cc
	layer_plant "a file over 600 lines" match/procs.c "$(printf '/* */\n%.0s' $(seq 600))"
	layer_plant "argv outside a driver" match/procs.c 'static char **argv;'
	rm -rf "$L"
fi

# docs/architecture.md's file table is every file's first line, in flow order
bash "$TOOLS/filetable.sh" >"$OUT/files.want"
sed -n '/^<!-- files -->$/,/^<!-- \/files -->$/p' "$TOP/docs/architecture.md" | sed '1d;$d' >"$OUT/files.readme"
same "docs/architecture.md's file table is current (bash tests/tools/filetable.sh --update)" "$OUT/files.readme" "$OUT/files.want"

# The long messages are packed (TEXT(), iomon.h): no compiler sees their
# formats beside their arguments in the build, so make textcheck compiles
# every warn_text as the warn_msg it stands for; a planted mismatch fails
check "make textcheck: every packed message's format fits its arguments" make -s -C "$TOP" textcheck
f=$(grep -l '^TEXT(bttrep_q_g_f, "%s:' "$TOP/output/bttrep.c")
if [ -n "$f" ]; then
	rm -rf "$OUT/tc"; mkdir -p "$OUT/tc"
	(cd "$TOP" && git ls-files | grep -v "^tests/fixtures/" | tar -cf - -T -) | tar -xf - -C "$OUT/tc"
	sed -i 's/^TEXT(bttrep_q_g_f, "%s:/TEXT(bttrep_q_g_f, "%d:/' "$OUT/tc/output/bttrep.c"
	check "make textcheck: a %d given a string fails" sh -c "! MAKEFLAGS= make -s -C '$OUT/tc' ARCH= ZSTD=0 textcheck >'$OUT/tc.log' 2>&1 && grep -q 'format' '$OUT/tc.log'"
else
	fail "make textcheck: the planted message" "bttrep.c's TEXT(bttrep_q_g_f, \"%s: ...\") is gone: plant another"
fi
