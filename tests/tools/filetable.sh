#!/bin/bash
# filetable.sh [--update]: docs/architecture.md's file table, from each source file's
# first line (`/* path: stage: what it owns */`), one row a file, in flow
# order (bottom, capture, match, stats, output, drivers).  t-layers.sh
# checks that docs/architecture.md holds exactly this between its <!-- files -->
# markers; --update writes it there.
cd "$(dirname "$0")/../.." || exit 2
table() {
	echo '| file | stage | owns |'
	echo '|---|---|---|'
	for layer in bottom capture match stats output driver; do
		for f in *.[ch] capture/*.[ch] match/*.[ch] stats/*.[ch] output/*.[ch]; do
			head -1 "$f" | sed -n "s|^/\* \([^:]*\): $layer: \(.*\)|\1\t\2|p" |
				sed 's| *\*/ *$||; s|\.$||' |
				awk -F'\t' -v l=$layer '{ printf "| `%s` | %s | %s |\n", $1, l, $2 }'
		done
	done
}
if [ "${1:-}" = --update ]; then
	table >README.table.tmp
	awk 'FNR == NR { t = t $0 "\n"; next }
		/^<!-- files -->$/ { print; printf "%s", t; skip = 1; next }
		/^<!-- \/files -->$/ { skip = 0 }
		!skip' README.table.tmp docs/architecture.md >README.md.tmp && mv README.md.tmp docs/architecture.md
	rm -f README.table.tmp
else
	table
fi
