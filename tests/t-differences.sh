# Where iomon deliberately differs from blkparse 1.2.0, each pinned here and
# listed in docs/applets.md: the fixed bug or the extension, and that it holds.

# 1. A lost record in a piped stream: blkparse stops printing at the gap
#    and holds every later record in memory until EOF; iomon counts the gap
#    and keeps printing.  Same lines, same Skips count.
if need "gap: a lost record in a stream (dropone.py)" python3; then
	python3 "$TOOLS/dropone.py" "$FIX/stream/nullb0.stream" "$OUT/gap.stream" 700 701 702 5000
	"$IOMON" parse -i - <"$OUT/gap.stream" >"$OUT/gap.txt" 2>"$OUT/gap.err"
	check "gap: iomon counts the lost records" grep -q '^Skips: 2 forward (4 - ' "$OUT/gap.txt"
	if have_oracle; then
		blkparse -i - <"$OUT/gap.stream" >"$OUT/gap.exp" 2>/dev/null
		check "gap: blkparse's Skips line is the same" \
			test "$(grep '^Skips' "$OUT/gap.txt")" = "$(grep '^Skips' "$OUT/gap.exp")"
		# (max depth follows the order D and C are seen in, so it may differ)
		grep -v depth: "$OUT/gap.txt" | sort >"$OUT/gap.s1"; grep -v depth: "$OUT/gap.exp" | sort >"$OUT/gap.s2"
		same "gap: the same lines, in another order" "$OUT/gap.s1" "$OUT/gap.s2"
		# blkparse stalls: the records after the gap come out at the very end.
		first_after() { grep -n ' 1     1[0-9][0-9][0-9] ' "$1" | head -1 | cut -d: -f1; }
		check "gap: iomon does not stall at the gap (prints in time order)" \
			test "$(first_after "$OUT/gap.txt")" -lt "$(first_after "$OUT/gap.exp")"
		# Going on is blkparse's own way where nothing was lost: its text,
		# and -t -v's, on the stream with the gaps closed (closegaps.py
		# renumbers each CPU's records; iomon's numbers mapped the same
		# way), is iomon's byte for byte, but for the Skips line and -v's
		# "skipping" lines, which are blkparse's on the stream as it is
		# (t-vmdiff does the same on every new capture that lost records)
		# Also a real capture's: fixtures/lost-records as one stream (CPU 1
		# lost 838 records), -t's text but for tdiff.py's one difference.
		cat "$FIX/lost-records/nullb0.blktrace."* >"$OUT/gapr.stream"
		# And fixtures/late-gap: CPU 1's first records come too late for
		# blkparse's window, a skip of its own where nothing was lost,
		# which it never reaches on the stream as it is (stalled at CPU
		# 0's gap): iomon's Skips line has both.
		cat "$FIX/late-gap/ram0.blktrace."* >"$OUT/gapl.stream"
		for g in "gap 4" "gapr 838" "gapl 2"; do
			s=${g% *} lost=${g#* }
			check "$s: closegaps.py closes the $lost lost records' gaps" \
				test "$(python3 "$TOOLS/closegaps.py" stream "$OUT/$s.stream" "$OUT/$s.closed")" = "$lost"
			for o in "" "-t -v"; do
				"$IOMON" parse -i - $o <"$OUT/$s.stream" >"$OUT/$s.got" 2>"$OUT/$s.got.err"
				python3 "$TOOLS/closegaps.py" text "$OUT/$s.stream" "$OUT/$s.got"
				check "$s: blkparse -i -${o:+ $o} on the stream with its gaps closed, which has no sequence gap left" \
					gaporacle "$OUT/$s.stream" "$OUT/$s.closed" "$OUT/$s.want" $o
				check "$s: blkparse -i -${o:+ $o} stalls at the gap (its text is not the closed stream's)" \
					sh -c "! cmp -s '$OUT/$s.want.asis' '$OUT/$s.want'"
				if [ -z "$o" ]; then
					same "$s: parse -i - is blkparse's on the stream with the gaps closed, in its order" "$OUT/$s.got" "$OUT/$s.want"
				else
					check "$s: parse -i - $o is blkparse's on the stream with the gaps closed, in its order, but for tdiff.py's difference ($(python3 "$TOOLS/tdiff.py" "$OUT/$s.got" "$OUT/$s.want" | tail -1))" \
						python3 "$TOOLS/tdiff.py" "$OUT/$s.got" "$OUT/$s.want"
				fi
				[ ! -e "$OUT/$s.want.anyorder" ] || skipsort "$OUT/$s.got.err" "$OUT/$s.want.err"
				same0 "$s: parse -i -${o:+ $o}: stderr, the same way" "$OUT/$s.got.err" "$OUT/$s.want.err"
			done
		done
		check "gapl: the closed stream's own skip and the lost records', summed as blkparse would" \
			grep -qx 'Skips: 2 forward (486 -  18.1%)' "$OUT/gapl.got"
		check "gapl: each CPU's -v lines together, CPU 0's (the lost records') first" \
			test "$(grep skipping "$OUT/gapl.got.err" | tr '\n' ' ')" = "(1,0): skipping 1000 -> 1001 (1,0): skipping 441 -> 924 "
	else
		skip "gap: compare with blkparse" "blkparse not installed"
	fi
	#    and its memory stays bounded on a long stream with an early gap
	# (tests/tools/peakrss is built static by make: a dynamic launcher's own ~500 KiB
	# would count in the child's peak)
	if [ -n "$CROSS" ]; then
		skip "gap: peak RSS" "under qemu-user the RSS measured would be qemu's"
	elif [ -x "$TOOLS/peakrss" ] || make -s -C "$TOP" tests/tools/peakrss >/dev/null 2>&1; then
		python3 "$TOOLS/dropone.py" "$FIX/stream/nullb0.stream" "$OUT/gap1.stream" 3
		for i in 1 2 3 4 5 6 7 8; do cat "$OUT/gap1.stream"; done >"$OUT/gap8.stream"
		"$TOOLS/peakrss" "$IOMON" parse -i - <"$OUT/gap8.stream" >/dev/null 2>"$OUT/rss.txt"
		kb=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$OUT/rss.txt")
		# every record after the gap sorts late and is held: the late-record
		# pool fills (HOLD_MAX records of 66 bytes with their order, and
		# HOLD_BYTES of payloads; config.h) and no more is taken
		hm=$(sed -n 's/^#define HOLD_MAX \([0-9]*\)$/\1/p' "$TOP/config.h")
		hb=$(sed -n 's/^#define HOLD_BYTES \([0-9]*\)$/\1/p' "$TOP/config.h")
		pool=$(( (hm * 66 + hb) / 1024 ))
		check "gap: peak RSS stays under 512 KiB and the late-record pool's $pool KiB (was ${kb} KiB)" \
			test "${kb:-99999}" -le $((512 + pool))
		cat "$OUT/gap8.stream" "$OUT/gap8.stream" >"$OUT/gap16.stream"
		"$TOOLS/peakrss" "$IOMON" parse -i - <"$OUT/gap16.stream" >/dev/null 2>"$OUT/rss16.txt"
		kb16=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$OUT/rss16.txt")
		# the kernel counts RSS in batches (see t-hostile.sh), so one run's
		# peak may read 128 KiB or more above another's on the same input (CI:
		# 4352, then 4480); what a leak would add is the 8 MB of the second half
		check "gap: a stream twice as long takes no more memory ($kb16 KiB against $kb, 8 MB more input)" \
			test "${kb16:-99999}" -le $((kb + 512))
		check "gap: the records past the pool are said" grep -q 'late-record table full: [0-9]* records printed early' "$OUT/rss16.txt"
	fi
fi

# 2. Version-8 records (kernel 6.19+): blkparse 1.2.0 refuses them.
if have_oracle "t-differences.sh line 38: against Debian's blkparse"; then
	( cd "$FIX/ext4-v8" && blkparse -i nullb0 ) >"$OUT/v8.exp" 2>"$OUT/v8.err"
	check "v8: blkparse 1.2.0 cannot read version 8" grep -qiE 'version|magic' "$OUT/v8.err"
fi
testcmd "v8: iomon prints what blkparse prints for the same records as v7" "parse -i nullb0" \
	"$FIX/ext4-v8/nullb0.blkparse.txt.gz" ext4-v8
#    zoned devices: zone operations in RWBS (ZR ZRA ZO ZC ZF ZA) and zone
#    write plugging as ZP/ZU lines, as newer upstream blkparse names them
( cd "$FIX/v8-zoned" && "$IOMON" parse -i nullb0 ) >"$OUT/zoned.txt" 2>"$OUT/zoned.err"
check "v8 zoned: zone reset shown as ZRS" grep -q ' Q ZRS \[bt8\]$' "$OUT/zoned.txt"
check "v8 zoned: zone reset-all, open, close, finish" \
	sh -c "grep -q ' D ZRAS ' '$OUT/zoned.txt' && grep -q ' C ZOS ' '$OUT/zoned.txt' && grep -q ' G ZCS ' '$OUT/zoned.txt' && grep -q ' Q ZFS ' '$OUT/zoned.txt'"
check "v8 zoned: zone write plug lines" grep -q ' ZP   R [0-9]* + 8 \[bt8\]$' "$OUT/zoned.txt"
check "v8 zoned: zone write unplug lines" grep -q ' ZU   R [0-9]* + 8 \[kworker' "$OUT/zoned.txt"
check "v8 zoned: nothing unknown on stderr" test ! -s "$OUT/zoned.err"

# 3. Little-endian traces on a big-endian host: blkparse converts only
#    from big-endian (be*_to_cpu), so on s390x it rejects x86 traces.
#    iomon decodes each record's own order on any host.
S390_SPECS=/usr/lib/s390x-linux-musl/musl-gcc.specs
if command -v s390x-linux-gnu-gcc >/dev/null && [ -f $S390_SPECS ] && command -v qemu-s390x-static >/dev/null; then
	mkdir -p "$TOP/build/s390x"
	( cd "$TOP" && s390x-linux-gnu-gcc -specs $S390_SPECS -static -Os -I. -o build/s390x/iomon-test \
		$(make -s print-srcs) ) 2>"$OUT/s390x.err"
	for f in ext4 ext4-be ext4-v8 remap s390x-discard-flush; do
		( cd "$FIX/$f" && qemu-s390x-static "$TOP/build/s390x/iomon-test" parse -i nullb0 ) >"$OUT/s390x.txt" 2>&1
		gzip -dc "$FIX/$f/nullb0.blkparse.txt.gz" >"$OUT/s390x.exp"
		same "big-endian host (s390x, qemu): $f gives the x86_64 text" "$OUT/s390x.txt" "$OUT/s390x.exp"
	done
else
	skip "big-endian host tests" "no s390x cross compiler / musl-dev:s390x / qemu-user-static (tests/tools/setup-deps.sh installs them)"
fi

# 4. -t: see t-oracle.sh (no figures from uninitialised memory).
# 5. Unfilled relay records: see t-errors.sh.

# 6. %U on an event without a payload: blkparse reads past the record
#    and prints whatever is there; iomon prints 0.  %g prints the cgroup
#    id (newer blkparse); 1.2.0 prints a literal "g".
testcmd "%U without a payload is 0, %g without cgroup is 0,0" "parse -i nullb0 -q -f '%a %U %g\n' | head -4" \
	"Q 0 0,0\nG 0 0,0\nD 0 0,0\nC 0 0,0\n" ext4
( cd "$FIX/mq-randrw" && "$IOMON" parse -i nullb0 -q -F 'U,%a %U\n' ) | grep -m1 '^UT ' >"$OUT/U.txt"
check "%U with an unplug payload is its depth" grep -qx 'UT 1' "$OUT/U.txt"

# 7. -S (newer upstream blkparse; Debian's 1.2.0 lacks it): per-process
#    blocks sorted by the chosen counter, ascending as upstream does.
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -S q -q ) >"$OUT/S.txt"
awk '/^[^ ].*\([0-9]+\)$/ { name = $0 } /Reads Queued/ { print $3 + $7 }' "$OUT/S.txt" | tr -d , >"$OUT/S.q"
check "-S q sorts processes by queued I/Os" sh -c "sort -n '$OUT/S.q' | cmp -s - '$OUT/S.q' && test \$(wc -l <'$OUT/S.q') -gt 3"

