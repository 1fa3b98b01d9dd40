#!/bin/sh
# make lab: kiln booted in QEMU the way a machine boots it: the firmware
# (SeaBIOS; LAB_BOOT=uefi for OVMF, secureboot for OVMF with Secure Boot
# on) starts out/kiln-usb.img from a virtual USB stick, with a lab of small
# virtual disks on nvme, ahci, megasas-gen2 and virtio-scsi controllers;
# the serial console is this terminal. LAB_BOOT=direct boots the kernel and
# initramfs straight from QEMU instead (faster). The lab works on a copy of
# the stick; when the guest powers off, the run's results are copied from
# it to out/lab/results/ and its summary.txt printed.
#
# LAB_BOOT=pxe: a lab's machine with no stick. Debian's nginx
# (boot/nginx-kiln.conf) and a Pushgateway start on free ports of this
# host's loopback; the guest boots from the network (SeaBIOS's PXE ROM,
# QEMU's DHCP and TFTP, pxelinux and its entry for the guest's MAC, which
# names the two servers as 10.0.2.2), uploads its run folder and pushes
# its gauges while it burns; the results are copied from the upload root
# to out/lab/results/ when it powers off. The servers are
# scripts/labserver.sh's, as a lab's admin starts them, on
# LAB_DIR/server/; they stay up after (its stop stops them).
#
# make lab-fail (scripts/lab.sh fail): the same boot with a lab that
# fails (lab_failing_disks in scripts/qemu.sh): a healthy disk, one whose
# reads fail at chosen sectors and one that drops every write; results in
# out/lab-fail/results/. It exits 1 if the run did not FAIL.
#
# LAB_MIB (64) the size of each disk, LAB_CPU (max), LAB_MEM (1024),
# LAB_TIMEOUT (900 s), LAB_APPEND (kernel arguments, direct boot), LAB_EXTRA
# (QEMU arguments), LAB_DIR (out/lab or out/lab-fail), LAB_DRY (print the
# QEMU command line, boot nothing). docs/lab.md has them all.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
lab_top=$top
. "$top/scripts/qemu.sh"

lab=${1:-lab}
mib=${LAB_MIB:-64}
boot=${LAB_BOOT:-bios}
case "$lab" in
lab | fail) ;;
*)
	echo "lab: scripts/lab.sh [fail], not $lab" >&2
	exit 2
	;;
esac
case "$mib" in
'' | *[!0-9]* | 0*)
	echo "lab: LAB_MIB is a whole number of MiB, not $mib" >&2
	exit 2
	;;
esac
case "$boot" in
direct | bios | uefi | secureboot | pxe) ;;
*)
	echo "lab: LAB_BOOT is bios, uefi, secureboot, pxe or direct, not $boot" >&2
	exit 2
	;;
