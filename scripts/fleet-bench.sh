#!/bin/sh
# kiln fleet against a lab's worth of run folders: tests/lib/fleetgen.py
# makes FLEET_MACHINES (1000) machines' folders (one to three runs each,
# FLEET_DISKS (12) disks a run) from the result.json of a real kiln burn,
# then kiln fleet reads them all and writes its page and CSV; the best
# wall time of three prints as "kiln fleet: 1000 machines in X.XX s".
# The tree is fresh in the page cache, as on a server that just took the
# uploads. No root needed; scripts/bench.sh may call it.
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
python3 "$top/tests/lib/fleetgen.py" --template "$tmp/template/result.json" \
	--out "$tmp/lab" --machines "$machines" --disks "$disks" >&2

best=""
for i in 1 2 3; do
	start=$(date +%s.%N)
	"$kiln" fleet --out "$tmp/page" "$tmp/lab" >/dev/null
	end=$(date +%s.%N)
	t=$(echo "$end $start" | awk '{ printf "%.2f", $1 - $2 }')
	if [ -z "$best" ] || [ "$(echo "$t $best" | awk '{ print ($1 < $2) }')" = 1 ]; then
		best=$t
	fi
done
echo "kiln fleet: $machines machines in $best s" \
	"($(du -k "$tmp/page/fleet.html" | cut -f1) KiB page)"
