#!/usr/bin/env bash
# Install what building, the demo and testing iomon need, from Debian's
# packages.  Safe to run again: it installs only what is missing.  Needs
# root; otherwise it says what is missing and how to install it.
#   tests/tools/setup-deps.sh [build|demo|check|cross|all]   (default all)
# build (make):
#   musl-tools          static musl build (musl-gcc)
# demo (make demo), build and:
#   mount               losetup, for a live capture on a loop device
# check (make check), demo and:
#   blktrace            the oracle: Debian's blkparse 1.2.0
#   file, python3       test helpers
#   iproute2            ss, to see a test's server listening (t-net.sh, t-zstd.sh)
#   fdisk               sfdisk, for partitions on loop devices
#   strace, gdb         fault injection; counting heap calls (t-heap.sh)
#   g++, xz-utils, procps   build and run IBM's ziomon (t-ziomon-real.sh)
#   zstd                compressed traces for t-zstd.sh (make ZSTD=1 builds the
#                       library from Debian's source: tests/tools/zstd-build.sh)
#   prometheus          promtool, to check monitor's --prom output (optional)
#   clang-14, libclang-rt-14-dev   libFuzzer, ASan, UBSan (make fuzz; optional)
#   tmux                the live top screen test (optional)
#   fio                 replays of parse -d's dumps (t-btreplay.sh; optional)
#   libxml2-utils, chromium   xmllint and a headless browser for plot's SVG (t-plot.sh)
# cross (make ARCH=s390x|aarch64|armhf, make check ARCH=...), build and:
#   cross gcc, musl-dev for each arch, qemu-user-static
# all (CI), check and cross and:
#   qemu-system-*       s390x and arm64 kernels for relay capture (optional;
#   ipxe-qemu, cpio     arm64's virt machine wants efi-virtio.rom; initramfs)
#   qemu-system-x86, debootstrap   t-initrd's Debian chroot and its images
#                       booted (dracut goes into the chroot: initrd-root.sh)
set -u
PATH=$PATH:/usr/sbin:/sbin	# losetup, sfdisk: there whoever runs this
PROFILE=${1:-all}
case $PROFILE in build | demo | check | cross | all) ;;
*) echo "usage: tests/tools/setup-deps.sh [build|demo|check|cross|all]" >&2; exit 2 ;;
esac
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Another apt may be running (a fresh machine's timers): wait for its lock.
LOCK=(-o DPkg::Lock::Timeout=600)
APT=(apt-get "${LOCK[@]}" -y -qq --no-install-recommends)
# armhf's musl when the armhf architecture cannot be added: see armhf_private
ARMHF_ROOT=$TOP/build/sysroot/armhf
ARMHF_SPECS=/usr/lib/arm-linux-musleabihf/musl-gcc.specs
# profiles include each other: all > check > demo > build, all > cross > build
case $PROFILE in all) PROFILE="all check cross demo build" ;; check) PROFILE="check demo build" ;;
demo) PROFILE="demo build" ;; cross) PROFILE="cross build" ;; esac
has() { case " $PROFILE " in *" $1 "*) return 0 ;; esac; return 1; }

need=() opt=() cross=() arches=()
command -v make >/dev/null || need+=(make)
command -v gcc >/dev/null || need+=(gcc)
command -v musl-gcc >/dev/null || need+=(musl-tools)
if has demo; then
	command -v losetup >/dev/null || need+=(mount)
fi
if has check; then
	command -v blkparse >/dev/null || need+=(blktrace)
	command -v file >/dev/null || need+=(file)
	command -v python3 >/dev/null || need+=(python3)
	command -v ss >/dev/null || need+=(iproute2)
	command -v sfdisk >/dev/null || need+=(fdisk)
	command -v strace >/dev/null || need+=(strace)
	command -v gdb >/dev/null || need+=(gdb)
	# IBM's ziomon, built from its sources for t-ziomon-real.sh
	command -v g++ >/dev/null || need+=(g++)
	command -v xz >/dev/null || need+=(xz-utils)
	command -v ps >/dev/null || need+=(procps)
	# compressed traces (t-zstd.sh); the library itself is built from source
	command -v zstd >/dev/null || need+=(zstd)
	command -v promtool >/dev/null || opt+=(prometheus)
	command -v clang-14 >/dev/null || opt+=(clang-14)
	ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || opt+=(libclang-rt-14-dev)
	command -v tmux >/dev/null || opt+=(tmux)
	command -v fio >/dev/null || opt+=(fio)
	# plot's SVG checked as XML and looked at as a picture (t-plot.sh)
	command -v xmllint >/dev/null || need+=(libxml2-utils)
	# the man pages' lint (t-man.sh)
	command -v mandoc >/dev/null || need+=(mandoc)
	command -v chromium >/dev/null || need+=(chromium)
fi
if has all; then
	command -v qemu-system-s390x >/dev/null || opt+=(qemu-system-misc)
	command -v qemu-system-aarch64 >/dev/null || opt+=(qemu-system-arm)
	[ -f /usr/lib/ipxe/qemu/efi-virtio.rom ] || opt+=(ipxe-qemu)
	command -v cpio >/dev/null || opt+=(cpio)
	command -v qemu-system-x86_64 >/dev/null || opt+=(qemu-system-x86)
	command -v debootstrap >/dev/null || opt+=(debootstrap)
