#!/bin/sh
# make lab: kiln's ramboot booted in QEMU with a lab of small virtual disks
# on nvme, ahci, megasas-gen2 and virtio-scsi controllers and a virtual
# KILN stick, the serial console in this terminal. When the guest powers
# off, the run's results are copied from (a copy of) the stick to
# out/lab/results/ and its summary.txt printed.
# LAB_CPU (max), LAB_APPEND (more kernel arguments), LAB_MIB (64 per disk).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lab_top=$top
. "$top/scripts/qemu.sh"

mib=${LAB_MIB:-64}
lab_init "$top/out/lab"
rm -f "$lab_dir"/*.img
lab_disk nvme nvme-a "$mib"
lab_disk nvme nvme-b "$mib"
lab_disk ahci sata-a "$mib"
lab_disk ahci sata-b "$mib"
lab_disk megasas raid-a "$mib"
lab_disk megasas raid-b "$mib"
lab_disk vscsi vscsi-a "$mib"
lab_disk vscsi vscsi-b "$mib"
lab_stick "# kiln.cfg of the lab stick: KEY=VALUE lines (see README)
countdown=5"

echo "lab: booting kiln in QEMU (TCG); the guest powers off when done"
LAB_SHOW=1 lab_boot "quiet kiln.after=poweroff ${LAB_APPEND:-}" "$lab_dir/serial.log" || {
	status=$?
	echo "lab: QEMU ended with status $status (see $lab_dir/serial.log)"
	exit "$status"
}
rm -rf "$lab_dir/results"
lab_results "$lab_dir/results"
summary=$(find "$lab_dir/results" -name summary.txt | sort | tail -n 1)
if [ -z "$summary" ]; then
	echo "lab: no results on the stick (see $lab_dir/serial.log)"
	exit 1
fi
echo
echo "lab: results in $(dirname "$summary")"
cat "$summary"
