# tests/tools/livecheck.sh: what tests/t-live.sh (tracefs, this machine)
# and tests/long/t-vmlive.sh (relay, in the VM) both assert on a live
# capture's results, once it has ended.  Sourced by them after tests/lib.sh.
N_FAST=${N_FAST:-2000}	# the fast load: 4 KiB direct writes, sectors 32000 .. 47992

# fast_n FILE ACTION: blkparse lines of ACTION for the fast load's writes
fast_n() { grep -cE " $2 +WS? (3[2-9]|4[0-7])[0-9]{3} \+ 8 \[" "$1"; }
# big FILE: event lines of blkparse's text with a time over 1e6 s (a
# record older than the first one read wraps)
big() { awk '$1 ~ /^[0-9]+,[0-9]+$/ && $4 + 0 > 1e6 { n++ } END { print n + 0 }' "$1"; }
thru() { grep -m1 '^Throughput' "$1"; }
thru_ok() { grep -m1 '^Throughput' "$1" | grep -qE '/ [1-9][0-9]*KiB/s$'; }
# the names a stream (7,1) and files (loop1) give in blkparse's summary aside
lc_norm() { sed -E '/^Input file /d; s/^(CPU[0-9]+|Total|Events) \([^)]*\)/\1 (DEV)/'; }
mon_writes() { awk '/^sizes write/ { sub(/,/, "", $5); n += $5 } END { print n + 0 }' "$1" 2>/dev/null || echo 0; }

# order_checks T P STREAM NAME: a stream's time order across CPUs.  Its
# records are split into the per-CPU files a file capture writes
# ($P.split/NAME.blktrace.CPU): the same bytes, so blkparse, parse and btt
# must print for the stream exactly what they print for those files.  T
# starts each check's name; files are $P.*.
order_checks() {
	local T=$1 P=$2 S=$3 N=$4 ord
	rm -rf "$P.split"; mkdir -p "$P.split"
	ord=$(python3 "$TOOLS/streamsplit.py" "$S" "$P.split/$N")
	check "${T}records in time order across CPUs ($ord)" sh -c "echo '$ord' | grep -q ' back 0 .* cpus 0,1 tail 0 bad_magic_at -1\$'"
	if have_oracle "${T}against Debian's blkparse"; then
		blkparse -i - <"$S" 2>&1 | lc_norm >"$P.bp"
		(cd "$P.split" && blkparse -i "$N" 2>&1) | lc_norm >"$P.split.bp"
		check "${T}Debian's blkparse, no time over 1e6 s ($(big "$P.bp") lines)" test "$(big "$P.bp")" = 0
		check "${T}Debian's blkparse, a real Throughput line ($(thru "$P.bp"))" thru_ok "$P.bp"
		same "${T}Debian's blkparse prints for the stream what it prints for its records as files" "$P.bp" "$P.split.bp"
		if need "${T}Debian's btt" btt; then
			blkparse -i - -d "$P.dump" -O <"$S" >/dev/null 2>&1
			(cd "$P.split" && blkparse -i "$N" -d "$P.split.dump" -O >/dev/null 2>&1)
			(cd "$(dirname "$P")" && btt -i "$P.dump" -o "$P.btt" >/dev/null 2>&1; btt -i "$P.split.dump" -o "$P.split.btt" >/dev/null 2>&1)
			local bigbtt='$1 ~ /^[A-Z]2[A-Z]$/ { for (i = 2; i <= NF; i++) if ($i + 0 > 1e6) n++ } END { print n + 0 }'
			check "${T}Debian's btt, no figure over 1e6 s ($(awk "$bigbtt" "$P.btt.avg"))" test "$(awk "$bigbtt" "$P.btt.avg")" = 0
			same "${T}Debian's btt prints for the stream what it prints for its records as files" "$P.btt.avg" "$P.split.btt.avg"
		fi
	fi
	"$IOMON" parse -i - <"$S" 2>&1 | lc_norm >"$P.ip"
	(cd "$P.split" && "$IOMON" parse -i "$N" 2>&1) | lc_norm >"$P.split.ip"
	check "${T}iomon parse, no time over 1e6 s ($(big "$P.ip") lines)" test "$(big "$P.ip")" = 0
	check "${T}iomon parse, a real Throughput line ($(thru "$P.ip"))" thru_ok "$P.ip"
	same "${T}iomon parse prints for the stream what it prints for its records as files" "$P.ip" "$P.split.ip"
	# (in P's folder: btt writes its *_fp.dat in the current one)
	(cd "$(dirname "$P")" && "$IOMON" btt -i - -o "$P.ibtt" <"$S" >/dev/null 2>&1
	 cd "$P.split" && "$IOMON" btt -i "$N" -o "$P.split.ibtt" >/dev/null 2>&1)
	same "${T}iomon btt prints for the stream what it prints for its records as files" "$P.ibtt.avg" "$P.split.ibtt.avg"
}

