#!/bin/sh
# manual.sh [KILN]: make man. The parts of the man pages that kiln's own
# tables make (the synopsis and commands from each command's usage, the
# keys from the key table, the safety table from plan_decide) are printed
# by `kiln --man PART` and spliced into docs/kiln.1 and docs/kiln.cfg.5
# between their marker lines:
#   .\" BEGIN kiln --man PART (made by make man; do not edit)
#   .\" END kiln --man PART
# The tests hold each page's parts to kiln (tests/host/manual.t,
# tests/unit/settings.c, tests/unit/plan.c), so after changing a usage
# string, a key or the decision, run make man and commit the pages.
top=$(cd "$(dirname "$0")/.." && pwd)
kiln=${1:-$top/out/kiln}
[ -x "$kiln" ] || { echo "manual.sh: $kiln is not built" >&2; exit 3; }
for page in "$top/docs/kiln.1" "$top/docs/kiln.cfg.5"; do
	awk -v kiln="$kiln" '
	/^\.\\" BEGIN kiln --man / {
		print
		part = $5
		cmd = "\"" kiln "\" --man " part
		while ((cmd | getline line) > 0)
			print line
		if (close(cmd) != 0) {
			print "manual.sh: " cmd " failed" > "/dev/stderr"
			bad = 1
		}
		skip = 1
		next
	}
	/^\.\\" END kiln --man / { skip = 0 }
	!skip { print }
	END { exit bad }
	' "$page" >"$page.new" || { rm -f "$page.new"; exit 3; }
	if cmp -s "$page" "$page.new"; then
		rm -f "$page.new"
	else
		mv "$page.new" "$page" && echo "manual.sh: $page made again"
	fi
done
