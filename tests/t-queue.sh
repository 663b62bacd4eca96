# needs: python3
# blkiomon's message queue (-Q -q -m), as IBM's ziomon uses it: one
# 424-byte record per device and interval, to a reader (ziomon_mgr) that
# may stall.  A full queue is waited for, as blkiomon waits: nothing is
# dropped.  Once a signal ends the run the wait is bounded
# (MON_QUEUE_WAIT_MS), and what could not be sent is counted and said.
Q=$OUT/queue; rm -rf "$Q"; mkdir -p "$Q"
python3 tests/manydevs.py 48 "$Q/48.stream"
if ! cc -O2 -Wall -o "$Q/msgdrain" tests/msgdrain.c 2>"$Q/cc.err"; then
	fail "tests/msgdrain.c builds" "$(head -c 300 "$Q/cc.err")"
else
	: >"$Q/key"
	# a reader that stalls 3 s with room for two records
	"$Q/msgdrain" "$Q/key" 1 3 848 3000 "$Q/got.bin" >"$Q/count" & r=$!
	poll 10 test -s "$Q/key.ready"
	"$IOMON" monitor -I 3600 -Q "$Q/key" -q 1 -m 3 -b "$Q/b.bin" -D "$Q/d.txt" <"$Q/48.stream" 2>"$Q/e.err"
	rc=$?
	wait $r
	check "queue full, reader stalled 3 s: exit 0 ($rc)" test $rc = 0
	check "queue full, reader stalled 3 s: all 48 device records arrive ($(cat "$Q/count"))" test "$(cat "$Q/count")" = 48
	same "queue: the records are -b's, in order" "$Q/got.bin" "$Q/b.bin"
	check "queue: -D says none was left unsent" grep -q '^0 records not sent: the message queue stayed full' "$Q/d.txt"
	same_empty "queue: nothing on stderr" "$Q/e.err"
	# a reader that never reads: the monitor blocks (all its input read),
	# then SIGTERM; it waits MON_QUEUE_WAIT_MS more and gives up on the rest
	: >"$Q/key2"
	"$Q/msgdrain" "$Q/key2" 1 3 848 120000 "$Q/got2.bin" >"$Q/count2" & r=$!
	poll 10 test -s "$Q/key2.ready"
	id=$(cat "$Q/key2.ready")
	"$IOMON" monitor -I 3600 -Q "$Q/key2" -q 1 -m 3 -D "$Q/d2.txt" <"$Q/48.stream" 2>"$Q/e2.err" & m=$!
	full() { awk -v id="$id" '$2 == id && $5 == 2 { f = 1 } END { exit !f }' /proc/sysvipc/msg; }
	check "queue: two records fill it; the monitor waits" poll 20 full
	check "queue: the monitor still runs (blocked, not dropping)" kill -0 $m
	t0=$SECONDS; kill -TERM $m; wait $m; rc=$?
	check "SIGTERM while the queue stays full: exit 1 ($rc)" test $rc = 1
	check "SIGTERM while the queue stays full: gives up after its bounded wait ($((SECONDS - t0)) s)" test $((SECONDS - t0)) -le 15
	check "SIGTERM, queue full: the 46 unsent counted under -D" grep -q '^46 records not sent: the message queue stayed full (MON_QUEUE_WAIT_MS [0-9]*)$' "$Q/d2.txt"
	check "SIGTERM, queue full: said on stderr" grep -q 'monitor: 46 records not sent' "$Q/e2.err"
	kill -TERM $r; wait $r
	check "SIGTERM, queue full: the two sent arrive" test "$(cat "$Q/count2")" = 2
fi
