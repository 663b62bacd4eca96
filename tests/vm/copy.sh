# copy through relay (tests/long/t-vmcopy.sh): /dev/vda copied to /dev/vdb,
# two virtio disks, while shell writers write random data at random
# 4 KiB blocks of vda; once copy says the passes are small, the writers
# stop and copy is told (SIGUSR1).  Then an ext4 on vda filled during a
# copy and frozen for its last passes, and a copy --freeze of it.  Results
# in /out/*.rc, *.out, *.err, *.cmp.
for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk; do insmod /lib/mod/$m.ko; done
n=0; while [ ! -b /dev/vdb ] && [ "$n" -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
dd if=/dev/urandom of=/dev/vda bs=1M count=64 oflag=direct 2>/dev/null
blocks=$(($(cat /sys/block/vda/size) / 8))
# writer N: random 4 KiB blocks (urandom's bytes, never the old ones) until /out/stop
writer() {
	i=0
	while [ ! -e /out/stop ]; do
		i=$((i + 1))
		dd if=/dev/urandom of=/dev/vda bs=4k count=$((RANDOM % 4 + 1)) seek=$(((RANDOM * 32768 + RANDOM) % (blocks - 4))) \
			oflag=direct conv=notrunc 2>/dev/null
	done
	echo "$i" >/out/w$1.n
}
# wait until FILE holds TEXT (120 s at most)
upto() {
	n=0; while ! grep -q "$2" "$1" 2>/dev/null && [ "$n" -lt 1200 ]; do n=$((n + 1)); sleep 0.1; done
}
rm -f /out/stop
writer 1 & w1=$!; writer 2 & w2=$!
iomon copy /dev/vda /dev/vdb >/out/c1.out 2>/out/c1.err </dev/null & cp=$!
upto /out/c1.err 'press Enter'
touch /out/stop; wait $w1 $w2
kill -USR1 $cp; wait $cp; echo $? >/out/c1.rc
# (direct reads: the disks, not a page cache)
same() { dd if=/dev/vda iflag=direct bs=1M 2>/dev/null | cmp -l - /dev/vdb 2>&1 | awk "$1"' { bad++ } END { print bad + 0 }'; }
same 1 >/out/c1.cmp
# an ext4 filled during a copy; its writer stopped once the passes are
# small, the file system frozen by the user (fsfreeze), copy told
mke2fs.real -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 /dev/vda 65536 && mkdir -p /mnt/s && mount /dev/vda /mnt/s
rm -f /out/stop
( i=0; while [ ! -e /out/stop ]; do i=$((i + 1)); head -c $((i % 5 * 65536 + 4096)) /dev/urandom >/mnt/s/f$((i % 40)); [ $((i % 10)) = 0 ] && sync; done; echo $i >/out/f.n ) & fp=$!
iomon copy /dev/vda /dev/vdb >/out/c2.out 2>/out/c2.err </dev/null & cp=$!
upto /out/c2.err 'press Enter'
touch /out/stop; wait $fp
fsfreeze -f /mnt/s
kill -USR1 $cp; wait $cp; echo $? >/out/c2.rc
same 1 >/out/c2.cmp
fsfreeze -u /mnt/s
# copy --freeze: dirty pages written just before, which its freeze writes
head -c 3000000 /dev/urandom >/mnt/s/late
iomon copy --freeze /mnt/s /dev/vda /dev/vdb >/out/c3.out 2>/out/c3.err </dev/null; echo $? >/out/c3.rc
# the thaw rewrites ext4's superblock (bytes 1024-2047): the rest equal
same '$1 <= 1024 || $1 > 2048' >/out/c3.cmp
umount /mnt/s
touch /out/done
