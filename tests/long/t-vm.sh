# Relay capture for real, in Debian's own kernels under qemu (TCG; about a
# minute each): shared/tools/vm-capture.sh boots 6.1 (BLKTRACESETUP,
# version-7 records), vm-capture-sid.sh sid's 7.2 (BLKTRACESETUP2, version
# 8), each with iomon in the initramfs, running tests/vm/relay.sh.  Part
# of make check-long, which sets VM=1 (VM=0 leaves them out): they
# download kernels and qemu (Debian's packages) on first use.
vm_checks() {	# TAG DIR VERSION
	local t=$1 V=$2
	check "$t relay: named on stderr, version-$3 records" grep -q "capturing through relay (debugfs), version-$3 records" "$V/iomon.err"
	check "$t relay: blktrace's summary" grep -qE '^  Total: +[0-9]+ events \(dropped 0\)' "$V/iomon.sum"
	( cd "$V/iomon" && "$IOMON" parse -i nullb0 ) >"$OUT/vm.ip" 2>&1
	if have_oracle "t-vm.sh line 12: against Debian's blkparse" && [ "$3" = 7 ]; then
		( cd "$V/iomon" && blkparse -i nullb0 ) >"$OUT/vm.bp" 2>&1
		same "$t relay: Debian's blkparse reads iomon's capture identically" "$OUT/vm.ip" "$OUT/vm.bp"
	fi
	( cd "$V/bt" && "$IOMON" parse -i nullb1 ) >"$OUT/vm.bt" 2>&1
	twin_checks "$t" "$OUT/vm.ip" "$OUT/vm.bt" 384
	check "$t relay: process names" grep -qE '\[(iogen|dd)\]' "$OUT/vm.ip"
	check "$t tracefs forced: named" grep -q 'tracefs' "$V/tfs.err"
	( cd "$V/tfs" && "$IOMON" parse -i nullb0 ) >"$OUT/vm.tfs" 2>&1
	check "$t tracefs forced: requests captured" test "$(grep -cE ' Q .* \[(iogen|dd)\]' "$OUT/vm.tfs")" -gt 100
	check "$t SIGKILL then a new capture: cleared with a message" grep -q 'cleared a trace left behind' "$V/k2.err"
	check "$t SIGKILL then a new capture: succeeds" grep -q 'rc=0' "$V/k2.err"
	check "$t -k: stops and removes it" grep -q 'trace stopped and removed' "$V/kill.err"
	check "$t -k: Debian's blktrace can trace again after it" grep -q 'rc=0' "$V/after-kill.out"
	check "$t held by a live capture: refused naming its pid" \
		sh -c "grep -q \"already being traced by pid \$(sed -n 's/.*holder=//p' '$V/held.err')\" '$V/held.err'"
	check "$t stream into the parser inside the VM" grep -q '^Events (254,0): ' "$V/stream.txt"
	check "$t relay drops: counted from the kernel's dropped file" grep -qE '^  Total: .*\(dropped [1-9][0-9]*\)' "$V/drop.sum"
	check "$t relay drops: blktrace's warning" grep -q '^Consider using a larger buffer size (-b) and/or more buffers (-n)$' "$V/drop.err"
	if grep -q nullb0p1 "$V/parts.txt"; then
		check "$t disk and partition at once: refused" grep -q 'cannot be traced together' "$V/both.err"
		( cd "$V/part" && "$IOMON" parse -i nullb0p1 ) >"$OUT/vm.part" 2>&1
		check "$t a partition alone: its 50 writes" test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 \[dd\]' "$OUT/vm.part")" = 50
	else
		skip "$t partitions" "fdisk made no partition in the VM"
	fi
	# 20 disks through relay at once: each one's write, each read as
	# Debian's blkparse reads it (version 7)
	check "$t relay, 20 disks: exit 0, a summary for each" \
		sh -c "grep -q '^rc=0\$' '$V/many.err' && test \$(grep -c '^  Total:' '$V/many.sum') = 20"
	local i n=0 same_all=1
	for i in $(seq 0 19); do
		( cd "$V/many" && "$IOMON" parse -i nullb$i ) >"$OUT/vm.many" 2>&1
		grep -qE ' Q +WS? 0 \+ 8 \[dd\]' "$OUT/vm.many" && n=$((n + 1))
		if have_oracle && [ "$3" = 7 ]; then
			( cd "$V/many" && blkparse -i nullb$i ) >"$OUT/vm.manybp" 2>&1
			cmp -s "$OUT/vm.many" "$OUT/vm.manybp" || same_all=0
		fi
	done
	check "$t relay, 20 disks: each disk's write in its files ($n of 20)" test $n = 20
	if [ "$3" = 7 ] && have_oracle; then
		check "$t relay, 20 disks: each disk's files read as Debian's blkparse reads them" test $same_all = 1
	fi
	# the same under a hard limit of 32 open files, raised as root
	check "$t relay, 20 disks under a hard limit of 32 files: exit 0, a summary for each" \
		sh -c "grep -q '^rc=0\$' '$V/manyh.err' && test \$(grep -c '^  Total:' '$V/manyh.sum') = 20"
	n=0
	for i in $(seq 0 19); do
		( cd "$V/manyh" && "$IOMON" parse -i nullb$i ) 2>&1 | grep -qE ' Q +WS? 0 \+ 8 \[dd\]' && n=$((n + 1))
	done
	check "$t relay, 20 disks under a hard limit of 32 files: each disk's write ($n of 20)" test $n = 20
}
if vm_ok "VM relay capture"; then
	V=$OUT/vm; rm -rf "$V"
	cp "$IOMON" "$OUT/iomon"
	# timeout signals the whole process group, qemu included: a guest that
	# hangs (TCG can starve one) ends the test instead of CI
	if EXTRA_BIN="$OUT/iomon" timeout -k 10 420 bash "$VMCAP" "$V" "$(guest_scenario "$TOP/tests/vm/relay.sh")" >"$OUT/vm.log" 2>&1 && [ -d "$V/iomon" ]; then
		pass "VM 6.1 boots and runs the scenario"
		vm_checks "6.1" "$V" 7
	else
		guest_hung "VM 6.1" /tmp/iomon-vm/console.log "$OUT/vm.log"
	fi
	V=$OUT/vm7; rm -rf "$V"
	if EXTRA_BIN="$OUT/iomon" timeout -k 10 420 bash "$TOP/../shared/tools/vm-capture-sid.sh" "$V" "$(guest_scenario "$TOP/tests/vm/relay.sh")" >"$OUT/vm7.log" 2>&1 && [ -d "$V/iomon" ]; then
		pass "VM 7.2 boots and runs the scenario"
		vm_checks "7.2" "$V" 8
	else
		guest_hung "VM 7.2" /tmp/iomon-vm7/vm/console.log "$OUT/vm7.log"
	fi
fi
