#!/usr/bin/env bash
# tests/tools/gentrace-selftest.sh: is what tests/tools/gentrace writes a trace that Debian's
# blkparse 1.2.0 (the oracle) reads without complaint?  Builds gentrace, writes
# traces in every mode and checks blkparse's exit status, its stderr, its
# "Events" count against gentrace's summary and the coverage of its text; then
# checks that tests/tools/traceconv.py (shared/tools's, copied) turns the v7 little-endian form into the -B and
# -8 forms byte for byte.  Standalone: prints FAIL lines, exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
W=${GST_OUT:-tests/out/gentrace-selftest} GT=tests/tools/gentrace
TC=${TRACECONV:-tests/tools/traceconv.py}	# a copy of ../shared/tools/traceconv.py
export LC_ALL=C
rm -rf "$W" && mkdir -p "$W"
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $*"; }

if cc -O2 -Wall -Wextra -o "$GT" tests/tools/gentrace.c 2>"$W/cc.err" && [ ! -s "$W/cc.err" ]; then ok
else bad "build without warnings: $(head -c 400 "$W/cc.err")"; exit 1; fi
command -v blkparse >/dev/null || { echo "SKIP gentrace selftest: blkparse is not installed"; exit 0; }

# run NAME 'GENTRACE OPTIONS' [STDERR_OK]: write the trace into $W/NAME, parse
# it with blkparse there (stdout NAME.txt, stderr NAME.err).  Only lines
# matching the regex STDERR_OK may appear on blkparse's stderr.
run() {
	local n=$1 opts=$2 allow=${3:-'^$'} d=$W/$1 want got
	mkdir -p "$d"
	case " $opts " in
	*" -S "*) $GT $opts >"$d/stream" 2>"$d/gen.err" ;;
	*) $GT $opts -D "$d" 2>"$d/gen.err" ;;
	esac || { bad "$n: gentrace failed: $(cat "$d/gen.err")"; return; }
	want=$(sed -n 's/^gentrace: seed [0-9]*, \([0-9]*\) records, [0-9]* notes$/\1/p' "$d/gen.err")
	[ -n "$want" ] && [ "$(wc -l <"$d/gen.err")" = 1 ] || { bad "$n: summary: $(cat "$d/gen.err")"; return; }
	case " $opts " in
	*" -S "*) (cd "$d" && blkparse -i - <stream) ;;
	*" -d "*" -d "*) (cd "$d" && blkparse -i gen-0 -i gen-1) ;;
	*) (cd "$d" && blkparse -i gen) ;;
	esac >"$d/$n.txt" 2>"$d/$n.err" && ok || bad "$n: blkparse exit status $?"
	if grep -Ev "$allow" "$d/$n.err" >"$d/stray"; then bad "$n: blkparse stderr: $(head -3 "$d/stray")"; else ok; fi
	got=$(awk '/^Events \(.*\): [0-9]+ entries$/ { n += $(NF - 1); f = 1 } END { if (f) print n }' "$d/$n.txt")
	[ "$got" = "$want" ] && ok || bad "$n: blkparse counted ${got:-no} events, gentrace wrote $want"
}

run plain ""
run cpus4 "-s 7 -c 4 -n 5000"
run twodevs "-s 3 -c 3 -d 8,16 -d 259,0"
run stream "-S -s 4"
run gaps "-S -g -s 5 -c 3"
run ties "-T -s 11"
run cgroup "-G -s 13" '^Bad (fs|pc) action [0-9a-f]+$'
run zone7 "-z -s 17"
run be "-B"

# what blkparse made of it
T=$W/cpus4/cpus4.txt
for a in Q G I D C M F X A B S R P U UT m; do
	awk -v a="$a" '$6 == a { f = 1 } END { exit !f }' "$T" && ok || bad "action $a missing"
done
n=$(awk '$6 == "Q" { print $7 }' "$T" | sort -u | wc -l)
[ "$n" = 128 ] && ok || bad "$n RWBS combinations on Q lines, want 128"
grep -q '\[(null)\]$' "$T" && ok || bad "no unnamed pid"
grep -q '\[postgres\]$' "$T" && ! grep -q pg_walwriter "$T" && grep -q pg_walwriter "$W"/cpus4/gen.blktrace.0 &&
	ok || bad "renamed pid: blkparse should keep the first name"
