# Runs inside Debian's s390x or arm64 6.1 kernel under qemu-system (busybox
# sh, root, debugfs mounted, results under /out); see tests/long/t-xvm.sh.  The
# iomon build for the guest's architecture is in /bin; Debian's own blktrace
# and blkparse for that architecture are blktrace.real and blkparse.real;
# nb, twins and load come from tests/vm/guest.sh (here 32 blocks a round).
uname -m > /out/arch.txt
# softirq completions: timer completions under load soft-locked 6.1 on x86 TCG
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
# iomon's relay capture on nullb0 while Debian's blktrace traces nullb1,
# the same load on both
twins 32
# both parsers natively, on the guest's own byte order
cd /out/iomon
blkparse.real -i nullb0 > /out/native-blkparse.txt 2> /out/native-blkparse.err
iomon parse -i nullb0 > /out/native-iomon.txt 2> /out/native-iomon.err
