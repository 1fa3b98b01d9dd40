#!/bin/sh
# check.sh PROVE_ARGS...: make check's runner: prove over the files given,
# each under runone.sh's timeout, then the whole run's time and its ten
# slowest files, so a suite that grows slow says where.
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp "${TMPDIR:-/tmp}/kiln-check.XXXXXX")
trap 'rm -f "$log" "$log.rc"' EXIT
start=$(date +%s)
{
	prove --timer -e "sh $top/tests/lib/runone.sh" "$@"
	echo $? >"$log.rc"
} 2>&1 | tee "$log"
rc=$(cat "$log.rc" 2>/dev/null || echo 1)
echo "check: $(( $(date +%s) - start )) s in all; the slowest files:"
sed -n 's/^\[[0-9:]*\] \([^ ]*\) \.* .* \([0-9][0-9]*\) ms .*/\2 \1/p' "$log" |
	sort -rn | head -n 10 |
	awk '{ printf "  %7.1f s  %s\n", $1 / 1000, $2 }'
exit "$rc"
