# needs: python3
# serial
# copy: a loop device copied while threads write to it at random
# (tests/tools/cwriter.py) and while an ext4 on it is filled: equal to the
# source at the end, every seed, with the tiny pool too; the tracer killed
# mid-copy costs a full pass; the refusals write nothing.

# direct reads both: equal, past any page cache
same_dev() { cmp -s <(dd if="$1" iflag=direct bs=1M status=none) <(dd if="$2" iflag=direct bs=1M status=none); }
sum_dev() { dd if="$1" iflag=direct bs=1M status=none | md5sum; }
# loop DEV of SIZE, random content (seeded), or zeroes with "zero"
mkloop() {
	local f=$OUT/$1.img
	rm -f "$f"; truncate -s "$2" "$f"
	[ "${3:-}" = zero ] || python3 -c "import random, sys; r = random.Random($2 % 997); open(sys.argv[1], 'r+b').write(r.randbytes($(($2))))" "$f"
	losetup -f --show "$f"
}
# run_copy NAME BIN ARGS...: copy in the background; CP (timeout's pid),
# CI (copy's own: signals go to it)
run_copy() {
	local n=$1 b=$2; shift 2
	rm -f "$OUT/$n.err" "$OUT/$n.out"
	timeout 300 "$b" copy "$@" >"$OUT/$n.out" 2>"$OUT/$n.err" &
	CP=$!
	poll 10 pgrep -P $CP >/dev/null; CI=$(pgrep -P $CP)
}
tracer_of() { pgrep -P "$1" | head -1; }

