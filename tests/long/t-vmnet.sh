# Network capture with a real relay client (issue 15): Debian's 6.1 kernel
# under qemu (shared/tools/vm-capture.sh, given an e1000 and user
# networking here) sends to iomon's server on this host: Debian's blktrace
# client with -s, iomon's client, and Debian's client without -s (its
# sendfile() is refused by 6.1's relay files).  Part of make check-long
# (VM=1); only the guest's own user-mode network reaches the server.
if vm_ok "VM network capture"; then
	PORT=$((20000 + $$ % 20000)); V=$OUT/vm; S=$OUT/srv; K=$OUT/k
	rm -rf "$V" "$S" "$K"; mkdir -p "$S" "$K"
	[ -d /tmp/iomon-vm/root/boot ] && ln -s /tmp/iomon-vm/root "$K/root"	# the kernel t-vm.sh fetched
	# the same VM with a network card, brought up before the scenario
	sed -e "s|^here=.*|here=$(dirname "$VMCAP")|" \
	    -e 's|fs/jbd2/jbd2.ko|& drivers/net/ethernet/intel/e1000/e1000.ko|' \
	    -e 's|crc32c_generic ext4; do|crc32c_generic ext4 e1000; do|' \
	    -e 's|^cd /out$|ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0\n&|' \
	    -e 's|-serial mon:stdio|-netdev user,id=n0 -device e1000,netdev=n0 &|' "$VMCAP" >"$OUT/vmnet.sh"
	sed "s/@PORT@/$PORT/g" "$TOP/tests/vm/net.sh" >"$OUT/net.sh"
	cp "$IOMON" "$OUT/iomon"
	"$IOMON" trace -l -p $PORT -D "$S" >"$OUT/srv.out" 2>"$OUT/srv.err" & spid=$!
	if K=$K EXTRA_BIN="$OUT/iomon" timeout -k 10 420 bash "$OUT/vmnet.sh" "$V" "$(guest_scenario "$OUT/net.sh")" >"$OUT/vm.log" 2>&1 &&
	   [ -f "$V/c2.out" ]; then
		pass "VM 6.1 with a network boots and runs the scenario"
		# each client's summary is the server's for that client, in order;
		# the server has ended the last client's run once it printed them
		# all and dropped the third client's connection
		for c in c1 c2; do sed -n '/^===/,$p' "$V/$c.out"; done >"$OUT/cl.sum"
		poll 20 sh -c "[ \$(grep -vc '^server: ' '$OUT/srv.out') -ge $(wc -l <"$OUT/cl.sum") ] && grep -q 'connection dropped' '$OUT/srv.err'"
		check "VM net: the server printed both clients' summaries" test $? = 0
		kill -INT $spid; wait $spid
		check "VM net: the server ends cleanly" test $? = 0
		grep -v '^server: ' "$OUT/srv.out" | head -$(wc -l <"$OUT/cl.sum") >"$OUT/srv.sum"
		same "VM net: the server's summaries are the clients' (Debian's -s, then iomon's)" "$OUT/srv.sum" "$OUT/cl.sum"
		check "VM net: iomon's client used relay" grep -q 'capturing through relay' "$V/c2.err"
		# a reader process on each of the guest's two CPUs, pinned there,
		# beside the client (which may run anywhere)
		check "VM net: iomon's client reads each CPU from a process of its own on that CPU ($(tr '\n' ' ' <"$V/c2.procs"))" \
			test "$(grep -cx 0 "$V/c2.procs") $(grep -cx 1 "$V/c2.procs") $(wc -l <"$V/c2.procs")" = "1 1 3"
		n=0
		for d in "$S"/*/; do
			n=$((n + 1)); [ $n -le 2 ] || break
			( cd "$d" && "$IOMON" parse -i nullb0 -i nullb1 ) >"$OUT/ip.$n" 2>&1
			( cd "$d" && blkparse -i nullb0 -i nullb1 ) >"$OUT/bp.$n" 2>&1
			same "VM net: client $n's files: Debian's blkparse reads them as iomon does" "$OUT/ip.$n" "$OUT/bp.$n"
			check "VM net: client $n's files: the load's requests ($(grep -c ' C ' "$OUT/ip.$n") completions)" \
				test "$(grep -c ' C ' "$OUT/ip.$n")" -gt 100
		done
		check "VM net: Debian's client without -s meets 6.1's refused sendfile" grep -q 'sendfile: Invalid argument' "$V/c3.out"
		check "VM net: ... and the server drops that connection, naming the client" \
			grep -q '^server: 127.0.0.1: .*; connection dropped$' "$OUT/srv.err"
	else
		kill -INT $spid; wait $spid
		guest_hung "VM 6.1 net" "$K/console.log" "$OUT/vm.log"
	fi
fi
