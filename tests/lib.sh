# tests/lib.sh: the smallest harness that keeps honest counts.
# Every test ends in exactly one of pass, fail or skip (with a reason).
# tests/run.sh sources this once, then runs each test file in a subshell of
# its own (nothing a file defines reaches the next) with OUT its own fresh
# scratch folder, tests/out/<file>/; results go to a file run.sh counts.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IOMON=${IOMON:-$TOP/iomon}
IOMON_TINY=$TOP/build/tiny/iomon
FIX=$TOP/tests/fixtures
TOOLS=$TOP/tests/tools	# helpers the tests run: *.py, gentrace, peakrss, ...
# blkparse's text as latbtt.py reads it: every record's sector, which the
# plain text leaves out where a record has no size (jbd2's Q FWFSM, which a
# loop under dm-linear completes as C WSM at that sector: t-vmdiff's seed
# 36073 w6)
SECFMT='%D %2c %8s %5T.%9t %5p %2a %3d %S + %n\n'
OUT_ROOT=$TOP/tests/out
OUT=$OUT_ROOT	# run.sh sets each file's own
T_RESULTS=$OUT_ROOT/results	# one line per result: PASS|FAIL|SKIP, file, name
mkdir -p "$OUT"

# make check ARCH=...: the tests run build/ARCH/iomon under qemu-user.
# binfmt_misc is not mounted, so "$IOMON" is a script naming qemu; it
# passes on the name it was called by, so a symlink blkparse -> it runs the
# parser.  (Only the base name: a script cannot tell "blkparse" found in
# PATH from /dir/blkparse, and blkparse -V prints the former.)
# IOMON_BIN is the binary itself (for file, nm, size).
CROSS=${IOMON_ARCH:-}
IOMON_BIN=$IOMON
case $CROSS in armhf) IOMON_QEMU=${IOMON_QEMU:-qemu-arm-static} ;;
?*) IOMON_QEMU=${IOMON_QEMU:-qemu-$CROSS-static} ;; esac
qemu_wrap() {	# WRAPPER BINARY
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<-EOF
	#!/bin/sh
	# $2 under $IOMON_QEMU, by the name this was run as
	B='$2'
	if [ "\$1" = --install ] && [ \$# -ge 2 ]; then
		# the links it makes to the binary itself lead here instead
		$IOMON_QEMU -0 "\${0##*/}" "\$B" "\$@"; rc=\$?
		eval "d=\\\${\$#}"
		for l in "\$d"/*; do
			[ -L "\$l" ] && [ "\$(readlink "\$l")" = "\$B" ] && ln -sf "\$0" "\$l"
		done
		exit \$rc
	fi
	exec $IOMON_QEMU -0 "\${0##*/}" "\$B" "\$@"
	EOF
	chmod +x "$1"
}
if [ -n "$CROSS" ]; then
	IOMON_BIN=$TOP/build/$CROSS/iomon
	qemu_wrap "$OUT_ROOT/qemu-$CROSS/iomon" "$IOMON_BIN"
	qemu_wrap "$OUT_ROOT/qemu-$CROSS/tiny/iomon" "$TOP/build/$CROSS/tiny/iomon"
	IOMON=$OUT_ROOT/qemu-$CROSS/iomon
	IOMON_TINY=$OUT_ROOT/qemu-$CROSS/tiny/iomon
fi

# t_where: where in the test file this result comes from, innermost first
# (a helper defined in the file, then the line that called it).
t_where() {
	local i w=
	for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do
		case ${BASH_SOURCE[i]##*/} in t-*.sh)
			w="${w:+$w <- }${BASH_SOURCE[i]#"$TOP"/}:${BASH_LINENO[i - 1]}" ;;
		esac
	done
	echo "${w:-${T_FILE:-?}}"
}
# q ARG...: the arguments shell-quoted, to paste into a shell ('...' around
# any with characters a shell would read)
q() {
	local a s= sq="'\\''"
	for a; do
		case $a in
		'' | *[!A-Za-z0-9_./:=,+@%^-]*) a="'${a//\'/$sq}'" ;;
		esac
		s="$s${s:+ }$a"
	done
	echo "$s"
}

