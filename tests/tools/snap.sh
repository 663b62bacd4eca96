#!/bin/bash
# snap.sh OUT [IOMON]: the refactor oracle (issue 12).  Records stdout,
# stderr, exit code and every written file of many parse, monitor and top
# runs over every fixture and over generated traces, with IOMON (./iomon)
# and with the tiny-pool build ($TINY, build/tiny/iomon).  Not run by make
# check.  A refactor keeps the output byte-identical:
#   bash tests/tools/snap.sh build/snap0            # before (baseline)
#   bash tests/tools/snap.sh build/snap1 && diff -r build/snap0 build/snap1
# Each case runs in its own folder OUT/BIN/CASE (files it writes land there,
# by relative names, so no path of OUT shows in the output).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUT [IOMON]" >&2; exit 2; }
OUT=$1
IOMON=$(readlink -f "${2:-$TOP/iomon}")
TINY=$(readlink -f "${TINY:-$TOP/build/tiny/iomon}")
GT=$TOP/tests/gentrace
FIX=$TOP/tests/fixtures
for b in "$IOMON" "$TINY" "$GT"; do
	[ -x "$b" ] || { echo "$b missing (make iomon build/tiny/iomon tests/gentrace)" >&2; exit 2; }
done
rm -rf "$OUT"; mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# generated traces at a fixed place: their paths show in the output
GEN=$TOP/build/snap-gen
ALL='%D %2c %8s %5T.%9t %5p %2a %3d %-10C %g %M %m %n %N %S %e %U %z [%P] %% %10x\n'

# case NAME STDIN CMD...: run CMD in OUT/$BINTAG/NAME with STDIN
case_() {
	local name=$1 in=$2 c; shift 2
	c=$OUT/$BINTAG/$name
	mkdir -p "$c"
	( cd "$c" && "$@" <"$in" >.out 2>.err; echo $? >.rc )
}

# parse runs over the trace NAMEs in DIR, file mode
parse_files() {
	local tag=$1 dir=$2; shift 2
	local in=() n
	for n in "$@"; do in+=(-i "$n"); done
	local P=("$BIN" parse -D "$dir" "${in[@]}")
	case_ "$tag/plain" /dev/null "${P[@]}"
	case_ "$tag/ts" /dev/null "${P[@]}" -t -s
	case_ "$tag/h" /dev/null "${P[@]}" -h -s
	for k in N Q q R r W w C c; do
		case_ "$tag/S$k" /dev/null "${P[@]}" -s -S "$k"
	done
	case_ "$tag/q" /dev/null "${P[@]}" -q
	case_ "$tag/Od" /dev/null "${P[@]}" -O -d -
	case_ "$tag/Md" /dev/null "${P[@]}" -M -d -
	case_ "$tag/dfile" /dev/null "${P[@]}" -d dump.bin -o text.out
	case_ "$tag/fALL" /dev/null "${P[@]}" -f "$ALL"
	case_ "$tag/F" /dev/null "${P[@]}" -F 'Q,%a %S + %n [%C] %z\n' \
		-F 'D,%a %5T.%9t %d (%P) %N\t\r\b\n' -F 'C,%a %S (%u) %e %-5g\n'
	for b in 1 3 7; do case_ "$tag/b$b" /dev/null "${P[@]}" -b "$b"; done
	case_ "$tag/w1" /dev/null "${P[@]}" -w 0.0005:0.002
	case_ "$tag/w2" /dev/null "${P[@]}" -w 0.001
	case_ "$tag/w3" /dev/null "${P[@]}" -w 5:1
	case_ "$tag/a" /dev/null "${P[@]}" -a write -a complete
	case_ "$tag/a2" /dev/null "${P[@]}" -a read -a queue -a pc -a notify
	case_ "$tag/A" /dev/null "${P[@]}" -A 0x3f0
	case_ "$tag/v" /dev/null "${P[@]}" -v -t
}

# parse runs over a stream file
parse_stream() {
	local tag=$1 s=$2
	local P=("$BIN" parse -i -)
	case_ "$tag/plain" "$s" "${P[@]}"
	case_ "$tag/ts" "$s" "${P[@]}" -t -s
	case_ "$tag/hS" "$s" "${P[@]}" -h -s -S Q
	case_ "$tag/q" "$s" "${P[@]}" -q
	case_ "$tag/Od" "$s" "${P[@]}" -O -d -
	case_ "$tag/fALL" "$s" "${P[@]}" -f "$ALL"
	for b in 1 3 7; do case_ "$tag/b$b" "$s" "${P[@]}" -b "$b"; done
	case_ "$tag/w1" "$s" "${P[@]}" -w 0.0005:0.002
	case_ "$tag/a" "$s" "${P[@]}" -a write -a complete
	case_ "$tag/v" "$s" "${P[@]}" -v
}

