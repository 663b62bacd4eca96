#!/usr/bin/env bash
# tests/tools/fresh.sh [DIR]: the README's two commands on a fresh Debian 12, as a
# newcomer meets them.  A minbase bookworm chroot (debootstrap) with only
# git, make and gcc added; this tree's HEAD cloned into it; then, as root
# inside it, `make demo` and `make check`, each alone.  It prints what each
# ended with and exits non-zero unless the demo built a static musl binary
# and the check ended "N passed, 0 failed, N skipped".
#
# Root and network to Debian's mirror are needed; it takes 10 to 20 minutes.
# The chroot is built once into DIR.base.tar (default /var/tmp/iomon-fresh)
# and unpacked afresh for every run.  /proc, /sys and /dev are the host's
# (live capture tests use the host kernel's tracefs and loop devices).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=${1:-/var/tmp/iomon-fresh}
[ "$(id -u)" = 0 ] || { echo "fresh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null ||
	{ echo "fresh: cannot install debootstrap" >&2; exit 2; }

mounted() { grep -q " $D/" /proc/mounts; }
unmount() { local m; for m in dev sys proc; do umount -R "$D/$m" 2>/dev/null; done; ! mounted; }
trap unmount EXIT
if mounted; then unmount || { echo "fresh: $D still has mounts; not touching it" >&2; exit 2; }; fi

if [ ! -f "$D.base.tar" ]; then
	rm -rf "$D.new"
	debootstrap --variant=minbase bookworm "$D.new" http://deb.debian.org/debian >"$D.log" 2>&1 ||
		{ echo "fresh: debootstrap failed ($D.log)" >&2; exit 2; }
	cp /etc/resolv.conf "$D.new/etc/resolv.conf"
	chroot "$D.new" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git make gcc' >>"$D.log" 2>&1 ||
		{ echo "fresh: installing git make gcc failed ($D.log)" >&2; exit 2; }
	tar -C "$D.new" -cf "$D.base.tar" . && rm -rf "$D.new"
fi
# a new chroot from the base: nothing a previous run installed survives
[ -d "$D" ] && { mounted && exit 2; rm -rf "$D"; }
mkdir -p "$D" && tar -C "$D" -xf "$D.base.tar" || exit 2
cp /etc/resolv.conf "$D/etc/resolv.conf"
git -C "$TOP" bundle create "$D/iomon.bundle" HEAD >/dev/null 2>&1 || exit 2
for m in proc sys dev; do mount --rbind "/$m" "$D/$m" && mount --make-rslave "$D/$m"; done

run() {	# NAME COMMAND: in the chroot's clone, as root; log in $D.NAME.log
	local t0=$SECONDS
	chroot "$D" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
		sh -c "cd /root/iomon && $2" >"$D.$1.log" 2>&1
	echo "fresh: $2: exit $?, $((SECONDS - t0)) s (log $D.$1.log)"
}
chroot "$D" git -c advice.detachedHead=false clone -q /iomon.bundle /root/iomon || exit 2
rc=0
run demo "make demo"
# static (no program interpreter), musl (the compiler stamp), in budget
chroot "$D" sh -c 'cd /root/iomon && ! readelf -l iomon | grep -q INTERP && head -1 build/cc.stamp | grep -q "^musl-gcc " &&
	test $(stat -c %s iomon) -le $(make -s print-budget) && echo "static musl iomon, $(stat -c %s iomon) bytes"' >"$D.built" 2>&1 || rc=1
echo "fresh: make demo built: $(cat "$D.built")"
run check "make check"
tail -1 "$D.check.log" | sed 's/^/fresh: make check ended: /'
grep -qE '^[0-9]+ passed, 0 failed, [0-9]+ skipped$' <(tail -1 "$D.check.log") || rc=1
grep '^SKIP' "$D.check.log" | sed 's/^/fresh: /'
grep '^FAIL' "$D.check.log" | sed 's/^/fresh: /'
exit $rc
