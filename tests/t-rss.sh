# needs: python3
# The rescue tools' memory (issue 30: at most 512 KiB for an hour of 100k
# IOPS): a real capture (fixtures/mq-randrw) replayed end to end into a
# trace of 500,000 events and one of a million (tests/tools/bigtrace.py),
# each applet reading it: its peak resident memory stays under 512 KiB and
# does not grow with the trace, so an hour's 360 million I/Os take the same.
if [ -n "$CROSS" ]; then
	skip "peak RSS of the rescue tools" "under qemu-user the RSS measured would be qemu's"
elif ! [ -x "$TOOLS/peakrss" ] && ! make -s -C "$TOP" tests/tools/peakrss >/dev/null 2>&1; then
	skip "peak RSS of the rescue tools" "tests/tools/peakrss did not build"
else
	python3 "$TOOLS/bigtrace.py" "$FIX/mq-randrw/nullb0" "$OUT/half" 500000 >/dev/null
	python3 "$TOOLS/bigtrace.py" "$FIX/mq-randrw/nullb0" "$OUT/full" 1000000 >/dev/null
	rss() {	# APPLET ARGS... on $OUT/NAME (the last word): peak RSS in KiB
		local n=$1; shift
		( cd "$OUT" && "$TOOLS/peakrss" "$IOMON" "$@" -i "$n" >/dev/null 2>"$OUT/rss.err" )
		sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$OUT/rss.err"
	}
	for a in "lat" "lat -P -D -Q" "snoop -Q" "snoop --errors" "top -C" "bitesize" "biopattern"; do
		h=$(rss half $a) f=$(rss full $a)
		check "$a: peak RSS under 512 KiB on a million events (${f:-?} KiB)" test "${f:-99999}" -le 512
		# (one run to the next a process's peak moves by up to 128 KiB
		# here, top's between 168 and 296 on the same input; growing with
		# the trace would be a half million events' worth of it)
		check "$a: no more on a million events than on half a million ($f against $h KiB)" \
			test "${f:-99999}" -le $((${h:-0} + 160))
	done
	# the replay really was a million events' worth
	( cd "$OUT" && "$IOMON" snoop -i full ) >"$OUT/full.snoop" 2>&1
	check "the million-event trace replays (its completions: $(($(wc -l <"$OUT/full.snoop") - 1)) snoop lines)" \
		test "$(wc -l <"$OUT/full.snoop")" -gt 150000
	# btt with every output on (issue 29: at most 512 KiB), on the dumps
	# of two captures replayed: the million events above and half a
	# million of fixtures/split (dm, its I/Os split at 4 KiB).  The pages
	# it holds at exit (the page tables, walked while it is held there)
	# and the kernel's peak counter; and of those its program's text: the
	# 64 KiB output/hot.ld lays btt's code and data out in, not the whole
	# binary (the kernel maps text 64 KiB around each page touched)
	python3 "$TOOLS/bigtrace.py" "$FIX/split/nullb0" "$OUT/split" 500000 >/dev/null
	for t in full split; do
		"$IOMON" parse -i "$OUT/$t" -d "$OUT/$t.dump" -O >/dev/null 2>&1
		rm -rf "$OUT/all" && mkdir -p "$OUT/all"
		( cd "$OUT/all" && "$TOOLS/peakrss" "$IOMON" btt -i "../$t.dump" -A -l L -q Q -z Z -I I -B B \
			-p P -P T -Q Q2 -s S -m M -u U -L 0.5 -X -Z -o out >/dev/null 2>"$OUT/rss.err" )
		p=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$OUT/rss.err")
		x=$(sed -n 's/^exitrss: \([0-9]*\) KiB/\1/p' "$OUT/rss.err")
		tx=$(sed -n 's/^exittext: \([0-9]*\) KiB/\1/p' "$OUT/rss.err")
		check "btt, every output, $t.dump: its $(ls "$OUT/all" | wc -l) files made" test -s "$OUT/all/out.avg" -a -s "$OUT/all/P"
		check "btt, every output, $t.dump: peak RSS under 512 KiB by the kernel's counter (${p:-?} KiB)" test "${p:-99999}" -le 512
		if [ -z "$x" ]; then
			skip "btt, every output, $t.dump: its pages at exit" "ptrace refused: $(grep exitrss "$OUT/rss.err")"
			continue
		fi
		check "btt, every output, $t.dump: its pages at exit under 512 KiB ($x KiB)" test "$x" -le 512
		check "btt, every output, $t.dump: 64 KiB of its program's text, output/hot.ld's (${tx:-?} KiB; more: make hotlist)" \
			test "${tx:-99999}" -le 64
	done
	rm -rf "$OUT/all" "$OUT"/*.dump
	rm -f "$OUT"/half.blktrace.* "$OUT"/full.blktrace.* "$OUT"/split.blktrace.*
fi
