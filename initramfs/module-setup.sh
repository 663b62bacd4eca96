#!/bin/bash
# iomon: installed by iomon's make install (INITRAMFS=...); make uninstall removes it.
# dracut module: iomon (@IOMON@, the profile make install was given) and
# its links (blktrace, blkparse, ...) in every image, and a cmdline hook
# that mounts debugfs and tracefs before any rd.break= or rescue shell.

# every image, hostonly or not, while the binary is there
check() {
	[ -x @IOMON@ ]
}

depends() {
	return 0
}

install() {
	inst_simple @IOMON@ /usr/bin/iomon &&
		"$initdir/usr/bin/iomon" --install @ALL@ "$initdir/usr/bin" &&
		inst_hook cmdline 01 "$moddir/iomon-mount.sh"
}
