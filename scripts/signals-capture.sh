#!/bin/sh
# signals-capture.sh: fixtures of the machine's own signals, recorded from
# the real Debian kernel and smartctl in one QEMU guest (q35, TCG): kernel
# log lines that real drivers print when reads fail, requests time out,
# links reset, PCIe AER errors are injected and a slot is emptied; hwmon,
# AER counter and EDAC trees of sysfs; and smartctl's JSON for each
# emulated disk. The guest (signals-capture.d/init) drives the scenario and
# asks for what only the host can do (throttle a disk so that its requests
# time out, unplug a device) by printing "KILN-HOST <monitor command>" on
# its console; this script runs each such line once on QEMU's monitor.
# What the guest collected comes back as tar | gzip | base64 on a second
# serial port, framed as scripts/sysfs-capture.sh does it, and lands in
#   out/signals-capture/tree/          everything the guest sent
#   tests/fixtures/kmsg/qemu-q35.*     /dev/kmsg, dmesg and the disks
#   tests/fixtures/sensors/qemu-q35.tar.gz   sysfs before and after
#   tests/fixtures/smartjson/qemu-*.json     smartctl -j of each disk
# The unit tests assert on the figures of these recordings (counts per
# disk, temperatures), so a new capture means checking them again.
# Usage: scripts/signals-capture.sh   (about eight minutes under TCG)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/out}
here=$top/scripts/signals-capture.d
work=$OUT/signals-capture
DRACUT_INSTALL=${DRACUT_INSTALL:-/usr/lib/dracut/dracut-install}
QEMU=${QEMU:-qemu-system-x86_64}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
PATH=$PATH:/usr/sbin:/sbin

MODULES="ahci nvme megaraid_sas mptsas virtio_pci virtio_scsi virtio_blk
	sd_mod drivetemp aer_inject"

say () {
	echo "signals-capture: $*"
}

die () {
	echo "signals-capture: $*" >&2
	exit 1
}

