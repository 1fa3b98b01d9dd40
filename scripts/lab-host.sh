#!/bin/sh
# The lab before the image exists: a live kiln burn of a few loop devices
# over files in /dev/shm (as root), or of plain files in out/lab (not root).
# LAB_DISKS (4) and LAB_SIZE (1G) set how many and how big.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kiln="$top/out/kiln"
lab="$top/out/lab"
n=${LAB_DISKS:-4}
size=${LAB_SIZE:-1G}
run="$lab/run-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$lab"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1; then
	echo "lab: not root: burning $n plain files of $size in $lab/files"
	rm -rf "$lab/files"
	mkdir -p "$lab/files"
	set --
	i=0
	while [ "$i" -lt "$n" ]; do
		set -- "$@" "$lab/files/disk$i.img"
		i=$((i + 1))
	done
	status=0
	"$kiln" burn --size "$size" --interval 1 --out "$run" "$@" || status=$?
	rm -rf "$lab/files"
	echo "lab: results in $run"
	exit "$status"
fi

loops=""
cleanup () {
	for d in $loops; do
		losetup -d "$d" 2>/dev/null || true
	done
	rm -f /dev/shm/kiln-lab-*.img
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "lab: burning $n loop devices of $size over files in /dev/shm"
set --
i=0
while [ "$i" -lt "$n" ]; do
	img="/dev/shm/kiln-lab-$i.img"
	rm -f "$img"
	fallocate -l "$size" "$img"
	dev=$(losetup -f --show --direct-io=on "$img")
	loops="$loops $dev"
	set -- "$@" "$dev"
	i=$((i + 1))
done
# --destroy-data: these devices were made a moment ago over our own files.
status=0
"$kiln" burn --destroy-data --interval 1 --out "$run" "$@" || status=$?
echo "lab: results in $run"
exit "$status"
