#!/bin/sh
# initramfs/install.sh: what make install INITRAMFS=... and make uninstall
# do for the initramfs (Makefile):
#   install.sh install WHICH BIN LIBDIR [--all]
#       WHICH: initramfs-tools, dracut or both.  BIN (a profile's build)
#       goes to LIBDIR/iomon; the initramfs-tools hook and init-top script
#       and the dracut module (module-setup.sh and its cmdline hook) name
#       it, and put it and its links (--all: the generic ones too) into
#       every image the distribution builds from then on.
#   install.sh uninstall LIBDIR
#       removes them again: only files that carry this project's mark,
#       so a file of the same name that iomon did not install stays.
# DESTDIR is put in front of every path; IRTDIR (/usr/share/initramfs-tools)
# and DRACUTDIR (/usr/lib/dracut/modules.d) say where the two look.
set -u
HERE=$(dirname "$0")
IRT=${DESTDIR:-}${IRTDIR:-/usr/share/initramfs-tools}
DRA=${DESTDIR:-}${DRACUTDIR:-/usr/lib/dracut/modules.d}/90iomon
MARK="^# iomon: installed by iomon's make install"

ours() { grep -q "$MARK" "$1" 2>/dev/null; }
# put SRC DEST: SRC with @IOMON@ and @ALL@ filled in, unless DEST is a
# file iomon did not install
put() {
	if [ -e "$2" ] && ! ours "$2"; then
		echo "install.sh: $2: skipped: not iomon's; left as it is" >&2
		return 1
	fi
	mkdir -p "$(dirname "$2")" &&
		sed -e "s|@IOMON@|$LIB/iomon|g" -e "s|@ALL@|$ALL|g" "$1" >"$2.new" &&
		chmod 0755 "$2.new" && mv -f "$2.new" "$2" && echo "installed $2"
}
# drop FILE...: each that carries the mark
drop() {
	for f; do
		[ -e "$f" ] || continue
		if ours "$f"; then rm -f "$f" && echo "removed $f"
		else echo "install.sh: $f: not iomon's; left as it is" >&2; fi
	done
}

case ${1:-} in
install)
	[ $# -ge 4 ] || { echo "usage: install.sh install WHICH BIN LIBDIR [--all]" >&2; exit 2; }
	WHICH=$2 BIN=$3 LIB=$4 ALL=${5:-}
	case $WHICH in initramfs-tools | dracut | both) ;;
	*) echo "install.sh: INITRAMFS=$WHICH: one of initramfs-tools, dracut, both" >&2; exit 2 ;;
	esac
	install -D -m 0755 "$BIN" "${DESTDIR:-}$LIB/iomon" || exit 1
	rc=0
	if [ "$WHICH" != dracut ]; then
		put "$HERE/hook.sh" "$IRT/hooks/iomon" || rc=1
		put "$HERE/mount.sh" "$IRT/scripts/init-top/iomon" || rc=1
	fi
	if [ "$WHICH" != initramfs-tools ]; then
		put "$HERE/module-setup.sh" "$DRA/module-setup.sh" || rc=1
		put "$HERE/mount.sh" "$DRA/iomon-mount.sh" || rc=1
	fi
	[ $rc = 0 ] && echo "install.sh: the next initramfs built has iomon (update-initramfs -u, or dracut -f)"
	exit $rc
	;;
uninstall)
	[ $# = 2 ] || { echo "usage: install.sh uninstall LIBDIR" >&2; exit 2; }
	LIB=${DESTDIR:-}$2
	drop "$IRT/hooks/iomon" "$IRT/scripts/init-top/iomon" "$DRA/module-setup.sh" "$DRA/iomon-mount.sh"
	rmdir "$DRA" 2>/dev/null
	[ -e "$LIB/iomon" ] && rm -f "$LIB/iomon" && echo "removed $LIB/iomon"
	rmdir "$LIB" 2>/dev/null
	exit 0
	;;
esac
echo "usage: install.sh install WHICH BIN LIBDIR [--all] | uninstall LIBDIR" >&2
exit 2