esac
title=lab
[ "$lab" = fail ] && title="lab-fail"
lab_init "${LAB_DIR:-$top/out/$title}"
# Fresh disks each time: a disk an earlier run wrote holds data, and
# would be tested read-only (kiln's safety), not written.
rm -f "$lab_dir"/*.img "$lab_dir"/*.blkdebug "$lab_dir"/*.drops
if [ "$lab" = fail ]; then
	lab_failing_disks "$mib"
else
	lab_disk nvme nvme-a "$mib"
	lab_disk nvme nvme-b "$mib"
	lab_disk ahci sata-a "$mib"
	lab_disk ahci sata-b "$mib"
	lab_disk megasas raid-a "$mib"
	lab_disk megasas raid-b "$mib"
	lab_disk vscsi vscsi-a "$mib"
	lab_disk vscsi vscsi-b "$mib"
fi
cfg="# kiln.cfg of the lab's stick (kiln.cfg(5) has the keys)
countdown=5
after=poweroff
# stressapptest beside the burn, as on a real machine (kiln run's default)
stress=memory,cpu"

[ -n "${LAB_DRY:-}" ] ||
	echo "$title: booting kiln in QEMU (TCG, $boot); the guest powers off when done"
status=0
case "$boot" in
direct)
	lab_stick "$cfg"
	LAB_SHOW=1 lab_boot "quiet ${LAB_APPEND:-}" "$lab_dir/serial.log" || status=$?
	;;
pxe)
	# The lab server as an admin stands it up (scripts/labserver.sh):
	# a machines file of this one machine, its entries rendered, nginx
	# and the Pushgateway started on free loopback ports as this user.
	. "$top/scripts/labservers.sh"
	srv=$lab_dir/server
	mac=${LAB_MAC:-52:54:00:12:34:56}
	# The last lab's servers, left up, go first.
	[ ! -d "$srv" ] || sh "$top/scripts/labserver.sh" stop "$srv" >/dev/null
	rm -rf "$srv"
	port=$(free_port)
	pg=$(free_port)
	# kiln.cfg's keys and LAB_APPEND's kiln.KEY=VALUE on the machine's line.
	keys=$(printf '%s\n' "$cfg" | sed -e '/^#/d' | tr '\n' ' ')
	for w in ${LAB_APPEND:-}; do
		case $w in
		kiln.?*=*) keys="$keys ${w#kiln.}" ;;
		*)
			echo "$title: LAB_APPEND with LAB_BOOT=pxe takes kiln.KEY=VALUE only, not $w" >&2
			exit 2
			;;
		esac
	done
	printf '%s kiln-lab %s\n' "$mac" "$keys" >"$lab_dir/machines"
	sh "$top/scripts/labserver.sh" render --server "http://10.0.2.2:$port" \
		--metrics "http://10.0.2.2:$pg/" "$lab_dir/machines" "$srv" \
		>"$lab_dir/render.log" || exit $?
	cp -r "$top/out/pxe/." "$srv/tftp/"
	if [ -z "${LAB_DRY:-}" ]; then
		LABSERVER_PORT=$port LABSERVER_GW_PORT=$pg \
			sh "$top/scripts/labserver.sh" start "$srv"
	fi
	LAB_NET="-netdev user,id=net0,tftp=$srv/tftp,bootfile=pxelinux.0 -device e1000,netdev=net0,mac=$mac,bootindex=0"
	# shellcheck disable=SC2086
	LAB_SHOW=1 lab_firmware_boot seabios "$lab_dir/serial.log" ${LAB_EXTRA:-} ||
		status=$?
	;;
*)
	lab_usb "$top/out/kiln-usb.img" "$cfg"
	fw=seabios
	[ "$boot" = uefi ] && fw=ovmf
	[ "$boot" = secureboot ] && fw=ovmf-sb
	# shellcheck disable=SC2086
	LAB_SHOW=1 lab_firmware_boot "$fw" "$lab_dir/serial.log" ${LAB_EXTRA:-} ||
		status=$?
	;;
esac
[ -z "${LAB_DRY:-}" ] || exit 0
if [ "$status" -ne 0 ]; then
	echo "$title: QEMU ended with status $status (see $lab_dir/serial.log)"
	exit "$status"
fi
rm -rf "$lab_dir/results"
if [ "$boot" = pxe ]; then
	# No stick: the lab server's copy is the results.
	mkdir -p "$lab_dir/results"
	cp -r "$srv/srv/kiln/kiln-results" "$lab_dir/results/"
else
	lab_results "$lab_dir/results"
fi
summary=$(find "$lab_dir/results" -name summary.txt | sort | tail -n 1)
if [ -z "$summary" ]; then
	echo "$title: no results on the stick (see $lab_dir/serial.log)"
	exit 1
fi
echo
cat "$summary"
echo
echo "$title: results in $(dirname "$summary")"
echo "$title: summary.txt is above; open report.html there in a browser"
# The image's figures (issue 42): its initramfs, and the kernel's seconds
# from its start to the first burn-in I/O, from the run's kmsg.log. Under
# TCG they are emulation's; README's Performance section says both.
first=$(sed -n "s/^\[ *\([0-9.]*\)\] kiln: burn-in I\/O starts.*/\1/p" \
	"$(dirname "$summary")/kmsg.log" 2>/dev/null | head -n 1)
echo "$title: the image: initramfs $(du -k "$top/out/initramfs.cpio.gz" 2>/dev/null |
	cut -f1) KiB; first burn-in I/O ${first:-not seen} s after the kernel started (QEMU TCG: emulation's seconds)"
if [ "$boot" = pxe ]; then
	# The servers stay up, so the gauges and the fleet page can be read.
	sh "$top/scripts/labserver.sh" fleet "$srv" || true
	echo "$title: the lab server is still up: the fleet page at http://127.0.0.1:$port/fleet/fleet.html, uploads at http://127.0.0.1:$port/kiln-results/, gauges at http://127.0.0.1:$pg/metrics; sh scripts/labserver.sh stop $srv stops it"
fi
if [ "$lab" = fail ] && ! head -n 1 "$summary" | grep -q ": FAIL,"; then
	echo "$title: the run did not FAIL, as this lab should"
	exit 1
fi
