# needs: btt python3
# btt's I/O Active Period (stats/bttrb.c): btt keeps each device's busy
# periods (a D to its C), and all devices' together, in red-black trees,
# and joins a new span only to a node on its way down; iomon keeps btt's
# trees node for node.  Against Debian's btt: the report's section and
# -Z's files (the trees in order), on dumps made to order
# (tests/tools/craft.py periods: thousands of busy periods on one to three
# devices, long I/Os that span hundreds of them, spans that end before
# they begin) and on two devices from gentrace; a case where btt's path
# leaves two overlapping periods apart; a full pool, exact where it may
# be, and said where not.
# sec FILE: the .avg's I/O Active Period section
sec() { awk '/^=+ I\/O Active Period/ { p = 1 } /^=+ / && !/Active Period/ { p = 0 } p' "$1"; }
# live_case NAME DUMP [IOMON]: btt -Z and iomon btt -Z in folders of their
# own: the section and each *_live.dat the same; iomon's stderr kept
live_case() {
	local n=$1 dump=$2 bin=${3:-$IOMON} f
	rm -rf "$OUT/$n" && mkdir -p "$OUT/$n/ref" "$OUT/$n/got"
	(cd "$OUT/$n/ref" && btt -i "$dump" -Z -o x >/dev/null 2>&1)
	(cd "$OUT/$n/got" && "$bin" btt -i "$dump" -Z -o x >/dev/null 2>../got.err)
	sec "$OUT/$n/ref/x.avg" >"$OUT/$n/ref.sec"
	sec "$OUT/$n/got/x.avg" >"$OUT/$n/got.sec"
	check "btt $n: the section is there ($(grep -c '|' "$OUT/$n/ref.sec") rows)" test "$(grep -c '|' "$OUT/$n/ref.sec")" -ge 3
	same "btt $n: I/O Active Period as btt's" "$OUT/$n/got.sec" "$OUT/$n/ref.sec"
	(cd "$OUT/$n/ref" && ls -- *_live.dat) >"$OUT/$n/ref.ls" 2>/dev/null
	(cd "$OUT/$n/got" && ls -- *_live.dat) >"$OUT/$n/got.ls" 2>/dev/null
	same "btt $n -Z: the files btt writes" "$OUT/$n/got.ls" "$OUT/$n/ref.ls"
	for f in $(cat "$OUT/$n/ref.ls"); do
		same "btt $n -Z: $f as btt's" "$OUT/$n/got/$f" "$OUT/$n/ref/$f"
	done
}
# live_n NAME: the Total Sys row's number of periods in btt's report
live_n() { awk '$1 == "Total" { print $4 }' "$OUT/$1/ref.sec"; }

CRAFT=$TOOLS/craft.py
for c in "1 3000 1" "2 3000 2" "3 2000 3" "4 3000 1 odd" "5 3000 2 odd" "6 3000 2 short"; do
	n=periods-$(echo "$c" | tr ' ' -)
	python3 "$CRAFT" periods $c >"$OUT/$n.dump"
	live_case "$n" "$OUT/$n.dump"
	check "btt $n: nothing said of a full pool" test ! -s "$OUT/$n/got.err"
done
# a long I/O spans more busy periods than the old 64 kept open (btt: one
# long busy period where a shorter memory counts hundreds)
check "btt periods-1-3000-1: the long I/Os joined hundreds of periods (btt: $(live_n periods-1-3000-1) periods of 3000 I/Os)" \
	test "$(live_n periods-1-3000-1)" -lt 300
# two devices from gentrace, through Debian's blkparse -d
if command -v blkparse >/dev/null && [ -x "$TOOLS/gentrace" ]; then
	mkdir -p "$OUT/gen" && (cd "$OUT/gen" && "$TOOLS/gentrace" -s 29 -n 20000 -d 8,0 -d 8,16 -o g 2>/dev/null &&
		blkparse -i g-0 -i g-1 -d "$OUT/gen.dump" -O >/dev/null 2>&1)
	live_case gen "$OUT/gen.dump"
else
	skip "btt gen: two devices from gentrace" "no blkparse or tests/tools/gentrace"
fi

# BTT_PERIODS_SAY's line (build/periods, build/pool) in a stderr FILE:
# said: the rest; held: the most nodes held; most: the most periods one
# record let go of
SAY='^btt: busy periods: \([0-9]*\) nodes held at most, \([0-9]*\) let go of in one record at most$'
said() { grep -v "$SAY" "$1"; }
held() { sed -n "s/$SAY/\\1/p" "$1"; }
most() { sed -n "s/$SAY/\\2/p" "$1"; }

# one record lets go of 32 periods (a requeued request's C ending 16
# Qs): -Z writes every one (a ring of 8 lost the rest, seed 36073 w10)
python3 "$CRAFT" requeue 128 >"$OUT/requeue.dump"
live_case requeue "$OUT/requeue.dump"
check "btt requeue: $(live_n requeue) periods, nothing said" test -z "$(cat "$OUT/requeue/got.err")"
# that it is so (N 128 is tuned to btt_d_after_lazy's refusals): the
# product's trees in build/pool say the most one record let go of
if [ -n "$CROSS" ]; then
	skip "btt requeue: one record let go of more than 8 periods" "build/pool is x86_64's"
elif make -s -C "$TOP" build/pool/iomon >/dev/null 2>&1; then
	(cd "$OUT" && "$TOP/build/pool/iomon" btt -i "$OUT/requeue.dump" -Z -o requeue-pool >/dev/null 2>"$OUT/requeue-pool.err")
	most=$(most "$OUT/requeue-pool.err")
	check "btt requeue: one record let go of more than 8 periods (${most:-none said})" test "${most:-0}" -gt 8
