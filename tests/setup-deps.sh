#!/usr/bin/env bash
# Install what building and testing iomon needs, from Debian's packages.
# Safe to run again: it installs only what is missing.  Needs root.
#   musl-tools          static musl build (musl-gcc)
#   blktrace            the oracle: Debian's blkparse 1.2.0
#   file, python3       test helpers
#   fdisk, mount        sfdisk and losetup for live captures on loop devices
#   s390x cross + qemu  big-endian host tests (optional: tests SKIP without)
#   prometheus          promtool, to check monitor's --prom output (optional)
set -u
need=()
command -v musl-gcc >/dev/null || need+=(musl-tools)
command -v blkparse >/dev/null || need+=(blktrace)
command -v file >/dev/null || need+=(file)
command -v sfdisk >/dev/null || need+=(fdisk)
command -v strace >/dev/null || need+=(strace)
command -v losetup >/dev/null || need+=(mount)
command -v python3 >/dev/null || need+=(python3)
command -v make >/dev/null || need+=(make)
command -v gcc >/dev/null || need+=(gcc)
opt=()
command -v promtool >/dev/null || opt+=(prometheus)
cross=()
command -v s390x-linux-gnu-gcc >/dev/null || cross+=(gcc-s390x-linux-gnu)
[ -f /usr/lib/s390x-linux-musl/musl-gcc.specs ] || cross+=(musl-dev:s390x)
command -v qemu-s390x-static >/dev/null || cross+=(qemu-user-static)
[ ${#need[@]} -eq 0 ] && [ ${#cross[@]} -eq 0 ] && [ ${#opt[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "setup-deps: missing ${need[*]} ${cross[*]}; run as root to install (tests that need them SKIP)" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
[ ${#cross[@]} -gt 0 ] && { dpkg --print-foreign-architectures | grep -qx s390x || dpkg --add-architecture s390x; }
apt-get update -qq || echo "setup-deps: apt-get update failed" >&2
if [ ${#need[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || {
		echo "setup-deps: could not install ${need[*]}" >&2; exit 1; }
fi
if [ ${#opt[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${opt[@]}" >/dev/null ||
		echo "setup-deps: ${opt[*]} not installed; the promtool check will SKIP" >&2
fi
if [ ${#cross[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${cross[@]}" >/dev/null ||
		echo "setup-deps: cross tools (${cross[*]}) not installed; big-endian tests will SKIP" >&2
fi
exit 0