fi
# cross: Debian architecture, gcc triplet, musl triplet
want_cross() {
	command -v "$2-gcc" >/dev/null || cross+=("gcc-$2")
	if [ ! -f "/usr/lib/$3/musl-gcc.specs" ]; then
		# armhf may live in the private sysroot instead
		[ "$1" = armhf ] && [ -f "$ARMHF_ROOT$ARMHF_SPECS" ] && return
		cross+=("musl-dev:$1") arches+=("$1")
	fi
}
if has cross; then
	want_cross s390x s390x-linux-gnu s390x-linux-musl
	want_cross arm64 aarch64-linux-gnu aarch64-linux-musl
	want_cross armhf arm-linux-gnueabihf arm-linux-musleabihf
	command -v qemu-arm-static >/dev/null || cross+=(qemu-user-static)
fi
[ ${#need[@]} -eq 0 ] && [ ${#cross[@]} -eq 0 ] && [ ${#opt[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	all=(${need[@]+"${need[@]}"} ${cross[@]+"${cross[@]}"} ${opt[@]+"${opt[@]}"})
	echo "setup-deps: not root, so nothing installed; missing Debian packages: ${all[*]}" >&2
	echo "setup-deps: as root: apt-get install ${all[*]}  (or run this script as root)" >&2
	t=" ${need[*]-} "; t=${t/ musl-tools / }
	case " ${need[*]-} " in *" musl-tools "*) echo "setup-deps: without musl-tools nothing builds" >&2 ;; esac
	[ -n "${t// /}" ] && echo "setup-deps: tests needing${t% } SKIP, naming the tool" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive

# armhf's musl without the armhf architecture: a private apt state under
# build/ that knows only armhf, the two packages unpacked into a sysroot and
# the specs file pointed there.  Nothing of the system's apt is touched.
armhf_private() {
	local d=$TOP/build/sysroot/apt-armhf f
	rm -rf "$d" "$ARMHF_ROOT"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources" "$ARMHF_ROOT"
	printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		>"$d/sources/debian.sources"
	local o=(-o APT::Architecture=armhf -o APT::Architectures=armhf
		-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$d/sources"
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache"
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	apt-get "${o[@]}" -qq update >/dev/null &&
		(cd "$d" && apt-get "${o[@]}" -qq download musl-dev musl >/dev/null) || return 1
	for f in "$d"/musl*.deb; do dpkg-deb -x "$f" "$ARMHF_ROOT" || return 1; done
	f=$ARMHF_ROOT$ARMHF_SPECS
	[ -f "$f" ] || return 1
	# every absolute /usr/ path in the specs now lives under the sysroot
	sed -i "s#/usr/\\(include\\|lib\\)/arm-linux-musleabihf#$ARMHF_ROOT/usr/\\1/arm-linux-musleabihf#g" "$f"
	rm -rf "$d"
	! grep -qE '[ L]/usr/' "$f"
}

# A foreign architecture whose lists cannot be fetched breaks every later
# apt-get update, so one that fails is removed again at once.
add_arch() {
	dpkg --print-foreign-architectures | grep -qx "$1" && return 0
	dpkg --add-architecture "$1"
	if ! apt-get "${LOCK[@]}" -qq update >/dev/null 2>&1; then
		echo "setup-deps: apt-get update fails with architecture $1; removed it again" >&2
		dpkg --remove-architecture "$1"
		return 1
	fi
}

armhf_sysroot=0
for a in ${arches[@]+"${arches[@]}"}; do
	[ "$a" = armhf ] && [ "${SETUP_ARMHF:-}" = private ] && { armhf_sysroot=1; continue; }
	add_arch "$a" || { [ "$a" = armhf ] && armhf_sysroot=1; }
done
if [ $armhf_sysroot = 1 ]; then
	keep=()
	for p in ${cross[@]+"${cross[@]}"}; do [ "$p" = musl-dev:armhf ] || keep+=("$p"); done
	cross=(${keep[@]+"${keep[@]}"})
fi
apt-get "${LOCK[@]}" -qq update || echo "setup-deps: apt-get update failed" >&2
if [ ${#need[@]} -gt 0 ]; then
	"${APT[@]}" install "${need[@]}" >/dev/null || {
		echo "setup-deps: could not install ${need[*]}" >&2; exit 1; }
fi
if [ ${#opt[@]} -gt 0 ]; then
	"${APT[@]}" install "${opt[@]}" >/dev/null ||
		echo "setup-deps: warning: ${opt[*]} not installed; promtool and VM checks will SKIP" >&2
fi
if [ ${#cross[@]} -gt 0 ]; then
	# one at a time if together they fail, so one broken package costs only its arch
	"${APT[@]}" install "${cross[@]}" >/dev/null 2>&1 || for p in "${cross[@]}"; do
		"${APT[@]}" install "$p" >/dev/null ||
			echo "setup-deps: warning: $p not installed; builds and tests needing it SKIP" >&2
	done
	# an armhf musl-dev that would not install: the sysroot still may
	printf '%s\n' "${cross[@]}" | grep -qx musl-dev:armhf && [ ! -f "$ARMHF_SPECS" ] && armhf_sysroot=1
fi
if [ $armhf_sysroot = 1 ] && [ ! -f "$ARMHF_SPECS" ]; then
	armhf_private && echo "setup-deps: armhf musl unpacked into $ARMHF_ROOT" >&2 ||
		echo "setup-deps: warning: no musl for armhf; make ARCH=armhf will not build" >&2
fi
exit 0
