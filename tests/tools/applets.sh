#!/bin/sh
# applets.sh: the applet table and the build's sources, from the drivers'
# header blocks.  Each driver (output/NAME.c) declares, below its stage
# line:
#   //applet: LINK... NAME ENTRY   the names it answers to (LINK: the
#                                  original tool's, made by --install; NAME:
#                                  iomon's own, --install --all, unless it is
#                                  one of the LINKs) and its entry function
#   //sources: FILE...             what it needs beyond the core (CORE in the
#                                  Makefile), repeatable; @NAME stands for
#                                  what applet NAME's //sources: lines name
#   //option: NAME FILE...         a part a build may leave out (make NO=NAME):
#                                  built with -DIOMON_NO_NAME, without FILEs
#   //readme: WHAT | PAGE          README's row: what it replaces, its man page
# and its usage text as USAGE(id, ...) (iomon.h).  Adding an applet is one
# such file.  POSIX sh and awk only: it runs on a fresh machine.
#
#   applets.sh GENDIR [APPLET...]  writes GENDIR/applets.c (the table, the
#                                  version) and GENDIR/srcs.mk (APPLET_SRCS,
#                                  APPLETS_BUILT) for those applets (names
#                                  or links; none: every one); a file is
#                                  rewritten only when it changes
#   applets.sh --blocks            one line a driver: FILE ENTRY USAGE-ID NAME LINKS... : SOURCES...
#   applets.sh --own               the same, @NAME as it is: each driver's own
#   applets.sh --names             every name, link or iomon's, one a line
#   applets.sh --readme            README's applet table (between its
#                                  <!-- applets --> markers; t-applet checks it)
set -u
cd "$(dirname "$0")/../.." || exit 2

blocks() {	# FILE ENTRY USAGE-ID NAME LINKS... : SOURCES..., each @NAME expanded
	raw | awk '{ line[NR] = $0; for (i = 4; $i != ":"; i++) of[$i] = NR }
		function expand(n, depth,   w, k, i, out) {
			if (depth > 8) { print "applets.sh: //sources: @ loops" > "/dev/stderr"; exit 1 }
			k = split(line[n], w, " "); out = ""
			for (i = 1; i <= k && w[i] != ":"; i++) ;
			for (i++; i <= k; i++)
				if (substr(w[i], 1, 1) != "@") out = out " " w[i]
				else if (!(substr(w[i], 2) in of)) { print "applets.sh: //sources: no applet " w[i] > "/dev/stderr"; exit 1 }
				else out = out expand(of[substr(w[i], 2)], depth + 1)
			return out }
		END { for (n = 1; n <= NR; n++) { h = line[n]; sub(/ :.*/, "", h); print h " :" expand(n, 0) } }'
}
raw() {
	for f in output/*.c; do
		awk -v f="$f" '
			/^\/\/applet: / { n = split(substr($0, 10), w, " ")
				if (n < 2) { print f ": //applet: LINK... NAME ENTRY" > "/dev/stderr"; exit 1 }
				names = w[n - 1]; entry = w[n]
				for (i = 1; i < n - 1; i++) links = links " " w[i] }
			/^\/\/sources: / { srcs = srcs " " substr($0, 11) }
			/^USAGE\(/ && u == "" { u = substr($0, 7); sub(/,.*/, "", u) }
			END { if (entry == "") exit
				if (u == "") { print f ": //applet: without a USAGE(id, ...) text" > "/dev/stderr"; exit 1 }
				printf "%s %s %s %s%s :%s\n", f, entry, u, names, links, srcs }' "$f" || exit 1
	done
}

case ${1:-} in
--blocks) blocks; exit ;;
--own) raw; exit ;;
--names) blocks | awk '{ for (i = 4; $i != ":"; i++) print $i }' | LC_ALL=C sort -u; exit ;;
--readme)
	echo '| link | `iomon ...` | replaces | man page |'
	echo '|---|---|---|---|'
	for f in output/*.c; do
		awk '/^\/\/applet: / { n = split(substr($0, 10), w, " "); name = w[n - 1]
				for (i = 1; i < n - 1; i++) links = links (links == "" ? "" : ", ") "`" w[i] "`" }
			/^\/\/readme: / { r = substr($0, 11); p = r; sub(/ *\|.*/, "", r); sub(/.*\| */, "", p) }
			END { if (name == "") exit
				printf "%s\t| %s | `iomon %s` | %s | [%s](docs/man/%s) |\n", links == "" ? "~" : links,
					links == "" ? "(none)" : links, name, r, p, p }' "$f"
	done | LC_ALL=C sort | cut -f2-
	exit ;;
