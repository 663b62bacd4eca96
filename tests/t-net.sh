# needs: python3
# Network capture (issue 15): blktrace 1.2.0's protocol.  iomon's client
# against Debian's server (`blktrace -l`, the oracle) and iomon's, on
# 127.0.0.1, compared with a local capture of the same load; a server that
# vanishes; none there.  iomon's server against crafted clients (both byte
# orders, compared with Debian's server) and hostile ones.  Only 127.0.0.1
# is ever a target.
P=$((20000 + $$ % 20000))	# ports: $P Debian's server, $P+1.. others

# notime DIR NAME: the records as text without the time column (two
# captures of one load differ only in their clocks)
notime() { (cd "$1" && "$IOMON" parse -i "$2") | sed '/^Input file/d' | awk '{ $4 = ""; print }'; }
notime_bp() { (cd "$1" && blkparse -i "$2") | sed '/^Input file/d' | awk '{ $4 = ""; print }'; }

# the client's queues (issue 33) without a kernel: tests/tools/netqcheck
# drives capture/net.c against a socketpair per CPU, as the capture loop
# does; one CPU's server stalls, the other CPU must go on, nothing drop
if [ -n "$CROSS" ]; then
	skip "net client queues" "tests/tools/netqcheck is built for this machine, not $CROSS"
elif make -s -C "$TOP" tests/tools/netqcheck >/dev/null 2>&1; then
	Q=$FIX/mq-randrw/nullb0.blktrace
	"$TOOLS/netqcheck" $Q.0 $Q.1 >"$OUT/netq.out" 2>&1
	check "net client queues: a CPU whose server stalls stops being read, the other goes on ($(sed -n 1p "$OUT/netq.out"))" \
		test $? = 0
	check "net client queues: both CPUs' records arrive byte for byte in blktrace's messages, none dropped" \
		sh -c "grep -q '^dropped: 0$' '$OUT/netq.out' && [ \$(grep -c 'byte for byte$' '$OUT/netq.out') = 2 ]"
	t0=$(date +%s%N)
	"$TOOLS/netqcheck" $Q.0 $Q.1 stall >"$OUT/netqs.out" 2>&1
	r=$? t1=$(date +%s%N)
	check "net client queues: a server that never reads again: its records counted as dropped ($(tail -1 "$OUT/netqs.out"))" \
		test $r = 0
	check "net client queues: ... given up after NET_WAIT_MS, said ($(((t1 - t0) / 1000000)) ms)" \
		sh -c "grep -q 'connection for nullb0 CPU 0 lost' '$OUT/netqs.out' && [ $(((t1 - t0) / 1000000)) -lt 8000 ]"
else
	skip "net client queues" "tests/tools/netqcheck did not build"
fi