t_result() { printf '%s\t%s\t%s\n' "$1" "${T_FILE:-run.sh}" "$2" >>"$T_RESULTS"; }
pass() { t_result PASS "$1"; [ -n "${VERBOSE:-}" ] && echo "PASS $1"; return 0; }
# fail NAME [DETAIL [REPRODUCE]]: the file and line, what went wrong, and a
# command line that shows it again
fail() {
	t_result FAIL "$1"
	echo "FAIL $1${2:+: $2}"
	echo "     at $(t_where)"
	[ -n "${3:-}" ] && echo "     reproduce: $3"
	return 0
}
skip() { t_result SKIP "$1"; echo "SKIP $1: $2"; return 0; }

# check NAME COMMAND...: passes when the command succeeds.  A failure shows
# its output and the command, quoted, in the folder it ran in (a shell
# function is named as one: it lives in the test file or tests/lib.sh).
check() {
	local n=$1; shift
	if "$@" >"$OUT/check.log" 2>&1; then pass "$n"; return 0; fi
	local r
	r="cd $(q "$PWD") && $(q "$@")"
	[ "$(type -t "$1")" = function ] && r="$r   ($1 is a shell function of $(shopt -s extdebug; declare -F "$1" | cut -d' ' -f3- | sed "s|^$TOP/||"))"
	fail "$n" "$(head -c 600 "$OUT/check.log")" "$r"
}

# same NAME GOT EXPECTED: byte-identical files; shows the first differences.
# An empty or missing EXPECTED fails: a reference that produced nothing
# (a tool that did not run) proves nothing.  same_empty expects nothing.
# A failure keeps both files as $OUT/fail-N.got and .exp (later cases may
# reuse GOT and EXPECTED's names) and prints the diff to run on them.
T_FAILS=0
keep_failed() {	# N GOT EXP: the diff command on kept copies
	local g=$OUT/fail-$1.got e=$OUT/fail-$1.exp; shift
	cp "$1" "$g" 2>/dev/null || : >"$g"; cp "$2" "$e" 2>/dev/null || : >"$e"
	echo "diff $(q "$g" "$e")   (copies of $(q "$1" "$2"))"
}
same() {
	if cmp -s "$2" "$3" && [ -s "$3" ]; then pass "$1"; return 0; fi
	T_FAILS=$((T_FAILS + 1))
	if [ ! -s "$3" ]; then fail "$1" "the reference $3 is empty or missing" "$(keep_failed $T_FAILS "$2" "$3")"
	else fail "$1" "$(diff "$2" "$3" 2>&1 | head -8)" "$(keep_failed $T_FAILS "$2" "$3")"; fi
}
# same, but two empty outputs are the same too (a capture with no requests)
same0() { if [ ! -s "$2" ] && [ ! -s "$3" ]; then pass "$1 (both empty)"; else same "$@"; fi; }
same_empty() {	# NAME FILE: FILE exists and is empty
	if [ -f "$2" ] && [ ! -s "$2" ]; then pass "$1"
	else fail "$1" "expected nothing, got: $(head -c 300 "$2" 2>&1)" "cat $(q "$2")"; fi
}

