# Under the original tools' names, stderr carries only what the originals
# write there: scripts read it.  IBM's ziomon runs `blktrace ... -o -
# 2>blktrace.err` and aborts on any line in that file; Debian's blktrace
# writes none with -o - (no summary either).  Notices (the backend chosen,
# the lockdown fallback) appear under `iomon trace` or with --verbose.
B=$OUT/names; rm -rf "$B"; mkdir -p "$B/bin"
"$IOMON" --install "$B/bin" >/dev/null 2>&1
"$B/bin/blktrace" -v >"$B/v.out" 2>&1
"$B/bin/blktrace" -V >"$B/V.out" 2>&1
check "blktrace -v prints the version, as blktrace's -v does" grep -q ' version 2.0.0$' "$B/v.out"
same "blktrace -v is blktrace -V" "$B/v.out" "$B/V.out"
"$IOMON" trace --help >"$B/h.out" 2>&1
check "trace --help names --verbose" grep -q -- '--verbose' "$B/h.out"
if live_ok "quiet under the original names"; then
	img=$B/l.img; truncate -s 16M "$img"; L=$(losetup -f --show "$img")
	"$B/bin/blktrace" -a issue -a complete -w 1 -o - "$L" >"$B/s.bin" 2>"$B/s.err"
	check "blktrace -o -: exit 0" test $? = 0
	same_empty "blktrace -o -: nothing on stderr (no backend line, no lockdown notice, no summary)" "$B/s.err"
	check "blktrace -o -: the stream was written" test -s "$B/s.bin"
	# (no notice to wait for here: writes all through the 2 s window)
	( for i in $(seq 30); do dd if=/dev/zero of="$L" bs=4k count=4 oflag=direct 2>/dev/null; sleep 0.1; done ) &	# pacing, not a wait
	"$B/bin/btrace" -w 2 "$L" >"$B/bt.out" 2>"$B/bt.err"
	wait
	same_empty "btrace: nothing on stderr" "$B/bt.err"
	check "btrace: blkparse's text on stdout" grep -q '^Events (' "$B/bt.out"
	"$B/bin/blktrace" --verbose -w 1 -o - "$L" >/dev/null 2>"$B/vv.err"
	check "blktrace --verbose -o -: the backend named" grep -q 'blktrace: capturing through' "$B/vv.err"
	"$IOMON" trace -w 1 -o - "$L" >/dev/null 2>"$B/it.err"
	check "iomon trace -o -: the backend named" grep -q 'trace: capturing through' "$B/it.err"
	check "iomon trace -o -: its summary on stderr" grep -q '^=== ' "$B/it.err"
	"$B/bin/blktrace" -w 1 -D "$B" "$L" >"$B/f.sum" 2>"$B/f.err"
	same_empty "blktrace to files: nothing on stderr" "$B/f.err"
	check "blktrace to files: blktrace's summary on stdout" grep -q '^  Total: ' "$B/f.sum"
	"$B/bin/blkiomon" -I 1 -t "$L" -h "$B/m.txt" 2>"$B/m.err" &
	pid=$!; wait_for 10 "blkiomon -t to trace (it says nothing of it)" tracing $pid
	kill -TERM $pid; wait $pid
	check "blkiomon -t, ended by SIGTERM: exit 0" test $? = 0
	same_empty "blkiomon -t: nothing on stderr" "$B/m.err"
	losetup -d "$L"
fi
