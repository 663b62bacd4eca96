# Runs inside Debian's s390x 6.1 kernel under qemu-system with user
# networking (the host is 10.0.2.2; see tests/long/t-xvmnet.sh, which puts
# the port in for @PORT@): iomon's s390x client, relay, one connection per
# CPU and device, sends both null_blk devices to iomon's server on the host.
# nb, load and said come from tests/vm/guest.sh.
uname -m > /out/arch.txt
nb queue_mode=2 nr_devices=2 irqmode=0 gb=1
busy() { while kill -0 "$1" 2>/dev/null; do load /dev/nullb0 1 & load /dev/nullb1 1; wait $!; sleep 0.2; done; }
iomon trace -d /dev/nullb0 -d /dev/nullb1 -h 10.0.2.2 -p @PORT@ -w 8 > /out/c.out 2> /out/c.err &
said /out/c.err; busy $!; wait