if live_ok "net client live" && need "net client to Debian's server" blktrace; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 64M "$LI"
	LOOP=$(losetup -f --show "$LI"); LN=${LOOP#/dev/}
	load() {
		dd if=/dev/zero of="$LOOP" bs=4k count=200 oflag=direct 2>/dev/null
		dd if="$LOOP" of=/dev/null bs=64k count=10 iflag=direct 2>/dev/null
	}
	for who in debian iomon; do
	if [ $who = debian ]; then port=$P; srv="blktrace"; else port=$((P + 3)); srv="$IOMON trace"; fi
	rm -rf "$OUT/srv"; mkdir -p "$OUT/srv"
	$srv -l -p $port -D "$OUT/srv" >"$OUT/srv.out" 2>"$OUT/srv.err" & spid=$!
	wait_for 10 "$who's server to listen on $port" sh -c "ss -ltn | grep -q ':$port '"
	# both modes: a connection per CPU and device, then -s (one per CPU)
	for mode in plain s; do
		opt=; [ $mode = s ] && opt=-s
		rm -rf "$OUT/loc.$mode"; mkdir -p "$OUT/loc.$mode"; rm -f "$OUT/cl.$mode.err" "$OUT/loc.$mode.err"
		"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $port $opt >"$OUT/cl.$mode.out" 2>"$OUT/cl.$mode.err" & c1=$!
		"$IOMON" trace -d "$LOOP" -D "$OUT/loc.$mode" >"$OUT/loc.$mode.out" 2>"$OUT/loc.$mode.err" & c2=$!
		capturing "$OUT/cl.$mode.err" $c1; capturing "$OUT/loc.$mode.err" $c2
		load; kill -INT $c1 $c2; wait $c1; r1=$?; wait $c2
		check "net client ($mode) to $who's server: exit 0" test $r1 = 0
		check "net client ($mode) to $who: blktrace's connecting/connected lines" \
			sh -c "head -2 '$OUT/cl.$mode.out' | tr '\n' '|' | grep -qx 'blktrace: connecting to 127.0.0.1|blktrace: connected!|'"
		sed 1,2d "$OUT/cl.$mode.out" >"$OUT/cl.$mode.sum"
		same "net client ($mode) to $who: its summary is the local capture's" "$OUT/cl.$mode.sum" "$OUT/loc.$mode.out"
		check "net client ($mode) to $who: its tracefs instance removed" gone $c1
		# the server ends the run when the last close came: its files then
		# have their sizes (Debian's holds its summaries until it exits)
		sizes() { (cd "$1" && stat -c %s $LN.blktrace.* | tr '\n' ' '); }
		poll 10 sh -c "[ \"\$(cd '$OUT'/srv/127.0.0.1-* && stat -c %s $LN.blktrace.* | tr '\n' ' ')\" = '$(sizes "$OUT/loc.$mode")' ]"
		D=$(ls -d "$OUT"/srv/127.0.0.1-* | tail -1)
		check "net client ($mode) to $who: the server's folder CLIENT-YYYY-MM-DD-HH:MM:SS" \
			sh -c "basename '$D' | grep -qE '^127\.0\.0\.1-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\$'"
		check "net client ($mode) to $who: the server's files have the local capture's sizes" \
			test "$(sizes "$D")" = "$(sizes "$OUT/loc.$mode")"
		notime "$D" $LN >"$OUT/n.$mode.srv"; notime "$OUT/loc.$mode" $LN >"$OUT/n.$mode.loc"
		check "net client ($mode) to $who: parse reads the server's files as the local ones ($(grep -c ' C ' "$OUT/n.$mode.srv") completions)" \
			sh -c "grep -q ' C ' '$OUT/n.$mode.srv' && cmp -s '$OUT/n.$mode.srv' '$OUT/n.$mode.loc'"
		notime_bp "$D" $LN >"$OUT/b.$mode.srv"; notime_bp "$OUT/loc.$mode" $LN >"$OUT/b.$mode.loc"
		same "net client ($mode) to $who: Debian's blkparse too" "$OUT/b.$mode.srv" "$OUT/b.$mode.loc"
		[ $who = iomon ] && check "net client ($mode) to iomon: the server's files are 0600" \
			test "$(stat -c %a "$D/$LN.blktrace.0")" = 600
		rm -rf "$D"
	done
	kill -INT $spid; wait $spid
	# the server's summary: blktrace's own lines for what we sent
	{ echo "server: waiting for connections..."; echo "server: connection from 127.0.0.1"
	  echo "server: end of run for 127.0.0.1:$LN"; cat "$OUT/loc.plain.out"
	  echo "server: connection from 127.0.0.1"
	  echo "server: end of run for 127.0.0.1:$LN"; cat "$OUT/loc.s.out"; } >"$OUT/srv.ref"
	same "net client: $who's server prints the client's summaries as Debian's does" "$OUT/srv.out" "$OUT/srv.ref"
	[ $who = iomon ] && same_empty "net client: iomon's server has nothing to complain of" "$OUT/srv.err"
	done

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
        s.settimeout(3)
except OSError:
    pass
time.sleep(1.5)
for c in cs: c.close()
' $((P + 2)) & vpid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 2)) '"; rm -f "$OUT/v.err"
	"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 2)) >"$OUT/v.out" 2>"$OUT/v.err" & c1=$!
	capturing "$OUT/v.err" $c1; wait $vpid; load
	# (the load's records meet the closed connection: signalled once said)
	wait_for 10 "the client to say its connection was lost" grep -q "connection for $LN CPU [0-9]* lost" "$OUT/v.err"
	kill -INT $c1; wait $c1; r1=$?
	check "net client, the server vanishes: exit 0 ($r1)" test $r1 = 0
	check "net client, the server vanishes: said, naming the device and CPU" \
		grep -qE "^trace: 127\.0\.0\.1: connection for $LN CPU [0-9]+ lost \(.*\); its records are counted as dropped" "$OUT/v.err"
	check "net client, the server vanishes: the records counted as dropped" \
		grep -qE "^  Total: +[0-9]+ events \(dropped [1-9][0-9]*\)" "$OUT/v.out"
	check "net client, the server vanishes: blktrace's drop warning" grep -q "^You have [0-9]* (.*%) dropped events" "$OUT/v.err"
	check "net client, the server vanishes: its tracefs instance removed" gone $c1
	# a server that answers the opens and never reads again: the socket
	# and the CPUs' queues fill, the connection is given up after
	# NET_WAIT_MS, its records counted as dropped, the capture never waits
	python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64); s.settimeout(20)
cs = []
try:
    while True:
        c, _ = s.accept()
        h = c.recv(64, socket.MSG_WAITALL); c.sendall(h[:40] + b"\0" * 24); cs.append(c)
        s.settimeout(3)
except OSError:
    pass
