# needs: python3
# Network capture (issue 15): blktrace 1.2.0's protocol.  iomon's client
# against Debian's server (`blktrace -l`, the oracle) on 127.0.0.1, compared
# with a local capture of the same load; a server that vanishes or stalls;
# none there.  Only 127.0.0.1 is ever a target.
P=$((20000 + $$ % 20000))	# ports: $P Debian's server, $P+1.. others

# notime DIR NAME: the records as text without the time column (two
# captures of one load differ only in their clocks)
notime() { (cd "$1" && "$IOMON" parse -i "$2") | sed '/^Input file/d' | awk '{ $4 = ""; print }'; }
notime_bp() { (cd "$1" && blkparse -i "$2") | sed '/^Input file/d' | awk '{ $4 = ""; print }'; }

if live_ok "net client live" && need "net client to Debian's server" blktrace; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 64M "$LI"
	LOOP=$(losetup -f --show "$LI"); LN=${LOOP#/dev/}
	load() {
		dd if=/dev/zero of="$LOOP" bs=4k count=200 oflag=direct 2>/dev/null
		dd if="$LOOP" of=/dev/null bs=64k count=10 iflag=direct 2>/dev/null
	}
	rm -rf "$OUT/srv"; mkdir -p "$OUT/srv"
	blktrace -l -p $P -D "$OUT/srv" >"$OUT/srv.out" 2>"$OUT/srv.err" & spid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$P '" || sleep 1
	# both modes: a connection per CPU and device, then -s (one per CPU)
	for mode in plain s; do
		opt=; [ $mode = s ] && opt=-s
		rm -rf "$OUT/loc.$mode"; mkdir -p "$OUT/loc.$mode"; rm -f "$OUT/cl.$mode.err" "$OUT/loc.$mode.err"
		"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $P $opt >"$OUT/cl.$mode.out" 2>"$OUT/cl.$mode.err" & c1=$!
		"$IOMON" trace -d "$LOOP" -D "$OUT/loc.$mode" >"$OUT/loc.$mode.out" 2>"$OUT/loc.$mode.err" & c2=$!
		capturing "$OUT/cl.$mode.err" $c1; capturing "$OUT/loc.$mode.err" $c2
		load; kill -INT $c1 $c2; wait $c1; r1=$?; wait $c2
		check "net client ($mode) to Debian's server: exit 0" test $r1 = 0
		check "net client ($mode): blktrace's connecting/connected lines" \
			sh -c "head -2 '$OUT/cl.$mode.out' | tr '\n' '|' | grep -qx 'blktrace: connecting to 127.0.0.1|blktrace: connected!|'"
		sed 1,2d "$OUT/cl.$mode.out" >"$OUT/cl.$mode.sum"
		same "net client ($mode): its summary is the local capture's" "$OUT/cl.$mode.sum" "$OUT/loc.$mode.out"
		check "net client ($mode): its tracefs instance removed" gone $c1
		poll 10 sh -c "[ \$(grep -c '^server: end of run' '$OUT/srv.out') -ge $([ $mode = s ] && echo 2 || echo 1) ]" ||
			{ kill -USR1 $spid 2>/dev/null; }	# (stdout is flushed at exit otherwise)
		D=$(ls -d "$OUT"/srv/127.0.0.1-* | tail -1)
		check "net client ($mode): the server's folder CLIENT-YYYY-MM-DD-HH:MM:SS" \
			sh -c "basename '$D' | grep -qE '^127\.0\.0\.1-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\$'"
		check "net client ($mode): the server's files have the local capture's sizes" \
			test "$(cd "$D" && stat -c %s $LN.blktrace.* | tr '\n' ' ')" = "$(cd "$OUT/loc.$mode" && stat -c %s $LN.blktrace.* | tr '\n' ' ')"
		notime "$D" $LN >"$OUT/n.$mode.srv"; notime "$OUT/loc.$mode" $LN >"$OUT/n.$mode.loc"
		check "net client ($mode): parse reads the server's files as the local ones ($(grep -c ' C ' "$OUT/n.$mode.srv") completions)" \
			sh -c "grep -q ' C ' '$OUT/n.$mode.srv' && cmp -s '$OUT/n.$mode.srv' '$OUT/n.$mode.loc'"
		notime_bp "$D" $LN >"$OUT/b.$mode.srv"; notime_bp "$OUT/loc.$mode" $LN >"$OUT/b.$mode.loc"
		same "net client ($mode): Debian's blkparse too" "$OUT/b.$mode.srv" "$OUT/b.$mode.loc"
		rm -rf "$D"
	done
	kill -INT $spid; wait $spid
	# the server's summary: blktrace's own lines for what we sent
	{ echo "server: waiting for connections..."; echo "server: connection from 127.0.0.1"
	  echo "server: end of run for 127.0.0.1:$LN"; cat "$OUT/loc.plain.out"
	  echo "server: connection from 127.0.0.1"
	  echo "server: end of run for 127.0.0.1:$LN"; cat "$OUT/loc.s.out"; } >"$OUT/srv.ref"
	same "net client: Debian's server prints the client's summaries" "$OUT/srv.out" "$OUT/srv.ref"

	# no server: said as blktrace says it, exit 1, nothing traced
	rm -f "$OUT/no.err"; "$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 1)) >"$OUT/no.out" 2>"$OUT/no.err"
	check "net client, no server: exit 1" test $? = 1
	check "net client, no server: blktrace's words" \
		grep -q "^trace: Connection to 127.0.0.1 refused, perhaps the server is not started?" "$OUT/no.err"
	check "net client, no server: the kernel never traced" sh -c "! grep -q 'capturing through' '$OUT/no.err'"

	# a server that answers the opens, then vanishes: a clear message, the
	# records counted as dropped, the trace torn down, exit 0
	python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64); s.settimeout(20)
cs = []
try:
    while True:
        c, _ = s.accept(); h = c.recv(64, socket.MSG_WAITALL); c.sendall(h[:40] + b"\0" * 24); cs.append(c)
        s.settimeout(1)
except OSError:
    pass
time.sleep(1.5)
for c in cs: c.close()
' $((P + 2)) & vpid=$!
	sleep 0.3; rm -f "$OUT/v.err"
	"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 2)) >"$OUT/v.out" 2>"$OUT/v.err" & c1=$!
	capturing "$OUT/v.err" $c1; wait $vpid; load; sleep 0.5; kill -INT $c1; wait $c1; r1=$?
	check "net client, the server vanishes: exit 0 ($r1)" test $r1 = 0
	check "net client, the server vanishes: said, naming the device and CPU" \
		grep -qE "^trace: 127\.0\.0\.1: connection for $LN CPU [0-9]+ lost \(.*\); its records are counted as dropped" "$OUT/v.err"
	check "net client, the server vanishes: the records counted as dropped" \
		grep -qE "^  Total: +[0-9]+ events \(dropped [1-9][0-9]*\)" "$OUT/v.out"
	check "net client, the server vanishes: blktrace's drop warning" grep -q "^You have [0-9]* (.*%) dropped events" "$OUT/v.err"
	check "net client, the server vanishes: its tracefs instance removed" gone $c1
	losetup -d "$LOOP"
fi
