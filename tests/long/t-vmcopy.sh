# copy through relay (issue 32): Debian's 6.1 kernel under qemu with two
# virtio disks; tests/vm/copy.sh copies the first to the second while two
# writers write random blocks to it, then an ext4 on it filled during a
# copy and frozen for its last passes, then a copy --freeze of it.  DST
# equals SRC at the end (--freeze: the frozen image but for the superblock
# the thaw rewrites).  Part of make check-long (VM=1).
if vm_ok "VM copy"; then
	V=$OUT/vm K=$OUT/k
	rm -rf "$V" "$K"; mkdir -p "$K"
	[ -d /tmp/iomon-vm/root/boot ] && ln -s /tmp/iomon-vm/root "$K/root"	# the kernel t-vm.sh fetched
	cp "$IOMON" "$OUT/iomon"
	vmods="virtio/virtio_ring.ko virtio/virtio.ko virtio/virtio_pci_legacy_dev.ko virtio/virtio_pci_modern_dev.ko virtio/virtio_pci.ko block/virtio_blk.ko"
	if K=$K DISKS=2 MODS="$vmods" EXTRA_BIN="$OUT/iomon" timeout -k 10 600 bash "$VMCAP" "$V" \
	   "$(guest_scenario "$TOP/tests/vm/copy.sh")" >"$OUT/vm.log" 2>&1 && [ -f "$V/done" ]; then
		pass "VM 6.1 with two virtio disks boots and runs the copies"
		check "VM copy: the tracer captured through relay" grep -q 'capturing through relay' "$V/c1.err"
		w=$(($(cat "$V/w1.n" 2>/dev/null || echo 0) + $(cat "$V/w2.n" 2>/dev/null || echo 0)))
		check "VM copy: exit 0 ($(cat "$V/c1.rc")) with $w writes made during it" test "$(cat "$V/c1.rc")" = 0 -a "$w" -gt 0
		check "VM copy: more than one pass ($(grep -c '^pass ' "$V/c1.out"))" test "$(grep -c '^pass ' "$V/c1.out")" -ge 2
		check "VM copy: DST equals SRC ($(cat "$V/c1.cmp") bytes differ)" test "$(cat "$V/c1.cmp")" = 0
		check "VM copy: it says so, against a second full pass" grep -q '^/dev/vdb equals /dev/vda after [0-9]* passes: [0-9]* bytes copied after the first, against [0-9]* for a second full pass$' "$V/c1.out"
		check "VM copy of an ext4 being filled ($(cat "$V/f.n" 2>/dev/null) files written), then frozen: exit 0 ($(cat "$V/c2.rc"))" test "$(cat "$V/c2.rc")" = 0
		check "VM copy of an ext4 being filled: DST equals SRC ($(cat "$V/c2.cmp") bytes differ)" test "$(cat "$V/c2.cmp")" = 0
		check "VM copy --freeze: exit 0 ($(cat "$V/c3.rc")), frozen by it" sh -c "[ \"\$(cat '$V/c3.rc')\" = 0 ] && grep -q '/mnt/s: frozen' '$V/c3.err'"
		check "VM copy --freeze: DST equals SRC but for the superblock the thaw wrote ($(cat "$V/c3.cmp") bytes differ)" test "$(cat "$V/c3.cmp")" = 0
	else
		guest_hung "VM 6.1 copy" "$K/console.log" "$OUT/vm.log"
	fi
fi