# monitor and top over trace NAME in DIR (replay) and over stream S
mon_top() {
	local tag=$1 dir=$2 name=$3 s=$4 i
	for i in 1 2 3 4; do
		case_ "$tag/mon-i$i" /dev/null "$BIN" monitor --clock=trace -I "$i" -i "$dir/$name" \
			-h h.txt -b b.bin -d d.bin -D D.txt --json j.json --prom p.prom
		case_ "$tag/mon-s$i" "$s" "$BIN" monitor --clock=trace -I "$i" \
			-h - -b b.bin -d d.bin -D D.txt --json j.json --prom p.prom
	done
	case_ "$tag/top-i1" /dev/null "$BIN" top -C -i "$dir/$name" 1
	case_ "$tag/top-i12" /dev/null "$BIN" top -C -i "$dir/$name" 1 2
	case_ "$tag/top-r3" /dev/null "$BIN" top -C -r 3 -i "$dir/$name" 3600
	case_ "$tag/top-s" "$s" "$BIN" top -C -i - 1
	case_ "$tag/top-s2" "$s" "$BIN" top -C -i - 2 3
}

names() { ls "$1" | sed -n 's/\.blktrace\.0$//p'; }

run_all() {
	local d t n s
	for d in "$FIX"/* "$GEN"/*; do
		[ -d "$d" ] || continue
		t=$(basename "$d")
		for n in $(names "$d"); do
			parse_files "$t/$n" "$d" "$n"
			s=$GEN/.s-$t-$n; cat "$d/$n".blktrace.* >"$s"
			parse_stream "$t/$n-stream" "$s"
			mon_top "$t/$n" "$d" "$n" "$s"
		done
		[ "$(names "$d" | wc -l)" -gt 1 ] && parse_files "$t/all" "$d" $(names "$d")
		for s in "$d"/*.stream; do
			[ -f "$s" ] || continue
			n=$(basename "$s" .stream)
			parse_stream "$t/$n.stream" "$s"
			mon_top "$t/$n.stream" /nonexistent/x "$n" "$s"
		done
	done
	# top -p: the most frequent pid of mq-randrw; the tag helper
	local p
	p=$("$IOMON" parse -D "$FIX/mq-randrw" -i nullb0 -f '%p\n' -q | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
	case_ "top-p" /dev/null "$BIN" top -C -p "$p" -i "$FIX/mq-randrw/nullb0" 3600
	if command -v python3 >/dev/null; then	# the example helper
		case_ "top-tag" /dev/null "$BIN" top -C -i "$FIX/mq-randrw/nullb0" 3600 \
			--tag-helper "$TOP/stats/tag-by-pid.py"
		case_ "top-tag-s" "$FIX/stream/nullb0.stream" "$BIN" top -C -i - 3600 \
			--tag-helper "$TOP/stats/tag-by-pid.py"
	fi
}

# generated traces: seeds 1-20, v7/v8, little/big endian (rotating so each
# seed is small and the four forms are all covered five times)
rm -rf "$GEN"; mkdir -p "$GEN"
forms=("" "-8" "-B" "-8 -B")
for seed in $(seq 1 20); do
	f=${forms[$((seed % 4))]}
	c=$(( seed % 3 + 1 ))
	extra=""
	[ $((seed % 5)) = 0 ] && extra="-d 8,0 -d 65,16"
	[ $((seed % 7)) = 0 ] && extra="$extra -T"
	mkdir -p "$GEN/gen$seed"
	# shellcheck disable=SC2086
	"$GT" -s "$seed" -c "$c" -n 600 $f $extra -D "$GEN/gen$seed" 2>/dev/null
done

for BINTAG in main tiny; do
	if [ $BINTAG = main ]; then BIN=$IOMON; else BIN=$TINY; fi
	run_all
done
rm -rf "$GEN"
echo "snap: $(find "$OUT" -name .rc | wc -l) runs in $OUT"
