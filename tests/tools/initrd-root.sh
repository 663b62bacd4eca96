#!/usr/bin/env bash
# tests/tools/initrd-root.sh DIR: a fresh Debian 12 chroot in DIR for
# tests/long/t-initrd.sh: minbase bookworm (as tests/tools/fresh.sh makes
# it: debootstrap, or fresh.sh's own cached base when there is one) with
# make, gcc and musl-tools to build iomon, Debian's kernel package
# (linux-image-amd64) with initramfs-tools, busybox for the rescue shell,
# an init (sysvinit-core: a minbase chroot has none, and dracut's images
# want its poweroff, reboot and halt; systemd's would make them systemd's,
# slower to boot under TCG), and dracut's packages downloaded (not installed: dracut replaces
# initramfs-tools).  The chroot is built once into DIR.base and each run
# gets a new one at DIR, an overlay on it (umount DIR when done; without
# overlayfs, a copy); DIR.log holds what was done.  Prints the
# kernel's version.  Needs root and Debian's mirror the first time.
set -u
D=$1
FRESH=/var/tmp/iomon-fresh.base.tar
[ "$(id -u)" = 0 ] || { echo "initrd-root: needs root (debootstrap, chroot)" >&2; exit 2; }
mounted() { grep -q " $D/" /proc/mounts; }
unmount() { local m; for m in dev sys proc; do umount -R "$D/$m" 2>/dev/null; done; ! mounted; }
if mounted; then unmount || { echo "initrd-root: $D still has mounts; not touching it" >&2; exit 2; }; fi
mount_all() { local m; for m in proc sys dev; do mount --rbind "/$m" "$D/$m" && mount --make-rslave "$D/$m" || return 1; done; }
in_root() { chroot "$D" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }

if [ ! -d "$D.base" ] && [ -f "$D.base.tar" ]; then	# an older cache's form
	rm -rf "$D.base.new" && mkdir -p "$D.base.new" && tar -C "$D.base.new" -xf "$D.base.tar" &&
		mv "$D.base.new" "$D.base" && rm -f "$D.base.tar" || exit 2
fi
if [ ! -d "$D.base" ]; then
	B=$D.base.new
	rm -rf "$B"; mkdir -p "$B"
	if [ -f "$FRESH" ]; then
		tar -C "$B" -xf "$FRESH" >"$D.log" 2>&1
	else
		command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null ||
			{ echo "initrd-root: cannot install debootstrap" >&2; exit 2; }
		debootstrap --variant=minbase bookworm "$B" http://deb.debian.org/debian >"$D.log" 2>&1
	fi || { echo "initrd-root: no base chroot ($D.log)" >&2; exit 2; }
	cp /etc/resolv.conf "$B/etc/resolv.conf"
	D=$B
	trap unmount EXIT
	mount_all || exit 2
	in_root sh -c 'apt-get update -qq &&
		apt-get install -y -qq --no-install-recommends make gcc musl-tools zstd busybox sysvinit-core initramfs-tools linux-image-amd64 &&
		apt-get install -y -qq --no-install-recommends --download-only dracut' >>"$D.log" 2>&1 ||
		{ echo "initrd-root: installing the packages failed ($D.log)" >&2; exit 2; }
	unmount || exit 2
	trap - EXIT
	D=$1
	mv "$B" "$D.base" || exit 2
fi
# a new chroot over the base: an overlay (the base stays as it was), or
# where there is none a copy
if grep -q " $D overlay " /proc/mounts; then umount "$D" || exit 2; fi
rm -rf "$D" "$D.upper" "$D.work" && mkdir -p "$D" "$D.upper" "$D.work" || exit 2
mount -t overlay overlay -o "lowerdir=$D.base,upperdir=$D.upper,workdir=$D.work" "$D" 2>/dev/null ||
	cp -a "$D.base/." "$D" || exit 2
ls "$D/lib/modules" | head -1