time.sleep(30)
' $((P + 9)) & vpid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 9)) '"; rm -f "$OUT/st.err"
	"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 9)) >"$OUT/st.out" 2>"$OUT/st.err" & c1=$!
	capturing "$OUT/st.err" $c1
	# (well past what the socket buffers and the queues hold, tcp_wmem's
	# 4 MiB at most and NET_QUEUE a CPU)
	for k in 1 2 3 4; do dd if=/dev/zero of="$LOOP" bs=4k count=16000 oflag=direct 2>/dev/null; done
	t0=$(date +%s%N); kill -INT $c1; wait $c1; r1=$?; t1=$(date +%s%N)
	kill $vpid; wait $vpid 2>/dev/null
	check "net client, a server that stops reading: exit 0 ($r1)" test $r1 = 0
	check "net client, a server that stops reading: the records it could not take counted as dropped" \
		grep -qE "^  Total: +[0-9]+ events \(dropped [1-9][0-9]*\)" "$OUT/st.out"
	check "net client, a server that stops reading: ends within NET_WAIT_MS of the signal ($(((t1 - t0) / 1000000)) ms)" \
		test $(((t1 - t0) / 1000000)) -lt 8000
	check "net client, a server that stops reading: its tracefs instance removed" gone $c1
	# addresses: IPv6 (the server listens on both families), names from
	# /etc/hosts and from DNS (a mount namespace gives the client our
	# hosts and resolv.conf; a small DNS server answers on 127.0.0.77)
	rm -rf "$OUT/s6"; mkdir -p "$OUT/s6"
	"$IOMON" trace -l -p $((P + 27)) -D "$OUT/s6" >"$OUT/s6.out" 2>"$OUT/s6.err" & spid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 27)) '"
	for h in ::1 0:0::0:1 127.0.0.1; do
		"$IOMON" trace -d "$LOOP" -h $h -p $((P + 27)) -w 1 >"$OUT/h6.out" 2>"$OUT/h6.err"
		check "net client -h $h: exit 0, blktrace's connecting line" \
			sh -c "test $? = 0 && head -1 '$OUT/h6.out' | grep -qx 'blktrace: connecting to $h'"
	done
	# (a mount namespace needs / to be a mount of its own: in a chroot
	# unshare cannot make it private, and these checks are skipped)
	if ! unshare -m true 2>/dev/null; then
		skip "net client: names from /etc/hosts and DNS" "unshare -m cannot make / private here (a chroot?): the checks need their own /etc/hosts and resolv.conf"
	else
		python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.77", 53))
open(sys.argv[1], "w").write("up\n")
while True:
    q, a = s.recvfrom(512)
    i = 12; name = []
    while q[i]:
        name.append(q[i + 1:i + 1 + q[i]].decode()); i += q[i] + 1
    t = struct.unpack(">H", q[i + 1:i + 3])[0]
    ok = ".".join(name).lower() == "collector.iomon.test"
    ans = struct.pack(">HHHIH", 0xc00c, 1, 1, 60, 4) + bytes([127, 0, 0, 1]) if ok and t == 1 else b""
    s.sendto(q[:2] + struct.pack(">HHHHH", 0x8180 if ok else 0x8183, 1, 1 if ans else 0, 0, 0) + q[12:i + 5] + ans, a)
' "$OUT/dns.up" & dpid2=$!
		poll 5 test -s "$OUT/dns.up"
		printf '# hosts for the test\n127.0.0.1 hosts.iomon.test # a comment: comment.iomon.test\n' >"$OUT/hosts"
		printf 'search example\nnameserver 127.0.0.77\n' >"$OUT/resolv.conf"
		ns() { unshare -m sh -c "mount --bind '$OUT/hosts' /etc/hosts && mount --bind '$OUT/resolv.conf' /etc/resolv.conf && \"\$@\"" - "$@"; }
		for h in hosts.iomon.test collector.iomon.test; do
			ns "$IOMON" trace -d "$LOOP" -h $h -p $((P + 27)) -w 1 >"$OUT/h6.out" 2>"$OUT/h6.err"; rc=$?
			check "net client -h $h ($([ $h = collector.iomon.test ] && echo DNS || echo /etc/hosts)): exit 0, connected" \
				sh -c "test $rc = 0 && grep -qx 'blktrace: connected!' '$OUT/h6.out'"
		done
		for h in comment.iomon.test nosuch.iomon.test 1::2::3 1:2:3 256.1.1.1; do
			ns "$IOMON" trace -d "$LOOP" -h $h -p $((P + 27)) -w 1 >/dev/null 2>"$OUT/h6.err"
			check "net client -h $h: no such host, said" grep -qx "trace: $h: no such host (not a number, not in /etc/hosts, not in DNS)" "$OUT/h6.err"
		done
		kill $dpid2; wait $dpid2 2>/dev/null
	fi
	kill -INT $spid; wait $spid
	check "net server: an IPv6 client named as such" grep -qx 'server: connection from ::1' "$OUT/s6.out"
	check "net server: ... its folder ::1-DATE-TIME" sh -c "ls '$OUT/s6' | grep -qE '^::1-[0-9]{4}-'"
	check "net server: an IPv4 client on the same socket, a dotted quad" grep -qx 'server: connection from 127.0.0.1' "$OUT/s6.out"
	# a fleet's collector: monitor -l and parse -l take iomon's clients
	# live, without files: the load's 200 writes in monitor's Prometheus
	# file, and dd's 200 queued writes in parse's text
	"$IOMON" monitor -I 1 -l -p $((P + 25)) --prom="$OUT/lm.prom" 2>"$OUT/lm.err" & mpid=$!
	"$IOMON" parse -l -p $((P + 26)) >"$OUT/lp.out" 2>"$OUT/lp.err" & ppid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 25)) '"; poll 10 sh -c "ss -ltn | grep -q ':$((P + 26)) '"
	rm -f "$OUT/lc1.err" "$OUT/lc2.err"
	"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 25)) >/dev/null 2>"$OUT/lc1.err" & c1=$!
	"$IOMON" trace -d "$LOOP" -h 127.0.0.1 -p $((P + 26)) -s >/dev/null 2>"$OUT/lc2.err" & c2=$!
	capturing "$OUT/lc1.err" $c1; capturing "$OUT/lc2.err" $c2
	load; kill -INT $c1 $c2; wait $c1 $c2
	# each server's summary (printed once it has taken the client's last
	# record), and an interval of monitor's with the 200 writes in its file
	wait_for 10 "monitor -l's summary of the client" grep -q '^  Total:' "$OUT/lm.err"
	wait_for 10 "parse -l's summary of the client" grep -q '^  Total:' "$OUT/lp.err"
	DN=$(printf '%d,%d' 0x$(stat -L -c '%t' "$LOOP") 0x$(stat -L -c '%T' "$LOOP"))
	wait_for 10 "monitor -l's Prometheus file to count the 200 writes" \
		grep -qsx "iomon_requests_total{device=\"$DN\",direction=\"write\"} 200" "$OUT/lm.prom"
	kill -INT $mpid $ppid; wait $mpid; r1=$?; wait $ppid; r2=$?
	check "monitor -l, parse -l, iomon's clients live: exit 0 ($r1, $r2)" test $r1$r2 = 00
	check "monitor -l, iomon's client live: the 200 writes in its Prometheus file" \
		grep -qsx "iomon_requests_total{device=\"$DN\",direction=\"write\"} 200" "$OUT/lm.prom"
	check "parse -l, iomon's client (-s) live: dd's 200 queued writes ($(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/lp.out"))" \
		test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/lp.out")" = 200
	losetup -d "$LOOP"
