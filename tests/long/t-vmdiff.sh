# needs: python3
# The differential harness: new real captures every run, made by Debian's
# blktrace in Debian's 6.1 kernel under qemu, with workloads drawn from a
# seed (the mix, request sizes, queue depths, threads, devices: null_blk
# blk-mq and bio-based, brd, loop, dm-linear, dm-delay, dm-flakey), one
# fixed (dm-linear, 48 MiB through the page cache: -t's table past
# full) and two more drawn (ext4's traffic or discards on brd or loop,
# alone or under dm-linear; a dm-stripe or an error target over two
# null_blk disks; in 6.1, a virtio disk: qemu's pace, its scheduler,
# sometimes throttled; a disk in two partitions, the whole disk traced
# or one partition alone; a null_blk throttled through configfs, its
# requests coming back as requeues; a dm-mirror, dm-snapshot or dm-crypt,
# targets making I/O of their own), then
# every output compared with Debian's own tools on the host: blkparse's
# text (plain, -t, -s, a format, a stream on stdin), blkrawverify,
# verify_blkparse and btrecord's files, btt (every option,
# every file, a time window), blkiomon's intervals; biolatency and biosnoop against btt's
# per-I/O files, and failures in top -e and monitor's exports against
# blkparse's C lines with an error (issue 30).  The seed is printed; SEED=N replays it.
# A capture that shows a difference is kept in tests/out/vmdiff-kept/SEED-wN
# to become a fixture.  Part of make check-long (VM=1).  KERNEL=7.2 runs
# the same workloads in Debian sid's 7.2 kernel (vm-capture-sid.sh, given
# the modules the workloads load), traced by the same blktrace 1.2.0.
SEED=${SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
[ -n "${KEPT:-}" ] || echo "seed $SEED (SEED=$SEED make check-long ONLY=t-vmdiff replays these workloads)"
# What iomon says on stderr that blkparse does not: a pool that ran out (the
# text may then differ, and it says how much), a file's cut last record
# (Debian's blktrace can leave one; blkparse drops it without a word)
POOLMSG='requests forgotten \(TRACK_MAX|late-record table full'
OWNMSG="$POOLMSG|truncated record at byte|messages with a cgroup id not shown"
GAPS=	# records lost in the stream under test (bps)
CGM=	# the capture's messages with a cgroup id (ip)
# iomon parse OPTIONS into $OUT/ip, its stderr into $OUT/ip.err: the files
# of $ins (cd $w), or with a first word "-", the stream $OUT/stream;
# X: which binary (build/big for the pools as large as a capture)
ip() {
	if [ "${1:-}" = - ]; then
		shift; "${X:-$IOMON}" parse -i - "$@" <"$OUT/stream" >"$OUT/ip" 2>"$OUT/ip.err"
		# (a stream with lost records: its numbers as bps's oracle has them)
		[ -z "$GAPS" ] || python3 "$TOOLS/closegaps.py" text "$OUT/stream" "$OUT/ip"
	else ( cd "$w" && "${X:-$IOMON}" parse $ins "$@" ) >"$OUT/ip" 2>"$OUT/ip.err"; fi
	# (messages with a cgroup id, bfq's: blkparse drops them as it reads,
	# so does iomon, and says how many, blkparse.1)
	[ -z "$CGM" ] || check "seed $SEED $n ($what): parse ${*:+$* }says its $CGM messages with a cgroup id were not shown" \
		grep -q "^parse: $CGM messages with a cgroup id not shown (as blkparse)$" "$OUT/ip.err"
}
# blkparse -i - OPTIONS on $OUT/stream into $OUT/bp and $OUT/bp.err; after
# lost records (GAPS: how many), gaporacle's text of it (tests/lib.sh)
bps() {
	if [ -z "$GAPS" ]; then blkparse -i - "$@" <"$OUT/stream" >"$OUT/bp" 2>"$OUT/bp.err"; return 0; fi
	rm -f "$OUT/bp.anyorder"
	check "seed $SEED $n ($what): blkparse -i -${*:+ $*}: the stream with its gaps closed has no sequence gap left" \
		gaporacle "$OUT/stream" "$OUT/stream.closed" "$OUT/bp" "$@"
}
# inw POOL OUT ERR ARGS...: iomon ARGS in $w (stdout to OUT, stderr to ERR,
# or with ERR "-" to OUT too); where it says requests aged out of POOL,
# again with build/big, whose pools are as large as a capture's, and
# LB names what it said
inw() {
	local pool=$1 o=$2 e=$3 x=$IOMON said=$3; shift 3
	[ "$e" = - ] && said=$o
	LB=
	while :; do
		if [ "$e" = - ]; then ( cd "$w" && "$x" "$@" ) >"$o" 2>&1
		else ( cd "$w" && "$x" "$@" ) >"$o" 2>"$e"; fi
		[ -z "$LB" ] || return 0
		LB=$(grep -o "[0-9]* requests aged out of $pool [0-9]*" "$said")
		[ -n "$LB" ] || return 0
		LB=" (build/big: iomon said: $LB)" x=$TOP/build/big/iomon
	done
}
# iomon's own lines in $OUT/ip.err told true: a cut record's offset and
# what is left add up to its file's size.  The other lines to $OUT/ip.err2.
owncheck() {	# NAME
	local l f b left sz
	grep -E "truncated record at byte" "$OUT/ip.err" | while IFS= read -r l; do
		f=$(printf '%s\n' "$l" | sed -n 's/^parse: \(.*\): truncated record at byte.*/\1/p')
		b=$(printf '%s\n' "$l" | sed -n 's/.*at byte \([0-9]*\) (\([0-9]*\) bytes left.*/\1 \2/p')
		if [ "$f" = "(stdin)" ]; then f=$OUT/stream; else f=$w/$f; fi
		sz=$(stat -c %s "$f" 2>/dev/null)
		left=${b#* }; b=${b% *}
		check "$1: iomon's '$l' is true (the file has $sz bytes)" test -n "$b" -a "$((b + left))" = "$sz"
	done
	grep -Ev "$OWNMSG" "$OUT/ip.err" >"$OUT/ip.err2"
}
# -t's text against blkparse's ($OUT/bp), but for the documented
# difference (tdiff.py).  Where a pool ran out, iomon said so (how many
# lines may differ, how many records came early), and build/big, the same
# code with every pool as large as a whole capture, must print blkparse's.
tcheck() {	# NAME IP-ARGS...
	local name=$1 said td; shift
	ip "$@"
	said=$(grep -Eo "($POOLMSG).*" "$OUT/ip.err" | tr '\n' ';')
	if [ -n "$said" ]; then
		X=$TOP/build/big/iomon ip "$@"
		name="$name, build/big (iomon said: $said)"
	fi
	python3 "$TOOLS/tdiff.py" "$OUT/ip" "$OUT/bp" >"$OUT/td" 2>&1; rc=$?
	check "$name ($(tail -1 "$OUT/td"))" test $rc = 0
	[ $rc = 0 ] || head -12 "$OUT/td"
	return 0
}
# KEPT="DIR...": no VM; the comparisons on captures kept before (a
# tests/out/vmdiff-kept/SEED-wN each), as they will run on the next seed
KEPT=${KEPT:-}
if { [ -n "$KEPT" ] || vm_ok "differential harness"; } && have_oracle "t-vmdiff.sh: Debian's blkparse, btt and blkiomon" &&
   need "t-vmdiff.sh: Debian's btt" btt && need "t-vmdiff.sh: Debian's blkiomon" blkiomon &&
   { [ -n "$KEPT" ] || need "t-vmdiff.sh: dmsetup (dm stacks in the guest)" dmsetup; }; then
	V=$OUT/vmd; rm -rf "$V"
	have_rv=0 have_vp=0 have_br=0
	need "t-vmdiff.sh: Debian's blkrawverify" blkrawverify && have_rv=1
	need "t-vmdiff.sh: Debian's btrecord" btrecord && have_br=1
	need "t-vmdiff.sh: Debian's verify_blkparse" verify_blkparse && have_vp=1
	if [ -n "$KEPT" ]; then
		mkdir -p "$V"; i=0
		for d in $KEPT; do i=$((i + 1)); ln -s "$(cd "$d" && pwd)" "$V/w$i"; done
		touch "$V/done"
	fi
	K=${VMK:-/tmp/iomon-vmdiff}	# (VMK: a cache of its own for a second run beside it)
	VMC=$VMCAP
	if [ "${KERNEL:-6.1}" = 7.2 ]; then
		# sid's modules are xz-compressed: the ones MODS names unpacked
		# beside the script's own; and iogen, which that script builds,
		# put in the guest's /bin
		VMC=$OUT/vm-sid.sh K=$K/sid
		sed -e "s|\\\$(dirname \"\\\$0\")|$(dirname "$VMCAP")|" \
		    -e '/^\[ -x "\$V\/iogen" \]/i for m in ${MODS:-}; do xz -dc "$mods/drivers/$m.xz" >"$ird/lib/mod/${m##*/}"; done' \
		    -e '/^\[ -x "\$V\/iogen" \]/a cp "$V/iogen" "$ird/bin/"' \
		    "$(dirname "$VMCAP")/vm-capture-sid.sh" >"$VMC"
		# (an edit that no longer finds its line would leave the modules
		# or iogen out without a word)
		check "KERNEL=7.2: vm-capture-sid.sh edited (its here, the modules, iogen)" \
			sh -c "! grep -q 'dirname \"\\\$0\"' '$VMC' && grep -q 'xz -dc' '$VMC' && grep -q 'iogen\" \"\\\$ird/bin/' '$VMC'"
	fi
	# (6.1's vm-capture.sh gives the guest a virtio disk: w8)
	[ "${KERNEL:-6.1}" = 7.2 ] && virtio= || virtio=1
	VIRTIO=$virtio python3 "$TOOLS/vmdiffgen.py" "$SEED" >"$OUT/diff.sh"
	vmods="md/dm-mod.ko md/dm-delay.ko md/dm-flakey.ko block/loop.ko md/dm-bufio.ko md/dm-log.ko md/dm-region-hash.ko md/dm-mirror.ko md/dm-snapshot.ko md/dm-crypt.ko"
	[ -z "$virtio" ] || vmods="$vmods virtio/virtio_ring.ko virtio/virtio.ko virtio/virtio_pci_legacy_dev.ko virtio/virtio_pci_modern_dev.ko virtio/virtio_pci.ko block/virtio_blk.ko block/bfq.ko"
	if [ -n "$KEPT" ]; then SEED=kept; else grep '^# w[0-9]' "$OUT/diff.sh"; fi
	# dmsetup and its libraries beside it (the guest has no udev); SMP=N
	# (vm-capture.sh's CPUs) also as vm-capture-sid.sh's VMSMP
	libs=$(ldd /usr/sbin/dmsetup | grep -o '/[^ ]*\.so[^ ]*' | grep -v ld-linux | tr '\n' ' ')
	if [ -n "$KEPT" ] || K=$K VMSMP=${SMP:-} MODS="$vmods" DISKS=${virtio:+1} DISK_OPTS=$(sed -n 's/^# DISK_OPTS=//p' "$OUT/diff.sh") EXTRA_BIN="/usr/sbin/dmsetup $libs" \
	   timeout -k 10 900 bash "$VMC" "$V" "$(guest_scenario "$OUT/diff.sh")" >"$OUT/vm.log" 2>&1 && [ -f "$V/done" ]; then
		[ -n "$KEPT" ] || pass "VM ${KERNEL:-6.1} ran seed $SEED's workloads"
		# (a program the guest lacks leaves a workload with no I/O, which
		# every comparison would pass)
		[ -n "$KEPT" ] || check "VM ${KERNEL:-6.1}: every program the workloads run is there ($(grep -m1 'not found' "$V/scenario.log"))" \
			sh -c "! grep -q 'not found' '$V/scenario.log'"
		for w in "$V"/w*/; do
			w=${w%/}; n=${w##*/}; what=$(cat "$w/what")
			devs=$(cat "$w/devs")
			if [ -z "$(find "$w/" -name '*.blktrace.*' -size +0)" ]; then
				fail "seed $SEED $n ($what): a capture" "$(tail -3 "$w/blktrace.log")"
				continue
			fi
			bad=$(grep -c '^FAIL' "$T_RESULTS")
			ins=""; for d in $devs; do ins="$ins -i $d"; done
			CGM=$(python3 "$TOOLS/dropcg.py" -c "$w"/*.blktrace.*)
			[ "$CGM" != 0 ] || CGM=
			# (stdout compared; stderr: blkparse's, but for iomon's own lines, told true)
			( cd "$w" && blkparse $ins ) >"$OUT/bp" 2>"$OUT/bp.err"
			ip
			same0 "seed $SEED $n ($what): blkparse text ($(grep -c ' C ' "$OUT/bp") completions)" "$OUT/ip" "$OUT/bp"
			owncheck "seed $SEED $n ($what): blkparse text"
			# (w10's load outruns its throttle: requests come back, R)
			case $what in *"via configfs throttled"*) check "seed $SEED $n ($what): requests requeued ($(awk '$6 == "R"' "$OUT/bp" | wc -l) R)" \
				awk '$6 == "R" { r = 1 } END { exit !r }' "$OUT/bp" ;; esac
			same0 "seed $SEED $n ($what): blkparse text, stderr (iomon's own lines aside)" "$OUT/ip.err2" "$OUT/bp.err"
			# blkrawverify on the capture's files, each program in a copy of
			# its own (its DEV.verify.out beside them); a file's cut last
			# record makes iomon's exit 1 where Debian's is 0 (blkrawverify.1);
			# verify_blkparse on blkparse's text, where the capture's CPUs
			# are this machine's (the original stops at one it lacks)
			if [ "$have_rv" = 1 ]; then
				rv=$OUT/rv; rm -rf "$rv"; mkdir -p "$rv/d" "$rv/o"; cp "$w"/*.blktrace.* "$rv/d/"; cp "$w"/*.blktrace.* "$rv/o/"
				(cd "$rv/d" && blkrawverify $devs >../d.out 2>/dev/null; echo "rc=$?" >>../d.out)
				(cd "$rv/o" && "$IOMON" rawverify $devs >../o.out 2>../o.err; echo "rc=$?" >>../o.out)
				! grep -q 'truncated record' "$rv/o.err" || ! tail -n 1 "$rv/d.out" | grep -qx rc=0 || sed -i '$s/rc=1/rc=0/' "$rv/o.out"
				same "seed $SEED $n ($what): blkrawverify's text and exit status" "$rv/o.out" "$rv/d.out"
				for d in $devs; do same "seed $SEED $n ($what): blkrawverify's $d.verify.out" "$rv/o/$d.verify.out" "$rv/d/$d.verify.out"; done
			fi
			# btrecord on the capture, by default and in bunches of at most
			# 3 I/Os within 0.2 ms: Debian's files, each with its bytes
			# but the header's counts, which count what the file holds
			# (Debian's leave out the last bunch: btrecord.8)
			if [ "$have_br" = 1 ]; then
				for o in "" "-M 3 -m 200000"; do
					br=$OUT/br; rm -rf "$br"; mkdir -p "$br/d" "$br/o"
					(cd "$br/d" && btrecord -d "$w" -F $o >/dev/null 2>&1)
					(cd "$br/o" && "$IOMON" btrecord -d "$w" -F $o >/dev/null 2>../o.err)
					check "seed $SEED $n ($what): btrecord${o:+ $o} exits 0" test $? = 0
					(cd "$br/d" && ls) >"$br/d.ls"; (cd "$br/o" && ls) >"$br/o.ls"
					check "seed $SEED $n ($what): btrecord${o:+ $o}: Debian's wrote files ($(wc -l <"$br/d.ls"))" test -s "$br/d.ls"
					same "seed $SEED $n ($what): btrecord${o:+ $o}: the files Debian's writes" "$br/o.ls" "$br/d.ls"
					for f in $(cat "$br/d.ls"); do
						check "seed $SEED $n ($what): btrecord${o:+ $o} $f: Debian's bytes but the header's counts" body "$br/o/$f" "$br/d/$f"
						check "seed $SEED $n ($what): btrecord${o:+ $o} $f: the header counts what the file holds" true_counts "$br/o/$f" "$br/d/$f"
					done
				done
			fi
			if [ "$have_vp" = 1 ]; then
				if awk -v n="$(getconf _NPROCESSORS_CONF)" '/^ *[0-9]+,[0-9]+ / && $2 + 0 >= n { exit 1 }' "$OUT/bp"; then
					verify_blkparse "$OUT/bp" >"$OUT/vd" 2>/dev/null; echo "rc=$?" >>"$OUT/vd"
					"$IOMON" verifyparse "$OUT/bp" >"$OUT/vo" 2>/dev/null; echo "rc=$?" >>"$OUT/vo"
					same "seed $SEED $n ($what): verify_blkparse on blkparse's text" "$OUT/vo" "$OUT/vd"
				else
					skip "seed $SEED $n ($what): verify_blkparse" "the capture has CPUs this machine lacks, where the original stops (verify_blkparse.1)"
				fi
			fi
			for o in -s "-f %D_%2c_%8s_%5T.%9t_%5p_%2a_%3d_%S+%n_(%d)_[%e]\n"; do
				( cd "$w" && blkparse $ins $o ) >"$OUT/bp" 2>/dev/null
				ip $o
				same0 "seed $SEED $n ($what): blkparse ${o%% *}" "$OUT/ip" "$OUT/bp"
			done
			# -t: the same but for the documented difference (tdiff.py)
			for o in -t "-q -s -t"; do
				( cd "$w" && blkparse $ins $o ) >"$OUT/bp" 2>/dev/null
				tcheck "seed $SEED $n ($what): blkparse $o" $o
			done
			# a stream on stdin: the per-CPU files one after another (each
			# device's in turn), as a pipe brings them out of time order;
			# with two devices, blkparse leaves every record of either
			# behind a late one to its end (issue 29)
			# (whole records only: a per-CPU file's cut last record, which
			# blktrace can leave and iomon names in file mode, would be the
			# middle of a stream here; Debian's blkparse then prints one
			# record made of two and goes on misaligned, or dies)
			python3 "$TOOLS/catwhole.py" "$w"/*.blktrace.* >"$OUT/stream"
			GAPS=$(python3 "$TOOLS/closegaps.py" stream "$OUT/stream" "$OUT/stream.closed")
			[ "$GAPS" != 0 ] || GAPS=
			bps
			ip -
			said=$(grep -Eo "($POOLMSG).*" "$OUT/ip.err" | tr '\n' ';')
			[ -z "$said" ] || X=$TOP/build/big/iomon ip -
			same0 "seed $SEED $n ($what): blkparse -i - (a stream of $devs${GAPS:+, $GAPS records lost: blkparse on it with the gaps closed})${said:+, build/big (iomon said: $said)}" "$OUT/ip" "$OUT/bp"
			owncheck "seed $SEED $n ($what): blkparse -i -"
			[ ! -e "$OUT/bp.anyorder" ] || skipsort "$OUT/ip.err2" "$OUT/bp.err"
			same0 "seed $SEED $n ($what): blkparse -i -, stderr (iomon's own lines aside)" "$OUT/ip.err2" "$OUT/bp.err"
			# -t on the stream: the requests blkparse keeps that never
			# complete (back-merged Qs on 253) forgotten, with the same
			# text; -v's lines on stderr the same (issue 29)
			for o in -t "-t -v" "-q -s -t"; do
				bps $o
				tcheck "seed $SEED $n ($what): blkparse -i - $o${GAPS:+ (the gaps closed)}" - $o
				owncheck "seed $SEED $n ($what): blkparse -i - $o"
				[ ! -e "$OUT/bp.anyorder" ] || skipsort "$OUT/ip.err2" "$OUT/bp.err"
				same0 "seed $SEED $n ($what): blkparse -i - $o, stderr ($(grep -c 'not found' "$OUT/bp.err") not found; iomon's own lines aside)" "$OUT/ip.err2" "$OUT/bp.err"
			done
			# btt on the dump, every option at once and every file it
			# writes; then a time window (-t -T) with the per-I/O files
			( cd "$w" && blkparse $ins -d "$OUT/dump" -O ) >/dev/null 2>&1
			for bo in "-A -l d2c -q q2c -z q2d -I iostat -B bno -p per -P plot -Q q2q -s seek -m mseek -u unplug -L 0.5 -X -Z -o out" \
				"-t 0.3 -T 2.5 -A -l d2c -q q2c -I iostat -o out"; do
				rm -rf "$OUT/bt" "$OUT/it"; mkdir -p "$OUT/bt" "$OUT/it"
				for t in bt it; do
					if [ $t = bt ]; then B=btt; else B="$IOMON btt"; fi
					( cd "$OUT/$t" && $B -i "$OUT/dump" $bo >stdout 2>../$t.err )
				done
				bw=; case $bo in -t*) bw=${bo%% -A*} ;; esac	# (the time window's name)
				# a pool that ran out (iomon said so): build/big's files must be btt's
				said=$(grep -E '\(BTT_[A-Z_]+\)' "$OUT/it.err" | cut -c1-90 | tr '\n' ';')
				if [ -n "$said" ]; then
					rm -rf "$OUT/it"; mkdir -p "$OUT/it"
					( cd "$OUT/it" && "$TOP/build/big/iomon" btt -i "$OUT/dump" $bo >stdout 2>../it.err )
					bw="${bw:+$bw }(build/big: iomon said: $said)"
				fi
				check "seed $SEED $n ($what): btt${bw:+ $bw}: its files are btt's ($(cd "$OUT/bt" && ls | wc -l) files)" \
					test "$(cd "$OUT/it" && ls)" = "$(cd "$OUT/bt" && ls)"
				# (stderr is not compared: iomon says there where a pool ran out)
				[ -s "$OUT/it.err" ] && sed 's/^/  iomon btt: /' "$OUT/it.err"
				for f in $(cd "$OUT/bt" && ls); do
					# (btt writes some of them empty: .msg, its stdout)
					if [ -s "$OUT/bt/$f" ]; then
						same "seed $SEED $n ($what): btt${bw:+ $bw}'s $f" "$OUT/it/$f" "$OUT/bt/$f"
					else
						same_empty "seed $SEED $n ($what): btt${bw:+ $bw}'s $f, empty as btt's" "$OUT/it/$f"
					fi
				done
			done
			# biolatency and biosnoop against btt's per-I/O files (latbtt.py,
			# snoopref.py), top -e's failures against blkparse's: a device
			# at a time (their -i takes one trace), btt on that device's own
			# dump, whose times start where its blkparse text's do
			for d in $devs; do
				B=$OUT/pd-$d; rm -rf "$B"; mkdir -p "$B"
				( cd "$w" && blkparse -i "$d" ) >"$B/text" 2>/dev/null
				( cd "$w" && blkparse -i "$d" -f "$SECFMT" ) >"$B/texts" 2>/dev/null	# (latbtt.py's)
				( cd "$w" && blkparse -i "$d" -d "$B/dump" -O ) >/dev/null 2>&1
				( cd "$B" && btt -i dump -l d2c -q q2c -z q2d -o out >/dev/null 2>&1 )
				# (inw: where an applet says its pool of requests in flight
				# ran out, build/big's, as large as a capture, must be exact)
				for o in "" -Q; do
					inw LAT_REQS "$B/lat" - lat -P $o -i "$d"
					if [ -n "$o" ]; then k=-q b=$(ls "$B"/q2c_*_q2c.dat 2>/dev/null); else k=-l b=$(ls "$B"/d2c_*_d2c.dat 2>/dev/null); fi
					python3 "$TOOLS/latbtt.py" $o "$B/texts" "${b:-/dev/null}" "$B/lat" "$B/lat" >"$B/r" 2>&1; rc=$?
					check "seed $SEED $n ($what): biolatency${o:+ $o} -i $d$LB is btt's $k values binned and those btt lists none for, -P within 1 % ($(tail -1 "$B/r"))" test $rc = 0
					[ $rc = 0 ] || head -5 "$B/r"
				done
				inw SNOOP_REQS "$B/snoop" "$B/snoop.err" snoop -Q -i "$d"
				l=$(ls "$B"/d2c_*_d2c.dat 2>/dev/null) q=$(ls "$B"/q2d_*_q2d.dat 2>/dev/null)
				python3 "$TOOLS/snoopref.py" "$B/snoop" "${l:-/dev/null}" "${q:-/dev/null}" "$B/text" >"$B/sr" 2>&1; rc=$?
				check "seed $SEED $n ($what): biosnoop -Q -i $d$LB: each request's LAT btt's D2C ($(head -1 "$B/sr"))" test $rc = 0
				[ $rc = 0 ] || head -5 "$B/sr"
				inw TOP_REQS "$B/top" - top -C -e -r 100000 -i "$d" 36000
				python3 "$TOOLS/failsum.py" "$B/text" top "$B/top" >"$B/tf" 2>&1; rc=$?
				check "seed $SEED $n ($what): top -e -i $d$LB: ERR and its closing line count blkparse's failed C lines ($(tail -1 "$B/tf"))" test $rc = 0
			done
			# monitor's failures (--json each interval, --prom over the run) by
			# device, direction and errno: blkparse's C lines with an error
			( cd "$w" && "$IOMON" monitor -I 1 $ins -h /dev/null --json "$OUT/mf.json" --prom "$OUT/mf.prom" ) >/dev/null 2>&1
			( cd "$w" && blkparse $ins ) >"$OUT/bpf" 2>/dev/null
			for k in json prom; do
				python3 "$TOOLS/failsum.py" "$OUT/bpf" $k "$OUT/mf.$k" >"$OUT/mf.r" 2>&1; rc=$?
				check "seed $SEED $n ($what): monitor --$k's failures are blkparse's failed C lines ($(tail -1 "$OUT/mf.r"))" test $rc = 0
			done
			# failed I/O (dm-flakey while down): biosnoop --errors lists each
			# of blkparse's C lines that carry an error, by sector; its
			# closing line counts them (issue 30)
			( cd "$w" && blkparse $ins ) | awk '$6 == "C" && $NF ~ /^\[[1-9][0-9]*\]$/ { print $8 }' | sort -n >"$OUT/ce.bp"
			"$IOMON" snoop --errors -i - <"$OUT/dump" >"$OUT/sn" 2>&1
			awk 'NR > 1 && !/I\/Os failed/ && $NF != "-" && $6 ~ /^[0-9]+$/ { print $6 }' "$OUT/sn" | sort -n >"$OUT/ce.sn"
			nf=$(wc -l <"$OUT/ce.bp")
			check "seed $SEED $n ($what): biosnoop --errors lists blkparse's $nf failed completions by sector" cmp "$OUT/ce.sn" "$OUT/ce.bp"
			if [ "$nf" -gt 0 ]; then
				check "seed $SEED $n ($what): biosnoop's closing line counts $nf failed" grep -q "^$nf I/Os failed (" "$OUT/sn"
			else
				check "seed $SEED $n ($what): no closing line when nothing failed" sh -c "! grep -q 'I/Os failed' '$OUT/sn'"
			fi
			# dm-delay: every request on the dm device waits the delay, so
			# biolatency -Q's p50 there is at least it, less a jiffy (4 ms
			# at Debian's HZ 250): its timer counts whole jiffies (7.2,
			# seed 395 w4: 20 ms delays of 16.1 ms and up, btt's p50 19.58)
			ms=$(sed -n 's/.*delay (\/dev\/nullb0 0 \([0-9]*\)).*/\1/p' "$w/what")
			if [ -n "$ms" ]; then
				"$IOMON" lat -Q -P -i - <"$OUT/dump" >"$OUT/lat" 2>&1
				# dm-0: the device nullb0's remaps come from, or the only one
				dm=$( (cd "$w" && blkparse $ins) | sed -n 's/.* A .*<- (\([0-9]*,[0-9]*\)).*/\1/p' | head -1)
				p50=$(awk -v dm="$dm" '$2 ~ /^[RW]$/ && (dm == "" || $1 == dm) { printf "%s ", $4 }' "$OUT/lat")
				check "seed $SEED $n ($what): biolatency -Q p50 on dm-0 (${p50}us) at least the ${ms} ms delay, less a jiffy" \
					awk -v p="$p50" -v m="$ms" 'BEGIN { k = split(p, a, " "); if (!k) exit 1; for (i = 1; i <= k; i++) if (a[i] < m * 1000 - 4000) exit 1 }'
			fi
			# blkiomon: its intervals run on the wall clock, so the dump is
			# sent at once and the reader ends once one interval is
			# printed (paced.py, as t-monitor); time lines and the
			# variances blkiomon wraps at 64 bits are masked
			# (a device blkiomon prints: one with Ds, which bio-based ones
			# lack; with none, neither tool prints an interval)
			nd=$( (cd "$w" && blkparse $ins -a issue -f '%M,%m\n' ) 2>/dev/null | sort -u | grep -cE '^[0-9]+,[0-9]+$')
			mon() { PACED_WAIT=$((iv + 50)) python3 "$TOOLS/paced.py" "$OUT/dump" "$1" "$nd" 0 | "${@:2}" -I "$iv" -h - >"$1"; }
			# (and the last digits of every variance: blkiomon.8, iomon's
			# are exact, blkiomon's computed in double precision; and a sum
			# of squares past 2^63, which blkiomon prints negative)
			# A request over 4 MiB (mke2fs's discard, ext4's big writes):
			# blkiomon's throughput wraps at 32 bits (blkiomon.8), so its
			# throughput lines are masked past their count and iomon's
			# are checked with monref.py's exact figures instead
			bigt=$( (cd "$w" && blkparse $ins -a issue -f '%N\n') 2>/dev/null | awk '$1 > 4294967 { n++ } END { print n + 0 }')
			mask() { awk -v bigt="$bigt" '{ if (bigt && /^throughput /) sub(/, min .*/, ", ... (a request over 4 MiB: blkiomon.8)")
				if (match($0, /sum [0-9]+, squ/)) { s = substr($0, RSTART + 4, RLENGTH - 9) + 0;
				if (s * s >= 18446744073709551616) sub(/var [-0-9.e+]+$/, "var (wraps in blkiomon)") }
				if (match($0, /var [-0-9.]+$/)) $0 = substr($0, 1, RSTART + 3) sprintf("%.10g", substr($0, RSTART + 4) + 0)
				if (match($0, /squ -?[0-9]+/) && ((v = substr($0, RSTART + 4, RLENGTH - 4) + 0) < 0 || v >= 9223372036854775808))
					$0 = substr($0, 1, RSTART + 3) "(past 2^63: blkiomon.8)" substr($0, RSTART + RLENGTH) }
				!/^time: / { print }' "$1"; }
			# The whole dump in one interval, as t-monitor's once(): a
			# reader that has not read it all when the interval ends
			# prints a part, and blkiomon drops the rest at EOF.  So the
			# interval is at least twice what blkiomon takes to read the
			# dump alone (it prints nothing at EOF), measured first
			# (seed 6246 w7: 56 MB, over 40 s here); where the tools then
			# differ, once more at three times that (a loaded machine).
			# Its blocks must be of one interval: one time line.
			t0=$(date +%s%N)
			blkiomon -I 100000 -h /dev/null <"$OUT/dump" >/dev/null 2>&1
			iv=$(( ($(date +%s%N) - t0) / 500000000 + 10 )) last=
			for iv in "$iv" $((iv * 3)); do
				mon "$OUT/bm" blkiomon 2>/dev/null; rc=$?
				mon "$OUT/im" "$IOMON" monitor
				nb=$(grep -c '^device' "$OUT/bm") ni=$(grep -c '^device' "$OUT/im")
				nt=$(grep '^time: ' "$OUT/bm" | sort -u | wc -l)
				[ $rc -ge 128 ] || { [ "$ni" = "$nd" ] && [ "$nb" -ge "$nd" ] && [ "$nt" -le 1 ] &&
					{ [ -n "$last" ] || [ "$nb" != "$nd" ] || cmp -s <(mask "$OUT/bm") <(mask "$OUT/im"); }; } && break
				last=1
			done
			if [ $rc -lt 128 ] && [ "$nt" -gt 1 ]; then
				skip "seed $SEED $n ($what): blkiomon, one interval" "Debian's blkiomon had not read the dump within one wall-clock interval of $iv s ($nt intervals): the machine is too slow now"
			elif [ $rc -lt 128 ] && [ "$ni" = "$nd" ] && [ "$nb" -gt "$nd" ]; then
				# Debian's blkiomon printed a device in more than one block
				# (a real dm-flakey capture: 253,0 twice); added up, they
				# must be iomon's one block
				python3 "$TOOLS/monsum.py" "$OUT/im" "$OUT/bm" >"$OUT/ms" 2>&1; rc=$?
				check "seed $SEED $n ($what): blkiomon split $nd devices into $nb blocks; added up, iomon's ($(tail -1 "$OUT/ms"))" test $rc = 0
			elif [ $rc -lt 128 ] && [ "$ni" != "$nd" -o "$nb" != "$nd" ]; then
				skip "seed $SEED $n ($what): blkiomon, one interval" "the dump did not fit one wall-clock interval of $iv s ($nb and $ni device blocks for $nd): the machine is too slow now"
			elif [ $rc -lt 128 ]; then
				mask "$OUT/bm" >"$OUT/bm.m"; mask "$OUT/im" >"$OUT/im.m"
				if [ "$nd" = 0 ]; then
					check "seed $SEED $n ($what): blkiomon: no D, no interval, as blkiomon" \
						sh -c "! grep -q '^device' '$OUT/im.m' && ! grep -q '^device' '$OUT/bm.m'"
				else
					same "seed $SEED $n ($what): blkiomon, one interval ($nd devices)$([ "$bigt" = 0 ] || echo ", throughput past its count aside")" "$OUT/im.m" "$OUT/bm.m"
					if [ "$bigt" != 0 ]; then
						python3 "$TOOLS/monref.py" "$OUT/dump" --dev | awk '$2 == "throughput" { print $1, $3, $5, $7, $9 }' | sort >"$OUT/mr.t"
						# (a direction without requests: iomon prints its count 0, monref.py no line)
						awk '/^device: / { d = $2 } /^throughput / { gsub(/,/, ""); if ($5) print d, $2, $5, $11, $17 }' "$OUT/im" | sort >"$OUT/im.t"
						same "seed $SEED $n ($what): monitor's throughput with $bigt requests over 4 MiB: monref.py's count, sum and variance" "$OUT/im.t" "$OUT/mr.t"
					fi
				fi
			else
				# blkiomon.8: the original dies of a division by zero on
				# a 0 us D2C, which iomon counts as 1 us in throughput
				# (-t's figure on a C: nanoseconds since its D)
				z=$(cd "$w" && blkparse $ins -t | awk '$6 == "C" && match($0, /\( *[0-9]+\)/) {
					if (substr($0, RSTART + 1, RLENGTH - 2) + 0 < 1000) n++ } END { print n + 0 }')
				check "seed $SEED $n ($what): Debian's blkiomon died (signal $((rc - 128))) on the 0 us D2Cs this capture has ($z)" \
					test "$z" -gt 0
				check "seed $SEED $n ($what): iomon monitor prints the interval there" grep -q '^device: ' "$OUT/im"
			fi
			if [ -z "$KEPT" ] && [ "$(grep -c '^FAIL' "$T_RESULTS")" != "$bad" ]; then
				# kept where the next run does not empty it
				k=$TOP/tests/out/vmdiff-kept/$SEED-$n; rm -rf "$k"; mkdir -p "${k%/*}"; cp -r "$w" "$k"
				echo "  seed $SEED $n differs: its capture is in $k (a fixture to be)"
			fi
		done
	else
		guest_hung "VM ${KERNEL:-6.1} differential" "$K/console.log" "$OUT/vm.log"
	fi
fi