# 8. -o - writes the text to stdout (blkparse would create a file named "-").
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -o - ) >"$OUT/dash.txt"
check "-o - is stdout" grep -q '^Events (nullb0): 1514 entries' "$OUT/dash.txt"

# 9. Events carrying a cgroup id (action flag 0x100, kernels >= 4.14 with
#    the blk_cgroup option): blkparse 1.2.0 calls them "Bad fs action" and
#    shows nothing; iomon prints them, and %g gives the id in any byte order.
#    Messages carrying one blkparse takes for notes and drops as it reads;
#    so does iomon (printing them moved other records), saying how many.
GT=$TOOLS/gentrace
if [ -x "$GT" ]; then
	rm -rf "$OUT/cg"; mkdir -p "$OUT/cg/le" "$OUT/cg/be"
	"$GT" -s 5 -n 3000 -G -D "$OUT/cg/le" 2>/dev/null
	"$GT" -s 5 -n 3000 -G -B -8 -D "$OUT/cg/be" 2>/dev/null
	( cd "$OUT/cg/le" && "$IOMON" parse -i gen ) >"$OUT/cg.txt" 2>"$OUT/cg.err"
	check "cgroup events: only the messages with a cgroup id said, none else ($(cat "$OUT/cg.err"))" \
		sh -c "grep -q '^parse: [1-9][0-9]* messages with a cgroup id not shown (as blkparse)\$' '$OUT/cg.err' && test \$(wc -l <'$OUT/cg.err') = 1"
	n=$(sed -n 's/^Events (gen): \([0-9]*\) entries/\1/p' "$OUT/cg.txt")
	shown=$(grep -c '^  8,0 ' "$OUT/cg.txt")
	check "cgroup events: every event but driver data has its line ($shown of $n)" test "$shown" -gt $((n * 9 / 10))
	( cd "$OUT/cg/le" && "$IOMON" parse -i gen -q -f '%a %g\n' ) >"$OUT/cg.g1"
	( cd "$OUT/cg/be" && "$IOMON" parse -i gen -q -f '%a %g\n' ) >"$OUT/cg.g2"
	same "cgroup ids: same in little-endian v7 and big-endian v8" "$OUT/cg.g1" "$OUT/cg.g2"
	check "cgroup ids: printed as ino,gen in hex" grep -qE '^[A-Z]+ [0-9a-f]+,[0-9a-f]+$' "$OUT/cg.g1"
	check "cgroup ids: some events carry one" grep -qvE ' 0,0$' "$OUT/cg.g1"
	if have_oracle "t-differences.sh line 112: against Debian's blkparse"; then
		( cd "$OUT/cg/le" && blkparse -i gen ) >/dev/null 2>"$OUT/cg.bperr"
		check "cgroup events: blkparse 1.2.0 rejects them (why iomon differs)" grep -q 'Bad fs action' "$OUT/cg.bperr"
	fi
	# a real one: bfq's messages (Debian's 6.1 under qemu, a virtio disk,
	# fixtures/bfq-cgroup), from the files and as a stream, blkparse's
	# text and order byte for byte, and their number said
	if have_oracle "t-differences.sh: bfq's messages against Debian's blkparse"; then
		cgm=$(python3 "$TOOLS/dropcg.py" -c "$FIX/bfq-cgroup/"vda.blktrace.*)
		cat "$FIX/bfq-cgroup/vda.blktrace.0" "$FIX/bfq-cgroup/vda.blktrace.1" >"$OUT/bfq.stream"
		for o in "-i vda" "-i vda -t" "-i - -b 1000" "-i -"; do
			( cd "$FIX/bfq-cgroup" && "$IOMON" parse $o <"$OUT/bfq.stream" ) >"$OUT/bfq.got" 2>"$OUT/bfq.err"
			( cd "$FIX/bfq-cgroup" && blkparse $o <"$OUT/bfq.stream" ) >"$OUT/bfq.exp" 2>/dev/null
			same "bfq-cgroup: parse $o is blkparse's, byte for byte ($cgm messages with a cgroup id)" "$OUT/bfq.got" "$OUT/bfq.exp"
			check "bfq-cgroup: parse $o says its $cgm messages with a cgroup id were not shown" \
				grep -qx "parse: $cgm messages with a cgroup id not shown (as blkparse)" "$OUT/bfq.err"
		done
	fi
else
	skip "cgroup ids" "tests/tools/gentrace not built (make check builds it)"
fi
