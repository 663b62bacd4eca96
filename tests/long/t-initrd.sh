# needs: python3 qemu-system-x86_64
# iomon in the initramfs as Debian builds it (issue 34), on a fresh Debian
# 12 chroot with Debian's kernel package (tests/tools/initrd-root.sh,
# cached under /var/tmp): `make install INITRAMFS=initramfs-tools`, then
# `update-initramfs -c`, and the image (unmkinitramfs) holds iomon, its
# links and the mount script; then dracut in its place, `make install
# INITRAMFS=dracut`, `dracut --kver`, and lsinitrd shows the same.  The
# images the kernel package and dracut's package built before are the
# control: no iomon in them.  `make uninstall` leaves /usr and /etc as they
# were before `make install`.  Then each image boots under qemu (TCG) with
# break=premount or rd.break=pre-mount, and tests/tools/initrdcon.py types
# into its shell on the serial console: debugfs and tracefs are mounted,
# the links are there, `blktrace -d /dev/vda -o - | blkparse -i -` shows a
# dd's reads of the virtio disk while dd runs, and blkiomon prints an
# interval.  Part of make check-long (VM=1); the qemu runs take the
# machine's live lock.  The first run builds the chroot (minutes, Debian's
# mirror); INITRD_CACHED_ONLY=1 (CI) skips the test until it is there.
R=${INITRD_ROOT:-/var/tmp/iomon-initrd}
LOCK=/tmp/iomon-live.lock

initrd_ok() {
	if [ "${VM:-0}" = 0 ]; then
		skip "$1" "VM=0: set VM=1 to build and boot Debian's initramfs images under qemu (make check-long does)"
		return 1
	fi
	[ "$(id -u)" = 0 ] || { skip "$1" "needs root (a debootstrap chroot)"; return 1; }
	case $(uname -m) in x86_64) ;; *) skip "$1" "the chroot and its kernel are amd64's"; return 1 ;; esac
	# CI (.ci/run) sets INITRD_CACHED_ONLY=1: building the chroot costs
	# minutes more than the test itself
	if [ "${INITRD_CACHED_ONLY:-0}" = 1 ] && [ ! -d "$R.base" ] && [ ! -f "$R.base.tar" ]; then
		skip "$1" "INITRD_CACHED_ONLY=1 and no cached chroot $R.base yet (make check-long ONLY=t-initrd builds it)"
		return 1
	fi
}
mounted() { grep -q " $R/" /proc/mounts; }
unmount() { local m; for m in dev sys proc; do umount -R "$R/$m" 2>/dev/null; done; ! mounted; }
# and the overlay initrd-root.sh mounted
release() { unmount; ! grep -q " $R overlay " /proc/mounts || umount "$R"; }
# in_root NAME COMMAND: COMMAND in the chroot (sh, as root), its output
# in $OUT/NAME.log
in_root() {
	chroot "$R" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
		sh -c "$2" >"$OUT/$1.log" 2>&1
}
# fs_list NAME: what make install may touch, to compare before and after
fs_list() { (cd "$R" && find usr etc ! -path 'etc/ld.so.cache' -printf '%p %y %l\n' | sort) >"$OUT/$1.fs"; }
# listing FILE: the image's listing as "PATH" or "PATH -> TARGET" lines
# (from unmkinitramfs's tree, or lsinitrd's ls -l lines)
links_in() {	# LISTING: blktrace, blkparse, blkiomon, btrace link to iomon
	local l bad=
	for l in blktrace blkparse blkiomon btrace; do
		grep -Eq "(^|/)usr/bin/$l -> iomon\$" "$1" || bad="$bad $l"
	done
	[ -z "$bad" ] || { echo "no link to iomon:$bad"; return 1; }
}
has_iomon() {	# NAME LISTING BINARY-IN-IMAGE: iomon, its links, the mount script
	local n=$1 L=$2
	check "$n: the image holds iomon" grep -Eq '(^|/)usr/bin/iomon$' "$L"
	check "$n: ... and its links blktrace, blkparse, blkiomon, btrace" links_in "$L"
	check "$n: ... the profile make install was given (build/profile-initramfs/iomon), byte for byte" \
		cmp "$3" "$R/root/iomon/build/profile-initramfs/iomon"
}
# boot NAME IMAGE APPEND: the image under qemu, driven through its console
boot() {
	local n=$1 t0=$SECONDS k w d
	rm -f "$OUT/$n.disk"; truncate -s 4G "$OUT/$n.disk"
	flock "$LOCK" timeout -k 10 1800 python3 "$TOOLS/initrdcon.py" "$OUT/$n.console" -- \
		qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot -serial mon:stdio \
		-kernel "$OUT/vmlinuz" -initrd "$2" -append "console=ttyS0 quiet $3" \
		-drive "file=$OUT/$n.disk,if=virtio,format=raw,cache=unsafe,throttling.iops-total=50" \
		>"$OUT/$n.facts" 2>"$OUT/$n.err"
	check "$n boot: the console driver ran to its end ($((SECONDS - t0)) s with the wait for the lock)" \
		grep -q '^time	all' "$OUT/$n.facts"
	while IFS='	' read -r k w d; do
		case $k in
		ok) pass "$n boot: $w" ;;
		no) fail "$n boot: $w" "$d" "less $(q "$OUT/$n.console")" ;;
		time) echo "$n boot: $w took $d s" >>"$OUT/times" ;;
		esac
	done <"$OUT/$n.facts"
	grep -q "^ok	boot" "$OUT/$n.facts" || fail "$n boot: a shell" "$(tail -3 "$OUT/$n.err")" "less $(q "$OUT/$n.console")"
}

