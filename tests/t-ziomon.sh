# needs: python3
# What IBM's ziomon relies on in blkiomon (output/monitor.c); its stderr
# rules for blktrace are in t-names.sh.
# 1. The message queue (-Q -q -m), as ziomon uses it: one
# 424-byte record per device and interval, to a reader (ziomon_mgr) that
# may stall.  A full queue is waited for, as blkiomon waits: nothing is
# dropped.  Once a signal ends the run the wait is bounded
# (MON_QUEUE_WAIT_MS), and what could not be sent is counted and said.
Q=$OUT/queue; rm -rf "$Q"; mkdir -p "$Q"
python3 "$TOOLS/manydevs.py" 48 "$Q/48.stream"
if ! cc -O2 -Wall -o "$Q/msgdrain" "$TOOLS/msgdrain.c" 2>"$Q/cc.err"; then
	fail "tests/tools/msgdrain.c builds" "$(head -c 300 "$Q/cc.err")"
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

# 2. -d -: ziomon_zfcpdd reads driver-data records as 48-byte version-7
# records in host order, whatever the trace's version and byte order.
if [ -x "$TOOLS/gentrace" ]; then
	"$TOOLS/gentrace" -s 3 -n 3000 -c 2 -S >"$Q/g.stream" 2>/dev/null
	"$IOMON" monitor -I 60 -d "$Q/dd.v7" <"$Q/g.stream"
	check "-d: driver data passed through" test -s "$Q/dd.v7"
	check "-d: every record a 48-byte version-7 header and its payload" python3 -c "
import struct, sys
d = open('$Q/dd.v7', 'rb').read(); off = n = 0
o = '<' if struct.unpack_from('<I', d)[0] >> 8 == 0x656174 else '>'
while off < len(d):
    m, pl = struct.unpack_from(o + 'I', d, off)[0], struct.unpack_from(o + 'H', d, off + 46)[0]
    assert m & 0xff == 7 and m >> 8 == 0x656174, (off, hex(m), pl)
    off += 48 + pl; n += 1
assert off == len(d) and n > 10, (off, len(d), n)"
	for form in "--v8" "--be" "--be --v8"; do
		python3 "$TOOLS/traceconv.py" $form "$Q/g.stream" "$Q/g.conv"
		"$IOMON" monitor -I 60 -d "$Q/dd.conv" <"$Q/g.conv"
		same "-d from a ${form#--} stream: the same version-7 host-order records" "$Q/dd.conv" "$Q/dd.v7"
	done
else
	skip "-d for ziomon_zfcpdd" "tests/tools/gentrace not built (make check builds it)"
fi
