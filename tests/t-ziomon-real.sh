# needs: python3 g++ unshare ps
# IBM's ziomon, unchanged, on iomon's blktrace and blkiomon.  Its own
# programs are built from the s390-tools sources beside the project
# (tests/tools/zio-build.sh): ziomon_mgr owns the message queue and writes
# the .log, ziomon_util reports adapter utilization and I/O errors,
# ziomon_zfcpdd reads blkiomon's -d stream, ziorep_traffic reports.  Only
# what an x86 host has not got is stood in for:
# - the zfcp sysfs files ziomon_util reads (/sys/class/scsi_host/host0/
#   {utilization,queue_full}, /sys/bus/scsi/devices/H:C:T:L/ioerr_cnt):
#   small files on a tmpfs in a private mount namespace (zutil);
# - ziomon_fcpconf's .cfg (a tarball of s390 sysfs): an empty NAME.cfg and
#   the NAME.config that ziorep_config would extract from it, one line per
#   LUN mapping it to our device numbers (zcfg).
# ziomon_util swaps its I/O-error message to big-endian in place and, on a
# little-endian host, reads the swapped LUN count at its second send and
# crashes (s390 is big-endian: never seen there); so it runs for one
# interval, as the single interval here is.
# Every blkiomon record in ziomon_mgr's .log must equal, time aside, the one
# the same pipeline with Debian's blkiomon 0.3 delivers for the same stream;
# so must ziomon_zfcpdd's records, and ziorep_traffic's report.
[ -z "$CROSS" ] || { skip "ziomon" "ziomon is built for this host; under qemu-user ($CROSS) t-ziomon.sh checks the queue"; return 0; }
ZB=$TOP/build/zio Z=$TOP/build/zio/ziomon
if ! msg=$(bash "$TOOLS/zio-build.sh" "$ZB" 2>&1); then
	case $msg in "no ziomon sources"*) skip "ziomon" "$msg" ;; *) fail "ziomon builds from its sources" "$msg" ;; esac
	return 0
fi
R=$OUT/zio; rm -rf "$R"; mkdir -p "$R/bin"
"$IOMON" --install "$R/bin" >/dev/null 2>&1
ln -s /usr/bin/blkiomon "$R/bin/deb-blkiomon" 2>/dev/null
check "blkiomon -V: ziomon reads 0.3 as its third word" test "$("$R/bin/blkiomon" -V | awk '{print $3}')" = 0.3

