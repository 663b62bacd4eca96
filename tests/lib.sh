# tests/lib.sh: the smallest harness that keeps honest counts.
# Every test ends in exactly one of pass, fail or skip (with a reason).
T_PASS=0 T_FAIL=0 T_SKIP=0
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IOMON=${IOMON:-$TOP/iomon}
FIX=$TOP/tests/fixtures
OUT=$TOP/tests/out
mkdir -p "$OUT"

pass() { T_PASS=$((T_PASS + 1)); [ -n "${VERBOSE:-}" ] && echo "PASS $1"; return 0; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL $1${2:+: $2}"; return 0; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP $1: $2"; return 0; }

# check NAME COMMAND...: passes when the command succeeds.
check() { local n=$1; shift; if "$@" >"$OUT/check.log" 2>&1; then pass "$n"; else fail "$n" "$(head -c 600 "$OUT/check.log")"; fi; }

# same NAME FILE1 FILE2: byte-identical files; shows the first differences.
same() {
	if cmp -s "$2" "$3"; then pass "$1"
	else fail "$1" "$(diff "$2" "$3" 2>&1 | head -8)"; fi
}

have_oracle() { command -v blkparse >/dev/null 2>&1; }
