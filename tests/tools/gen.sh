# tests/tools/gen.sh: sourced by tests/t-gen.sh (fixed seeds, make check) and
# tests/long/t-gen.sh (new seeds, make check-long).  gen_seed SEED [NEW]:
# traces from tests/tools/gentrace with SEED in every mode, through iomon
# and Debian's blkparse, compared; NEW marks a seed never run before.
GT=$TOOLS/gentrace
G=$OUT/gen
# strip_cg: blkparse 1.2.0 drops MESSAGE notes that carry a cgroup id
# as it reads, and so does iomon (saying how many): the same text with
# them and without them (tests/tools/dropcg.py; one python3 for them all:
# it takes many IN OUT pairs).  Prints how many there were.
strip_cg() {	# FROM TO: every file of FROM into TO, stripped
	local f a=()
	for f in "$1"/*; do a+=("$f" "$2/${f##*/}"); done
	python3 "$TOOLS/dropcg.py" "${a[@]}" | awk '{ n += $1 } END { print n + 0 }'
}
inputs() { ls "$1" | sed -n 's/\.blktrace\.0$//p' | sed 's/^/-i /' | tr '\n' ' '; }
# GEN_BTT: empty where Debian's btt is there (else why it is skipped)
GEN_BTT=$(command -v btt >/dev/null 2>&1 || echo "needs btt, which is not installed (tests/tools/setup-deps.sh)")
gen_seed() {	# SEED [NEW]
	local seed=$1 mode tag in args form extra
	[ -n "$GEN_BTT" ] && skip "gen seed $seed: btt" "$GEN_BTT"
	for mode in "-c 2" "-c 3 -T" "-c 1 -n 6000" "-c 4 -d 8,0 -d 65,16"; do
		tag="seed $seed [$mode]"
		rm -rf "$G"; mkdir -p "$G/full" "$G/cg"
		"$GT" -s "$seed" $mode -D "$G/full" 2>/dev/null
		extra=$(strip_cg "$G/full" "$G/cg")
		in=$(inputs "$G/full")
		for args in "" "-s" "-q -a write -a complete" "-w 0.0005:0.002" "-b 5" "-h -s" \
			"-f %a|%d|%C|%e|%n|%N|%S|%s|%T.%t|%p|%c|%M,%m|%P\n"; do
			( cd "$G/full" && blkparse $in $args -d "$G/exp.bin" ) >"$G/exp" 2>/dev/null
			( cd "$G/full" && "$IOMON" parse $in $args -d "$G/got.bin" ) >"$G/got" 2>/dev/null
			same "gen $tag $args: text as blkparse" "$G/got" "$G/exp"
		done
		same_dump "gen $tag: -d dump as blkparse" "$G/got.bin" "$G/exp.bin"
		# btt on the same records, every output's every file: requeues,
		# merges on merges and remaps that real captures seldom have
		if [ -z "$GEN_BTT" ]; then
			( cd "$G/full" && blkparse $in -d "$G/bt.dump" -O ) >/dev/null 2>&1
			for args in "" "-A -l d2c -q q2c -z q2d -I iostat -B bno -p per -P plot -Q q2q -s seek -m mseek -u unplug -L 0.5 -X -Z -o out"; do
				rm -rf "$G/be" "$G/bg"; mkdir -p "$G/be" "$G/bg"
				( cd "$G/be" && btt -i "$G/bt.dump" $args >stdout 2>/dev/null )
				( cd "$G/bg" && "$IOMON" btt -i "$G/bt.dump" $args >stdout 2>/dev/null )
				check "gen $tag: btt${args:+ (every output)}: every file as btt's ($(ls "$G/be" | wc -l))" \
					sh -c "[ -s '$G/be/stdout' -o -s '$G/be/out.avg' ] && diff -r '$G/bg' '$G/be'"
			done
		fi
		( cd "$G/full" && blkparse $in ) >"$G/exp.full" 2>/dev/null
		( cd "$G/cg" && blkparse $in ) >"$G/exp.cg" 2>/dev/null
		same "gen $tag: blkparse drops cgroup messages silently" "$G/exp.full" "$G/exp.cg"
		( cd "$G/full" && "$IOMON" parse $in ) >"$G/got.full" 2>"$G/got.err"
		( cd "$G/cg" && "$IOMON" parse $in ) >"$G/got.cg" 2>/dev/null
		same "gen $tag: iomon drops cgroup messages as blkparse does" "$G/got.full" "$G/got.cg"
		check "gen $tag: iomon says it dropped the $extra cgroup messages" \
			sh -c "test $extra -gt 0 && grep -qx 'parse: $extra messages with a cgroup id not shown (as blkparse)' '$G/got.err'"
		# -t: equal but where blkparse shows uninitialised figures (on
		# I without G, D without I, C without D)
		( cd "$G/cg" && blkparse $in -t ) >"$G/t.exp" 2>/dev/null
		( cd "$G/cg" && "$IOMON" parse $in -t ) >"$G/t.got" 2>/dev/null
		if awk 'NR == FNR { o[FNR] = $0; next }
			o[FNR] == $0 { next }
			{ t = $0; if (o[FNR] ~ / [DCI] / && sub(/ \( *[0-9]+\)/, "", t) && t == o[FNR]) next
			  print FNR ": " o[FNR] " | " $0; exit 1 }' "$G/t.got" "$G/t.exp" >"$G/t.log"; then
			pass "gen $tag -t"
		else
			fail "gen $tag -t" "$(head -2 "$G/t.log")"
		fi
		# the other three forms of the same records read the same
		for form in "-B" "-8" "-8 -B"; do
			rm -rf "$G/form"; mkdir -p "$G/form"
			"$GT" -s "$seed" $mode $form -D "$G/form" 2>/dev/null
			( cd "$G/form" && "$IOMON" parse $in -s ) >"$G/form.txt" 2>&1
			( cd "$G/full" && "$IOMON" parse $in -s ) >"$G/full.txt" 2>&1
			same "gen $tag $form: same text as little-endian v7" "$G/form.txt" "$G/full.txt"
		done
	done
	# one piped stream (blktrace -o -), all CPUs interleaved
	"$GT" -s "$seed" -n 6000 -c 3 -S >"$G/st" 2>/dev/null
	# tiny batches too: a CPU whose first records predate the first
	# batch, split across two, stalls blkparse to the end (and iomon)
	for args in "" "-s" "-b 40" "-b 3"; do
		blkparse -i - $args <"$G/st" >"$G/exp" 2>/dev/null
		"$IOMON" parse -i - $args <"$G/st" >"$G/got" 2>/dev/null
		same "gen seed $seed stream $args: as blkparse" "$G/got" "$G/exp"
	done
	for form in "-B" "-8" "-8 -B"; do
		"$GT" -s "$seed" -n 6000 -c 3 -S $form >"$G/st.form" 2>/dev/null
		"$IOMON" parse -i - <"$G/st.form" >"$G/got.form" 2>/dev/null
		"$IOMON" parse -i - <"$G/st" >"$G/got" 2>/dev/null
		same "gen seed $seed stream $form: same text" "$G/got.form" "$G/got"
	done
}
