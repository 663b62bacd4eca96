#!/bin/sh
# iomon: installed by iomon's make install (INITRAMFS=...); make uninstall removes it.
# Early in the initramfs (initramfs-tools: init-top; dracut: a cmdline
# hook), before any break= or rescue shell: debugfs, where blktrace's relay
# files live, and tracefs, iomon's fallback where the kernel refuses relay
# (lockdown), each mounted where the tools look unless it already is.
PREREQ=""
case "$1" in prereqs) echo "$PREREQ"; exit 0 ;; esac
# (shell only: a dracut image may have no grep; dracut sources this file,
# so its names are iomon_'s and go again at the end)
iomon_mount() {
	[ -d "$2" ] || return 0
	while read -r iomon_x iomon_d iomon_t iomon_x; do
		[ "$iomon_d $iomon_t" = "$2 $1" ] && return 0
	done </proc/mounts
	mount -t "$1" "$1" "$2" 2>/dev/null || true
}
iomon_mount debugfs /sys/kernel/debug
iomon_mount tracefs /sys/kernel/tracing
unset -f iomon_mount
unset iomon_x iomon_d iomon_t
