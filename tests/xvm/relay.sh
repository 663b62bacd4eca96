# Runs inside Debian's s390x or arm64 6.1 kernel under qemu-system (busybox
# sh, root, debugfs mounted, results under /out); see tests/long/t-xvm.sh.  The
# iomon build for the guest's architecture is in /bin; Debian's own blktrace
# and blkparse for that architecture are blktrace.real and blkparse.real;
# nb and load come from tests/vm/guest.sh (here with 32 blocks a round).
uname -m > /out/arch.txt
# softirq completions: timer completions under load soft-locked 6.1 on x86 TCG
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
# iomon's relay capture on nullb0 while Debian's blktrace traces nullb1,
# the same load on both
mkdir -p /out/iomon /out/bt
iomon trace -d /dev/nullb0 -D /out/iomon > /out/iomon.sum 2> /out/iomon.err &
I=$!
blktrace.real -d /dev/nullb1 -D /out/bt > /out/bt.sum 2>&1 &
B=$!
said /out/iomon.err; made /sys/kernel/debug/block/nullb1/trace0 $B
# both stopped once the load is done, however long it took (TCG)
load /dev/nullb0 3 32 & L=$!; load /dev/nullb1 3 32; wait $L
kill -TERM $I $B; wait
# both parsers natively, on the guest's own byte order
cd /out/iomon
blkparse.real -i nullb0 > /out/native-blkparse.txt 2> /out/native-blkparse.err
iomon parse -i nullb0 > /out/native-iomon.txt 2> /out/native-iomon.err