else
	check "btt requeue: build/pool/iomon builds" false
fi

# btt's path: 57-51 (ms, a span that ends before it begins) sends 51-51
# right, past 50-51 on its left; the two overlap and stay apart
python3 "$CRAFT" apart >"$OUT/apart.dump"
live_case apart "$OUT/apart.dump"
check "btt apart: btt counts 6 periods, overlapping ones apart ($(live_n apart))" test "$(live_n apart)" = 6
check "btt apart -Z: btt's tree in order holds two overlapping periods, neither ending before it begins" python3 -c '
import sys
v = [float(l.split()[0]) for l in open(sys.argv[1])]
n = [(v[i + 1], v[i + 3]) for i in range(0, len(v), 5)]
ok = [s for s in n if s[0] <= s[1]]
sys.exit(not any(a[0] <= b[1] and b[0] <= a[1] for i, a in enumerate(ok) for b in ok[i + 1:]))' "$OUT/apart/ref/sys_live.dat"

# A pool of 16 nodes (build/periods, whose trees let go of finished
# periods past 4 nodes and which says how many nodes it held at most): a
# period that ended before every D still waiting for its C goes to the
# tally exactly, early while records come in time order, else when the
# pool is full; spans that end before they begin, or a long I/O holding
# more than the pool, make it say so
if [ -n "$CROSS" ]; then
	skip "btt with 16 busy-period nodes" "the small-pool build is x86_64's"
elif ! make -s -C "$TOP" build/periods/iomon >/dev/null 2>&1; then	# (make: a build older than the sources is made again)
	check "btt with 16 busy-period nodes: build/periods/iomon builds" false
else
	P=$TOP/build/periods/iomon
	live_case small-short "$OUT/periods-6-3000-2-short.dump" "$P"
	check "btt small-short: 16 nodes held $(live_n small-short) periods, nothing said" test -z "$(said "$OUT/small-short/got.err")"
	# one device in time order: the finished periods go as they finish,
	# so its tree never holds more than the 4 kept and the two a C adds
	# and lets go of; three devices (four trees) fill the pool, whose
	# folds are still exact
	python3 "$CRAFT" periods 7 3000 1 short >"$OUT/periods-7-3000-1-short.dump"
	live_case small-one "$OUT/periods-7-3000-1-short.dump" "$P"
	check "btt small-one: $(live_n small-one) periods in at most 6 nodes ($(held "$OUT/small-one/got.err"))" \
		test "$(held "$OUT/small-one/got.err")" -le 6
	check "btt small-one: nothing said" test -z "$(said "$OUT/small-one/got.err")"
	python3 "$CRAFT" periods 8 3000 3 short >"$OUT/periods-8-3000-3-short.dump"
	live_case small-three "$OUT/periods-8-3000-3-short.dump" "$P"
	check "btt small-three: four trees filled the 16 nodes ($(held "$OUT/small-three/got.err"))" \
		test "$(held "$OUT/small-three/got.err")" = 16
	check "btt small-three: nothing said" test -z "$(said "$OUT/small-three/got.err")"
	# the full pool lets go of a device's first period for the room of
	# one listed before it that has none yet: its -Z height counts that
	# one (it was one low, said at the end, when the tree whose first span
	# was going in did not count)
	python3 "$CRAFT" heights >"$OUT/heights.dump"
	live_case heights "$OUT/heights.dump" "$P"
	check "btt heights: btt's 8,32 at height 3" grep -q '^0.000000000 3.0$' "$OUT/heights/ref/8,32_live.dat"
	check "btt heights: the full pool let go of 8,32's periods (said as approximate)" \
		grep -q "^btt: 2 busy periods let go of past the 16 (BTT_PERIODS) kept" "$OUT/heights/got.err"
	check "btt heights: no height said to be low" sh -c '! grep -q "below the height btt gives" "$1"' - "$OUT/heights/got.err"
	# a second device when the first's tree holds more than half the
	# pool: the system's copy goes to the tally, and -Z writes its
	# periods then (sys_live.dat lacked them, said only as approximate)
	python3 "$CRAFT" splitfull >"$OUT/splitfull.dump"
	live_case splitfull "$OUT/splitfull.dump" "$P"
	check "btt splitfull: the system's copy went to the tally (said)" \
		grep -q "^btt: 10 busy periods let go of past the 16 (BTT_PERIODS) kept" "$OUT/splitfull/got.err"
	# a period let go of early, reached by one whose records come later
	# out of time order: said, as a full pool's approximation is
	python3 "$CRAFT" reachback >"$OUT/reachback.dump"
	(cd "$OUT" && "$P" btt -i "$OUT/reachback.dump") >"$OUT/reachback.avg" 2>"$OUT/reachback.err"
	check "btt reachback: exits 0" test $? = 0
	check "btt reachback: says a period reached back to one let go of" \
		grep -q "^btt: 1 busy periods reached one let go of early (records out of time order): the I/O Active Period figures are approximate$" "$OUT/reachback.err"
	(cd "$OUT" && "$P" btt -i "$OUT/periods-4-3000-1-odd.dump") >"$OUT/small-odd.avg" 2>"$OUT/small-odd.err"
	check "btt small-odd: a full pool with spans out of order: exits 0" test $? = 0
	check "btt small-odd: says the figures are approximate" \
		grep -q "busy periods let go of past the 16 (BTT_PERIODS) kept: the I/O Active Period figures are approximate" "$OUT/small-odd.err"
	(cd "$OUT" && "$P" btt -i "$OUT/periods-1-3000-1.dump") >/dev/null 2>"$OUT/small-long.err"
	check "btt small-long: a long I/O over more than 16 periods: says so" grep -q "(BTT_PERIODS) kept" "$OUT/small-long.err"
fi