# As in sysfs-capture.sh: /dev/console must exist before /init runs, and
# only a newc header written by hand makes the node without root.
cpio_node () {
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$((${#1} + 1))" 0
	printf '%s\0' "$1"
	pad=$(((4 - (110 + ${#1} + 1) % 4) % 4))
	[ "$pad" -eq 0 ] || head -c "$pad" /dev/zero
}

build_initramfs () {
	ird=$work/initramfs
	kmods=$OUT/kernel/root/lib/modules/$version
	rm -rf "$ird"
	mkdir -p "$ird/bin" "$ird/sbin" "$ird/usr/bin" "$ird/usr/sbin" \
		"$ird/usr/lib" "$ird/proc" "$ird/sys" "$ird/dev" "$ird/tmp"
	ln -s usr/lib "$ird/lib"
	bb=$(command -v busybox) || die "no busybox (apt-get install busybox-static)"
	cp "$bb" "$ird/bin/busybox"
	for app in $("$bb" --list-full); do
		[ -e "$ird/$app" ] || ln -s /bin/busybox "$ird/$app"
	done
	# shellcheck disable=SC2086 # MODULES is a list of words
	"$DRACUT_INSTALL" -D "$ird" --kerneldir "$kmods" -m $MODULES ||
		die "dracut-install failed (modules)"
	# smartctl with its libraries, as the image packs it.
	"$DRACUT_INSTALL" -D "$ird" -a -l /usr/sbin/smartctl ||
		die "dracut-install failed (smartctl)"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$kmods/$f" "$ird/lib/modules/$version/"
	done
	depmod -b "$ird" "$version"
	cp "$here/init" "$ird/init"
	chmod 755 "$ird/init"
	{
		cpio_node dev 16877 0 0
		cpio_node dev/console 8576 5 1
		cpio_node TRAILER!!! 0 0 0
		(cd "$ird" && find . | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --quiet)
	} | gzip -9n >"$work/initramfs.cpio.gz"
}

args=
add () {
	for a; do
		args="$args '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
	done
}

# disk ID MIB SECTOR...: a raw image whose reads of those 512-byte sectors
# fail with EIO every time (blkdebug under the raw format), so that the
# driver in front of it reports a real error to the guest.
disk () {
	id=$1
	img=$work/$id.img
	truncate -s "${2}M" "$img"
	shift 2
	: >"$work/$id.blkdebug"
	for sector; do
		printf '[inject-error]\nevent = "read_aio"\niotype = "read"\nerrno = "5"\nsector = "%s"\nonce = "off"\n\n' \
			"$sector" >>"$work/$id.blkdebug"
	done
	add -drive "if=none,id=$id,format=raw,cache=none,file.driver=blkdebug,file.config=$work/$id.blkdebug,file.image.filename=$img"
}

machine () {
	add -M q35 -smbios "type=1,manufacturer=Kiln Lab,product=Signals,serial=KILN-SIGNALS-0001"
	add -device pcie-root-port,id=rp1,chassis=1,slot=1,x-speed=8,x-width=4 \
		-device pcie-root-port,id=rp2,chassis=2,slot=2,x-speed=8,x-width=8 \
		-device pcie-root-port,id=rp3,chassis=3,slot=3 \
		-device pcie-root-port,id=rp4,chassis=4,slot=4 \
		-device pcie-root-port,id=rp5,chassis=5,slot=5
	disk nvme1 16 8192
	add -device nvme,id=nvme0,bus=rp1,serial=KILN-SIG-NVME0 \
		-device nvme-ns,bus=nvme0,nsid=1,drive=nvme1
	disk sata0 8 4096
	disk sata1 9
	add -device ide-hd,bus=ide.0,drive=sata0,serial=KILN-SIG-SATA0,wwn=0x5000c50000009101 \
		-device ide-hd,bus=ide.1,drive=sata1,serial=KILN-SIG-SATA1,wwn=0x5000c50000009102
	disk mega0 10 4096
	add -device megasas-gen2,id=mega,bus=rp2 \
		-device scsi-hd,bus=mega.0,scsi-id=0,drive=mega0,serial=KILN-SIG-MEGA0,wwn=0x5000c50000009201
	disk vscsi0 14 4096
	disk vscsi1 15
	add -device virtio-scsi-pci,id=vscsi,bus=rp3,aer=on \
		-device scsi-hd,bus=vscsi.0,scsi-id=0,lun=0,drive=vscsi0,serial=KILN-SIG-VSCSI0,wwn=0x5000c50000009401 \
		-device scsi-hd,id=vscsi1dev,bus=vscsi.0,scsi-id=1,lun=0,drive=vscsi1,serial=KILN-SIG-VSCSI1,wwn=0x5000c50000009402
	disk vblk0 17 4096
	add -device virtio-blk-pci,bus=rp4,aer=on,drive=vblk0,serial=KILN-SIG-VBLK0
	disk mpt0 19 4096
	add -device mptsas1068,id=mpt,sas_address=0x5000c50000009500 \
		-device scsi-hd,bus=mpt.0,scsi-id=0,drive=mpt0,serial=KILN-SIG-MPT0,wwn=0x5000c50000009501
	disk nvme2 12
	add -device nvme,id=nvmegone,bus=rp5,serial=KILN-SIG-NVME1 \
		-device nvme-ns,bus=nvmegone,nsid=1,drive=nvme2
}

# monitor COMMAND: one HMP command on QEMU's monitor socket.
monitor () {
	python3 - "$work/monitor.sock" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
time.sleep(0.5)
s.close()
PY
}

# host_loop PID: runs each new "KILN-HOST ..." console line on the monitor
# while QEMU runs. The guest waits after asking, so a poll every half
# second is soon enough even under TCG.
host_loop () {
	done_n=0
	while kill -0 "$1" 2>/dev/null; do
		n=$(tr -d '\r' <"$work/console.log" | grep -a -c '^KILN-HOST ' || true)
		while [ "$done_n" -lt "$n" ]; do
			done_n=$((done_n + 1))
			cmd=$(tr -d '\r' <"$work/console.log" | grep -a '^KILN-HOST ' |
				sed -n "${done_n}p" | sed 's/^KILN-HOST //')
			say "monitor: $cmd"
			monitor "$cmd" || say "monitor: failed"
		done
		sleep 0.5
	done
}

main () {
	command -v "$QEMU" >/dev/null || die "no $QEMU"
	[ -x "$DRACUT_INSTALL" ] || die "no $DRACUT_INSTALL"
	sh "$top/scripts/kernel.sh"
	version=$(cat "$OUT/kernel/version")
	rm -rf "$work"
	mkdir -p "$work"
	build_initramfs
	machine
	add -nodefaults -display none -accel tcg -smp 2 -m 512 -no-reboot \
		-kernel "$OUT/kernel/vmlinuz" -initrd "$work/initramfs.cpio.gz" \
		-append "console=ttyS0,115200 panic=1 nvme_core.io_timeout=6" \
		-serial "file:$work/console.log" \
		-chardev "file,id=capture,path=$work/capture.txt" \
		-serial chardev:capture \
		-monitor "unix:$work/monitor.sock,server,nowait"
	eval "set -- $args"
	printf '%s\n' "$@" >"$work/qemu.args"
	: >"$work/console.log"
	say "booting"
	timeout "$BOOT_TIMEOUT" "$QEMU" "$@" </dev/null >"$work/qemu.out" 2>&1 &
	qemu=$!
	host_loop "$qemu"
	rc=0
	wait "$qemu" || rc=$?
	[ "$rc" -eq 0 ] || { tail -n 30 "$work/console.log" "$work/qemu.out" >&2; die "qemu failed (exit $rc)"; }

	tr -d '\r' <"$work/capture.txt" |
		sed -n '/^KILN-CAPTURE-BEGIN/,/^KILN-CAPTURE-END /p' >"$work/framed"
	end=$(grep '^KILN-CAPTURE-END ' "$work/framed") ||
		die "no capture arrived; see $work/console.log"
	sed '1d;$d' "$work/framed" | base64 -d >"$work/capture.tar.gz"
	# shellcheck disable=SC2086 # KILN-CAPTURE-END SIZE MD5, as words
	set -- $end
	[ "$(wc -c <"$work/capture.tar.gz")" -eq "$2" ] &&
		[ "$(md5sum <"$work/capture.tar.gz" | cut -d' ' -f1)" = "$3" ] ||
		die "capture damaged in transfer"
	mkdir "$work/tree"
	tar -xzf "$work/capture.tar.gz" -C "$work/tree"
	echo "# QEMU: $("$QEMU" --version | head -n 1)" >>"$work/tree/truth.txt"
	say "captured into $work/tree"
	install_fixtures "$work/tree"
}

# name_of SERIAL: the guest's kernel name for the disk with that serial
# (names depend on the order drivers bind, which varies between boots).
name_of () {
	sed -n "s/^disk \([^ ]*\) serial=$1 .*/\1/p" "$tree/truth-before.txt"
}

install_fixtures () {
	tree=$1
	fx=$top/tests/fixtures
	mkdir -p "$fx/kmsg" "$fx/sensors" "$fx/smartjson"
	cp "$tree/kmsg.raw" "$fx/kmsg/qemu-q35.kmsg"
	cp "$tree/dmesg.txt" "$fx/kmsg/qemu-q35.dmesg"
	cp "$tree/truth-before.txt" "$fx/kmsg/qemu-q35.truth"
	rm -rf "$work/sensors"
	mkdir -p "$work/sensors"
	cp -a "$tree/root-before" "$work/sensors/before"
	cp -a "$tree/root" "$work/sensors/after"
	cp "$tree/truth.txt" "$work/sensors/truth.txt"
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-C "$work/sensors" -cf - truth.txt before after |
		gzip -9n >"$fx/sensors/qemu-q35.tar.gz"
	smart=$tree/smart
	nvme=$(name_of KILN-SIG-NVME0)
	sata=$(name_of KILN-SIG-SATA0)
	mega=$(name_of KILN-SIG-MEGA0)
	vscsi=$(name_of KILN-SIG-VSCSI0)
	vblk=$(name_of KILN-SIG-VBLK0)
	cp "$smart/$nvme-x.json" "$fx/smartjson/qemu-nvme.json"
	cp "$smart/$sata-x.json" "$fx/smartjson/qemu-ata.json"
	cp "$smart/$sata-selftest-done.json" "$fx/smartjson/qemu-ata-selftest.json"
	cp "$smart/$vscsi-a.json" "$fx/smartjson/qemu-scsi.json"
	cp "$smart/$mega-megaraid0-a.json" "$fx/smartjson/qemu-megaraid.json"
	cp "$smart/$vblk-a.json" "$fx/smartjson/qemu-virtio-unsupported.json"
	say "fixtures written under $fx"
}

main "$@"
