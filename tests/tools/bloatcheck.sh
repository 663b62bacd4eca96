#!/usr/bin/env bash
# bloatcheck.sh REV | --bins OLD NEW: what a change costs, symbol by symbol
# (as busybox's bloat-o-meter), instead of byte counts in comments and
# commit subjects.  REV: that revision built in a scratch worktree with
# this tree's ZSTD, against ./iomon_unstripped.  Prints each symbol whose
# size changed (old, new, delta), largest first, then the totals by kind
# (code, read-only data, data, bss) and the stripped files' sizes.
set -eu
cd "$(dirname "$0")/../.."
if [ "${1:-}" = --bins ]; then
	old=$2 new=$3 olds= news=
else
	[ -n "${1:-}" ] || { echo "usage: make bloatcheck OLD=REV" >&2; exit 2; }
	w=$(mktemp -d)
	trap 'git worktree remove --force "$w" >/dev/null 2>&1; rm -rf "$w"' EXIT
	git worktree add --detach "$w" "$1" >/dev/null
	make -s -C "$w" ZSTD="${ZSTD:-0}" iomon >/dev/null
	old=$w/iomon_unstripped new=iomon_unstripped olds=$w/iomon news=iomon
fi
sym() { nm -t d --size-sort -S "$1" | awk '{ print $4, $3, $2 + 0 }'; }
awk '
	function kind(t) { t = tolower(t); return t == "t" || t == "w" ? "code" : t == "r" ? "rodata" : t == "d" ? "data" : t == "b" ? "bss" : "other" }
	FNR == NR { o[$1 " " kind($2)] += $3; next }
	{ n[$1 " " kind($2)] += $3 }
	END {
		for (k in o) if (!(k in n)) n[k] = 0
		for (k in n) {
			if (!(k in o)) o[k] = 0
			split(k, p, " "); tk[p[2]] += n[k] - o[k]; to[p[2]] += o[k]; tn[p[2]] += n[k]
			if (n[k] != o[k]) printf "%d\t%-40s %-6s %8d %8d %+8d\n", n[k] - o[k], p[1], p[2], o[k], n[k], n[k] - o[k] | "sort -t\"\t\" -k1,1nr -k2,2 | cut -f2-"
		}
		close("sort -t\"\t\" -k1,1nr -k2,2 | cut -f2-")
		printf "\n%-47s %8s %8s %8s\n", "kind", "old", "new", "delta"
		split("code rodata data bss other", ks, " ")
		for (i = 1; i <= 5; i++) { k = ks[i]; printf "%-47s %8d %8d %+8d\n", k, to[k], tn[k], tn[k] - to[k]; ao += to[k]; an += tn[k] }
		printf "%-47s %8d %8d %+8d\n", "total (symbols)", ao, an, an - ao
	}' <(sym "$old") <(sym "$new")
if [ -n "$olds" ]; then
	a=$(stat -c %s "$olds") b=$(stat -c %s "$news")
	printf "%-47s %8d %8d %+8d\n" "stripped file" "$a" "$b" $((b - a))
fi
