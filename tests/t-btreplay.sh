# needs: python3
# btreplay (iomon btreplay): options and their refusals; on loop devices,
# btrecord's files replayed (ours, Debian's, either byte order), every kind
# of damaged file refused with its file and byte offset before any I/O, an
# I/O not in whole blocks of a 4 KiB-sector device refused, the written
# data, read-only devices, -F, -I, -x, -N; live: a paced load traced, its
# recording replayed on another loop device while that is traced, the
# replay's queued I/Os (sector, size, direction, CPU) equal to the
# original's and its pace within 10 % (at -x 2, twice), Debian's
# btrecord's files and Debian's btreplay beside ours; fio's replay of an
# `iomon parse -d` dump.
RF=$TOOLS/replayfile.py
B=$OUT/b; mkdir -p "$B"
PAT='btreplay (iomon)'

# ---- options: no device needed ----
rp() { "$IOMON" btreplay "$@" 2>"$B/e"; }
# refused RC TEXT ARGS...: btreplay ARGS exits RC saying TEXT
refused() {
	local rc=$1 t=$2; shift 2
	rp "$@"
	check "btreplay $*: exit $rc, \"$t\"" sh -c "test $? = $rc && grep -qF -- '$t' '$B/e'"
}
refused 1 "Missing required input dev name(s)"
refused 1 "Invalid acceleration factor 0 (1 to" -x 0 d
refused 1 "Invalid acceleration factor 2x" -x 2x d
refused 1 "Invalid number of iterations 0" -I 0 d
refused 1 "Invalid number of cpus 0" -c 0 d
refused 1 "Invalid input directory specified" -d "$B/none" d
refused 1 "$B/none: No such file or directory" -M "$B/none" d
printf 'sda sdb\nsdc\n' >"$B/odd.map"
refused 1 "$B/odd.map: \"sdc\" without the device to map it to at byte 8" -M "$B/odd.map" d
refused 1 "No traces found for nodev" -d "$B" nodev
rp -V
check "btreplay -V: btreplay's version on stderr" sh -c "test $? = 0 && grep -q '^btreplay -- version 1.0.0, iomon' '$B/e'"
check "btreplay --help: exit 0, names -W" sh -c "'$IOMON' btreplay --help 2>&1 | grep -q -- '-W, --write-enable'"

# said RC WANT TEXT: RC is WANT, $B/e says TEXT and no iteration began
said() { [ "$1" = "$2" ] && grep -qF -- "$3" "$B/e" && ! grep -q '^I' "$B/e"; }

