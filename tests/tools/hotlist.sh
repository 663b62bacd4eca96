#!/usr/bin/env bash
# make hotlist: output/hot.ld anew, from what btt runs (tests/tools/hotlist.py
# says why).  btt with every output on, and plain, on dumps of fixtures of
# each kind (one device, dm remaps and splits, requeues, two devices,
# big-endian), under valgrind's callgrind, which lists every function a
# run enters.  Needs valgrind, objdump, python3; run it when t-rss says
# btt's text has outgrown its window, and commit output/hot.ld.  The
# build it lays out is the one make makes (ZSTD as make takes it: CI's
# make check is ZSTD=0).
set -eu
cd "$(dirname "$0")/../.."
# (none yet: an empty list, for a first link and its map)
if [ ! -s output/hot.ld ]; then
	printf 'SECTIONS\n{\n  .text.hot : { }\n}\nINSERT BEFORE .text;\n' >output/hot.ld
	make --no-print-directory -s >/dev/null
fi
BIN=${BIN:-iomon_unstripped}
MAP=${MAP:-build/iomon.lmap}
T=${TMPDIR:-/tmp}/iomon-hotlist
for t in valgrind objdump readelf python3; do
	command -v $t >/dev/null || { echo "hotlist: needs $t (apt-get install valgrind binutils python3)" >&2; exit 1; }
done
[ -s "$MAP" ] && [ -x "$BIN" ] || { echo "hotlist: $BIN and $MAP: run make first" >&2; exit 1; }
# the runs: their callgrind outputs, $T/cg.*
runs() {
rm -rf "$T" && mkdir -p "$T"
n=0
for f in mq-randrw split remap requeue two-devs ext4-be; do
	set -- $(ls tests/fixtures/$f/*.blktrace.0 2>/dev/null | sed 's/\.blktrace\.0$//; s/^/-i /')
	[ $# -gt 0 ] || { echo "hotlist: no trace in tests/fixtures/$f" >&2; continue; }
	n=$((n + 1))
	./iomon parse "$@" -d "$T/$n.dump" -O >/dev/null 2>"$T/err" || { echo "hotlist: parse of $f failed: $(head -2 "$T/err")" >&2; exit 1; }
	o=$T/o$n && mkdir -p "$o"
	(cd "$o" && valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.$n.all" "$OLDPWD/$BIN" btt -i "$T/$n.dump" \
		-A -l L -q Q -z Z -I I -B B -p P -P T -Q Q2 -s S -m M -u U -L 0.5 -X -Z -o out >/dev/null 2>&1 || true)
	(cd "$o" && valgrind -q --tool=callgrind --callgrind-out-file="$T/cg.$n.plain" "$OLDPWD/$BIN" btt -i "$T/$n.dump" \
		>/dev/null 2>&1 || true)
	for c in "$T/cg.$n.all" "$T/cg.$n.plain"; do
		[ -s "$c" ] || { echo "hotlist: $f: no callgrind output ($c)" >&2; exit 1; }
	done
done
}
# the link's objects, for each section's alignment and size: the LTO
# output (the same link with -save-temps, its files in $T.lto) and libc.a
rm -rf "$T.lto" && mkdir -p "$T.lto"
link=$(make --no-print-directory -n -W output/hot.ld "$BIN" | grep -- " -o $BIN ")
eval "${link/ -o $BIN / -save-temps -o $T.lto/x }" -Wl,-Map="$T.lto/x.map"
A="-a $T.lto/x.ltrans0.ltrans.o -a $(grep -o '/[^ ()]*/libc\.a' "$MAP" | head -1)"
# first from nothing, then keeping what it has until a link and a look
# again add nothing (hotlist.py -k: the strings' copies)
runs
python3 tests/tools/hotlist.py $A output/hot.ld "$MAP" "$BIN" "$T"/cg.*
for round in $(seq 1 12); do
	cp output/hot.ld "$T.last"
	make --no-print-directory -s >/dev/null
	runs
	python3 tests/tools/hotlist.py -k $A output/hot.ld "$MAP" "$BIN" "$T"/cg.*
	cmp -s output/hot.ld "$T.last" && exit 0
done
echo "hotlist: output/hot.ld still changing after 12 rounds" >&2
exit 1
