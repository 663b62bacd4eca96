# Runs inside Debian's 6.1 kernel under qemu (busybox sh, root, debugfs
# mounted, results under /out); see tests/long/t-vm.sh.  iomon is in /bin;
# nb, twins and load come from tests/vm/guest.sh.
# softirq completions and one load thread per device: timer completions
# under heavy load soft-locked Debian's 6.1 kernel under TCG now and then
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
# 1. relay capture by iomon on nullb0 while Debian's blktrace traces nullb1,
#    the same load on both
twins
# 2. the tracefs backend, forced
mkdir -p /out/tfs
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
iomon trace --backend=tracefs -d /dev/nullb0 -w 2 -D /out/tfs > /out/tfs.sum 2> /out/tfs.err &
said /out/tfs.err; load /dev/nullb0 2; wait
# 3. a capture killed with SIGKILL leaves the trace set up; the next one clears it
mkdir -p /out/k1 /out/k2
iomon trace -d /dev/nullb0 -D /out/k1 > /dev/null 2> /out/k3.err &
said /out/k3.err; kill -9 $!; wait
iomon trace -d /dev/nullb0 -w 1 -D /out/k2 > /out/k2.sum 2> /out/k2.err
echo "rc=$?" >> /out/k2.err
# 4. -k clears one explicitly
iomon trace -d /dev/nullb0 -D /out/k1 > /dev/null 2> /out/k4.err &
said /out/k4.err; kill -9 $!; wait
iomon trace -k -d /dev/nullb0 > /out/kill.out 2> /out/kill.err
echo "rc=$?" >> /out/kill.err
blktrace.real -d /dev/nullb0 -w 1 -D /out/k1 > /out/after-kill.out 2>&1
echo "rc=$?" >> /out/after-kill.out
# 5. a trace held by a live capture is refused, naming its pid
iomon trace -d /dev/nullb0 -D /out/k1 > /dev/null 2> /out/k5.err &
P=$!; said /out/k5.err
iomon trace -d /dev/nullb0 -w 1 -D /out/k1 > /dev/null 2> /out/held.err
echo "rc=$? holder=$P" >> /out/held.err
kill $P; wait
# 6. the stream into the parser, in the VM
iomon trace -o - -w 2 /dev/nullb0 2> /out/stream.err | iomon parse -i - > /out/stream.txt &
said /out/stream.err; load /dev/nullb0 2; wait
# 6b. the tracer stopped while the load runs: relay drops, counted
mkdir -p /out/drop
iomon trace -d /dev/nullb0 -b 64 -n 2 -w 4 -D /out/drop > /out/drop.sum 2> /out/drop.err &
P=$!; said /out/drop.err; kill -STOP $P; load /dev/nullb0 20; kill -CONT $P; wait
# 7. partitions: a disk and its partition at once is refused; a partition
#    alone is traced (relay: the kernel limits it to the partition's sectors)
nb queue_mode=2 memory_backed=1 gb=1
printf 'n\np\n1\n\n\nw\n' | fdisk /dev/nullb0 >/dev/null 2>&1
partprobe /dev/nullb0 2>/dev/null
n=0; while [ ! -b /dev/nullb0p1 ] && [ "$n" -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
ls /dev/nullb0* > /out/parts.txt 2>&1
iomon trace -d /dev/nullb0 -d /dev/nullb0p1 -w 1 -D /out/k1 > /dev/null 2> /out/both.err
echo "rc=$?" >> /out/both.err
mkdir -p /out/part
iomon trace -d /dev/nullb0p1 -w 2 -D /out/part > /out/part.sum 2> /out/part.err &
said /out/part.err
dd if=/dev/zero of=/dev/nullb0p1 bs=4k count=50 oflag=direct 2>/dev/null
wait
# 8. 20 disks at once through relay (more than the 16 a capture took
#    before: CAP_DEVS), a write on each, then SIGINT
nb queue_mode=2 nr_devices=20 irqmode=0 gb=1
waitb /dev/nullb19
mkdir -p /out/many
i=0 devs=
while [ $i -lt 20 ]; do devs="$devs -d /dev/nullb$i"; i=$((i + 1)); done
iomon trace $devs -D /out/many > /out/many.sum 2> /out/many.err &
P=$!; said /out/many.err
i=0; while [ $i -lt 20 ]; do dd if=/dev/zero of=/dev/nullb$i bs=4k count=1 oflag=direct 2>/dev/null; i=$((i + 1)); done
kill -INT $P; wait $P; echo "rc=$?" >> /out/many.err
# 9. the same 20 disks under a hard limit of 32 open files (two a disk and
#    CPU needed): raised, the hard one too, as blktrace raises it as root
mkdir -p /out/manyh
(ulimit -n 32 && exec iomon trace $devs -D /out/manyh) > /out/manyh.sum 2> /out/manyh.err &
P=$!; said /out/manyh.err
i=0; while [ $i -lt 20 ]; do dd if=/dev/zero of=/dev/nullb$i bs=4k count=1 oflag=direct 2>/dev/null; i=$((i + 1)); done
kill -INT $P; wait $P; echo "rc=$?" >> /out/manyh.err