# zutil Q NLUNS LOG: the real ziomon_util for one 2 s interval over stand-in
# sysfs files for host0 and LUNs 0:0:0:0..NLUNS-1 (background; pid in $!)
zutil() {
	unshare -m --propagation private sh -c '
		mount -t tmpfs zfcp /sys/class && mount -t tmpfs zfcp /sys/bus || exit 9
		h=/sys/class/scsi_host/host0 i=0 luns=
		mkdir -p $h && echo "10 20 30" >$h/utilization && echo "0 0" >$h/queue_full || exit 9
		while [ $i -lt $2 ]; do
			d=/sys/bus/scsi/devices/0:0:0:$i; mkdir -p $d && echo 0 >$d/ioerr_cnt
			luns="$luns -l 0:0:0:$i"; i=$((i + 1))
		done
		exec "$3" -Q "$1" -q 1 -m 1 -L 2 -d 2 -i 2 -a 0 $luns' sh "$1" "$2" "$Z/ziomon_util" >"$3" 2>&1 &
}
# zcfg NAME DEV...: NAME.cfg and the NAME.config ziorep_config would make:
# LUN i of host0 is DEV i ("MAJ:MIN")
zcfg() {
	local name=$1 i=0 d; shift
	: >"$name.cfg"; : >"$name.config"
	for d; do
		printf '32 0:0:0:%d 0.0.0010:0.0.1900:0x500507630040710b:0x40214022%08x n/a 0 0:0 /dev/sd%d %d %s disk 0x0110\n' \
			$i $i $i $(((${d%:*} << 20) | ${d#*:})) "$d" >>"$name.config"
		i=$((i + 1))
	done
}
# zqueue DIR: the message queue of ftok(DIR, 1) exists (ziomon_mgr is up)
zkey() { stat -c '%d %i' "$1" | awk '{ printf "%d", 16777216 + ($1 % 256) * 65536 + $2 % 65536 }'; }
zqueue() { awk -v k="$(zkey "$1")" '$1 == k { f = 1 } END { exit !f }' /proc/sysvipc/msg; }
# zdrained DIR MGR: ziomon_mgr MGR has taken every message from the queue
# and waits in msgrcv for more (so it has written them all to its .log):
# once the senders have ended, SIGTERM then loses nothing
zdrained() {
	awk -v k="$(zkey "$1")" '$1 == k && $5 == 0 { f = 1 } END { exit !f }' /proc/sysvipc/msg &&
		grep -q msgrcv "/proc/$2/wchan"
}
# zrun DIR BLKIOMON STREAM NDEV [STALL [EOF]]: ziomon's collection pipeline
# on a recorded STREAM, delivered at once, EOF at EOF s (2.5: half a second
# after the first 2 s interval): ziomon_mgr, ziomon_util, BLKIOMON |
# ziomon_zfcpdd.  With STALL, ziomon_mgr is stopped (SIGSTOP) before the
# interval ends and resumed STALL s later, so blkiomon meets a full queue.  Shut down as
# ziomon does (SIGTERM to ziomon_mgr).  DIR/dump: the .log as ziolog reads it.
zrun() {
	local d=$1 mon=$2 s=$3 n=$4 stall=${5:-} eof=${6:-2.5} mp up sp=
	rm -rf "$d"; mkdir -p "$d"
	"$Z/ziomon_mgr" -f -i 2 -Q "$d" -q 1 -u 1 -r 2 -b 3 -z 4 -o "$d/log" >"$d/mgr.out" 2>"$d/mgr.err" & mp=$!
	poll 10 zqueue "$d"
	# ziorep_traffic learns the LUNs from ziomon_util's message in the first
	# interval: start it and blkiomon early in one second, so that both
	# stamp their interval with the same second, as under ziomon
	sleep "$(date +%N | awk '{ printf "%.3f", 1.05 - $1 / 1e9 }')"
	zutil "$d" "$n" "$d/util.out"; up=$!
	# (the stall: pacing, not a wait; 1.5 s into blkiomon's 2 s interval)
	if [ -n "$stall" ]; then ( sleep 1.5; kill -STOP $mp; sleep "$stall"; kill -CONT $mp ) & sp=$!; fi
	( cat "$s"; sleep "$eof" ) | "$mon" --interval=2 -Q "$d" -q 1 -m 3 -D "$d/blkiomon.log" -d - 2>"$d/blkiomon.err" |
		"$Z/ziomon_zfcpdd" -Q "$d" -q 1 -m 4 -i 2 >"$d/zfcpdd.out" 2>&1
	wait $up; echo $? >"$d/util.rc"
	[ -n "$sp" ] && wait $sp
	wait_for 10 "ziomon_mgr to take every message ($d)" zdrained "$d" $mp
	kill -TERM $mp; wait $mp
	"$ZB/ziolog" "$d/log" >"$d/dump" 2>"$d/ziolog.err"
}
# type T DUMP: messages of type T, the 8-byte time cut
type_of() { awk -v t="$1" '$1 == t { print $1, $2, substr($3, 17) }' "$2"; }
# the rules ziomon applies to blkiomon.err at the end of a run
blkiomon_err_ok() { ! grep -vqE '^bad trace magic 0|^blkiomon: bad trace' "$1"; }

# 4. live, as the ziomon script runs it: iomon's blktrace and blkiomon under
# their own names on a loop device being written, ziomon_mgr, ziomon_util
# and ziomon_zfcpdd; processes found and stopped as ziomon finds and stops
# them (ps --ppid by name; SIGINT to blktrace, SIGTERM to blkiomon and
# ziomon_zfcpdd, then to ziomon_mgr).  The stream blktrace wrote is kept
# (tee) to count what the .log must hold.
# zlive DIR DEV SECS: the collection, from ziomon's start_trace and shutdown
zlive() (
	d=$1 dev=$2 w=$3 me=$BASHPID
	cd "$d" || exit 1
	PATH=$R/bin:$Z:$PATH
	ziomon_mgr -f -i 2 -Q "$d" -q 1 -u 1 -r 2 -b 3 -z 4 -o "$d/log" >mgr.out 2>mgr.err &
	mgr=$!
	poll 10 zqueue "$d"
	sleep "$(date +%N | awk '{ printf "%.3f", 1.05 - $1 / 1e9 }')"
	zutil "$d" 1 util.out; up=$!
	blktrace -a issue -a drv_data -a complete -w "$w" -o - "$dev" 2>blktrace.err | tee raw.bin |
		blkiomon --interval=2 -Q "$d" -q 1 -m 3 -D "$d/blkiomon.log" -d - 2>blkiomon.err |
		ziomon_zfcpdd -Q "$d" -q 1 -m 4 -i 2 >blktrace.log &
	# found by name once each runs as itself (ziomon looks after 1 s)
	zps() {
		for p in blktrace blkiomon ziomon_zfcpdd; do
			echo "$p $(ps -o pid,args --ppid $me | grep $p | grep -v grep | awk '{ print $1 }' | tr '\n' ' ')"
		done
	}
	wait_for 10 "ziomon's blktrace, blkiomon and ziomon_zfcpdd to run" sh -c "[ \"\$(ps -o args --ppid $me | grep -cE '^(blktrace|blkiomon|ziomon_zfcpdd) ')\" = 3 ]"
	zps >>pids
	wait $up	# ziomon_util
	sleep $((w + 1))
	for p in blktrace blkiomon ziomon_zfcpdd; do
		pid=$(awk -v p=$p '$1 == p { print $2 }' pids)
		[ -n "$pid" ] && [ -d /proc/$pid ] && { [ $p = blktrace ] && kill -INT $pid || kill -TERM $pid; }
	done
	# the senders ended, ziomon_mgr drained: then its SIGTERM
	for p in blkiomon ziomon_zfcpdd; do
		pid=$(awk -v p=$p '$1 == p { print $2 }' pids)
		[ -z "$pid" ] || wait_for 10 "ziomon's $p to end" exited $pid
	done
	wait_for 10 "ziomon_mgr to take every message" zdrained "$d" $mgr
	kill -TERM $mgr; wait
	"$ZB/ziolog" "$d/log" >dump 2>ziolog.err
)

LIVE=
if live_ok "ziomon live on a loop device" losetup; then
	LIVE=$R/live L=$R/live; mkdir -p "$L"
	truncate -s 32M "$L/disk.img"; dev=$(losetup -f --show "$L/disk.img")
	mm=$(printf '%d:%d' $(stat -Lc '0x%t 0x%T' "$dev"))
	# the writes once ziomon's blktrace traces (it says nothing of it);
	# the sleeps between them pace the load, not a wait
	ztracing() { p=$(awk '$1 == "blktrace" { print $2 }' "$L/pids" 2>/dev/null); [ -n "$p" ] && tracing "$p"; }
	( wait_for 20 "ziomon's blktrace to trace" ztracing
	  for i in $(seq 40); do dd if=/dev/zero of="$dev" bs=4k count=8 seek=$((i * 8)) oflag=direct 2>/dev/null; sleep 0.05; done ) &
	zlive "$L" "$dev" 4 &
fi
# the cases: ID STREAM NDEV [STALL EOF]; each runs with iomon's blkiomon
# (ID.iomon) and Debian's (ID.debian), all at once: they only wait
python3 "$TOOLS/manydevs.py" 48 "$R/48.stream"
python3 "$TOOLS/zfcpdrv.py" "$FIX/stream/nullb0.stream" "$R/drv.stream" 200
CASES="nullb0 $FIX/stream/nullb0.stream 1
48 $R/48.stream 48 3 5.5
eof $R/48.stream 48 3 2.5
drv $R/drv.stream 1"
DEB=; [ -x /usr/bin/blkiomon ] && DEB=deb-blkiomon
while read -r id s n stall eof; do
	for m in blkiomon $DEB; do
		k=iomon; [ $m = blkiomon ] || k=debian
		zrun "$R/$id.$k" "$R/bin/$m" "$s" "$n" "$stall" $eof &
	done
done <<<"$CASES"
wait
[ -n "$DEB" ] || skip "ziomon: against Debian's blkiomon" "Debian's blkiomon is not installed (blktrace package)"

# pair ID NAME NDEV DEVS: the checks of one case; with Debian's blkiomon,
# the two .logs compared message by message
pair() {
	local name=$2 n=$3 devs=$4 a=$R/$1.iomon b=$R/$1.debian
	check "$name: ziomon_util ran on the stand-in sysfs (exit $(cat "$a/util.rc"))" test "$(cat "$a/util.rc")" = 0
	same_empty "$name: ziomon_mgr says nothing on stderr" "$a/mgr.err"
	check "$name: blkiomon.err passes ziomon's end-of-run rule" blkiomon_err_ok "$a/blkiomon.err"
	check "$name: ziomon_mgr's .log holds $n blkiomon records" test "$(type_of 3 "$a/dump" | wc -l)" = "$n"
	zcfg "$a/log" $devs
	"$Z/ziorep_traffic" "$a/log" >"$a/traffic.txt" 2>"$a/traffic.err"
	check "$name: ziorep_traffic reports every LUN" test "$(grep -c '^0.0.1900:' "$a/traffic.txt")" -ge "$n"
	same_empty "$name: ziorep_traffic says nothing on stderr" "$a/traffic.err"
	type_of 3 "$a/dump" >"$a/t3"; type_of 4 "$a/dump" >"$a/t4"
	[ -n "$DEB" ] || return 0
	type_of 3 "$b/dump" >"$b/t3"; type_of 4 "$b/dump" >"$b/t4"
	same "$name: every blkiomon record in the .log as Debian's blkiomon's (time aside)" "$a/t3" "$b/t3"
	if [ -s "$b/t4" ]; then
		same "$name: every ziomon_zfcpdd record as with Debian's blkiomon (time aside)" "$a/t4" "$b/t4"
	else
		same_empty "$name: no driver data, no ziomon_zfcpdd record (none with Debian's either)" "$a/t4"
	fi
	zcfg "$b/log" $devs
	"$Z/ziorep_traffic" "$b/log" >"$b/traffic.txt" 2>/dev/null
	sed 's/^[0-9-]* *[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/TIME/' "$a/traffic.txt" >"$a/traffic.m"
	sed 's/^[0-9-]* *[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/TIME/' "$b/traffic.txt" >"$b/traffic.m"
	same "$name: ziorep_traffic's report as with Debian's blkiomon (times aside)" "$a/traffic.m" "$b/traffic.m"
}

# 1. a real capture: 10666 requests on null_blk 254,0
pair nullb0 "nullb0 stream" 1 254:0
# 2. the queue filled on purpose: 48 LUNs in one interval (more than the
# default queue holds) while ziomon_mgr is stopped for 3 s
devs=; for i in $(seq 0 47); do devs="$devs 8:$i"; done
pair 48 "48 LUNs, ziomon_mgr stopped 3 s" 48 "$devs"
check "48 LUNs: -D says no record was left unsent" grep -q '^0 records not sent' "$R/48.iomon/blkiomon.log"
# the same, but the stream ends while ziomon_mgr is still stopped: iomon's
# blkiomon waits for room and delivers all 48; Debian's exits at the end of
# its input while its sender is blocked and loses what did not fit
check "48 LUNs, input ends while the queue is full: all 48 reach the .log" \
	test "$(type_of 3 "$R/eof.iomon/dump" | wc -l)" = 48
if [ -n "$DEB" ]; then
	n=$(type_of 3 "$R/eof.debian/dump" | wc -l)
	check "48 LUNs, input ends while the queue is full: Debian's blkiomon loses some ($n of 48 arrive)" test "$n" -lt 48
fi
# 3. zfcp's driver data (channel and fabric latency) through blkiomon's -d -
# to ziomon_zfcpdd, into the .log and ziorep_traffic's latency columns
pair drv "nullb0 stream with zfcp driver data" 1 254:0
check "driver data: ziomon_zfcpdd's records reach the .log" test -s "$R/drv.iomon/t4"


# 4. live: the checks
if [ -n "$LIVE" ]; then
	losetup -d "$dev"
	check "live: ziomon finds one blktrace, one blkiomon, one ziomon_zfcpdd by name" \
		test "$(awk 'NF == 2' "$L/pids" | wc -l)" = 3
	same_empty "live: blktrace.err stays empty (ziomon aborts on any line)" "$L/blktrace.err"
	check "live: blkiomon.err passes ziomon's end-of-run rule" blkiomon_err_ok "$L/blkiomon.err"
	same_empty "live: ziomon_mgr says nothing on stderr" "$L/mgr.err"
	# every write the kernel completed on the device, counted in the kept
	# stream, is in the .log's blkiomon records (summed over intervals)
	python3 - "$L/raw.bin" "$L/dump" "$mm" >"$L/count" <<'PY'
import struct, sys
raw, dump, mm = open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3]
ma, mi = map(int, mm.split(":")); dev = ma << 20 | mi
from collections import Counter
off, ev = 0, {7: Counter(), 8: Counter()}
while off + 48 <= len(raw):
    m, _, t, sec, nb, act, pid, d, cpu, err, pl = struct.unpack_from("<IIQQIIIIIHH", raw, off)
    off += 48 + pl
    if d == dev and act & (1 << 17) and act & 0xffff in ev:	# D, C of writes on the device
        ev[act & 0xffff][sec] += 1
# (per-CPU buffers: a C can come before its D in the stream)
done = sum(min(n, ev[8][s]) for s, n in ev[7].items())
got = 0
for line in open(dump):
    f = line.split()
    if f[0] != "3": continue
    b = bytes.fromhex(f[2])
    if struct.unpack_from(">I", b, 172)[0] == dev:
        got += struct.unpack_from(">Q", b, 296 + 32)[0]	# d2c write num
print(done, got)
PY
	read -r want got <"$L/count"
	check "live: the .log's blkiomon records count every write completed ($got of $want)" test "$want" -gt 0 -a "$got" = "$want"
	zcfg "$L/log" "$mm"
	"$Z/ziorep_traffic" "$L/log" >"$L/traffic.txt" 2>"$L/traffic.err"
	check "live: ziorep_traffic reports the same writes ($got)" awk -v n="$got" '/^0.0.1900:/ { w += $8 } END { exit w != n || !n }' "$L/traffic.txt"
	same_empty "live: ziorep_traffic says nothing on stderr" "$L/traffic.err"
fi
