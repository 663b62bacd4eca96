# tests/lib.sh: the smallest harness that keeps honest counts.
# Every test ends in exactly one of pass, fail or skip (with a reason).
T_PASS=0 T_FAIL=0 T_SKIP=0
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IOMON=${IOMON:-$TOP/iomon}
IOMON_TINY=$TOP/build/tiny/iomon
FIX=$TOP/tests/fixtures
OUT=$TOP/tests/out
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
	qemu_wrap "$OUT/qemu-$CROSS/iomon" "$IOMON_BIN"
	qemu_wrap "$OUT/qemu-$CROSS/tiny/iomon" "$TOP/build/$CROSS/tiny/iomon"
	IOMON=$OUT/qemu-$CROSS/iomon
	IOMON_TINY=$OUT/qemu-$CROSS/tiny/iomon
fi

pass() { T_PASS=$((T_PASS + 1)); [ -n "${VERBOSE:-}" ] && echo "PASS $1"; return 0; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL $1${2:+: $2}"; return 0; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP $1: $2"; return 0; }

# check NAME COMMAND...: passes when the command succeeds.
check() { local n=$1; shift; if "$@" >"$OUT/check.log" 2>&1; then pass "$n"; else fail "$n" "$(head -c 600 "$OUT/check.log")"; fi; }

# same NAME GOT EXPECTED: byte-identical files; shows the first differences.
# An empty or missing EXPECTED fails: a reference that produced nothing
# (a tool that did not run) proves nothing.  same_empty expects nothing.
same() {
	if [ ! -s "$3" ]; then fail "$1" "the reference $3 is empty or missing"
	elif cmp -s "$2" "$3"; then pass "$1"
	else fail "$1" "$(diff "$2" "$3" 2>&1 | head -8)"; fi
}
same_empty() {	# NAME FILE: FILE exists and is empty
	if [ -f "$2" ] && [ ! -s "$2" ]; then pass "$1"
	else fail "$1" "expected nothing, got: $(head -c 300 "$2" 2>&1)"; fi
}

# need NAME TOOL...: every TOOL is installed; else one SKIP naming the
# first one missing, and a false return.  A missing tool never fails a test.
need() {
	local n=$1 t; shift
	for t; do
		command -v "$t" >/dev/null 2>&1 ||
			{ skip "$n" "needs $t, which is not installed (tests/setup-deps.sh check)"; return 1; }
	done
}

# gone PID: the tracefs instance that capture PID made is removed (other
# captures on the machine, such as another test run's, are not looked at).
gone() { [ -n "$1" ] && [ ! -d "$TRACEFS/instances/iomon-$1" ]; }

# have_oracle [NAME]: Debian's blkparse is there; with NAME, a missing one
# is a SKIP naming it.
have_oracle() { if [ $# = 0 ]; then command -v blkparse >/dev/null 2>&1; else need "$1" blkparse; fi; }

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

# poll SECS CMD...: CMD every 0.1 s until it succeeds (return 0) or SECS
# have passed (return 1).
poll() {
	local n=$(($1 * 10)); shift
	until "$@"; do
		n=$((n - 1)); [ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

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

# guest_scenario SCRIPT: the guest's script with tests/vm/guest.sh in front
# (what every VM scenario shares); prints the combined file's path.
guest_scenario() {
	local s=$OUT/scen-$(basename "$(dirname "$1")").sh
	cat "$TOP/tests/vm/guest.sh" "$1" >"$s" && echo "$s"
}

# twin_checks TAG IOMON-TEXT BLKTRACE-TEXT: a VM capture by iomon against
# Debian's blktrace on a twin device under the same load.
twin_checks() {
	local q1 q2 c1
	q1=$(grep -c ' Q ' "$2"); q2=$(grep -c ' Q ' "$3"); c1=$(grep -c ' C ' "$2")
	check "$1 relay: as many requests as blktrace saw on its twin device ($q1 vs $q2)" \
		test "$q1" -gt $((q2 * 7 / 10)) -a "$q1" -lt $((q2 * 13 / 10))
	check "$1 relay: completions match queued requests ($c1 of $q1)" test "$c1" -ge $((q1 - 10)) -a "$q1" -gt 100
}
