#!/bin/sh
# kiln burn's cost a target as the run grows: SCALE_TARGETS (60 256 1024)
# regular files of SCALE_SIZE (1M) each, one pass, and for each run its
# peak memory and CPU time over its targets. The peak counts each target's
# buffers (one of --bs, 1 MiB, when the file is that small) and its
# worker's stack as touched. Files under SCALE_DIR (/var/tmp). No root
# needed; scripts/bench.sh calls it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kiln="$top/out/kiln"
size=${SCALE_SIZE:-1M}
tmp=$(mktemp -d "${SCALE_DIR:-/var/tmp}/kiln-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

[ -x "$kiln" ] || { echo "scale-bench: build $kiln first (make)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "scale-bench: needs /usr/bin/time" >&2; exit 3; }

for n in ${SCALE_TARGETS:-60 256 1024}; do
	rm -rf "$tmp/run" "$tmp"/f*
	set -- --size "$size" --out "$tmp/run"
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		set -- "$@" "$tmp/f$i"
	done
	/usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$kiln" burn "$@" \
		>"$tmp/out" 2>&1 ||
		{ tail -5 "$tmp/out" >&2; echo "scale-bench: $n targets failed" >&2; exit 1; }
	awk -v n="$n" '{
		printf "kiln burn: %d targets: %.0f MiB peak, %.0f KiB a target; " \
		       "CPU %.1f s, %.1f ms a target; %.1f s\n",
		       n, $4 / 1024, $4 / n, $2 + $3, ($2 + $3) * 1000 / n, $1
	}' "$tmp/time"
done
