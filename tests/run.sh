#!/usr/bin/env bash
# make check: every test file tests/t-*.sh; make check-long (LONG=1): every
# tests/long/t-*.sh instead.  One summary line at the end, the last line:
# "N passed, N failed, N skipped"; the exit status is non-zero on any FAIL.
#   ONLY=SUBSTRING   only the files whose path contains it (ONLY=t-golden)
#   VERBOSE=1        print a PASS line for every check, not only FAIL/SKIP
#   JOBS=N           files run N at a time (default: the CPUs); each file's
#                    lines are printed whole, in file order.  A file with a
#                    "# serial" line near its top runs alone (it compares
#                    global kernel state, or times a live screen).
# Each file runs in a subshell of its own (no variable or function it sets
# reaches the next), in the top folder, with OUT its own scratch folder,
# tests/out/<file name without .sh>/ (tests/out/long/<name>/ for the long
# ones), emptied at its start and kept afterwards for a look.  Results go
# to tests/out/results, which this script counts.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
[ -x "$IOMON_BIN" ] || { echo "build $IOMON_BIN first (make${CROSS:+ ARCH=$CROSS})"; exit 2; }
if [ -n "$CROSS" ] && ! command -v "$IOMON_QEMU" >/dev/null; then
	echo "$IOMON_QEMU not installed (tests/tools/setup-deps.sh)"; exit 2
fi
: >"$T_RESULTS"
if [ -n "${LONG:-}" ]; then FILES=$(echo tests/long/t-*.sh); else FILES=$(echo tests/t-*.sh); fi
count() { grep -c "^$1	${2:+$2	}" "$T_RESULTS"; }	# PASS|FAIL|SKIP [FILE]
# run_file FILE: the file in its subshell; its lines, then its summary
# line, into tests/out/NAME.log
run_file() {
	local t=$1 name rc t0=$SECONDS miss= tool
	name=${t#tests/}; name=${name%.sh}
	mkdir -p "$OUT_ROOT/${name%/*}"
	{
	echo "== $t"
	# Under qemu-user: no blktrace ioctls (ENOSYS) and no VM of this
	# arch's kernel here, so what traces a live kernel is not run.
	if [ -n "$CROSS" ]; then case $t in
	*/t-trace.sh | */t-vm.sh)
		T_FILE=$t skip "$t" "live kernel capture; under qemu-user ($CROSS) only what reads files and pipes runs"
		return ;;
	esac; fi
	# "# needs: TOOL..." near the top: a file that cannot run without them
	# SKIPs whole, naming the missing tool
	for tool in $(sed -n 's/^# needs: //p' "$t"); do
		command -v "$tool" >/dev/null 2>&1 || { miss=$tool; break; }
	done
	if [ -n "$miss" ]; then
		T_FILE=$t skip "$t" "needs $miss, which is not installed (tests/tools/setup-deps.sh check)"
		return
	fi
	(
		OUT=$OUT_ROOT/$name T_FILE=$t
		readonly T_DONE=$OUT_ROOT/$name.done T_FILE
		rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
		unset name t t0 miss tool rc FILES
		. "$T_FILE"
		# a file that stops half-way (exit, a fatal shell error) says so
		echo done >"$T_DONE"
	)
	rc=$?
	if [ ! -f "$OUT_ROOT/$name.done" ]; then
		T_FILE=$t fail "$t ran to its end" "it stopped before its last line (exit status $rc)"
	fi
	rm -f "$OUT_ROOT/$name.done"
	echo "-- $t: $(count PASS "$t") passed, $(count FAIL "$t") failed, $(count SKIP "$t") skipped, $((SECONDS - t0)) s"
	} >"$OUT_ROOT/$name.log" 2>&1
}
# (the long files, VMs and fuzzing, take the machine each: one at a time)
if [ -n "${LONG:-}" ]; then JOBS=${JOBS:-1}; else JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}; fi
ORDER=() PIDS=() running=0 next=0
for t in $FILES; do
	[ -n "${ONLY:-}" ] && case $t in *"$ONLY"*) ;; *) continue ;; esac
	ORDER+=("$t")
done
# print every finished file's log whose predecessors are all printed
flush_logs() {
	while [ $next -lt ${#ORDER[@]} ] && [ -n "${PIDS[$next]:-}" ] && ! kill -0 "${PIDS[$next]}" 2>/dev/null; do
		wait "${PIDS[$next]}" 2>/dev/null
		local n=${ORDER[$next]#tests/}
		# a file whose log is missing did not run: that is a failure
		cat "$OUT_ROOT/${n%.sh}.log" 2>/dev/null ||
			T_FILE=${ORDER[$next]} fail "${ORDER[$next]} ran" "no log: it did not start"
		next=$((next + 1))
	done
}
for i in "${!ORDER[@]}"; do
	t=${ORDER[$i]}
	serial=$(sed -n '1,15{/^# serial/p}' "$t")
	# a serial file waits for all before it, and all after wait for it
	while [ $running -ge "$JOBS" ] || { [ $running -gt 0 ] && [ -n "$serial" ]; }; do
		wait -n 2>/dev/null; running=$(jobs -rp | wc -l); flush_logs
	done
	run_file "$t" &
	PIDS[$i]=$!
	running=$(jobs -rp | wc -l)
	if [ -n "$serial" ]; then wait "${PIDS[$i]}"; running=0; fi
	flush_logs
done
wait
flush_logs
[ -n "$CROSS" ] && echo "tests took ${SECONDS} s ($CROSS under $IOMON_QEMU)"
[ -n "${LONG:-}" ] && echo "(long run: tests/long/; make check runs tests/t-*.sh)"
# the failures again, named, where a log cut to its tail still shows them
awk -F '\t' '$1 == "FAIL" && ++n <= 10 { print "failed: " $2 ": " $3 }
	END { if (n > 10) print "failed: " n - 10 " more (above)" }' "$T_RESULTS"
echo "$(count PASS) passed, $(count FAIL) failed, $(count SKIP) skipped"
[ "$(count FAIL)" -eq 0 ]
