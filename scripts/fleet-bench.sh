#!/bin/sh
# kiln fleet against a lab's worth of run folders: tests/lib/fleetgen.py
# makes FLEET_MACHINES (1000) machines' folders (one to three runs each,
# FLEET_DISKS (12) disks a run) from the result.json of a real kiln burn,
# then kiln fleet reads them all and writes its page and CSV; the best
# wall time of three prints as "kiln fleet: 1000 machines in X.XX s",
# with the largest peak RSS of the three when /usr/bin/time is there.
# Each run's index.json is made too, as kiln writes it (fleet_index.c);
# FLEET_INDEX=0 leaves them out, as in folders of a kiln before them.
# The tree is fresh in the page cache, as on a server that just took the
# uploads. No root needed; scripts/bench.sh may call it.
# FLEET_SHARED=1 (the default past 10,000 machines, whose result.json
# files would be 44 GB at 100,000) makes every indexed run's result.json
# a hard link to one file its index matches (fleetgen.py --shared-result):
# kiln fleet reads the index in its place either way.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kiln="$top/out/kiln"
machines=${FLEET_MACHINES:-1000}
disks=${FLEET_DISKS:-12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

[ -x "$kiln" ] || { echo "fleet-bench: build $kiln first (make)" >&2; exit 3; }

"$kiln" burn --size 8M --out "$tmp/template" "$tmp/a.img" "$tmp/b.img" \
	>/dev/null 2>&1
noindex=
[ "${FLEET_INDEX:-1}" = 0 ] && noindex=--no-index
shared=
[ "${FLEET_SHARED:-$([ "$machines" -gt 10000 ] && echo 1)}" = 1 ] &&
	[ -z "$noindex" ] && shared=--shared-result
python3 "$top/tests/lib/fleetgen.py" --template "$tmp/template/result.json" \
	--out "$tmp/lab" --machines "$machines" --disks "$disks" $noindex \
	$shared >&2
timer=
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %M_%U_%S -a -o $tmp/rss"

best=""
for i in 1 2 3; do
	start=$(date +%s.%N)
	$timer "$kiln" fleet --out "$tmp/page" "$tmp/lab" >/dev/null
	end=$(date +%s.%N)
	t=$(echo "$end $start" | awk '{ printf "%.2f", $1 - $2 }')
	if [ -z "$best" ] || [ "$(echo "$t $best" | awk '{ print ($1 < $2) }')" = 1 ]; then
		best=$t
	fi
done
rss=
[ -s "$tmp/rss" ] && rss=", $(cut -d_ -f1 "$tmp/rss" | sort -n | tail -n 1) KiB peak RSS, $(awk -F_ '
	{ c = $2 + $3; if (NR == 1 || c < m) m = c } END { printf "%.2f", m }' "$tmp/rss") s CPU at best"
echo "kiln fleet: $machines machines in $best s" \
	"($(du -k "$tmp/page/fleet.html" | cut -f1) KiB page$rss)"
