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
# to out/lab/results/ when it powers off, and the servers stopped.
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
	. "$top/scripts/labservers.sh"
	srv=$lab_dir/srv
	port=PORT pg=PORT
	if [ -z "${LAB_DRY:-}" ]; then
		rm -rf "$srv"
		port=$(free_port)
		labservers_nginx_conf "$lab_dir/nginx" "$port" "$srv"
		labservers_nginx "$lab_dir/nginx"
		pg=$(free_port)
		labservers_pushgateway "$pg" "$lab_dir/pushgateway.log"
		trap 'kill "$nginx_pid" "$pg_pid" 2>/dev/null' EXIT
		if ! wait_http "http://127.0.0.1:$port/" ||
			! wait_http "http://127.0.0.1:$pg/metrics"; then
			echo "$title: nginx or the Pushgateway did not start (see $lab_dir/nginx/error.log, $lab_dir/pushgateway.log)" >&2
			exit 1
		fi
		echo "$title: uploads to http://127.0.0.1:$port/kiln-results/, gauges at http://127.0.0.1:$pg/metrics"
	fi
	# kiln.cfg's keys on the PXE entry's command line, as a lab has them.
	keys=$(printf '%s\n' "$cfg" | sed -e '/^#/d' -e 's/^/kiln./' | tr '\n' ' ')
	lab_pxe "quiet $keys kiln.upload=http://10.0.2.2:$port/kiln-results/ kiln.metrics=http://10.0.2.2:$pg/ ${LAB_APPEND:-}"
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
	cp -r "$srv/kiln-results" "$lab_dir/results/"
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
if [ "$lab" = fail ] && ! head -n 1 "$summary" | grep -q ": FAIL,"; then
	echo "$title: the run did not FAIL, as this lab should"
	exit 1
fi