fi

# ---- iomon's server and crafted clients (no kernel needed) ----
NC=$TOOLS/netclient.py
E=$FIX/ext4; B=$FIX/ext4-be
# serve NAME PORT [BIN]: a server of Debian's (NAME debian) or iomon's in $OUT/NAME
serve() {
	rm -rf "$OUT/$1"; mkdir -p "$OUT/$1"
	if [ $1 = debian ]; then blktrace -l -p $2 -D "$OUT/$1" >"$OUT/$1.out" 2>"$OUT/$1.err" &
	else "${3:-$IOMON}" trace -l -p $2 -D "$OUT/$1" >"$OUT/$1.out" 2>"$OUT/$1.err" & fi
	SPID=$!
	poll 10 sh -c "ss -ltn | grep -q ':$2 '"
}
# listing DIR: each file with its bytes' sum, the folder's time left out
listing() { (cd "$1" && for f in */*; do echo "${f%%-[0-9]*/*} ${f#*/} $(stat -c %a "$f") $(md5sum <"$f" | cut -c1-32)"; done); }
# a client of each byte order, two devices, two CPUs, drops
le_run() { python3 "$NC" $1 open:sda:0:2 open:sda:1:2 open:sdb:0:2 open:sdb:1:2 data:sda:0:2:$E/nullb0.blktrace.0 \
	data:sda:1:2:$E/nullb0.blktrace.1 data:sdb:1:2:$E/nullb0.blktrace.0 close:sda:3:2 close:sda:3:2 close:sdb:0:2 close:sdb:0:2; }
be_run() { python3 "$NC" $1 be open:sdc:0:1 data:sdc:0:1:$B/nullb0.blktrace.0 close:sdc:5:1; }
if need "net server: crafted clients" python3; then
	for order in le be; do
		if have_oracle && command -v blktrace >/dev/null 2>&1; then
			serve debian $((P + 5)); dpid=$SPID; ${order}_run $((P + 5)) >"$OUT/d.$order.acks"
		fi
		serve iomon $((P + 6)); ipid=$SPID; ${order}_run $((P + 6)) >"$OUT/i.$order.acks"
		# every device's summary: the server has taken all (le: sda, sdb)
		wait_for 10 "iomon's server's summaries of the $order client" \
			at_least "$([ $order = le ] && echo 2 || echo 1)" '^  Total:' "$OUT/iomon.out"
		kill -INT $ipid; wait $ipid
		check "net server, a $order client: exit 0 on SIGINT" test $? = 0
		check "net server, a $order client: every open and close answered" \
			test "$(grep -c '^ack len=2' "$OUT/i.$order.acks")" = "$([ $order = le ] && echo 8 || echo 2)"
		[ $order = le ] && check "net server, a le client: files 0600" test "$(listing "$OUT/iomon" | awk '{print $3}' | sort -u)" = 600
		if [ -n "$dpid" ]; then
			# (Debian's server holds its summaries until it exits: it has
			# taken all once it has closed its ends of the client's
			# connections, none left established or half-closed)
			wait_for 10 "Debian's server to close the $order client's connections" \
				sh -c "! ss -Htn state established state close-wait '( sport = :$((P + 5)) )' | grep -q ."
			kill -INT $dpid; wait $dpid
			same "net server, a $order client: the acks Debian's server sends" "$OUT/i.$order.acks" "$OUT/d.$order.acks"
			same "net server, a $order client: Debian's summaries" "$OUT/iomon.out" "$OUT/debian.out"
			same "net server, a $order client: Debian's drop warning" "$OUT/iomon.err" "$OUT/debian.err"
			listing "$OUT/debian" | awk '{print $1, $2, $4}' >"$OUT/d.list"; listing "$OUT/iomon" | awk '{print $1, $2, $4}' >"$OUT/i.list"
			same "net server, a $order client: Debian's folder, file names and bytes" "$OUT/i.list" "$OUT/d.list"
		else
			skip "net server, a $order client, against Debian's server" "needs blktrace (Debian's) and blkparse"
		fi
		dpid=
	done
	# a fleet of both byte orders at once (blktrace's one global setting
	# takes the first client's and drops the other)
	serve iomon $((P + 6)); ipid=$SPID
	le_run $((P + 6)) >/dev/null & c1=$!
	NC_HOST=127.0.0.2 be_run $((P + 6)) >/dev/null; wait $c1
	poll 10 sh -c "[ \$(grep -c 'end of run' '$OUT/iomon.out') = 3 ]"; kill -INT $ipid; wait $ipid
	check "net server: little- and big-endian clients at once, three devices' summaries" \
		test "$(grep -c '^=== sd[abc] ===$' "$OUT/iomon.out")" = 3
	check "net server: each client its folder" test "$(cd "$OUT/iomon" && ls -d 127.0.0.1-* 127.0.0.2-* | wc -l)" = 2
	check "net server: the big-endian client's records as sent" cmp "$OUT"/iomon/127.0.0.2-*/sdc.blktrace.0 "$B/nullb0.blktrace.0"

	# under a soft limit of 16 open files: a client of two devices on 8
	# CPUs (16 files, its connection, the listening socket) passes it,
	# the server having raised it (the old build dropped the client:
	# "its files cannot be made")
	st=; for d in sda sdb; do for c in $(seq 0 7); do st="$st open:$d:$c:8"; done; done
	for d in sda sdb; do for c in $(seq 0 7); do st="$st data:$d:$c:8:$E/nullb0.blktrace.$((c % 2))"; done; done
	for d in sda sdb; do for c in $(seq 0 7); do st="$st close:$d:0:8"; done; done
	rm -rf "$OUT/fdl"; mkdir -p "$OUT/fdl"
	(ulimit -S -n 16 && exec "$IOMON" trace -l -p $((P + 30)) -D "$OUT/fdl") >"$OUT/fdl.out" 2>"$OUT/fdl.err" & ipid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 30)) '"
	python3 "$NC" $((P + 30)) $st >/dev/null
	poll 10 sh -c "[ \$(grep -c 'end of run' '$OUT/fdl.out') = 2 ]"; kill -INT $ipid; wait $ipid
	check "net server under ulimit -n 16: exit 0, nothing said" test $? = 0 -a ! -s "$OUT/fdl.err"
	n=0; for f in "$OUT"/fdl/*/sd[ab].blktrace.[0-7]; do cmp -s "$f" "$E/nullb0.blktrace.$((${f##*.} % 2))" && n=$((n + 1)); done
	check "net server under ulimit -n 16: the 16 files as sent ($n)" test $n = 16
	# a hard limit of 16, past which nothing is raised: a client of one
	# device on 8 CPUs still fits, and is served (poll had been handed
	# every connection slot, 257 entries, refused past the limit: the
	# server spun and never answered)
	st=; for c in $(seq 0 7); do st="$st open:sda:$c:8"; done
	st="$st data:sda:0:8:$E/nullb0.blktrace.0"; for c in $(seq 0 7); do st="$st close:sda:0:8"; done
	rm -rf "$OUT/fdh"; mkdir -p "$OUT/fdh"
	(ulimit -n 16 && exec "$IOMON" trace -l -p $((P + 31)) -D "$OUT/fdh") >"$OUT/fdh.out" 2>"$OUT/fdh.err" & ipid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((P + 31)) '"
	timeout 60 python3 "$NC" $((P + 31)) $st >/dev/null
	poll 10 grep -q 'end of run' "$OUT/fdh.out"; kill -INT $ipid; wait $ipid
	check "net server under a hard limit of 16: the client served" cmp "$OUT"/fdh/*/sda.blktrace.0 "$E/nullb0.blktrace.0"

	# a host's summaries in the order it opened its devices, as blktrace's
	# server lists them, also when a device of its takes a slot another
	# host has freed: x (127.0.0.2) ends between p's open and q's
	order_run() {	# SERVER PORT: p, q (and x) through a server
		serve $1 $2
		NC_HOST=127.0.0.2 python3 "$NC" $2 open:x:0:1 "wait:$OUT/$1.packs:name=p" close:x:0:1 >"$OUT/$1.xacks" & c1=$!
		poll 10 grep -q name=x "$OUT/$1.xacks"
		python3 "$NC" $2 open:p:0:1 "wait:$OUT/$1.out:end of run for 127.0.0.2:x" open:q:0:1 \
			close:p:0:1 close:q:0:1 >"$OUT/$1.packs"; wait $c1
		poll 10 sh -c "[ \$(grep -c 'end of run' '$OUT/$1.out') = 3 ]"; kill -INT $SPID; wait $SPID
		sed -n '/127.0.0.1:/s/^server: end of run for //p' "$OUT/$1.out" | tr '\n' ' ' >"$OUT/$1.order"
	}
	order_run iomon $((P + 10))
	check "net server: a host's summaries in its opens' order, a freed slot reused ($(cat "$OUT/iomon.order"))" \
		test "$(cat "$OUT/iomon.order")" = "127.0.0.1:p 127.0.0.1:q "
	if have_oracle && command -v blktrace >/dev/null; then
		order_run debian $((P + 11))
		same "net server: ... as Debian's server orders them" "$OUT/iomon.order" "$OUT/debian.order"
	fi

	# hostile clients: each drops its own connection, named; the server
	# goes on (a good client after them is served); nothing outside -D
	serve iomon $((P + 7)); ipid=$SPID; H=$((P + 7))
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(); o = 0
for i in range(5):
    o += 48 + int.from_bytes(d[o + 46:o + 48], "little")
