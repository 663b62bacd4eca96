# Network capture from a big-endian machine (issue 15): Debian's s390x 6.1
# kernel under qemu-system (TCG; shared/tools/xvm/xvm-capture.sh given a
# virtio-net card and user networking here) runs iomon's s390x client
# through relay and sends to iomon's server on this host, while a crafted
# little-endian client (tests/tools/netclient.py, another address) sends to
# the same server: both byte orders at once.  Part of make check-long
# (VM=1); only the guest's own user-mode network reaches the server.
XVMCAP=$TOP/../shared/tools/xvm/xvm-capture.sh
XVMDIR=${XVMDIR:-/tmp/iomon-xvm}
if [ "${VM:-0}" = 0 ]; then
	skip "s390x network client" "VM=0: set VM=1 to boot Debian's s390x kernel under qemu (make check-long does)"
elif [ ! -f "$XVMCAP" ] || [ "$(id -u)" != 0 ]; then
	skip "s390x network client" "needs root and ../shared/tools/xvm/xvm-capture.sh"
elif ! command -v qemu-system-s390x >/dev/null || ! command -v s390x-linux-gnu-gcc >/dev/null ||
	[ ! -f /usr/lib/s390x-linux-musl/musl-gcc.specs ]; then
	skip "s390x network client" "needs qemu-system-misc, gcc-s390x-linux-gnu and musl-dev:s390x (tests/tools/setup-deps.sh)"
else
	PORT=$((20000 + $$ % 20000)); V=$OUT/vm; S=$OUT/srv; E=$FIX/ext4
	rm -rf "$V" "$S"; mkdir -p "$S" "$OUT/bin"
	make -s -C "$TOP" ARCH=s390x >"$OUT/build.log" 2>&1 && cp "$TOP/build/s390x/iomon" "$OUT/bin/iomon" ||
		fail "s390x network client: the s390x build" "$(tail -5 "$OUT/build.log")"
	# xvm-capture.sh with a network card: virtio-net over CCW, its modules
	# loaded and the guest's address set before the scenario
	sed -e "s|^here=.*|here=$(dirname "$XVMCAP")|" \
	    -e 's|drivers/virtio/virtio_mmio.ko;|drivers/virtio/virtio_mmio.ko net/core/failover.ko drivers/net/net_failover.ko drivers/net/virtio_net.ko;|' \
	    -e 's|^insmod /lib/mod/virtio_blk.ko; sleep 0.5$|&\nfor m in failover net_failover virtio_net; do insmod /lib/mod/$m.ko; done\nn=0; while [ ! -e /sys/class/net/eth0 ] \&\& [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done\nip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0|' \
	    -e 's|\$disk -device virtio-blk-ccw,drive=xfer|$disk -device virtio-blk-ccw,drive=xfer -netdev user,id=n0 -device virtio-net-ccw,netdev=n0|' \
	    "$XVMCAP" >"$OUT/xvmnet.sh"
	sed "s/@PORT@/$PORT/g" "$TOP/tests/xvm/net.sh" >"$OUT/net.sh"
	"$IOMON" trace -l -p $PORT -D "$S" >"$OUT/srv.out" 2>"$OUT/srv.err" & spid=$!
	poll 10 sh -c "ss -ltn | grep -q ':$PORT '"
	# the little-endian client: a device on 127.0.0.2, its first records
	# now, the rest once the guest has connected (from 127.0.0.1: qemu's
	# user network), then its close
	NC_HOST=127.0.0.2 python3 "$TOOLS/netclient.py" $PORT open:le:0:1 data:le:0:1:$E/nullb0.blktrace.0 \
		"wait:$OUT/srv.out:connection from 127.0.0.1" data:le:0:1:$E/nullb0.blktrace.1 close:le:0:1 >"$OUT/le.acks" & lpid=$!
	if [ -f "$OUT/bin/iomon" ] && X=$XVMDIR EXTRA_BIN="$OUT/bin/iomon" TIMEOUT=200 timeout -k 10 420 \
		bash "$OUT/xvmnet.sh" s390x "$V" "$(guest_scenario "$OUT/net.sh")" >"$OUT/vm.log" 2>&1 && [ -f "$V/c.out" ]; then
		check "s390x guest with a network boots and runs the scenario" grep -qx s390x "$V/arch.txt"
		wait $lpid
		poll 10 sh -c "[ \$(grep -c 'end of run' '$OUT/srv.out') -ge 3 ]"
		check "s390x net: the server ended all three runs" test $? = 0
		kill -INT $spid; wait $spid
		check "s390x net: the server ends cleanly" test $? = 0
		check "s390x net: the guest's client used relay" grep -q 'capturing through relay' "$V/c.err"
		check "s390x net: blktrace's connecting/connected lines" \
			sh -c "head -2 '$V/c.out' | tr '\n' '|' | grep -qx 'blktrace: connecting to 10.0.2.2|blktrace: connected!|'"
		# the client's summary is the server's for that client, in its order
		# (the same slot-reuse case is crafted in t-net)
		sed -n '/^===/,$p' "$V/c.out" >"$OUT/cl.sum"
		awk '/^server: end of run for 127\.0\.0\.1:/ { on = 1; next } /^server: / { on = 0 } on' "$OUT/srv.out" >"$OUT/srv.sum"
		same "s390x net: the server's summaries are the client's" "$OUT/srv.sum" "$OUT/cl.sum"
		D=$(ls -d "$S"/127.0.0.1-* | head -1); L=$(ls -d "$S"/127.0.0.2-* | head -1)
		check "s390x net: both clients at once, each its folder" test -n "$D" -a -n "$L"
		# (a CPU that did no I/O on a device has its file, empty, as blktrace's)
		check "s390x net: the guest's files are big-endian (65 61 74 07), each device's" \
			sh -c "for f in '$D'/nullb*.blktrace.*; do [ -s \"\$f\" ] || continue
				[ \"\$(od -A n -t x1 -N 4 \"\$f\" | tr -s ' ')\" = ' 65 61 74 07' ] || exit 1; done
				[ -s '$D/nullb0.blktrace.0' -o -s '$D/nullb0.blktrace.1' ] &&
				[ -s '$D/nullb1.blktrace.0' -o -s '$D/nullb1.blktrace.1' ]"
		check "s390x net: the little-endian client's records as sent, both messages" \
			sh -c "cat '$E/nullb0.blktrace.0' '$E/nullb0.blktrace.1' | cmp -s - '$L/le.blktrace.0'"
		( cd "$D" && "$IOMON" parse -i nullb0 -i nullb1 ) >"$OUT/ip" 2>&1
		check "s390x net: the load's requests ($(grep -c ' C ' "$OUT/ip") completions)" test "$(grep -c ' C ' "$OUT/ip")" -gt 100
		check "s390x net: process names came through" grep -qE '\[dd\]' "$OUT/ip"
		if have_oracle; then
			( cd "$D" && blkparse -i nullb0 -i nullb1 ) >"$OUT/bp" 2>&1
			same "s390x net: Debian's blkparse reads the server's files as iomon does" "$OUT/ip" "$OUT/bp"
		fi
	else
		kill $lpid 2>/dev/null; kill -INT $spid; wait $spid
		guest_hung "s390x net" "$XVMDIR/work-s390x/console.log" "$OUT/vm.log"
	fi
fi