if initrd_ok "initramfs-tools hook and dracut module"; then
	T0=$SECONDS
	KV=$(bash "$TOOLS/initrd-root.sh" "$R" 2>"$OUT/root.err")
	if [ -z "$KV" ] || [ ! -f "$R/boot/vmlinuz-$KV" ]; then
		skip "initramfs-tools hook and dracut module" "no Debian chroot with its kernel: $(cat "$OUT/root.err")"
	else
		echo "chroot: $((SECONDS - T0)) s" >"$OUT/times"
		trap release EXIT
		cp "$R/boot/vmlinuz-$KV" "$OUT/vmlinuz"
		for m in proc sys dev; do mount --rbind "/$m" "$R/$m" && mount --make-rslave "$R/$m"; done
		# this tree as it is, uncommitted changes too, built in the chroot
		mkdir -p "$R/root/iomon"
		(cd "$TOP" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -C "$R/root/iomon" -xf -
		IMG=/boot/initrd.img-$KV

		# initramfs-tools: the kernel package's own image is the control
		t=$SECONDS
		in_root ctl-irt "rm -rf /tmp/c && unmkinitramfs $IMG /tmp/c && cd /tmp/c && find . -printf '%P\n'"
		check "initramfs-tools control: the kernel package's image unpacks (unmkinitramfs)" grep -q 'usr/bin/busybox' "$OUT/ctl-irt.log"
		check "initramfs-tools control: an image built without the hook has no iomon" sh -c "! grep -q iomon $(q "$OUT/ctl-irt.log")"
		fs_list irt-before
		check "make install INITRAMFS=initramfs-tools (in the chroot)" \
			in_root irt-install "cd /root/iomon && make -j2 install PREFIX=/usr INITRAMFS=initramfs-tools"
		check "update-initramfs -c -k $KV" in_root irt-update "update-initramfs -c -k $KV"
		in_root irt-unpack "rm -rf /tmp/u && unmkinitramfs $IMG /tmp/u"
		(cd "$R/tmp/u" && find . -type l -printf '%P -> %l\n' -o -printf '%P\n') >"$OUT/irt.list"
		has_iomon "initramfs-tools" "$OUT/irt.list" "$(find "$R/tmp/u" -path '*usr/bin/iomon' | head -1)"
		check "initramfs-tools: the image runs the mount script at init-top" grep -Eq '(^|/)scripts/init-top/iomon$' "$OUT/irt.list"
		cp "$R$IMG" "$OUT/irt.img"
		check "make uninstall" in_root irt-uninstall "cd /root/iomon && make uninstall PREFIX=/usr"
		fs_list irt-after
		check "make uninstall: /usr and /etc as they were before make install INITRAMFS=initramfs-tools" \
			diff "$OUT/irt-before.fs" "$OUT/irt-after.fs"
		echo "initramfs-tools install, image, uninstall: $((SECONDS - t)) s" >>"$OUT/times"

		# dracut: installing its package builds the control image
		t=$SECONDS
		check "dracut replaces initramfs-tools (apt-get install dracut, from the chroot's cache)" \
			in_root dracut-pkg "apt-get install -y -qq --no-install-recommends dracut"
		in_root ctl-dracut "lsinitrd $IMG"
		check "dracut control: dracut's package built an image (lsinitrd)" grep -q 'dracut' "$OUT/ctl-dracut.log"
		check "dracut control: an image built without the module has no iomon" sh -c "! grep -q iomon $(q "$OUT/ctl-dracut.log")"
		fs_list dracut-before
		check "make install INITRAMFS=dracut (in the chroot)" \
			in_root dracut-install "cd /root/iomon && make -j2 install PREFIX=/usr INITRAMFS=dracut"
		# virtio_blk for the test's disk, dd for its load
		check "dracut -f --kver $KV" in_root dracut-build "dracut -f --kver $KV --add-drivers virtio_blk --install dd"
		in_root dracut-ls "lsinitrd $IMG"
		# lsinitrd's ls -l lines: the name (and link target) from the 9th field on
		sed -n 's/^[-dlcbps][-rwxsStT]\{9\}[ 	]\+\([^ ]\+[ 	]\+\)\{7\}//p' "$OUT/dracut-ls.log" >"$OUT/dracut.list"
		in_root dracut-bin "lsinitrd -f usr/bin/iomon $IMG >/tmp/iomon.dracut"
		has_iomon "dracut" "$OUT/dracut.list" "$R/tmp/iomon.dracut"
		check "dracut: the image runs the mount script as a cmdline hook" grep -Eq 'hooks/cmdline/[0-9]+-iomon-mount\.sh$' "$OUT/dracut.list"
		cp "$R$IMG" "$OUT/dracut.img"
		check "make uninstall (dracut)" in_root dracut-uninstall "cd /root/iomon && make uninstall PREFIX=/usr"
		fs_list dracut-after
		check "make uninstall: /usr and /etc as they were before make install INITRAMFS=dracut" \
			diff "$OUT/dracut-before.fs" "$OUT/dracut-after.fs"
		echo "dracut package, install, image, uninstall: $((SECONDS - t)) s" >>"$OUT/times"
		release

		boot initramfs-tools "$OUT/irt.img" "break=premount"
		boot dracut "$OUT/dracut.img" "root=/dev/vda rd.break=pre-mount rd.shell"
		echo "all: $((SECONDS - T0)) s" >>"$OUT/times"
		sed 's/^/t-initrd: /' "$OUT/times"
	fi
fi