# ---- on loop devices ----
# loopdev VAR SIZE [losetup options]: a loop device of its own, in VAR
LOOPS=()
loopdev() {
	local f=$OUT/$1.img
	rm -f "$f"; truncate -s "$2" "$f"
	printf -v "$1" %s "$(losetup -f --show "${@:3}" "$f")" && LOOPS+=("${!1}")
}
trap 'for l in "${LOOPS[@]}"; do losetup -d "$l"; done' EXIT
if need "btreplay on loop devices" losetup && { [ "$(id -u)" = 0 ] || { skip "btreplay on loop devices" "needs root"; false; }; } &&
	loopdev T 2G && loopdev T4 64M -b 4096 && loopdev S 1M && loopdev R 2G -r; then
	F=$B/f; mkdir -p "$F"
	( cd "$F" && "$IOMON" btrecord -d "$FIX/ext4" nullb0 )
	host_be && python3 "$TOOLS/replayle.py" "$F"/nullb0.replay.[01]	# the fixtures below are little-endian
	echo "nullb0 ${T#/dev/}" >"$B/T.map"
	# summary FILE W: the -v line btreplay must print for FILE (with -W if W)
	summary() {
		set -- "$1" "$2" $(python3 "$RF" count "$1")
		if [ "$2" = 1 ]; then echo "$1: $3 reads, $4 writes, $5 flushes"
		else echo "$1: $(($3 + $4)) reads, 0 writes, 0 flushes"; fi
	}
	sums() { sed -n 's/^I*btreplay: \(.*\); at most [0-9]* us late$/\1/p' "$1" | sort; }
	for w in 0 1; do
		W=; [ $w = 1 ] && W=-W
		rp -d "$F" -M "$B/T.map" -N -v $W nullb0
		check "btreplay -N -v $W ext4's files on $T: exit 0" test $? = 0
		{ summary "$F/nullb0.replay.0" $w; summary "$F/nullb0.replay.1" $w; } | sort >"$B/sum.exp"
		sums "$B/e" >"$B/sum.got"
		same "btreplay -v $W: each file's reads, writes and flushes as the file holds them" "$B/sum.got" "$B/sum.exp"
	done
	# the other byte order: the same I/Os
	mkdir -p "$B/be"
	for c in 0 1; do python3 "$RF" swap "$F/nullb0.replay.$c" "$B/be/nullb0.replay.$c"; done
	rp -d "$B/be" -M "$B/T.map" -N -v nullb0
	sums "$B/e" | sed "s#$B/be/#$F/#" >"$B/sum.got"
	{ summary "$F/nullb0.replay.0" 0; summary "$F/nullb0.replay.1" 0; } | sort >"$B/sum.exp"
	same "btreplay: the files in the other byte order replay the same I/Os" "$B/sum.got" "$B/sum.exp"
	# -I 2: each file twice
	rp -d "$F" -M "$B/T.map" -N -v -I 2 nullb0
	check "btreplay -I 2: two iterations, each file's summary twice" \
		sh -c "test \$(grep -c ' us late$' '$B/e') = 4 && test \$(grep -c '^Ibtreplay: ' '$B/e') = 2"

	# a file of one bunch: Debian's btrecord writes 0 bunches into its
	# header and Debian's btreplay leaves it out; ours replays it
	# Debian's btreplay: killed after 20 s, as it can hang at its end
	# (its threads wait on each other: 3 runs in 10 here)
	debian() { timeout -s KILL 20 btreplay "$@"; }
	# debrc NAME WANT: Debian's exit status in $B/deb.rc is WANT; a
	# hang is a SKIP saying so
	debrc() {
		if [ "$(cat "$B/deb.rc")" = 137 ]; then skip "$1" "Debian's btreplay hung (killed after 20 s)"
		else check "$1" test "$(cat "$B/deb.rc")" = "$2"; fi
	}
	if need "btreplay: Debian's one-bunch files" btrecord btreplay timeout; then
		mkdir -p "$B/one"
		( cd "$B/one" && btrecord -d "$FIX/ext4" -m 100000000000 -M 512 nullb0 2>/dev/null )
		check "Debian's btrecord: one bunch in each file, its header says 0" \
			test "$(od -An -tu8 -j16 -N8 "$B/one/nullb0.replay.0" | tr -d ' ')" = 0
		rp -d "$B/one" -M "$B/T.map" -N -v nullb0
		check "btreplay: a one-bunch file of Debian's btrecord is replayed ($(grep -c 'Added' "$B/e") added)" \
			sh -c "grep -q 'Added $B/one/nullb0.replay.0 1 bunches' '$B/e' && grep -q '$B/one/nullb0.replay.0: [1-9][0-9]* reads' '$B/e'"
		( cd "$B/one" && debian -M "$B/T.map" -N -v nullb0 >/dev/null 2>"$B/deb.e"; : ) 2>/dev/null
		check "Debian's btreplay adds none of them (the difference)" sh -c "! grep -q Added '$B/deb.e'"
		( cd "$F" && debian -M "$B/T.map" -N nullb0 >/dev/null 2>&1; echo $? >"$B/deb.rc" ) 2>/dev/null
		debrc "Debian's btreplay -M crashes at its exit (status 134); ours exits 0 above" 134
		( cd "$F" && debian -x 0 -M "$B/T.map" nullb0 >/dev/null 2>&1; echo $? >"$B/deb.rc" ) 2>/dev/null
		debrc "Debian's btreplay -x 0 dies dividing by it (SIGFPE, status 136); ours refuses it above" 136
	fi

	# damaged files: refused with the file and byte offset, nothing issued
	D=$B/bad; mkdir -p "$D"
	python3 "$RF" make "$D/good" le "1000:2048+4096/1,4096+8192/0" "2000:8192+4096/1"
	bad() {	# NAME TEXT PYTHON-EDIT: the good file edited (d: its bytes)
		rm -f "$D"/x.replay.*
		python3 -c "import sys; d = bytearray(open('$D/good', 'rb').read()); $3; open('$D/x.replay.0', 'wb').write(bytes(d))"
		echo "x ${T#/dev/}" >"$D/map"
		rp -d "$D" -M "$D/map" -v x
		check "btreplay: $1: exit 1, \"$2\", nothing issued" said $? 1 "$D/x.replay.0: $2"
	}
	bad "a truncated header" "truncated header at byte 0 (10 of 32 bytes)" "d = d[:10]"
	bad "a version not btrecord's" "version 0x20000 at byte 0, not btrecord's 0x10000" "d[2] = 2"
	bad "a truncated bunch" "truncated bunch at byte 96" "d = d[:-5]"
	bad "a bunch header cut" "truncated bunch at byte 96" "d = d[:100]"
	bad "a bunch of 0 I/Os" "a bunch of 0 I/Os at byte 32" "d[32] = 0"
	bad "a bunch of 513 I/Os" "a bunch of 513 I/Os at byte 32" "d[32:34] = (513).to_bytes(2, 'little')"
	bad "a direction of 2" "the I/O at byte 72 (sector 4096, 8192 bytes): a direction not 0 (write) or 1 (read) for /dev/${T#/dev/}" "d[88] = 2"
	bad "an I/O past the device's end" "the I/O at byte 48 (sector 4194304, 4096 bytes): past the end of /dev/${T#/dev/} (512-byte blocks, 2147483648 bytes)" \
		"d[48:56] = (4194304).to_bytes(8, 'little')"

	# a 4 KiB-sector device: ext4's 1 KiB I/Os refused before any is
	# issued; 4 KiB-aligned ones replayed, with -W the written data the
	# fixed pattern (the device read back)
	echo "nullb0 ${T4#/dev/}" >"$B/T4.map"
	rp -d "$F" -M "$B/T4.map" -v nullb0
	check "btreplay: 1 KiB I/Os on a 4 KiB-sector device: exit 1, the file and byte offset, nothing issued" \
		sh -c "test $? = 1 && grep -qF '$F/nullb0.replay.0: the I/O at byte 48 (sector 2, 1024 bytes): not in whole logical blocks of /dev/${T4#/dev/} (4096-byte blocks, 67108864 bytes)' '$B/e' && ! grep -q '^I' '$B/e'"
	mkdir -p "$B/k4"
	python3 "$RF" make "$B/k4/k.replay.0" le "5:16+8192/0,64+4096/1" "9:0+0/0" "12:40+4096/0"
	echo "k ${T4#/dev/}" >"$B/k4/map"
	rp -d "$B/k4" -M "$B/k4/map" -W -v k
	check "btreplay -W on a 4 KiB-sector device: exit 0, 1 read, 2 writes, 1 flush" \
		sh -c "test $? = 0 && grep -qF '$B/k4/k.replay.0: 1 reads, 2 writes, 1 flushes;' '$B/e'"
	python3 -c "import sys; sys.stdout.write(('$PAT' * 512)[:8192])" >"$B/pat.exp"
	dd if="$T4" bs=4096 skip=2 count=2 iflag=direct of="$B/pat.got" 2>/dev/null
	same "btreplay -W: the written 8 KiB at sector 16 hold the fixed pattern" "$B/pat.got" "$B/pat.exp"
	dd if="$T4" bs=4096 skip=5 count=1 iflag=direct of="$B/pat2.got" 2>/dev/null
	check "btreplay -W: the 4 KiB at sector 40 too" cmp "$B/pat2.got" <(head -c 4096 "$B/pat.exp")
	# past the end of a small device
	echo "nullb0 ${S#/dev/}" >"$B/S.map"
	rp -d "$F" -M "$B/S.map" nullb0
	check "btreplay: ext4's I/Os on a 1 MiB device: exit 1, past its end" \
		sh -c "test $? = 1 && grep -q 'past the end of /dev/${S#/dev/} (512-byte blocks, 1048576 bytes)' '$B/e'"
	# a read-only device: replayed without -W, refused with it
	echo "nullb0 ${R#/dev/}" >"$B/R.map"
	rp -d "$F" -M "$B/R.map" -N nullb0
	check "btreplay without -W on a read-only device: exit 0 (opened read-only; Debian's opens it for writing)" test $? = 0
	# with -W its writes fail: the first of each file named, the rest
	# counted, the replay goes on, exit 2
	rp -d "$F" -M "$B/R.map" -N -W nullb0
	check "btreplay -W on a read-only device: exit 2, each file's first failed write named, the failures counted" sh -c "test $? = 2 &&
		grep -qF '$F/nullb0.replay.0: the I/O at byte 184 (sector 0, 4096 bytes, write) failed: Operation not permitted' '$B/e' &&
		grep -qF '$F/nullb0.replay.0: 72 I/Os failed' '$B/e' && grep -qF '$F/nullb0.replay.1: 76 I/Os failed' '$B/e'"
	# -F with -i: the files of that base only
	mkdir -p "$B/F"
	for c in 0 1; do cp "$F/nullb0.replay.$c" "$B/F/nullb0.other.$c"; done
	cp "$F/nullb0.replay.0" "$B/F/zz.replay.0"
	rp -d "$B/F" -M "$B/T.map" -F -i other -N -v
	check "btreplay -F -i other: finds nullb0.other.N, not zz.replay.0 (Debian's -F looks for .replay.)" \
		sh -c "test $? = 0 && test \$(grep -c 'Added' '$B/e') = 2 && ! grep -q zz '$B/e'"
	# an empty file is said and left out
	mkdir -p "$B/E"; : >"$B/E/nullb0.replay.0"; cp "$F/nullb0.replay.1" "$B/E/"
	rp -d "$B/E" -M "$B/T.map" -N -v nullb0
	check "btreplay: an empty file said and left out, the next replayed" \
		sh -c "test $? = 0 && grep -q '$B/E/nullb0.replay.0 empty' '$B/e' && grep -q '$B/E/nullb0.replay.1: ' '$B/e'"
	# -x and -N: bunches 600 ms apart take 600 ms at least, a quarter of
	# that with -x 4, none with -N (the lower bounds are the stalls')
	mkdir -p "$B/x"
	python3 "$RF" make "$B/x/x.replay.0" be "1000000000:0+4096/1" "1600000000:8+4096/1"
	echo "x ${T#/dev/}" >"$B/x/map"
	ms() { local t0=${EPOCHREALTIME/./} t1; rp -d "$B/x" -M "$B/x/map" "$@" x; t1=${EPOCHREALTIME/./}; echo $(((t1 - t0) / 1000)); }
	t=$(ms); check "btreplay: bunches 600 ms apart take 600 ms or more ($t ms)" test "$t" -ge 600
	t=$(ms -x 4); check "btreplay -x 4: 150 ms or more, under 600 ($t ms)" test "$t" -ge 150 -a "$t" -lt 600
	t=$(ms -N); check "btreplay -N: under 150 ms ($t ms)" test "$t" -lt 150
	# fio replays what `iomon parse -d` dumps (fio --read_iolog reads a
	# blkparse -d dump): as many reads, writes, trims and syncs issued as
	# the trace queued (fio: a flush a sync, a discard a trim, zero-byte
	# I/Os dropped); a version-8 trace's dump is version 7, which fio
	# reads (it aborts on version 8); on s390x the dump is big-endian
	if need "fio --read_iolog of parse -d's dump" fio; then
		for fx in ext4 ext4-v8 discard-flush; do
			"$IOMON" parse -D "$FIX/$fx" -i nullb0 -d "$B/$fx.dump" -O >/dev/null 2>&1
			want=$("$IOMON" parse -D "$FIX/$fx" -i nullb0 -q -f '%a %d %n\n' |
				awk '$1 == "Q" { if ($2 ~ /^F/) f++; else if ($2 ~ /D/) t++; else if ($2 ~ /R/) r++; else if ($3 > 0) w++ }
				     END { printf "%d,%d,%d,%d", r, w, t, f }')
			timeout 120 fio --name=replay --read_iolog="$B/$fx.dump" --replay_redirect="$T" --direct=1 --replay_no_stall=1 >"$B/$fx.fio" 2>&1
			got=$(sed -n 's/.*issued rwts: total=\([0-9,]*\) .*/\1/p' "$B/$fx.fio")
			check "fio --read_iolog of iomon parse -d's $fx dump: issued reads,writes,trims,syncs $got, the trace's Qs $want" test "$got" = "$want"
		done
	fi
fi

# ---- live: a paced load traced, recorded and replayed while traced ----
# (this machine's kernel: tracefs on loop devices; run it under the live
# lock, as every live test)
# cap DEV DIR CMD...: DEV traced into DIR while CMD runs (it starts once
# the capture says it traces; SIGINT ends it once CMD is done)
cap() {
	local dev=$1 dir=$2 p; shift 2
	rm -rf "$dir" "$dir.err"; mkdir -p "$dir"
	"$IOMON" trace -d "$dev" -D "$dir" >"$dir.sum" 2>"$dir.err" & p=$!
	capturing "$dir.err" $p && "$@"
	kill -INT $p; wait $p
}
# qs DIR DEV COMM: the queued I/Os of COMM in DIR's trace of DEV, one a
# line: "CPU SECTOR BLOCKS R|W TIME" (a flush is W)
qs() {
	"$IOMON" parse -D "$1" -i "${2#/dev/}" -q -f '%c %a %d %S %n %T.%9t %C\n' |
		awk -v c="$3" '$2 == "Q" && $NF == c { print $1, $4, $5, ($3 ~ /R/ ? "R" : "W"), $6 }'
}
# key FILE: the I/Os without their times, CPU by CPU, each CPU's in its
# order (two CPUs' I/Os may interleave differently each run)
key() { cut -d' ' -f1-4 "$1" | sort -s -n -k1,1; }
span() { awk 'NR == 1 { a = $5 } { b = $5 } END { printf "%.6f\n", b - a }' "$1"; }
# pace REPLAY ORIG: the replay's pace against the original's (the median
# slope between its I/Os' times and theirs, tests/tools/pace.py), then the
# first-to-last span's ratio, which one I/O held up on a busy machine moves
pace() { python3 "$TOOLS/pace.py" "$1" "$2"; }
within() { python3 -c "import sys; sys.exit(not ($2 <= $1 <= $3))"; }
if live_ok "btreplay: a live replay" taskset; then
	L=$B/live; mkdir -p "$L"
	loopdev A 256M && loopdev Z 256M
	NCPU=$(nproc); [ "$NCPU" -gt 2 ] && NCPU=2
	load() {	# 100 I/Os 4 ms apart from each CPU, all from one start
		local s c p=()
		s=$(python3 -c 'import time; print(time.monotonic() + 0.05)')
		for ((c = 0; c < NCPU; c++)); do python3 "$TOOLS/replayload.py" "$A" $c $((c + 1)) 100 4 "$s" & p+=($!); done
		wait "${p[@]}"	# the loads, not the capture beside them
	}
	cap "$A" "$L/orig" load
	qs "$L/orig" "$A" python3 >"$L/orig.q"
	check "the load: $(wc -l <"$L/orig.q") queued I/Os over $(span "$L/orig.q") s, reads, writes and flushes among them" \
		sh -c "test \$(wc -l <'$L/orig.q') -ge $((NCPU * 100)) && grep -q ' R ' '$L/orig.q' && grep -q ' [1-9][0-9]* W ' '$L/orig.q' && grep -q ' 0 W ' '$L/orig.q'"
	"$IOMON" btrecord -d "$L/orig" -D "$L" "${A#/dev/}"
	echo "${A#/dev/} ${Z#/dev/}" >"$L/map"
	# replay VIA NAME ARGS...: the recording in $L replayed by VIA onto Z,
	# traced; its queued I/Os in $L/NAME.q
	replay() {
		local via=$1 n=$2; shift 2
		cap "$Z" "$L/$n" $via -M "$L/map" -W "$@" "${A#/dev/}"
		qs "$L/$n" "$Z" "$(case $via in *iomon*) echo iomon ;; *) echo btreplay ;; esac)" >"$L/$n.q"
	}
	replay "$IOMON btreplay -d $L" ours
	check "btreplay: the replay queued the original's I/Os: sector, size, direction, CPU, in each CPU's order" \
		cmp <(key "$L/ours.q") <(key "$L/orig.q")
	r=($(pace "$L/ours.q" "$L/orig.q"))
	check "btreplay: the replay kept the original's pace within 10 % (${r[0]}; its span $(span "$L/ours.q") s against $(span "$L/orig.q") s: ${r[1]})" within "${r[0]}" 0.9 1.1
	replay "$IOMON btreplay -d $L" fast -x 2
	check "btreplay -x 2: the same I/Os" cmp <(key "$L/fast.q") <(key "$L/orig.q")
	r=($(pace "$L/fast.q" "$L/orig.q"))
	check "btreplay -x 2: twice the pace within 10 % (${r[0]}; span ratio ${r[1]})" within "${r[0]}" 0.45 0.55
	if need "btreplay: Debian's btrecord and btreplay" btrecord btreplay; then
		mkdir -p "$L/deb"
		btrecord -d "$L/orig" -D "$L/deb" "${A#/dev/}" 2>/dev/null
		replay "$IOMON btreplay -d $L/deb" debfiles
		check "btreplay on Debian's btrecord's files: the original's I/Os" cmp <(key "$L/debfiles.q") <(key "$L/orig.q")
		r=($(pace "$L/debfiles.q" "$L/orig.q"))
		check "btreplay on Debian's files: the original's pace within 10 % (${r[0]}; span ratio ${r[1]})" within "${r[0]}" 0.9 1.1
		# Debian's btreplay: its I/Os but the flushes (it issues a
		# zero-byte write for each, which queues nothing); it crashes
		# at its exit with -M
		debrp() { ( cd "$L/deb" && timeout -s KILL 20 btreplay "$@" >/dev/null 2>&1; : ) 2>/dev/null; }
		replay debrp debian
		check "Debian's btreplay: the original's I/Os but its flushes ($(grep -c ' 0 W ' "$L/orig.q") flushes)" \
			cmp <(key "$L/debian.q") <(key "$L/orig.q" | grep -v ' 0 W$')
		echo "Debian's btreplay took $(span "$L/debian.q") s, ours $(span "$L/ours.q") s, the original $(span "$L/orig.q") s" >"$L/times"
	fi
fi
