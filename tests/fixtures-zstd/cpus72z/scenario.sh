# 72 CPUs writing and reading on one null_blk disk, traced by iomon trace -z
# (relay): a .zst per CPU, more outputs than -z's 64 buffers
N=$(grep -c ^processor /proc/cpuinfo)
echo "cpus $N"
insmod /lib/mod/null_blk.ko nr_devices=1 irqmode=0 gb=1
mkdir -p /out/z
iomon trace -z -d /dev/nullb0 -D /out/z -o nullb0 >/out/trace.out 2>/out/trace.err & P=$!
while [ ! -e /out/z/nullb0.blktrace.0.zst ]; do
	taskset -c 0 dd if=/dev/nullb0 of=/dev/null bs=4k count=1 skip=4096 iflag=direct 2>/dev/null
	sleep 0.2
done
for r in 1 2 3; do
for c in $(seq 0 $((N - 1))); do
	taskset -c $c dd if=/dev/zero of=/dev/nullb0 bs=4k count=8 seek=$((c * 16)) oflag=direct 2>/dev/null
	taskset -c $c dd if=/dev/nullb0 of=/dev/null bs=8k count=4 skip=$((c * 8)) iflag=direct 2>/dev/null
done
done
while [ ! -e /out/z/nullb0.blktrace.$((N - 1)).zst ]; do sleep 0.2; done
sleep 1
kill -INT $P; wait $P; echo "trace rc=$?"
echo "files $(ls /out/z | wc -l)"
