#!/usr/bin/env bash
# make check: every test file under tests/t-*.sh, one summary line at the end.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
[ -x "$IOMON_BIN" ] || { echo "build $IOMON_BIN first (make${CROSS:+ ARCH=$CROSS})"; exit 2; }
if [ -n "$CROSS" ] && ! command -v "$IOMON_QEMU" >/dev/null; then
	echo "$IOMON_QEMU not installed (tests/setup-deps.sh)"; exit 2
fi
for t in tests/t-*.sh; do
	[ -n "${ONLY:-}" ] && case $t in *"$ONLY"*) ;; *) continue ;; esac
	echo "== $t"
	# Under qemu-user: no blktrace ioctls (ENOSYS) and no VM of this
	# arch's kernel here, so what traces a live kernel is not run.
	if [ -n "$CROSS" ]; then case $t in
	*/t-trace.sh | */t-vm.sh)
		skip "$t" "live kernel capture; under qemu-user ($CROSS) only what reads files and pipes runs"
		continue ;;
	esac; fi
	# "# needs: TOOL..." near the top: a file that cannot run without them
	# SKIPs whole, naming the missing tool
	miss=
	for tool in $(sed -n 's/^# needs: //p' "$t"); do
		command -v "$tool" >/dev/null 2>&1 || { miss=$tool; break; }
	done
	if [ -n "$miss" ]; then
		skip "$t" "needs $miss, which is not installed (tests/setup-deps.sh check)"
		continue
	fi
	t0=$SECONDS
	. "$t"
	[ -n "$CROSS" ] && echo "   ($((SECONDS - t0)) s)"
done
[ -n "$CROSS" ] && echo "tests took ${SECONDS} s ($CROSS under $IOMON_QEMU)"
echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
[ "$T_FAIL" -eq 0 ]