if live_ok "copy" sfdisk mkfs.ext4 fsfreeze; then
	M=$((64 * 1024 * 1024))
	# ---- refusals: a message, exit 1, DST as it was ----
	S=$(mkloop src $M); D=$(mkloop dst $M zero); SM=$(mkloop small $((M / 2)) zero)
	b=$(sum_dev "$SM")
	"$IOMON" copy "$S" "$SM" >/dev/null 2>"$OUT/r1.err"; rc=$?
	check "copy to a smaller DST: refused, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -q '$SM: smaller than SRC; nothing written' '$OUT/r1.err'"
	check "copy to a smaller DST: DST unchanged" test "$(sum_dev "$SM")" = "$b"
	"$IOMON" copy "$S" "$S" >/dev/null 2>"$OUT/r2.err"; rc=$?
	check "copy SRC SRC: refused, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -q 'the same device; nothing written' '$OUT/r2.err'"
	# (read-only: its umount writes nothing, so DST's sum says what copy did)
	mkfs.ext4 -q -F "$D" && mkdir -p "$OUT/mnt" && mount -o ro "$D" "$OUT/mnt"
	b=$(sum_dev "$D")
	"$IOMON" copy "$S" "$D" >/dev/null 2>"$OUT/r3.err"; rc=$?
	check "copy to a mounted DST: refused, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -q 'in use (mounted?); nothing written' '$OUT/r3.err'"
	umount "$OUT/mnt"
	check "copy to a mounted DST: DST unchanged" test "$(sum_dev "$D")" = "$b"
	P=$(mkloop part $M zero)
	printf 'label: dos\n2048,40960\n43008,40960\n' | sfdisk -q "$P" >/dev/null 2>&1
	losetup -d "$P"; P=$(losetup -f --show -P "$OUT/part.img")
	# (6.18's loop driver may not read the table, though partscan is on:
	# partx adds what it holds)
	poll 5 sh -c "test -b ${P}p1 && test -b ${P}p2" || partx -a "$P" 2>/dev/null
	if poll 10 sh -c "test -b ${P}p1 && test -b ${P}p2"; then
		b=$(sum_dev "$P")
		"$IOMON" copy "${P}p1" "$P" >/dev/null 2>"$OUT/r4.err"; rc=$?
		check "copy a partition onto its disk: refused, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -q 'overlap on one disk; nothing written' '$OUT/r4.err'"
		"$IOMON" copy "$P" "${P}p2" >/dev/null 2>"$OUT/r5.err"; rc=$?
		check "copy a disk onto its partition: refused, exit 1 ($rc)" sh -c "[ $rc = 1 ] && grep -qE 'overlap on one disk|smaller than SRC' '$OUT/r5.err'"
		check "the refused copies wrote nothing on the partitioned disk" test "$(sum_dev "$P")" = "$b"
		"$IOMON" copy "${P}p1" "${P}p2" >"$OUT/pp.out" 2>"$OUT/pp.err" </dev/null & ppid=$!
		wait_for 60 "copy between two partitions of one disk: the passes small" grep -q 'press Enter' "$OUT/pp.err"
		kill -USR1 $ppid; wait $ppid; rc=$?
		check "copy between two partitions of one disk (they do not overlap): exit 0 ($rc)" test "$rc" = 0
		check "copy between two partitions of one disk: equal" same_dev "${P}p1" "${P}p2"
	else
		skip "copy, partitions" "no ${P}p1 and ${P}p2 nodes, even after partx -a"
	fi
	losetup -d "$P"

	# ---- random writers during the copy, several seeds, and the tiny pool ----
	# the tiny pool: EXT_MAX 4 (build/tiny's CAP_CPUS 1 refuses this machine)
	TX=$TOP/build/tiny-ext/iomon
	[ -n "$CROSS" ] || make -s -C "$TOP" ZSTD=0 build/tiny-ext/iomon >"$OUT/tx.log" 2>&1 || cat "$OUT/tx.log"
	for run in 1:"$IOMON" 2:"$IOMON" 3:"$IOMON" 4:"$TX"; do
		seed=${run%%:*} bin=${run#*:}
		[ -x "$bin" ] || { skip "copy, seed $seed" "no $bin"; continue; }
		rm -f "$OUT/stop" "$OUT/stop.on"; python3 "$TOOLS/cwriter.py" "$S" "$seed" "$OUT/stop" >"$OUT/w$seed.n" & wp=$!
		wait_for 60 "copy seed $seed: the writers writing before it starts" test -e "$OUT/stop.on"
		run_copy c$seed "$bin" "$S" "$D" </dev/null
		wait_for 120 "copy seed $seed: the passes small, the writers still writing" grep -q 'press Enter' "$OUT/c$seed.err"
		touch "$OUT/stop"; wait $wp
		kill -USR1 $CI; wait $CP; rc=$?
		tag="copy, seed $seed"; [ "$bin" = "$TX" ] && tag="$tag, tiny pool (EXT_MAX 4)"
		check "$tag: exit 0 ($rc) with $(cat "$OUT/w$seed.n") writes made during it" test "$rc" = 0
		check "$tag: DST equals SRC (cmp)" same_dev "$S" "$D"
		check "$tag: each pass reported, the first full" sh -c "grep -q '^pass 1 full: $M bytes in [0-9.]* s\$' '$OUT/c$seed.out' && grep -q '^pass [2-9][0-9]* ' '$OUT/c$seed.out'"
		check "$tag: it says DST equals SRC, against a second full pass" grep -q "^$D equals $S after [0-9]* passes: [0-9]* bytes copied after the first, against $M for a second full pass\$" "$OUT/c$seed.out"
		later=$(sed -n 's/.*passes: \([0-9]*\) bytes.*/\1/p' "$OUT/c$seed.out")
		[ "$bin" = "$IOMON" ] && check "$tag: fewer bytes after the first pass ($later) than a second full pass ($M)" test "${later:-$M}" -lt $M
	done

	# ---- the tracer killed mid-copy: said, and a full pass before DST is equal ----
	rm -f "$OUT/stop" "$OUT/stop.on"; python3 "$TOOLS/cwriter.py" "$S" 9 "$OUT/stop" >/dev/null & wp=$!
	wait_for 60 "copy: the writers writing before it starts" test -e "$OUT/stop.on"
	run_copy ck "$IOMON" "$S" "$D" </dev/null
	wait_for 120 "copy: the passes small" grep -q 'press Enter' "$OUT/ck.err"
	tp=$(tracer_of $CI); kill -9 "$tp"
	# (killed, it left its tracefs instance behind)
	poll 10 sh -c "! kill -0 $tp 2>/dev/null" && rmdir "$TRACEFS/instances/iomon-$tp" 2>/dev/null
	wait_for 60 "copy: the tracer's end said" grep -q 'the tracer ended: DST is not SRC.s copy until a full pass has run' "$OUT/ck.err"
	wait_for 60 "copy: a full pass after it" sh -c "[ \$(grep -c '^pass [0-9]* full: ' '$OUT/ck.out') -ge 2 ]"
	check "copy: a new tracer runs" sh -c "t=\$(pgrep -P $CI | head -1); [ -n \"\$t\" ] && [ \"\$t\" != $tp ]"
	touch "$OUT/stop"; wait $wp
	kill -USR1 $CI; wait $CP; rc=$?
	check "copy, tracer killed: exit 0 ($rc)" test "$rc" = 0
	check "copy, tracer killed: DST equals SRC" same_dev "$S" "$D"

	# ---- an ext4 filled during the copy; the user freezes it ----
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$S" && mount "$S" "$OUT/mnt"
	rm -f "$OUT/stop2"
	( i=0; while [ ! -e "$OUT/stop2" ]; do i=$((i + 1)); head -c $((i % 5 * 65536 + 4096)) /dev/urandom >"$OUT/mnt/f$((i % 80))"; [ $((i % 10)) = 0 ] && sync; done ) & fp=$!
	run_copy ce "$IOMON" "$S" "$D" </dev/null
	wait_for 120 "copy of a mounted ext4: the passes small" grep -q 'press Enter' "$OUT/ce.err"
	touch "$OUT/stop2"; wait $fp; fsfreeze -f "$OUT/mnt"
	kill -USR1 $CI; wait $CP; rc=$?
	check "copy, ext4 filled during it, then frozen: exit 0 ($rc)" test "$rc" = 0
	check "copy, ext4 filled during it, then frozen: DST equals SRC" same_dev "$S" "$D"
	fsfreeze -u "$OUT/mnt"
	# --freeze: the dirty pages the freeze writes are traced and copied
	head -c 3000000 /dev/urandom >"$OUT/mnt/late"
	"$IOMON" copy --freeze "$OUT/mnt" "$S" "$D" >"$OUT/cf.out" 2>"$OUT/cf.err" </dev/null; rc=$?
	check "copy --freeze: exit 0 ($rc), frozen" sh -c "[ $rc = 0 ] && grep -q 'mnt: frozen' '$OUT/cf.err'"
	# the thaw rewrites ext4's superblock (its recovery flag, cleared for
	# the freeze): DST is the frozen image, so SRC differs there alone
	sb_only() { cmp -l <(dd if="$1" iflag=direct bs=1M status=none) <(dd if="$2" iflag=direct bs=1M status=none) |
		awk '$1 <= 1024 || $1 > 2048 { bad = 1 } END { exit bad }'; }
	check "copy --freeze: DST equals SRC but for the superblock the thaw wrote" sb_only "$S" "$D"
	check "copy --freeze: thawed (a file can be made)" timeout 10 touch "$OUT/mnt/after"
	umount "$OUT/mnt"
	losetup -d "$S"; losetup -d "$D"; losetup -d "$SM"
	rm -f "$OUT"/*.img
fi