# ctrlc_checks T P BIN MON LOG KILLED: a pipeline `trace -o - | tee BIN |
# monitor -h MON` stopped by SIGINT to its process group at KILLED (ms)
# during a trickle of writes (LOG: "I MS" as write I, sector 8000 + 8 I,
# ended), after the fast load.  tee dies at once, so only what reached it
# by then is kept: every write that ended a second or more before the
# Ctrl-C must be in BIN, whole records, parseable.
ctrlc_checks() {
	local T=$1 P=$2 B=$3 M=$4 LOG=$5 K=$6 ord prc old miss= i issued slowq
	ord=$(python3 "$TOOLS/streamsplit.py" "$B")
	"$IOMON" parse -i - <"$B" >"$P.ip" 2>"$P.ipe"; prc=$?
	old=$(awk -v k="$K" '$2 <= k - 1000 { print $1 }' "$LOG" | tr '\n' ' ')
	[ "$(fast_n "$P.ip" Q)" = "$N_FAST" ] || miss="only $(fast_n "$P.ip" Q) of the fast load's $N_FAST queues;"
	for i in $old; do
		grep -qE " Q +WS? $((8000 + 8 * i)) \+ 8 \[dd\]" "$P.ip" || miss="$miss write $i (sector $((8000 + 8 * i)))"
	done
	issued=$(awk -v k="$K" '$2 <= k { n++ } END { print n + 0 }' "$LOG")
	slowq=$(grep -cE " Q +WS? 80[0-9][0-9] \+ 8 \[dd\]" "$P.ip")
	check "${T}the file holds every write a second old ($N_FAST fast, the trickle's ${old% }; $slowq of the $issued trickle writes issued by then)${miss:+: missing $miss}" test -z "$miss"
	check "${T}the file is whole records ($ord)" sh -c "echo '$ord' | grep -q ' tail 0 bad_magic_at -1\$'"
	check "${T}iomon parse reads it, exit 0 ($prc), no time over 1e6 s" sh -c "[ $prc = 0 ] && grep -q '^Events (' '$P.ip' && [ $(big "$P.ip") = 0 ]"
	if have_oracle; then
		blkparse -i - <"$B" >"$P.bp" 2>&1
		check "${T}Debian's blkparse reads it, no time over 1e6 s, a real Throughput line ($(thru "$P.bp"))" \
			sh -c "[ $(big "$P.bp") = 0 ] && grep -m1 '^Throughput' '$P.bp' | grep -qE '/ [1-9][0-9]*KiB/s\$'"
	fi
	check "${T}monitor printed the fast load's writes before it ($(mon_writes "$M") counted)" test "$(mon_writes "$M")" -ge "$N_FAST"
}

# flush_sector_check T DIR NAME: a flush's completion carries sector 0, as
# relay gives it (tracefs's block_rq_complete on newer kernels says
# 18446744073709551615: blk_rq_pos of a request that has none)
flush_sector_check() {
	local f n bad
	f=$(cd "$2" && "$IOMON" parse -q -i "$3" -f '%a %d %S\n' 2>/dev/null | awk '$1 == "C" && $2 ~ /^F/')
	n=$(echo "$f" | grep -c .); bad=$(echo "$f" | awk '$3 != 0' | sort | uniq -c | tr -s ' \n' ' ')
	check "${1}a flush's completion has sector 0, as relay gives it ($n flush completions${bad:+; not 0:$bad})" \
		test "$n" -gt 0 -a -z "$bad"
}
