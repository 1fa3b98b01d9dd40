#!/bin/sh
# make lab: kiln booted in QEMU the way a machine boots it: the firmware
# (SeaBIOS; LAB_BOOT=uefi for OVMF, secureboot for OVMF with Secure Boot
# on) starts out/kiln-usb.img from a virtual USB stick, with a lab of small
# virtual disks on nvme, ahci, megasas-gen2 and virtio-scsi controllers;
# the serial console is this terminal. LAB_BOOT=direct boots the kernel and
# initramfs straight from QEMU instead (faster). The lab works on a copy of
# the stick; when the guest powers off, the run's results are copied from
# it to out/lab/results/ and its summary.txt printed.
# LAB_CPU (max), LAB_APPEND (kernel arguments, direct boot), LAB_MIB (64).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lab_top=$top
. "$top/scripts/qemu.sh"

mib=${LAB_MIB:-64}
boot=${LAB_BOOT:-bios}
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
cfg="# kiln.cfg of the lab's stick (README has the keys)
countdown=5
after=poweroff"

echo "lab: booting kiln in QEMU (TCG, $boot); the guest powers off when done"
status=0
case "$boot" in
direct)
	lab_stick "$cfg"
	LAB_SHOW=1 lab_boot "quiet ${LAB_APPEND:-}" "$lab_dir/serial.log" || status=$?
	;;
bios | uefi | secureboot)
	lab_usb "$top/out/kiln-usb.img" "$cfg"
	fw=seabios
	[ "$boot" = uefi ] && fw=ovmf
	[ "$boot" = secureboot ] && fw=ovmf-sb
	LAB_SHOW=1 lab_firmware_boot "$fw" "$lab_dir/serial.log" || status=$?
	;;
*)
	echo "lab: LAB_BOOT is bios, uefi, secureboot or direct, not $boot" >&2
	exit 2
	;;
esac
if [ "$status" -ne 0 ]; then
	echo "lab: QEMU ended with status $status (see $lab_dir/serial.log)"
	exit "$status"
fi
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
