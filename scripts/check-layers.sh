#!/bin/sh
# check-layers.sh [TOP]: make check-layers. Holds tools/kiln/ to the rule
# docs/design.md states: each file lives in a folder of a stage, the
# folders are in order (its line "The folders, lowest first: ..."), and a
# file includes only its own folder's headers and those of folders below
# it, always by folder ("engine/engine.h"). Every file is also named in
# docs/design.md's table, and no .c file is over 600 lines (the house
# rule: one concern per file). Each break is said as FILE:LINE: what; exit 1
# on any, 2 when the order cannot be read. Then scripts/check-circles.py
# holds the files to calling no circle (and to no global read across
# files), judged on where functions are defined and called, and
# scripts/check-signals.py the files that loop over the table of signals
# to calling no signal by name.
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
design=$top/docs/design.md
order=$(sed -n 's/^The folders, lowest first: *//p' "$design" 2>/dev/null |
	head -n 1 | tr -d '`.' | tr ',' ' ')
if [ -z "$order" ]; then
	echo "check-layers: $design has no line \"The folders, lowest first: ...\"" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
cd "$top/tools/kiln" || exit 2
# One awk over every file: the rank of each folder, then each include.
find . -name '*.[ch]' | sed 's#^\./##' | sort | awk -v order="$order" \
	-v design="$design" -v maxlines=600 '
BEGIN {
	n = split(order, f, " ")
	for (i = 1; i <= n; i++)
		rank[f[i]] = i
	while ((getline line < design) > 0)
		doc = doc "\n" line
	bad = 0
}
{
	file = $0
	if (index(file, "/") == 0) {
		printf "tools/kiln/%s: not in a folder (%s)\n", file, order
		bad++
		next
	}
	dir = substr(file, 1, index(file, "/") - 1)
	if (!(dir in rank)) {
		printf "tools/kiln/%s: folder %s is not in docs/design.md'"'"'s order (%s)\n",
			file, dir, order
		bad++
		next
	}
	# Named in the table as NAME.c or NAME.h: a header goes with its file.
	stem = substr(file, index(file, "/") + 1)
	sub(/\.[ch]$/, "", stem)
	if (index(doc, "`" stem ".c`") == 0 && index(doc, "`" stem ".h`") == 0) {
		printf "tools/kiln/%s: not in docs/design.md'"'"'s table\n", file
		bad++
	}
	ln = 0
	while ((getline line < file) > 0) {
		ln++
		if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
			continue
		inc = line
		sub(/^[^"]*"/, "", inc)
		sub(/".*/, "", inc)
		if (inc ~ /^\.\.?\// || index(inc, "/") == 0) {
			printf "tools/kiln/%s:%d: includes \"%s\": name its folder (\"%s/%s\")\n",
				file, ln, inc, dir, inc
			bad++
			continue
		}
		to = substr(inc, 1, index(inc, "/") - 1)
		if (!(to in rank)) {
			printf "tools/kiln/%s:%d: includes \"%s\": no such folder\n",
				file, ln, inc
			bad++
		} else if (rank[to] > rank[dir]) {
			printf "tools/kiln/%s:%d: includes \"%s\": %s is above %s (%s)\n",
				file, ln, inc, to, dir, order
			bad++
		}
	}
	close(file)
	# One concern per file: a .c file past the house line is two.
	if (file ~ /\.c$/ && ln > maxlines) {
		printf "tools/kiln/%s: %d lines, over %d (split it by concern)\n",
			file, ln, maxlines
		bad++
	}
}
END {
	if (bad)
		printf "check-layers: %d break(s) of the folders'"'"' rule\n", bad
	exit bad ? 1 : 0
}' >&2
rc=$?
for check in check-circles.py check-signals.py; do
	python3 "$here/$check" "$top" || {
		c=$?
		[ "$c" -gt "$rc" ] && rc=$c
	}
done
exit "$rc"
