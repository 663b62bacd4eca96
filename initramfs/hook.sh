#!/bin/sh
# iomon: installed by iomon's make install (INITRAMFS=...); make uninstall removes it.
# initramfs-tools hook: iomon (@IOMON@, the profile make install was
# given) and its links (blktrace, blkparse, ...) into every image.  The
# debugfs and tracefs mounts are scripts/init-top/iomon's.
PREREQ=""
case "$1" in prereqs) echo "$PREREQ"; exit 0 ;; esac
. /usr/share/initramfs-tools/hook-functions
if [ ! -x @IOMON@ ]; then
	echo "W: iomon: @IOMON@ is gone; this image has no iomon (make uninstall removes this hook)" >&2
	exit 0
fi
copy_exec @IOMON@ /bin/iomon
"$DESTDIR/bin/iomon" --install @ALL@ "$DESTDIR/bin"