grep -Eq ' C .*\[655[0-9][0-9]\]$' "$T" && ok || bad "no completion error"
grep -Eq ' [DC] +[RWN] .*\([0-9a-f]{2} ' "$T" && ok || bad "no PC request with its CDB"
grep -q '^discarded traces containing low-level device driver' "$T" && ok || bad "no DRV_DATA"
grep -Eq '^Skips: [1-9]' "$W/gaps/gaps.txt" && ok || bad "-g: blkparse saw no skips"
awk '$1 ~ /,/ { if ($4 == t && $2 != c) f = 1; t = $4; c = $2 } END { exit !f }' "$W/ties/ties.txt" &&
	ok || bad "-T: no tie across CPUs"
awk '$1 ~ /,/ && $4 == t && $2 != c { f = 1 } $1 ~ /,/ { t = $4; c = $2 } END { exit f }' "$W/plain/plain.txt" &&
	ok || bad "ties without -T"
while read -r _ _ _ x; do [ $((16#$x & 0x100)) != 0 ] || bad "-G: blkparse rejected $x, not a cgroup event"; done <"$W/cgroup/cgroup.err"
[ -s "$W/cgroup/cgroup.err" ] && ok || bad "-G: no cgroup events"
diff <(grep -v '^Input' "$W/plain/plain.txt") <(grep -v '^Input' "$W/be/be.txt") >/dev/null &&
	ok || bad "-B: blkparse text differs from the little-endian one"
$GT -D "$W/plain" -o again 2>/dev/null
cmp -s "$W/plain/gen.blktrace.0" "$W/plain/again.blktrace.0" && cmp -s "$W/plain/gen.blktrace.1" "$W/plain/again.blktrace.1" &&
	ok || bad "same seed, different bytes"

# tools/traceconv.py: the v7 little-endian form converts to the other forms.
# Every conversion runs in one python3 (tests/tools/pybatch.py: a start of
# python3 costs a tenth of a second), then the outputs are compared.
if command -v python3 >/dev/null && [ -f "$TC" ]; then
	: >"$W/conv.list"; : >"$W/conv.cmp"
	conv() {	# WANT LABEL TRACECONV-ARGS... OUT: OUT must equal WANT
		echo "$TC ${*:3}" >>"$W/conv.list"
		echo "${*: -1} $1 $2" >>"$W/conv.cmp"
	}
	k=0
	for opts in "-s 21" "-s 22 -c 3 -d 8,0 -d 259,3" "-s 23 -T -g -z"; do
		k=$((k + 1)); d=$W/conv$k; rm -rf "$d"; mkdir -p "$d"/le "$d"/be "$d"/v8 "$d"/bev8 "$d"/pad "$d"/x
		for f in le: be:-B v8:"-8 -P" bev8:"-B -8 -P" pad:-8; do
			$GT $opts ${f#*:} -D "$d/${f%%:*}" 2>/dev/null
		done
		for f in "$d"/le/*; do
			b=${f##*/} x=$d/x/${f##*/}
			conv "$d/be/$b" "traceconv --be $opts $b" --be "$f" "$x.be"
			case $opts in *-z*) ;; *)	# -z: zone records exist in v8 only
			conv "$d/v8/$b" "traceconv --v8 $opts $b" --v8 "$f" "$x.v8"
			conv "$d/bev8/$b" "traceconv --be --v8 $opts $b" --be --v8 "$f" "$x.bev8"
			esac
			conv "$d/v8/$b" "-8 without -P: not the same records with garbage pads ($opts $b)" --v8 "$d/pad/$b" "$x.pad"
			! cmp -s "$d/pad/$b" "$d/v8/$b" && ok || bad "-8 without -P: the pads are not garbage ($opts $b)"
			conv "$f" "traceconv back to v7 $opts $b" "$d/bev8/$b" "$x.back"
		done
	done
	$GT -S -s 24 >"$W/s.le" 2>/dev/null; $GT -S -s 24 -B -8 -P >"$W/s.bev8" 2>/dev/null
	conv "$W/s.bev8" "traceconv of a -S stream" --be --v8 "$W/s.le" "$W/x.s"
	python3 tests/tools/pybatch.py <"$W/conv.list" >/dev/null 2>"$W/conv.err" && ok ||
		bad "traceconv: $(head -3 "$W/conv.err")"
	while read -r got want label; do cmp -s "$got" "$want" && ok || bad "$label"; done <"$W/conv.cmp"
else
	echo "SKIP traceconv checks: no python3 or no $TC"
fi

echo "gentrace selftest: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
