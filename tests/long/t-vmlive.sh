# needs: python3
# Live capture through relay (issue 27), in Debian's 6.1 kernel under qemu
# (shared/tools/vm-capture.sh, TCG; a few minutes): tests/vm/live.sh runs
# each live consumer on null_blk (the stream into parse, -D's files as they
# grow, btrace, top, monitor -t, btt --trace (its report; -l's file), biosnoop, biolatency,
# biopattern; bitesize, which prints at its end) under a slow load (a write every
# 0.5 s) and a fast one (2000 writes), and records, on the guest's clock,
# when each write showed and whether the capture still ran; the checks
# here assert on those lines (the requirement: a second; the deadline:
# DEADLINE_MS, for TCG).  Then relay's stream order across CPUs, a
# pipeline stopped by Ctrl-C, and one load captured through relay and
# tracefs at once, record by record.  Part of make check-long (VM=1).
DEADLINE_MS=3000 N_SLOW=6
. "$TOOLS/livecheck.sh"

# live_checks V NAME: the guest's lines for consumer NAME
live_checks() {
	local V=$1 n=$2 L=$1/live.log r fin
	fin=$(awk -v n="$n" '$1 == n && $2 == "final" { print "once the capture ended, its output held " $3 " of the '$N_SLOW' slow writes and " ($4 == "all" ? "all" : "not all") " of the fast ones" }' "$L")
	r=$(awk -v n="$n" -v d=$DEADLINE_MS -v want=$N_SLOW '
		$1 == n && $2 == "slow" {
			k++; lat = $5 - $4
			if ($5 == -2) skipped++
			else if ($5 < 0) bad = bad " write " $3 " not shown within the guest patience (6 s)"
			else { l = l " " lat; if (lat > d) bad = bad " write " $3 " after " lat " ms"; if ($6 != 1) bad = bad " write " $3 " shown after the capture ended"; if (lat > m) m = lat }
		}
		END {
			if (skipped) bad = bad "; the " skipped " after it not waited for"
			if (k != want) bad = bad "; " k " of " want " writes logged"
			printf "%s|%d|%s\n", bad, m, l
		}' "$L")
	if [ -z "${r%%|*}" ]; then
		r=${r#*|}
		pass "VM relay $n, slow load: each of $N_SLOW writes shown while the capture runs, within ${r%%|*} ms (ms:${r#*|})"
	else
		fail "VM relay $n, slow load: each write shown within $DEADLINE_MS ms while the capture runs" \
			"${r%%|*}; $fin" "less $(q "$V/view-$n.slow") $(q "$L")"
	fi
	r=$(awk -v n="$n" -v d=$DEADLINE_MS '
		$1 == n && $2 == "fast" {
			k++
			if ($5 < 0) bad = bad " its first write not shown within the guest patience (6 s)"
			else if ($5 - $3 > d) bad = bad " its first write shown " ($5 - $3) " ms after dd started"
			if ($5 >= 0 && $6 < 0) bad = bad " not all shown within the guest patience after dd ended"
			else if ($6 >= 0 && $6 - $4 > d) bad = bad " all shown " ($6 - $4) " ms after dd ended"
			if ($5 >= 0 && $7 != 1) bad = bad " shown after the capture ended"
			s = "in " ($4 - $3) " ms; the first shown " ($5 - $3) " ms after dd started, all " ($6 - $4) " ms after it ended"
		}
		END { if (k != 1) bad = "no line for it"; printf "%s|%s\n", bad, s }' "$L")
	if [ -z "${r%%|*}" ]; then
		pass "VM relay $n, fast load: 2000 writes ${r#*|}, while the capture runs"
	else
		fail "VM relay $n, fast load: every write shown within $DEADLINE_MS ms while the capture runs" \
			"${r%%|*}; $fin" "less $(q "$V/view-$n.fast") $(q "$L")"
	fi
	r=$(awk -v n="$n" '$1 == n && $2 == "rc" { print $3 }' "$L")
	[ "$r" = - ] || check "VM relay $n: SIGINT ends it, exit 0 ($r)" test "$r" = 0
}

# backend_checks V: one load through relay ($V/rl) and tracefs ($V/tf) at
# once, every record's every field but seq and time (each capture's own).
# Set aside, as no tracefs capture can know them: an unplug's kind
# (block_unplug does not say whether it was explicit; relay's UT is U),
# the TIMESTAMP note (each capture's own start), and a process note's CPU
# and repeats (tracefs notes a task again where a CPU read later holds an
# earlier event of it).  What differs besides
# is named in the check: tests/tools/recdiff.py pairs the records.
backend_checks() {
	local V=$1 f d
	check "VM relay and tracefs at once: relay named" grep -q 'capturing through relay' "$V/rl.err"
	check "VM relay and tracefs at once: tracefs named" grep -q 'capturing through tracefs' "$V/tf.err"
	python3 "$TOOLS/recdump.py" -o seq,time "$V"/rl/nullb0.blktrace.* | sort >"$OUT/rl.rec"
	python3 "$TOOLS/recdump.py" -o seq,time "$V"/tf/nullb0.blktrace.* | sort >"$OUT/tf.rec"
	check "VM relay and tracefs at once: a load of flushes, writes and reads ($(wc -l <"$OUT/rl.rec") records)" \
		test "$(wc -l <"$OUT/rl.rec")" -gt 1000
	d=$(python3 "$TOOLS/recdiff.py" "$OUT/rl.rec" "$OUT/tf.rec")
	echo "relay -> tracefs, nothing set aside: $d" >"$OUT/recdiff.txt"
	check "VM relay and tracefs at once: every field of every record but seq and time, unplug kinds, the TIMESTAMP note and process notes' CPUs and repeats aside (relay -> tracefs: $(python3 "$TOOLS/recdiff.py" -n "$OUT/rl.rec" "$OUT/tf.rec"))" \
		python3 "$TOOLS/recdiff.py" -n "$OUT/rl.rec" "$OUT/tf.rec"
	# as parse prints them: every field -f has but %s (seq) and %T.%t (time)
	f='%a %D %c %d %S %n %N %p %e %U %P %C\n'
	(cd "$V/rl" && "$IOMON" parse -q -i nullb0 -f "$f") | sed 's/^UT /U /' | sort >"$OUT/rl.f"
	(cd "$V/tf" && "$IOMON" parse -q -i nullb0 -f "$f") | sed 's/^UT /U /' | sort >"$OUT/tf.f"
	same "VM relay and tracefs at once: parse -f '${f%\\n}' prints the same lines (UT read as U)" "$OUT/tf.f" "$OUT/rl.f"
	flush_sector_check "VM tracefs: " "$V/tf" nullb0
	flush_sector_check "VM relay: " "$V/rl" nullb0
}

if vm_ok "VM live relay capture"; then
	V=$OUT/vm; K=${VMK:-/tmp/iomon-vm-live}; rm -rf "$V"
	cp "$IOMON" "$OUT/iomon"
	# timeout signals the whole process group, qemu included
	if K=$K EXTRA_BIN="$OUT/iomon" timeout -k 10 900 bash "$VMCAP" "$V" "$(guest_scenario "$TOP/tests/vm/live.sh" "$TOP/tests/vm/livepred.sh")" >"$OUT/vm.log" 2>&1 &&
	   grep -q '^done$' "$V/live.log" 2>/dev/null; then
		pass "VM 6.1 boots and runs the live scenario"
		for n in stream dir btrace top monitor btt bttl snoop lat biopattern; do live_checks "$V" $n; done
		for n in sn lat pat bs; do
			check "VM relay $n: the rescue applet captured through relay" grep -q 'capturing through relay' "$V/$n.err"
		done
		# bitesize: its one table, on SIGINT, holds every write of both loads
		check "VM relay bitesize: still running after both loads" grep -qx 'bitesize alive 1' "$V/live.log"
		check "VM relay bitesize: SIGINT ends it, exit 0" grep -qx 'bitesize rc 0' "$V/live.log"
		n=$(awk '$2 == "->" && $1 == 4 { n += $5 } END { print n + 0 }' "$V/bs.out")
		check "VM relay bitesize: the $N_SLOW slow and 2000 fast 4 KiB writes in its 4 -> 7 rows ($n)" \
			test "$n" -ge $((N_SLOW + 2000))
		order_checks "VM relay stream order: " "$OUT/o" "$V/o.bin" nullb0
		check "VM relay Ctrl-C: the pipeline's every process ends" grep -q '^ended$' "$V/c.ended"
		ctrlc_checks "VM relay Ctrl-C: " "$OUT/c" "$V/c.bin" "$V/c.mon" "$V/c.log" "$(cat "$V/c.kill")"
		backend_checks "$V"
	else
		guest_hung "VM 6.1 live" "$K/console.log" "$OUT/vm.log"
	fi
fi