''|-*) echo "usage: applets.sh GENDIR [APPLET...] | --blocks | --names" >&2; exit 2 ;;
esac
G=$1; shift
mkdir -p "$G" || exit 2
B=$G/blocks.$$.tmp	# (per process: two makes may run at once)
blocks >"$B" || exit 2
ver=$(cat VERSION 2>/dev/null) || { echo "applets.sh: no VERSION file" >&2; exit 2; }

# the chosen drivers: every one, or those a name or link picks
want=" $* "
awk -v want="$want" '
	{ pick = want == "  "; for (i = 4; $i != ":"; i++) if (index(want, " " $i " ")) { pick = 1; seen[$i] = 1 }
	  if (pick) print }
	END { n = split(want, w, " "); bad = 0
	  for (i = 1; i <= n; i++) if (!(w[i] in seen)) { print "applets.sh: no applet named " w[i] > "/dev/stderr"; bad = 1 }
	  exit bad }' "$B" >"$B.sel" || { rm -f "$B" "$B.sel"; exit 2; }

put() {	# FILE: from stdin, only when different
	if cmp -s "$1.new.$$" "$1" 2>/dev/null; then rm -f "$1.new.$$"; else mv -f "$1.new.$$" "$1"; fi
}

# the table: one row a name, sorted; generic (made by --install only with
# --all): iomon's own name, unless an original tool has it too
{
	echo "/* generated by tests/tools/applets.sh from the drivers' //applet: lines */"
	echo '#include "iomon.h"'
	echo
	awk '{ print "int " $2 "(int, char **);"; print "USAGE(" $3 ", \"\")" }' "$B.sel" | LC_ALL=C sort -u
	echo
	printf 'const char iomon_version[] = "iomon %s\\n";\n' "$ver"
	echo "const struct applet applets[] = {	/* sorted by name */"
	awk '{ generic = 1; for (i = 5; $i != ":"; i++) if ($i == $4) generic = 0
		printf "\t{ \"%s\", %s, U_%s, %d },\n", $4, $2, $3, generic
		for (i = 5; $i != ":"; i++) if ($i != $4) printf "\t{ \"%s\", %s, U_%s, 0 },\n", $i, $2, $3 }' "$B.sel" |
		LC_ALL=C sort -u
	echo "};"
	echo "const unsigned char napplets = sizeof(applets) / sizeof(applets[0]);"
	printf 'const char applets_out[] = "'
	awk '{ for (i = 4; $i != ":"; i++) print $i }' "$B.sel" | LC_ALL=C sort -u >"$B.in"
	awk '{ for (i = 4; $i != ":"; i++) print $i }' "$B" | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$B.in" | sed 's/$/\\0/' | tr -d '\n'
	echo '";	/* left out of this build */'
} >"$G/applets.c.new.$$" && put "$G/applets.c"

# the sources: each chosen driver and what it needs, in flow order
{
	echo "# generated by tests/tools/applets.sh from the drivers' //applet: and //sources: lines"
	printf 'APPLETS_BUILT :='
	awk '{ for (i = 4; $i != ":"; i++) print $i }' "$B.sel" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/^/ /; s/ $//'
	echo
	printf 'APPLET_SRCS :='
	awk '{ print $1; for (i = 1; i <= NF; i++) if ($i == ":") break; for (i++; i <= NF; i++) print $i }' "$B.sel" |
		awk '{ r = 5; if ($0 ~ /^capture\//) r = 1; else if ($0 ~ /^match\//) r = 2
			else if ($0 ~ /^stats\//) r = 3; else if ($0 ~ /^output\//) r = 4; print r " " $0 }' |
		LC_ALL=C sort -u | sed 's/^[0-9] / /' | tr -d '\n'
	echo
	for f in output/*.c; do sed -n 's/^\/\/option: \([A-Z0-9_]*\) \(.*\)/OPTION_\1 := \2/p' "$f"; done
} >"$G/srcs.mk.new.$$" && put "$G/srcs.mk"
rm -f "$B" "$B.sel" "$B.in"
