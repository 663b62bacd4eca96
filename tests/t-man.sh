# The man pages (docs/man): each lints clean with mandoc and groff, names
# every option its applet's --help prints, has the sections every page
# has, and make install puts each one in place.
MAN=$TOP/docs/man
# applet (as `iomon APPLET --help` takes it; "" for iomon itself) and its page
PAGES=(":iomon.1" "trace:blktrace.8" "btrace:btrace.8" "parse:blkparse.1"
	"monitor:blkiomon.8" "btt:btt.1" "top:biotop.8" "lat:biolatency.8" "snoop:biosnoop.8" "bitesize:bitesize.8" "biopattern:biopattern.8"
	"plot:iomon-plot.1" "btrecord:btrecord.8" "btreplay:btreplay.8" "rawverify:blkrawverify.1" "verifyparse:verify_blkparse.1"
	"reqlog:reqlog.8" "extents:iomon-extents.1" "copy:iomon-copy.1")

# lint_mandoc, lint_groff PAGE: the linter says nothing about PAGE
lint_mandoc() { local o; o=$(mandoc -T lint -W warning "$1" 2>&1); [ -z "$o" ] || { echo "$o"; return 1; }; }
lint_groff() {
	local o
	# every warning groff has (-ww; man --warnings asks for fewer, and
	# man's --warnings=all for none that groff knows by that name)
	o=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 "$1" 2>&1)
	[ -z "$o" ] || { echo "$o"; return 1; }
}

# help_opts APPLET: the options its --help names: every -X and --long in
# the usage lines (up to the first blank line), and in the option lines
# below (those that start with a blank) only in their option columns (a
# column is a run of text between two or more spaces that starts with
# '-'), so "(sh -c)" in a description is not taken for an option.  A
# token ends at a blank, '=', '[', ']', ',', '|' or ')': "-h's" is a word.
help_opts() {
	# shellcheck disable=SC2086
	"$IOMON" $1 --help | awk '
		!body && NF == 0 { body = 1; next }
		!body { print; next }
		/^[ \t]/ { sub(/^[ \t]+/, ""); n = split($0, f, /  +/); for (i = 1; i <= n; i++) if (f[i] ~ /^-/) print f[i] }' |
		grep -oP '(?<![^\s\[|(,])--?[A-Za-z][A-Za-z0-9-]*(?=[\s=\[\],|)]|$)' | sort -u
}
# page_tags PAGE: the tag lines of its OPTIONS section (the line after each
# .TP), fonts and macros stripped, \- as -
page_tags() {
	awk '/^\.SH/ { opts = ($0 ~ /^\.SH "?OPTIONS"?$/) } opts && tp { print } { tp = opts && /^\.TP/ }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/^\.[A-Z]*  *//' -e 's/"//g'
}
# opts_in_page APPLET PAGE: every option of the --help is a tag of the page
opts_in_page() {
	local o miss= tags
	tags=$(page_tags "$2")
	[ -n "$tags" ] || { echo "$2: no tags in OPTIONS"; return 1; }
	for o in $(help_opts "$1"); do
		grep -qP -- "(?<![A-Za-z0-9-])$o(?![A-Za-z0-9-])" <<<"$tags" || miss="$miss $o"
	done
	[ -z "$miss" ] || { echo "$2 has no OPTIONS entry for:$miss"; return 1; }
}
# sections PAGE: the sections every page has
sections() {
	local s miss=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "DIFFERENCES FROM" EXAMPLES "SEE ALSO"; do
		grep -q "^\.SH \"\?$s" "$1" || miss="$miss, $s"
	done
	[ -z "$miss" ] || { echo "$1 lacks${miss#,}"; return 1; }
}

# the helpers find what they must (else every check below would pass idly)
check "help_opts finds trace's -d, --dev, -z, --backend" \
	bash -c '[ "$(grep -cxE -- "-d|--dev|-z|--backend" <<<"$1")" = 4 ]' _ "$(help_opts trace)"
check "help_opts takes no option from a description ((sh -c) in top's)" \
	bash -c '! grep -qx -- -c <<<"$1"' _ "$(help_opts top)"
check "help_opts takes no option from a description (blktrace -a in monitor's)" \
	bash -c '! grep -qx -- -a <<<"$1" && grep -qx -- --msg-id <<<"$1"' _ "$(help_opts monitor)"
check "help_opts reads btt's usage-only help (-e, --listen, --prom)" \
	bash -c '[ "$(grep -cxE -- "-e|--listen|--prom" <<<"$1")" = 3 ]' _ "$(help_opts btt)"

have_mandoc=0 have_man=0
need "mandoc lint" mandoc && have_mandoc=1
command -v groff >/dev/null 2>&1 && have_man=1 ||
	skip "groff lint" "needs groff (groff-base), which is not installed"
for e in "${PAGES[@]}"; do
	a=${e%%:*} p=$MAN/${e#*:}
	if [ ! -f "$p" ]; then fail "${e#*:} exists" "no $p"; continue; fi
	[ $have_mandoc = 1 ] && check "${e#*:}: mandoc -T lint -W warning prints nothing" lint_mandoc "$p"
	[ $have_man = 1 ] && check "${e#*:}: groff -man -ww prints nothing" lint_groff "$p"
	check "${e#*:}: every option of 'iomon${a:+ $a} --help' has an OPTIONS entry" opts_in_page "$a" "$p"
	check "${e#*:}: NAME, SYNOPSIS, ..., DIFFERENCES FROM, EXAMPLES, SEE ALSO" sections "$p"
done
# blktrace's page is also trace's: the two names print one usage
check "blktrace --help is trace's (one page for both)" \
	bash -c 'cmp -s <("$1" trace --help) <("$1" blktrace --help)' _ "$IOMON"
check "every page in docs/man is one of the applets'" \
	bash -c '[ "$(cd "$1" && ls | sort)" = "$(printf "%s\n" "${@:2}" | sed "s/^.*://" | sort)" ]' _ "$MAN" "${PAGES[@]}"

# make install DESTDIR=...: every page, unchanged, in man1 or man8
if [ -n "$CROSS" ]; then
	skip "make install puts every man page in place" "installs the host's build; not under ARCH=$CROSS"
else
	rm -rf "$OUT/inst"
	installed() {
		local f d
		make -s -C "$TOP" install DESTDIR="$OUT/inst" PREFIX=/usr >"$OUT/inst.log" 2>&1 || { cat "$OUT/inst.log"; return 1; }
		for f in "$MAN"/*; do
			d=$OUT/inst/usr/share/man/man${f##*.}/${f##*/}
			cmp "$f" "$d" || return 1
		done
	}
	check "make install DESTDIR=... puts every man page in share/man/man1 and man8" installed
	check "make install DESTDIR=...: the 8 section 1 and 11 section 8 pages" \
		test "$(cd "$OUT/inst/usr/share/man" && echo man1/* man8/*)" = \
		"man1/blkparse.1 man1/blkrawverify.1 man1/btt.1 man1/iomon-copy.1 man1/iomon-extents.1 man1/iomon-plot.1 man1/iomon.1 man1/verify_blkparse.1 man8/biolatency.8 man8/biopattern.8 man8/biosnoop.8 man8/biotop.8 man8/bitesize.8 man8/blkiomon.8 man8/blktrace.8 man8/btrace.8 man8/btrecord.8 man8/btreplay.8 man8/reqlog.8"
fi
