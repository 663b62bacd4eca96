# Relay capture for real, in Debian's own 6.1 kernel under qemu (TCG; about
# a minute): shared/tools/vm-capture.sh boots it with iomon in the initramfs
# and runs tests/vm/relay.sh.  Off unless VM=1 or CI is set: it downloads the
# kernel package and qemu (Debian's packages) on first use.
VMCAP=$TOP/../shared/tools/vm-capture.sh
if [ -z "${VM:-}${CI:-}" ]; then
	skip "VM relay capture" "set VM=1 to boot Debian's 6.1 kernel under qemu (CI does)"
elif [ ! -f "$VMCAP" ] || [ "$(id -u)" != 0 ]; then
	skip "VM relay capture" "needs root and ../shared/tools/vm-capture.sh"
else
	V=$OUT/vm; rm -rf "$V"
	cp "$IOMON" "$OUT/iomon"
	if EXTRA_BIN="$OUT/iomon" bash "$VMCAP" "$V" "$TOP/tests/vm/relay.sh" >"$OUT/vm.log" 2>&1 && [ -d "$V/iomon" ]; then
		pass "VM boots and runs the scenario"
		check "relay: named on stderr" grep -q 'capturing through relay' "$V/iomon.err"
		check "relay: blktrace's summary" grep -qE '^  Total: +[0-9]+ events \(dropped 0\)' "$V/iomon.sum"
		( cd "$V/iomon" && "$IOMON" parse -i nullb0 ) >"$OUT/vm.ip" 2>&1
		if have_oracle; then
			( cd "$V/iomon" && blkparse -i nullb0 ) >"$OUT/vm.bp" 2>&1
			same "relay: Debian's blkparse reads iomon's capture identically" "$OUT/vm.ip" "$OUT/vm.bp"
		fi
		( cd "$V/bt" && "$IOMON" parse -i nullb1 ) >"$OUT/vm.bt" 2>&1
		q1=$(grep -c ' Q ' "$OUT/vm.ip"); q2=$(grep -c ' Q ' "$OUT/vm.bt")
		c1=$(grep -c ' C ' "$OUT/vm.ip")
		check "relay: as many requests as blktrace saw on its twin device ($q1 vs $q2)" \
			test "$q1" -gt $((q2 * 8 / 10)) -a "$q1" -lt $((q2 * 12 / 10))
		check "relay: completions match queued requests ($c1 of $q1)" test "$c1" -ge $((q1 - 10))
		check "relay: process names (iogen)" grep -q '\[iogen\]' "$OUT/vm.ip"
		check "tracefs forced: named" grep -q 'tracefs' "$V/tfs.err"
		( cd "$V/tfs" && "$IOMON" parse -i nullb0 ) >"$OUT/vm.tfs" 2>&1
		check "tracefs forced: requests captured" test "$(grep -c ' Q .* \[iogen\]' "$OUT/vm.tfs")" -gt 100
		check "SIGKILL then a new capture: cleared with a message" grep -q 'cleared a trace left behind' "$V/k2.err"
		check "SIGKILL then a new capture: succeeds" grep -q 'rc=0' "$V/k2.err"
		check "-k: stops and removes it" grep -q 'trace stopped and removed' "$V/kill.err"
		check "-k: Debian's blktrace can trace again after it" grep -q 'rc=0' "$V/after-kill.out"
		check "held by a live capture: refused naming its pid" \
			sh -c "grep -q \"already being traced by pid \$(sed -n 's/.*holder=//p' '$V/held.err')\" '$V/held.err'"
		check "stream into the parser inside the VM" grep -q '^Events (254,0): ' "$V/stream.txt"
	else
		fail "VM relay capture" "$(tail -5 "$OUT/vm.log")"
	fi
fi