# One-line cases, as toybox's tests are written:
#   testcmd NAME "ARGS" EXPECTED [DIR]
# runs `iomon ARGS` in DIR (a folder under tests/fixtures, or an absolute
# path; default tests/fixtures) with stdin from /dev/null; ARGS is shell
# text (quotes, <FILE, 2>&1, | head work as typed).  It passes when the exit
# status is 0 and stdout equals EXPECTED: an absolute path of a file (.gz
# is read through gzip -dc; an empty or missing file fails, as in same),
# else the text itself with printf's backslash escapes ("Q 0\nG 0\n").  A
# failure prints the line that shows it again:
#   reproduce: cd DIR && iomon ARGS | diff - EXPECTED
# and the first lines of that diff.
#   testoracle NAME "ARGS" [DIR]
# the same with `blkparse ARGS` run in DIR as EXPECTED and `iomon parse
# ARGS` compared with it (stdout only; either may exit non-zero).
TC_N=0
testcmd() {	# NAME ARGS EXPECTED [DIR]
	local exp=$3 want src
	TC_N=$((TC_N + 1)); want=$OUT/tc$TC_N.exp
	case $exp in
	/*.gz) src="<(gzip -dc $(q "$exp"))"; gzip -dc "$exp" >"$want" 2>/dev/null ;;
	/*) want=$exp src=$(q "$exp") ;;
	*) printf '%b' "$exp" >"$want"; src=$(q "$want") ;;
	esac
	case $exp in /*) [ -s "$want" ] || { fail "$1" "the reference $exp is empty or missing"; return 0; } ;; esac
	tc_run "$1" "$2" "$want" "${4:-}" "$src" 0
}
testoracle() {	# NAME ARGS [DIR]
	local d
	TC_N=$((TC_N + 1)); d=$(tc_dir "${3:-}")
	( cd "$d" && eval "blkparse $2" ) >"$OUT/tc$TC_N.exp" 2>"$OUT/tc$TC_N.experr" </dev/null
	if [ ! -s "$OUT/tc$TC_N.exp" ]; then
		fail "$1" "blkparse printed nothing" "cd $(q "$d") && blkparse $2"
		return 0
	fi
	tc_run "$1" "parse $2" "$OUT/tc$TC_N.exp" "${3:-}" "<(blkparse $2)" ""
}
tc_dir() { case $1 in /*) echo "$1" ;; '') echo "$FIX" ;; *) echo "$FIX/$1" ;; esac; }
tc_run() {	# NAME ARGS WANT DIR DIFF-SOURCE WANT-RC
	local d got=$OUT/tc$TC_N.got err=$OUT/tc$TC_N.err rc r
	d=$(tc_dir "$4")
	( cd "$d" && eval "\"\$IOMON\" $2" ) >"$got" 2>"$err" </dev/null
	rc=$?
	r="cd $(q "$d") && $(q "$IOMON") $2 | diff - $5"
	if [ -n "$6" ] && [ "$rc" != "$6" ]; then
		fail "$1" "exit $rc: $(head -3 "$err")" "$r"
	elif cmp -s "$got" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$got" "$3" 2>&1 | head -8)" "$r"
	fi
}

# need NAME TOOL...: every TOOL is installed; else one SKIP naming the
# first one missing, and a false return.  A missing tool never fails a test.
need() {
	local n=$1 t; shift
	for t; do
		command -v "$t" >/dev/null 2>&1 ||
			{ skip "$n" "needs $t, which is not installed (tests/tools/setup-deps.sh check)"; return 1; }
	done
}

# gone PID: the tracefs instance that capture PID made is removed (other
# captures on the machine, such as another test run's, are not looked at).
gone() { [ -n "$1" ] && [ ! -d "$TRACEFS/instances/iomon-$1" ]; }

# have_oracle [NAME]: Debian's blkparse is there; with NAME, a missing one
# is a SKIP naming it.
have_oracle() { if [ $# = 0 ]; then command -v blkparse >/dev/null 2>&1; else need "$1" blkparse; fi; }

# gaporacle STREAM CLOSED OUT [OPTION...]: what iomon parse -i - prints for
# a stream that lost records, into OUT and OUT.err.  blkparse holds every
# record after a gap to the end of input where iomon goes on (blkparse.1,
# DIFFERENCES); going on is blkparse's own way where nothing was lost, so
# this is blkparse on CLOSED (closegaps.py stream: the gaps closed; iomon's
# numbers are mapped the same way by closegaps.py text), with the lost
# records' skips of blkparse on STREAM as it is (whose own text is left in
# OUT.asis) added to each Skips line and -v's "skipping" lines.  blkparse
# can find skips on CLOSED too, where the pipe brings a CPU's records too
# late for its window (seed 29731 w9, 7.2: each CPU's file whole, one
# after the other; iomon finds them as well): those are summed with the
# lost ones, the ratio taken over the Events line's count as blkparse
# does, and since -v's lines do not say their CPU, whose order blkparse
# prints them in, OUT.anyorder then says to compare them as a set
# (skipsort).  False where CLOSED still has a gap (closegaps.py finds one).
SKIPLINE='^\([0-9]+,[0-9]+\): skipping [0-9]+ -> [0-9]+$'	# -v's, blkparse's and iomon's
gaporacle() {
	local in=$1 closed=$2 o=$3; shift 3
	blkparse -i - "$@" <"$in" >"$o.asis" 2>"$o.asis.err"
	blkparse -i - "$@" <"$closed" >"$o.c" 2>"$o.c.err"
	awk 'FILENAME == ARGV[1] { s[n++] = $0; next }
		/^Events \(/ { e = $(NF - 1) }
		/^Skips:/ { a = s[k++]; if ($2 != 0) { split(a, w, /[ (]+/); split($0, v, /[ (]+/); c = v[2] + w[2]; l = v[4] + w[4]
			a = sprintf("Skips: %d forward (%d - %5.1f%%)", c, l, (!c && !e) ? 0 : 100 * l / (e + l)) }
			$0 = a } 1' <(grep '^Skips:' "$o.asis") "$o.c" >"$o"
	rm -f "$o.anyorder"
	grep -qE "$SKIPLINE" "$o.c.err" && : >"$o.anyorder"
	{ grep -vE "$SKIPLINE" "$o.c.err"; grep -hE "$SKIPLINE" "$o.c.err" "$o.asis.err"; } >"$o.err"
	[ "$(python3 "$TOOLS/closegaps.py" stream "$closed" /dev/null)" = 0 ]
}
# skipsort FILE...: each FILE's -v "skipping" lines (last, as blkparse and
# iomon print them) sorted, where gaporacle could not know their order
skipsort() {
	local f
	for f; do
		{ grep -vE "$SKIPLINE" "$f"; grep -E "$SKIPLINE" "$f" | sort; } >"$f.s" && mv "$f.s" "$f"
	done
}

# btrecord's .replay files (t-btrecord, t-vmdiff):
# counts FILE: "HEADER-BUNCHES HEADER-IOS FILE-BUNCHES FILE-IOS LAST-BUNCH-IOS"
counts() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
ver, gen, hb, hp = struct.unpack_from("<4Q", d, 0)
o, b, p, last = 32, 0, 0, 0
while o < len(d):
    n, t = struct.unpack_from("<2Q", d, o)
    o += 16 + 24 * n
    b, p, last = b + 1, p + n, n
if o != len(d) or ver != 0x10000:
    sys.exit("%s: not a replay file (version %x, %d bytes over)" % (sys.argv[1], ver, o - len(d)))
print(hb, hp, b, p, last)
PY
}
# body GOT EXP: the same bytes but the header's counts (bytes 16 to 31)
body() { cmp <(head -c 16 "$1"; tail -c +33 "$1") <(head -c 16 "$2"; tail -c +33 "$2"); }
# true_counts OURS DEBIANS: ours count what the file holds; Debian's one
# bunch and its I/Os fewer (none when the file has none)
true_counts() {
	local o d
	o=$(counts "$1") && d=$(counts "$2") || return 1
	set -- $o $d
	[ "$1 $2" = "$3 $4" ] || { echo "ours: header $1 $2, file $3 $4"; return 1; }
	if [ "$8" = 0 ]; then [ "$6 $7" = "0 0" ]; else [ "$6 $7" = "$(($8 - 1)) $(($9 - ${10}))" ]; fi ||
		{ echo "Debian's: header $6 $7, file $8 $9, last bunch ${10}"; return 1; }
}

# Dumps in the host's order (parse -d, monitor -d write what btt and
# blkiomon's readers on that host read).  Expected dumps come from Debian's
# x86_64 tools, so on a big-endian host every 48-byte header is compared
# with its fields swapped; payloads stay as the kernel wrote them.
host_be() { [ "$(od -An -j5 -N1 -tu1 "$IOMON_BIN" | tr -d ' ')" = 2 ]; }
same_dump() {	# NAME GOT EXP
	if host_be; then
		python3 - "$3" "$OUT/dump.be" <<-'PY'
		import struct, sys
		d, out, off = open(sys.argv[1], "rb").read(), bytearray(), 0
		f = "IIQQIIIIIHH"
		while off + 48 <= len(d):
		    h = struct.unpack_from("<" + f, d, off)
		    out += struct.pack(">" + f, *h) + d[off + 48:off + 48 + h[10]]
		    off += 48 + h[10]
		open(sys.argv[2], "wb").write(out + d[off:])
		PY
		same "$1 (big-endian host)" "$2" "$OUT/dump.be"
	else
		same "$1" "$2" "$3"
	fi
}

# live_ok NAME [TOOL...]: this machine can capture live (root, a loop
# device, tracefs with the block events, and each TOOL); else one SKIP
# with the reason and a false return.
TRACEFS=/sys/kernel/tracing
live_ok() {
	local n=$1 t; shift
	[ -z "$CROSS" ] || { skip "$n" "under qemu-user ($CROSS): the host's own build captures"; return 1; }
	need "$n" losetup "$@" || return 1
	[ "$(id -u)" = 0 ] || { skip "$n" "needs root"; return 1; }
	{ [ -d $TRACEFS/instances ] || mount -t tracefs nodev $TRACEFS 2>/dev/null; } && [ -d $TRACEFS/events/block ] ||
		{ skip "$n" "no tracefs with block events on this kernel"; return 1; }
}

# many_loops N PREFIX: N loop devices on 1 MiB images PREFIX1.img ...,
# listed in PREFIX.devs; false if fewer could be made (as many as were,
# still listed, for many_loops_gone PREFIX to detach with their images)
many_loops() {
	local i
	: >"$2.devs"
	for i in $(seq "$1"); do truncate -s 1M "$2$i.img"; losetup -f --show "$2$i.img" >>"$2.devs" || break; done
	[ "$(wc -l <"$2.devs")" = "$1" ]
}
many_loops_gone() {
	local d
	for d in $(cat "$1.devs"); do losetup -d "$d"; done
	rm -f "$1"[0-9]*.img
}

# widowed CMD...: CMD with its stdout a pipe whose reader is already gone
# (a FIFO opened by a reader that closes before CMD starts), so its first
# write meets EPIPE for certain; returns CMD's status.
widowed() {
	local f=$OUT/widowed.fifo rc
	rm -f "$f"; mkfifo "$f" || return 125
	exec 8<>"$f" 9>"$f" 8<&-
	"$@" >&9; rc=$?
	exec 9>&-; rm -f "$f"
	return $rc
}

# pinned CMD...: CMD and what it starts on one CPU.  A program and its tag
# helper answer each other record by record through pipes; on an idle
# machine every answer wakes the other CPU, and a replay takes five times
# as long as on one CPU (2.4 s against 0.4 s here).  Nothing else changes.
pinned() {
	local c
	c=$(taskset -cp $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
	if [ -n "$c" ]; then taskset -c "$c" "$@"; else "$@"; fi
}

# poll SECS CMD...: CMD every 0.1 s until it succeeds (return 0) or SECS
# have passed (return 1).
poll() {
	local n=$(($1 * 10)); shift
	until "$@"; do
		n=$((n - 1)); [ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# wait_for SECS WHAT CMD...: CMD every 0.1 s until it succeeds (return 0);
# after SECS without it, a FAIL "waited for WHAT" naming CMD and the line
# that waited, and return 1.  For a step that must follow an event a test
# can see (a line in a file, a port listening, a process ended) instead of
# a sleep guessed long enough: it waits as long as the event takes, on a
# loaded machine too, and no longer.  Nothing is counted when it comes.
wait_for() {
	local s=$1 w=$2; shift 2
	poll "$s" "$@" && return 0
	fail "waited for $w" "not within $s s: $(q "$@")"
	return 1
}
# at_least N ERE FILE: FILE has N lines or more matching ERE
at_least() { [ "$(grep -cE -- "$2" "$3" 2>/dev/null)" -ge "$1" ]; }
# exited PID: the process PID is gone (or a zombie not yet waited for)
exited() { ! kill -0 "$1" 2>/dev/null || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]; }

# capturing ERRFILE PID: wait until the capture PID says on ERRFILE that the
# kernel traces (or PID has ended), rather than sleeping a guessed time that
# a loaded machine overruns; 30 s at most.  Remove ERRFILE before starting
# the capture: an earlier run's line would be taken for this one's.
capturing() {
	local i
	for i in $(seq 300); do
		grep -q 'capturing through' "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	echo "note: pid $2 not capturing after 30 s ($1)" >&2
	return 1
}

# tracing PID: the capture PID reads the kernel's trace: it holds a
# tracefs trace_pipe_raw (or relay's debugfs trace file) open, as it does
# from just before it says "capturing through".  For a capture that says
# nothing (blkiomon, blktrace -o - under their own names); needs root.
tracing() { ls -l "/proc/$1/fd" 2>/dev/null | grep -qE 'trace_pipe_raw$|/block/[^/]+/trace[0-9]+$'; }

# guest_hung NAME CONSOLE LOG: a VM that did not finish.  A guest that
# soft-locks under TCG (an emulator starving it under load; the kernel names
# the stuck task) says nothing about iomon: SKIP, naming it.  Anything else
# is a FAIL.
guest_hung() {
	if grep -q 'soft lockup' "$2" 2>/dev/null && ! grep 'soft lockup' "$2" | grep -q '\[iomon'; then
		skip "$1 relay capture" "the guest soft-locked under TCG ($(grep -m1 -o 'stuck for .*' "$2"))"
	else
		fail "$1 relay capture" "$(tail -5 "$3")"
	fi
}

# vm_ok NAME: the VM tests may run (VM=1, root, shared/tools/vm-capture.sh
# as VMCAP); else one SKIP saying why and a false return.
VMCAP=$TOP/../shared/tools/vm-capture.sh
vm_ok() {
	if [ "${VM:-0}" = 0 ]; then
		skip "$1" "VM=0: set VM=1 to boot Debian's kernels under qemu (make check-long does)"
		return 1
	fi
	[ -f "$VMCAP" ] && [ "$(id -u)" = 0 ] || { skip "$1" "needs root and ../shared/tools/vm-capture.sh"; return 1; }
}

# guest_scenario SCRIPT [SHARED...]: the guest's script with tests/vm/guest.sh
# (what every VM scenario shares) and any SHARED files in front; prints the
# combined file's path.
guest_scenario() {
	local s=$OUT/scen-$(basename "$(dirname "$1")").sh f=$1
	shift
	cat "$TOP/tests/vm/guest.sh" "$@" "$f" >"$s" && echo "$s"
}

# twin_checks TAG IOMON-TEXT BLKTRACE-TEXT N: a VM capture by iomon against
# Debian's blktrace on a twin device under the same load of N requests by
# dd; both captures run from before the load starts until after it ends
twin_checks() {
	local q1 q2 c1
	q1=$(grep -cE ' Q .*\[dd\]' "$2"); q2=$(grep -cE ' Q .*\[dd\]' "$3"); c1=$(grep -cE ' C ' "$2")
	check "$1 relay: every request of the load ($q1 of $4)" test "$q1" = "$4"
	check "$1 relay: as many as blktrace saw on its twin device ($q2)" test "$q1" = "$q2"
	check "$1 relay: completions match queued requests ($c1 of $q1)" test "$c1" -ge "$q1"
}
