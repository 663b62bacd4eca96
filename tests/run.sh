#!/usr/bin/env bash
# make check: every test file under tests/t-*.sh, one summary line at the end.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
[ -x "$IOMON" ] || { echo "build ./iomon first (make)"; exit 2; }
for t in tests/t-*.sh; do
	[ -n "${ONLY:-}" ] && case $t in *"$ONLY"*) ;; *) continue ;; esac
	echo "== $t"
	. "$t"
done
echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
[ "$T_FAIL" -eq 0 ]