open(sys.argv[2], "wb").write(d[:o + 30]); print(o)' "$E/nullb0.blktrace.0" "$OUT/cut.bin" >"$OUT/cut.whole"
	hostile() {	# NAME MESSAGE STEP...
		local n=$1 m=$2; shift 2
		python3 "$NC" $H "$@" >"$OUT/h.acks" 2>&1
		poll 5 grep -qF "$m" "$OUT/iomon.err"
		check "net server, hostile: $n: dropped, naming the client" grep -qF "server: 127.0.0.1: $m" "$OUT/iomon.err"
	}
	hostile "bad magic" "not a blktrace header (bad magic); connection dropped" magic:12345678 open:sda:0:1
	hostile "'../x' as a name" "a device name that is not a plain file name; connection dropped" 'open:..%x:0:1'
	hostile "'a/b' as a name" "a device name that is not a plain file name" 'open:a%b:0:1'
	hostile "'..' as a name" "a device name that is not a plain file name" 'open:..:0:1'
	hostile "a control character in the name" "a device name that is not a plain file name" 'open:s\x01d:0:1'
	hostile "a name of 32 bytes without its NUL" "a device name that is not a plain file name" "open:$(printf 'x%.0s' $(seq 32)):0:1"
	hostile "an empty name" "a device name that is not a plain file name" 'open::0:1'
	hostile "max_cpus 1000000" "a CPU count beyond this server's (CAP_CPUS)" open:sda:0:1000000
	hostile "max_cpus 0" "a CPU count beyond this server's (CAP_CPUS)" open:sda:0:0
	hostile "data for CPU 7 of 2" "a CPU or length that cannot be" data:sda:7:2:$E/nullb0.blktrace.1
	hostile "a 2 GiB message" "a CPU or length that cannot be" raw:sda:0:1:2147483648:$E/nullb0.blktrace.1
	head -c 100 /dev/zero | tr '\0' x >"$OUT/x.bin"
	hostile "data that are not records" "data that are not blktrace records" data:sdz:0:1:$OUT/x.bin
	check "net server, hostile: nothing made outside -D" test -z "$(cd "$OUT" && ls -d x a b 2>/dev/null)"
	# a client gone inside a record: its file ends on the last whole one
	python3 "$NC" $H open:cut:0:1 raw:cut:0:1:100000:$OUT/cut.bin >/dev/null
	poll 5 grep -q "cut short" "$OUT/iomon.err"
	check "net server: a client gone inside a record: said" \
		grep -q "^server: 127.0.0.1: cut.blktrace.0: 30 bytes of a record cut short removed$" "$OUT/iomon.err"
	check "net server: ... and the file ends on the last whole record ($(cat "$OUT/cut.whole") bytes)" \
		test "$(stat -c %s "$OUT"/iomon/*/cut.blktrace.0)" = "$(cat "$OUT/cut.whole")"
	check "net server: ... and its summary printed" grep -q "^server: end of run for 127.0.0.1:cut$" "$OUT/iomon.out"
	python3 "$NC" $H open:ok:0:1 data:ok:0:1:$E/nullb0.blktrace.1 close:ok:0:1 >"$OUT/ok.acks"
	check "net server: after all that, a good client is served" test "$(grep -c '^ack len=2' "$OUT/ok.acks")" = 2
	kill -INT $ipid; wait $ipid
	check "net server: still there to be stopped, exit 0" test $? = 0
	check "net server: the good client's records" cmp "$OUT"/iomon/*/ok.blktrace.0 "$E/nullb0.blktrace.1"

	# ---- streams: parse, monitor and btt take the clients themselves ----
	# listen NAME PORT APPLET ARGS...: iomon APPLET ARGS (listening on
	# PORT) in the background (stdout NAME.out, stderr NAME.err), once
	# it listens
	listen() {
		local n=$1 port=$2; shift 2
		# in OUT: btt writes its *_fp.dat in the current folder
		(cd "$OUT" && exec "$IOMON" "$@") >"$OUT/$n.out" 2>"$OUT/$n.err" & SPID=$!
		poll 10 sh -c "ss -ltn | grep -q ':$port '"
	}
	# ended NAME [N]: once the server's summaries of N clients' devices
	# (1) are printed, SIGINT; its exit status
	ended() { wait_for 10 "$1's summaries" at_least "${2:-1}" '^  Total:' "$OUT/$1.err"; kill -INT $SPID; wait $SPID; }
	events() { grep -E '^ *[0-9]+,[0-9]+ +[0-9]+ ' "$1" | sort; }
	# two CPUs of one device, a message each: the records parse prints
	# are those of the same bytes read as one stream (blkparse -i -)
	listen sp $((P + 20)) parse -l -p $((P + 20))
	python3 "$NC" $((P + 20)) open:nullb0:0:2 open:nullb0:1:2 data:nullb0:0:2:$E/nullb0.blktrace.0 \
		data:nullb0:1:2:$E/nullb0.blktrace.1 close:nullb0:0:2 close:nullb0:0:2 >/dev/null
	ended sp
	check "parse -l: exit 0 on SIGINT" test $? = 0
	cat "$E/nullb0.blktrace.0" "$E/nullb0.blktrace.1" | "$IOMON" parse -i - >"$OUT/sp.ref"
	events "$OUT/sp.out" >"$OUT/sp.ev"; events "$OUT/sp.ref" >"$OUT/sp.rev"
	check "parse -l: every record of the client's two CPUs ($(wc -l <"$OUT/sp.ev"))" \
		sh -c "test -s '$OUT/sp.ev' && cmp -s '$OUT/sp.ev' '$OUT/sp.rev'"
	if have_oracle; then
		cat "$E/nullb0.blktrace.0" "$E/nullb0.blktrace.1" | blkparse -i - >"$OUT/sp.bp" 2>&1
		events "$OUT/sp.bp" >"$OUT/sp.bev"
		same "parse -l: ... as Debian's blkparse -i - prints them" "$OUT/sp.ev" "$OUT/sp.bev"
	fi
	grep '^Events' "$OUT/sp.out" >"$OUT/sp.n"; grep '^Events' "$OUT/sp.ref" >"$OUT/sp.rn"
	same "parse -l: blkparse's count of events" "$OUT/sp.n" "$OUT/sp.rn"
	check "parse -l: the server's lines on stderr, its summary too" \
		sh -c "grep -q '^server: end of run for 127.0.0.1:nullb0$' '$OUT/sp.err' && grep -q '^  Total: *1562 events' '$OUT/sp.err' && ! grep -q '^server' '$OUT/sp.out'"
	# a big-endian client, one CPU: monitor's and btt's figures are those
	# of the same records read from files
	mkdir -p "$OUT/bef"; ln -sf "$B/nullb0.blktrace.0" "$OUT/bef/nullb0.blktrace.0"
	listen sm $((P + 21)) monitor -I 3600 -h - --prom="$OUT/sm.prom" -l -p $((P + 21))
	python3 "$NC" $((P + 21)) be open:nullb0:0:1 data:nullb0:0:1:$B/nullb0.blktrace.0 close:nullb0:0:1 >/dev/null
	ended sm
	check "monitor -l: exit 0 on SIGINT" test $? = 0
	(cd "$OUT/bef" && "$IOMON" monitor -I 3600 -h - -i nullb0) >"$OUT/sm.ref"
	same "monitor -l: a big-endian client's statistics, as from its files" \
		"$(sed '/^time:/d' "$OUT/sm.out" >"$OUT/sm.t"; echo "$OUT/sm.t")" "$(sed '/^time:/d' "$OUT/sm.ref" >"$OUT/sm.rt"; echo "$OUT/sm.rt")"
	check "monitor -l --prom: the client's requests counted" \
		grep -qx 'iomon_requests_total{device="254,0",direction="read"} 143' "$OUT/sm.prom"
	listen sb $((P + 22)) btt -o "$OUT/sb" --listen=$((P + 22))
	python3 "$NC" $((P + 22)) be open:nullb0:0:1 data:nullb0:0:1:$B/nullb0.blktrace.0 close:nullb0:0:1 >/dev/null
	ended sb
	check "btt --listen: exit 0 on SIGINT" test $? = 0
	(cd "$OUT/bef" && "$IOMON" btt -i nullb0 -o "$OUT/sbf") >"$OUT/sbf.out"
	same "btt --listen: a big-endian client's report, as from its files" "$OUT/sb.avg" "$OUT/sbf.avg"
	if command -v btt >/dev/null 2>&1 && have_oracle; then
		(cd "$OUT/bef" && blkparse -i nullb0 -d "$OUT/bef.dump" -O && btt -i "$OUT/bef.dump" -o "$OUT/sbd") >/dev/null 2>&1
		same "btt --listen: ... and as Debian's btt reads them" "$OUT/sb.avg" "$OUT/sbd.avg"
	fi
	# two client machines with the same device: the second one's records
	# show another number, said on stderr; a record cut between two
	# messages is put together; one cut and then left is said and dropped
	split() { python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); k = int(sys.argv[2]); open(sys.argv[3], "wb").write(d[:k]); open(sys.argv[4], "wb").write(d[k:])' "$@"; }
	split "$E/nullb0.blktrace.1" 1001 "$OUT/p1.bin" "$OUT/p2.bin"
	listen s2 $((P + 23)) parse -l -p $((P + 23))
	python3 "$NC" $((P + 23)) open:nullb0:0:2 open:nullb0:1:2 data:nullb0:1:2:$OUT/p1.bin sleep:0.5 data:nullb0:1:2:$OUT/p2.bin \
		sleep:1 close:nullb0:0:2 close:nullb0:0:2 >"$OUT/s2.acks" & c1=$!
	# the second machine once the first has its device open
	wait_for 10 "the first client's opens answered" grep -q name=nullb0 "$OUT/s2.acks"
	NC_HOST=127.0.0.2 python3 "$NC" $((P + 23)) open:nullb0:1:2 data:nullb0:1:2:$E/nullb0.blktrace.1 close:nullb0:0:2 >/dev/null
	wait $c1
	ended s2 2
	"$IOMON" parse -i - <"$E/nullb0.blktrace.1" >"$OUT/s2.ref"
	check "parse -l: a record cut between two messages put together ($(grep -c '^ *254,0 ' "$OUT/s2.out") records)" \
		test "$(grep -c '^ *254,0 ' "$OUT/s2.out")" = "$(grep -c '^ *254,0 ' "$OUT/s2.ref")"
	check "parse -l: another machine's 254,0 said to be shown as 254,4096" \
		grep -qx 'server: 127.0.0.2: nullb0 (254,0) shown as 254,4096' "$OUT/s2.err"
	check "parse -l: ... and its records under that number" \
		test "$(grep -c '^ *254,4096 ' "$OUT/s2.out")" = "$(grep -c '^ *254,0 ' "$OUT/s2.ref")"
	listen s3 $((P + 24)) parse -l -p $((P + 24))
	python3 "$NC" $((P + 24)) open:cut:0:2 data:cut:1:2:$OUT/p1.bin data:cut:0:2:$E/nullb0.blktrace.0 close:cut:0:2 >/dev/null
	ended s3
	check "parse -l: a record cut and left: said and dropped" \
		grep -qE '^server: 127\.0\.0\.1: [0-9]+ bytes of a record cut short dropped$' "$OUT/s3.err"
	check "parse -l: ... the rest parsed ($(grep -c '^ *254,0 ' "$OUT/s3.out") records)" \
		test "$(grep -c '^ *254,0 ' "$OUT/s3.out")" -gt 1000
	# a record past NET_CARRY (a 2000-byte payload) cut between two
	# messages: that connection dropped, saying why; whole, it would pass
	python3 -c '
import struct, sys
r = struct.pack("<IIQQIIIIIHH", 0x65617407, 1, 1000, 0, 0, 0x4000000, 1, 254 << 20, 0, 0, 2000) + b"x" * 2000
open(sys.argv[1], "wb").write(r[:1000]); open(sys.argv[2], "wb").write(r[1000:])' "$OUT/big1.bin" "$OUT/big2.bin"
	listen s4 $((P + 28)) parse -l -p $((P + 28))
	python3 "$NC" $((P + 28)) open:big:0:1 data:big:0:1:$OUT/big1.bin data:big:0:1:$OUT/big2.bin >/dev/null
	ended s4
	check "parse -l: a record past NET_CARRY cut in two: its connection dropped, saying why" \
		grep -qx 'server: 127.0.0.1: a record longer than this server takes (NET_CARRY); connection dropped' "$OUT/s4.err"
	# a -z client's frames (trace -h -z) to a plain server: stored as
	# NAME.blktrace.CPU.zst, a frame half-sent at the end cut, and the
	# summary counts what the whole frames hold
	if need "net server: a -z client's frames" zstd; then
		zstd -q -c "$E/nullb0.blktrace.0" >"$OUT/f1.zst"; head -c 100 "$OUT/f1.zst" >"$OUT/fcut.bin"
		rm -rf "$OUT/zf"; mkdir -p "$OUT/zf"
		"$IOMON" trace -l -p $((P + 29)) -D "$OUT/zf" >"$OUT/zf.out" 2>"$OUT/zf.err" & SPID=$!
		poll 10 sh -c "ss -ltn | grep -q ':$((P + 29)) '"
		python3 "$NC" $((P + 29)) open:zc:0:1 data:zc:0:1:$OUT/f1.zst raw:zc:0:1:5000:$OUT/fcut.bin >/dev/null
		poll 5 grep -q "end of run" "$OUT/zf.out"; kill -INT $SPID; wait $SPID
		check "net server, a -z client: its frames in zc.blktrace.0.zst, the half-sent one cut" \
			cmp "$OUT"/zf/*/zc.blktrace.0.zst "$OUT/f1.zst"
		check "net server, a -z client: the cut said" grep -q '^server: 127.0.0.1: zc.blktrace.0: 100 bytes of a record cut short removed$' "$OUT/zf.err"
		check "net server, a -z client: the summary counts the whole frame's records" \
			grep -qE '^  CPU  0: +1147 events, +54 KiB data$' "$OUT/zf.out"
	fi
	"$IOMON" parse -l -i x >/dev/null 2>&1
	check "parse -l with inputs: refused" test $? = 1
	"$IOMON" monitor -I 1 -l -t /dev/null >/dev/null 2>"$OUT/ml.err"
	check "monitor -l with -t: refused, saying why" grep -q 'no -t or -i with it' "$OUT/ml.err"
	"$IOMON" parse -l -p 70000 >/dev/null 2>"$OUT/pp.err"
	check "parse -l -p 70000: refused" grep -q 'Invalid port 70000' "$OUT/pp.err"

	# the tiny build: 2 connections; a third is refused, saying so
	serve iomon $((P + 8)) "$IOMON_TINY"; ipid=$SPID
	python3 "$NC" $((P + 8)) open:t:0:1 conn open:t:0:1 conn sleep:1 >/dev/null & c1=$!
	poll 5 grep -q refused "$OUT/iomon.err"; wait $c1
	check "net server, tiny build: a third connection refused (NET_CONNS)" \
		grep -q "^server: 127.0.0.1 refused: all connections taken (NET_CONNS)$" "$OUT/iomon.err"
	kill -INT $ipid; wait $ipid
fi
