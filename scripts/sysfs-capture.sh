#!/bin/sh
# sysfs-capture.sh: sysfs fixture trees from the real Debian kernel, booted
# in QEMU on emulated storage controllers, so that kiln discover can be
# tested on the host against real kernels' layouts (kiln discover
# --sysfs-root). For each machine below it builds small disk images, boots
# out/kernel/vmlinuz with a busybox initramfs whose /init
# (sysfs-capture.d/init) copies a fixed selection of /sys and a truth file,
# receives them on a second serial port, and stores
#   tests/fixtures/sysfs/NAME.tar.gz   sys/, proc/, kiln-truth.txt and
#                                      kiln-unreadable.txt
#   tests/fixtures/sysfs/NAME.truth    kiln-truth.txt, to read
# Usage: scripts/sysfs-capture.sh [NAME...]   (default: every machine)
# Work files, the console log of each boot included, stay in
# out/sysfs-capture/NAME/. Needs no root.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/out}
here=$top/scripts/sysfs-capture.d
work=$OUT/sysfs-capture
fixtures=$top/tests/fixtures/sysfs
DRACUT_INSTALL=${DRACUT_INSTALL:-/usr/lib/dracut/dracut-install}
QEMU=${QEMU:-qemu-system-x86_64}
# A TCG boot reaches /init in about 8 s; a whole capture takes about a
# minute. The bound only keeps a hung guest from hanging the build.
BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
PATH=$PATH:/usr/sbin:/sbin

MACHINES="mixed q35 nvme2ns nvme-subsys megasas mptsas"

# Drivers for every controller the machines use, with sd_mod and sr_mod
# for the disks and CD behind them, and the NICs for /sys/class/net.
# mpt3sas is here so that the guest shows it does not claim the SAS1068
# (that is mptsas's).
MODULES="ahci ata_piix nvme megaraid_sas sym53c8xx mptsas mpt3sas
	virtio_pci virtio_scsi virtio_blk xhci_pci usb_storage uas
	sd_mod sr_mod ses e1000 e1000e virtio_net"

say () {
	echo "sysfs-capture: $*"
}

die () {
	echo "sysfs-capture: $*" >&2
	exit 1
}

# cpio_node NAME MODE MAJOR MINOR: one newc cpio entry without data. A
# device node cannot be made without root, but its header is plain ASCII,
# so /dev/console is written here rather than taken from the disk.
cpio_node () {
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$((${#1} + 1))" 0
	printf '%s\0' "$1"
	# The header (110 bytes) and name are padded to a multiple of 4.
	pad=$(((4 - (110 + ${#1} + 1) % 4) % 4))
	[ "$pad" -eq 0 ] || head -c "$pad" /dev/zero
}

# The kernel opens /dev/console for PID 1 before /init runs; without the
# node, /init starts with no stdin, stdout or stderr.
console_cpio () {
	cpio_node dev 16877 0 0
	cpio_node dev/console 8576 5 1
	cpio_node TRAILER!!! 0 0 0
}

build_initramfs () {
	ird=$work/initramfs
	kmods=$OUT/kernel/root/lib/modules/$version
	rm -rf "$ird"
	mkdir -p "$ird/bin" "$ird/sbin" "$ird/usr/bin" "$ird/usr/sbin" \
		"$ird/usr/lib" "$ird/proc" "$ird/sys" "$ird/dev" "$ird/tmp"
	ln -s usr/lib "$ird/lib"
	bb=$(command -v busybox) || die "no busybox (apt-get install busybox-static)"
	file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
		die "$bb is not static (apt-get install busybox-static)"
	cp "$bb" "$ird/bin/busybox"
	for app in $("$bb" --list-full); do
		[ -e "$ird/$app" ] || ln -s /bin/busybox "$ird/$app"
	done
	# shellcheck disable=SC2086 # MODULES is a list of words
	"$DRACUT_INSTALL" -D "$ird" --kerneldir "$kmods" -m $MODULES ||
		die "dracut-install failed"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$kmods/$f" "$ird/lib/modules/$version/"
	done
	# Indexes for just these modules: busybox modprobe reads modules.dep
	# and modules.alias, and a small alias file is quick to search in TCG.
	depmod -b "$ird" "$version"
	cp "$here/init" "$ird/init"
	chmod 755 "$ird/init"
	{
		console_cpio
		(cd "$ird" && find . | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --quiet)
	} | gzip -9n >"$work/initramfs.cpio.gz"
	# shellcheck disable=SC2086 # one line of the module names
	say "initramfs $(du -k "$work/initramfs.cpio.gz" | cut -f1) KiB," \
		"modules:" $MODULES
}

# add ARG...: appends ARGs to the QEMU command line in $args, each quoted
# for the eval that turns $args back into words.
add () {
	for a; do
		args="$args '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
	done
}

# note TEXT: a line of what the machine was given, for the truth file.
note () {
	echo "$*" >>"$mdir/given.txt"
}

# disk ID MIB [gpt|mbr]: a sparse raw image and the -drive for it; a
# device then takes drive=ID. Sizes differ per disk so that a test can
# tell the disks apart by size alone; some carry a partition table so that
# the fixtures hold partitions.
disk () {
	img=$mdir/$1.img
	truncate -s "${2}M" "$img"
	case "${3:-}" in
	gpt) printf 'label: gpt\n,3M\n,\n' | sfdisk -q "$img" >/dev/null ;;
	mbr) printf 'label: dos\n,3M,83\n' | sfdisk -q "$img" >/dev/null ;;
	esac
	add -drive "if=none,id=$1,format=raw,file=$(echo "$img" | sed 's/,/,,/g')"
}

# nic MODEL MAC [BUS]: a NIC on QEMU's user network, so that
# /sys/class/net holds a wired NIC with a link.
nic () {
	n=$((${n:-0} + 1))
	add -netdev "user,id=net$n" -device "$1,netdev=net$n,mac=$2${3:+,bus=$3}"
	note "nic $1 mac=$2"
}

# Each machine_NAME adds its devices with add and says what it gave with
# note. Serial numbers name the machine and the disk; WWNs are NAA-5
# (0x5...) and unique across machines. NVMe namespaces get a fixed uuid
# and eui64 so that captures repeat, though Linux 6.1 ignores both on
# QEMU's controller (1b36:0010 carries NVME_QUIRK_BOGUS_NID: "Ignoring
# bogus Namespace Identifiers"), so its wwid is nvme.VID-SERIAL-MODEL-NSID.

machine_mixed () {
	add -M pc -smbios "type=1,manufacturer=Kiln Lab,product=Mixed,serial=KILN-MIXED-0001"
	note "pc (i440fx), DMI serial KILN-MIXED-0001"
	note "piix ide (built in): an empty ide-cd on ide.1 (sr0, no medium)"
	add -device ide-cd,bus=ide.1,unit=0
	disk nvme1 16 gpt
	disk nvme2 12
	add -device nvme,id=nvme0,serial=KILN-MX-NVME0 \
		-device nvme-ns,bus=nvme0,nsid=1,drive=nvme1,uuid=4b494c4e-0000-4000-8000-000000000001,eui64=0x4b494c4e00000001 \
		-device nvme-ns,bus=nvme0,nsid=2,drive=nvme2,logical_block_size=4096,physical_block_size=4096,uuid=4b494c4e-0000-4000-8000-000000000002,eui64=0x4b494c4e00000002
	note "nvme serial=KILN-MX-NVME0: ns1 16 MiB gpt eui64=4b494c4e00000001; ns2 12 MiB 4 KiB blocks eui64=4b494c4e00000002"
	disk sata0 8 gpt
	disk sata1 9
	add -device ahci,id=ahci \
		-device "ide-hd,bus=ahci.0,drive=sata0,serial=KILN-MX-SATA0,wwn=0x5000c50000000101,model=KILN SATA 0" \
		-device ide-hd,bus=ahci.2,drive=sata1,serial=KILN-MX-SATA1
	note "ahci: port 0 ide-hd 8 MiB gpt serial=KILN-MX-SATA0 wwn=0x5000c50000000101 model='KILN SATA 0'; port 2 ide-hd 9 MiB serial=KILN-MX-SATA1 (no wwn)"
	disk mega0 10
	disk mega1 11 mbr
	add -device megasas-gen2,id=mega \
		-device scsi-hd,bus=mega.0,scsi-id=0,drive=mega0,serial=KILN-MX-MEGA0,wwn=0x5000c50000000201 \
		-device scsi-hd,bus=mega.0,scsi-id=1,drive=mega1,serial=KILN-MX-MEGA1,wwn=0x5000c50000000202
	note "megasas-gen2 (use_jbod off): scsi-hd id 0 10 MiB serial=KILN-MX-MEGA0 wwn=0x5000c50000000201; id 1 11 MiB mbr serial=KILN-MX-MEGA1 wwn=0x5000c50000000202"
	disk lsi0 13
	add -device lsi53c895a,id=lsi \
		-device scsi-hd,bus=lsi.0,scsi-id=0,drive=lsi0,serial=KILN-MX-LSI0,wwn=0x5000c50000000301
	note "lsi53c895a: scsi-hd id 0 13 MiB serial=KILN-MX-LSI0 wwn=0x5000c50000000301"
	disk vscsi0 14
	disk vscsi1 15
	add -device virtio-scsi-pci,id=vscsi \
		-device scsi-hd,bus=vscsi.0,scsi-id=0,lun=0,drive=vscsi0,serial=KILN-MX-VSCSI0,wwn=0x5000c50000000401 \
		-device scsi-hd,bus=vscsi.0,scsi-id=1,lun=3,drive=vscsi1,serial=KILN-MX-VSCSI1
	note "virtio-scsi-pci: scsi-hd id 0 lun 0 14 MiB serial=KILN-MX-VSCSI0 wwn=0x5000c50000000401; id 1 lun 3 15 MiB serial=KILN-MX-VSCSI1 (no wwn)"
	disk vblk0 17
	add -device virtio-blk-pci,drive=vblk0,serial=KILN-MX-VBLK0
	note "virtio-blk-pci: 17 MiB serial=KILN-MX-VBLK0"
	disk usb0 18
	add -device qemu-xhci,id=xhci \
		-device usb-storage,bus=xhci.0,drive=usb0,serial=KILN-MX-USB0
	note "qemu-xhci: usb-storage 18 MiB serial=KILN-MX-USB0"
	disk mpt0 19
	add -device mptsas1068,id=mpt,sas_address=0x5000c50000000500 \
		-device scsi-hd,bus=mpt.0,scsi-id=0,drive=mpt0,serial=KILN-MX-MPT0,wwn=0x5000c50000000501
	note "mptsas1068 sas_address=0x5000c50000000500: scsi-hd id 0 19 MiB serial=KILN-MX-MPT0 wwn=0x5000c50000000501"
	nic e1000 52:54:00:4b:00:01
	nic virtio-net-pci 52:54:00:4b:00:02
}

machine_q35 () {
	add -M q35 -smbios "type=1,manufacturer=Kiln Lab,product=Q35,serial=To Be Filled By O.E.M."
	note "q35, DMI serial 'To Be Filled By O.E.M.' (a placeholder)"
	disk sata0 8 gpt
	disk sata1 9
	add -device ide-hd,bus=ide.0,drive=sata0,serial=KILN-Q35-SATA0,wwn=0x5000c50000001101 \
		-device ide-hd,bus=ide.4,drive=sata1,serial=KILN-Q35-SATA1,wwn=0x5000c50000001102
	note "ich9-ahci (built in, 00:1f.2): port 0 8 MiB gpt serial=KILN-Q35-SATA0 wwn=0x5000c50000001101; port 4 9 MiB serial=KILN-Q35-SATA1 wwn=0x5000c50000001102"
	add -device pcie-root-port,id=rp1,chassis=1,slot=1,x-speed=8,x-width=4 \
		-device pcie-root-port,id=rp2,chassis=2,slot=2,x-speed=8,x-width=8 \
		-device pcie-root-port,id=rp3,chassis=3,slot=3 \
		-device pcie-root-port,id=rp4,chassis=4,slot=4
	note "pcie-root-ports: rp1 8 GT/s x4, rp2 8 GT/s x8, rp3 and rp4 default (16 GT/s x32)"
	disk nvme1 16
	add -device nvme,id=nvme0,bus=rp1,serial=KILN-Q35-NVME0 \
		-device nvme-ns,bus=nvme0,nsid=1,drive=nvme1,uuid=4b494c4e-0000-4000-8000-000000001001,eui64=0x4b494c4e00001001
	note "rp1: nvme serial=KILN-Q35-NVME0: ns1 16 MiB eui64=4b494c4e00001001"
	disk mega0 10
	disk mega1 11
	add -device megasas-gen2,id=mega,bus=rp2 \
		-device scsi-hd,bus=mega.0,scsi-id=0,drive=mega0,serial=KILN-Q35-MEGA0,wwn=0x5000c50000001201 \
		-device scsi-hd,bus=mega.0,scsi-id=1,drive=mega1,serial=KILN-Q35-MEGA1,wwn=0x5000c50000001202
	note "rp2: megasas-gen2 (logical drives): scsi-hd id 0 10 MiB serial=KILN-Q35-MEGA0 wwn=0x5000c50000001201; id 1 11 MiB serial=KILN-Q35-MEGA1 wwn=0x5000c50000001202"
	disk mpt0 19
	add -device mptsas1068,id=mpt,sas_address=0x5000c50000001500 \
		-device scsi-hd,bus=mpt.0,scsi-id=0,drive=mpt0,serial=KILN-Q35-MPT0,wwn=0x5000c50000001501
	note "mptsas1068 on pcie.0 sas_address=0x5000c50000001500: scsi-hd id 0 19 MiB serial=KILN-Q35-MPT0 wwn=0x5000c50000001501"
	disk vblk0 17 gpt
	add -device virtio-blk-pci,bus=rp3,drive=vblk0,serial=KILN-Q35-VBLK0
	note "rp3: virtio-blk-pci 17 MiB gpt serial=KILN-Q35-VBLK0"
	disk vscsi0 14
	add -device virtio-scsi-pci,id=vscsi,bus=rp4 \
		-device scsi-hd,bus=vscsi.0,scsi-id=0,lun=0,drive=vscsi0,serial=KILN-Q35-VSCSI0,wwn=0x5000c50000001401
	note "rp4: virtio-scsi-pci: scsi-hd id 0 14 MiB serial=KILN-Q35-VSCSI0 wwn=0x5000c50000001401"
	nic e1000e 52:54:00:4b:01:01
}

machine_nvme2ns () {
	add -M pc -smbios "type=1,manufacturer=Kiln Lab,product=NVMe,serial=KILN-NVME2NS-0001"
	note "pc (i440fx), DMI serial KILN-NVME2NS-0001"
	disk nvme1 16
	disk nvme2 12
	add -device nvme,id=nvme0,serial=KILN-N2-NVME0 \
		-device nvme-ns,bus=nvme0,nsid=1,drive=nvme1,uuid=4b494c4e-0000-4000-8000-000000002001,eui64=0x4b494c4e00002001 \
		-device nvme-ns,bus=nvme0,nsid=2,drive=nvme2,uuid=4b494c4e-0000-4000-8000-000000002002,eui64=0x4b494c4e00002002
	note "nvme serial=KILN-N2-NVME0: ns1 16 MiB eui64=4b494c4e00002001; ns2 12 MiB eui64=4b494c4e00002002"
	nic e1000 52:54:00:4b:02:01
}

# One NVMe subsystem reached through two controllers, as a dual-port
# enterprise SSD is: the kernel's native multipath then puts the disk
# under /sys/devices/virtual/nvme-subsystem, not under a PCI function.
machine_nvme_subsys () {
	add -M q35 -smbios "type=1,manufacturer=Kiln Lab,product=NVMe-oF,serial=KILN-SUBSYS-0001"
	note "q35, DMI serial KILN-SUBSYS-0001"
	disk nvme1 16
	disk nvme2 12
	add -device nvme-subsys,id=subsys0,nqn=nqn.2024-01.org.kiln:subsys0 \
		-device nvme,id=nvmea,serial=KILN-SUB-NVME0,subsys=subsys0 \
		-device nvme,id=nvmeb,serial=KILN-SUB-NVME0,subsys=subsys0 \
		-device nvme-ns,bus=nvmea,nsid=1,drive=nvme1,shared=on,uuid=4b494c4e-0000-4000-8000-000000003001,eui64=0x4b494c4e00003001 \
		-device nvme-ns,bus=nvmea,nsid=2,drive=nvme2,shared=on,uuid=4b494c4e-0000-4000-8000-000000003002,eui64=0x4b494c4e00003002
	note "nvme-subsys nqn.2024-01.org.kiln:subsys0 with two controllers (both serial=KILN-SUB-NVME0), shared ns1 16 MiB eui64=4b494c4e00003001 and ns2 12 MiB eui64=4b494c4e00003002"
	nic e1000e 52:54:00:4b:03:01
}

# QEMU's megasas reports a JBOD disk's device id as (scsi-id << 8) | lun,
# and Linux megaraid_sas keeps a list of 256 physical disks indexed by that
# id, so only the JBOD disk at scsi-id 0 lun 0 ever shows (seen with QEMU
# 7.2, Linux 6.1). The second JBOD disk stays, unseen, as a disk the
# machine has and the kernel does not show.
machine_megasas () {
	add -M pc
	note "pc (i440fx), no DMI serial given"
	disk ld0 10 gpt
	disk ld1 11
	add -device megasas-gen2,id=mega,sas_address=0x5000c50000004000 \
		-device scsi-hd,bus=mega.0,scsi-id=0,drive=ld0,serial=KILN-MS-LD0,wwn=0x5000c50000004001 \
		-device scsi-hd,bus=mega.0,scsi-id=1,drive=ld1,serial=KILN-MS-LD1,wwn=0x5000c50000004002
	note "megasas-gen2 use_jbod off (disks become logical drives, channel 2): scsi-hd id 0 10 MiB gpt serial=KILN-MS-LD0 wwn=0x5000c50000004001; id 1 11 MiB serial=KILN-MS-LD1 wwn=0x5000c50000004002"
	disk pd0 12
	disk pd1 13
	add -device megasas-gen2,id=jbod,use_jbod=on,sas_address=0x5000c50000004100 \
		-device scsi-hd,bus=jbod.0,scsi-id=0,drive=pd0,serial=KILN-MS-PD0,wwn=0x5000c50000004101 \
		-device scsi-hd,bus=jbod.0,scsi-id=1,drive=pd1,serial=KILN-MS-PD1,wwn=0x5000c50000004102
	note "megasas-gen2 use_jbod=on (disks passed through, channel 0): scsi-hd id 0 12 MiB serial=KILN-MS-PD0 wwn=0x5000c50000004101"
	note "  and id 1 13 MiB serial=KILN-MS-PD1 wwn=0x5000c50000004102, INVISIBLE to Linux: QEMU gives a JBOD disk device id (scsi-id << 8) | lun = 256, beyond megaraid_sas's 256-entry list"
	nic e1000 52:54:00:4b:04:01
}

# QEMU's mptsas1068 gives each disk the SAS address in its scsi-hd wwn=;
# without one the address is 0 and Linux mptsas skips the end device
# without a word, however long it waits (seen on pc and q35, INTx and MSI).
# It also has 8 phys: a disk at scsi-id 8 or above is never attached.
# The third disk here has no wwn, as a disk the kernel does not show.
machine_mptsas () {
	add -M pc -smbios "type=1,manufacturer=Kiln Lab,product=SAS1068,serial=KILN-MPTSAS-0001"
	note "pc (i440fx), DMI serial KILN-MPTSAS-0001"
	disk mpt0 19
	disk mpt1 20 gpt
	disk mpt2 21
	add -device mptsas1068,id=mpt,sas_address=0x5000c50000005000 \
		-device scsi-hd,bus=mpt.0,scsi-id=0,drive=mpt0,serial=KILN-MP-MPT0,wwn=0x5000c50000005001 \
		-device scsi-hd,bus=mpt.0,scsi-id=1,lun=1,drive=mpt1,serial=KILN-MP-MPT1,wwn=0x5000c50000005002 \
		-device scsi-hd,bus=mpt.0,scsi-id=2,drive=mpt2,serial=KILN-MP-MPT2
	note "mptsas1068 sas_address=0x5000c50000005000: scsi-hd id 0 19 MiB serial=KILN-MP-MPT0 wwn=0x5000c50000005001; id 1 lun 1 20 MiB gpt serial=KILN-MP-MPT1 wwn=0x5000c50000005002"
	note "  and id 2 21 MiB serial=KILN-MP-MPT2 with no wwn, INVISIBLE to Linux: its SAS address is 0 (phy-N:2 shows an attached end device, but no port, end_device or disk)"
	nic e1000 52:54:00:4b:05:01
}

# capture NAME: boots machine NAME and stores its fixture.
capture () {
	name=$1
	mdir=$work/$name
	rm -rf "$mdir"
	mkdir -p "$mdir"
	args=
	: >"$mdir/given.txt"
	"machine_$(echo "$name" | tr - _)"
	add -nodefaults -display none -accel tcg -smp 2 -m 512 -no-reboot \
		-kernel "$OUT/kernel/vmlinuz" -initrd "$work/initramfs.cpio.gz" \
		-append "console=ttyS0,115200 panic=1 kiln.machine=$name" \
		-serial "file:$mdir/console.log" \
		-chardev "file,id=capture,path=$mdir/capture.txt" \
		-serial chardev:capture
	eval "set -- $args"
	printf '%s\n' "$@" >"$mdir/qemu.args"

	say "$name: booting"
	t0=$(date +%s)
	rc=0
	timeout "$BOOT_TIMEOUT" "$QEMU" "$@" </dev/null >"$mdir/qemu.out" 2>&1 || rc=$?
	t1=$(date +%s)
	grep -a '^capture:' "$mdir/console.log" | sed "s/^/  /" || true
	if [ "$rc" -ne 0 ]; then
		tail -n 30 "$mdir/console.log" "$mdir/qemu.out" >&2
		die "$name: qemu failed (exit $rc after $((t1 - t0)) s)"
	fi

	# The capture is framed by marker lines; the end line carries its
	# size and md5, so a cut-off transfer is caught here.
	tr -d '\r' <"$mdir/capture.txt" |
		sed -n '/^KILN-CAPTURE-BEGIN /,/^KILN-CAPTURE-END /p' >"$mdir/framed"
	end=$(grep '^KILN-CAPTURE-END ' "$mdir/framed") ||
		die "$name: no capture arrived; see $mdir/console.log"
	sed '1d;$d' "$mdir/framed" | base64 -d >"$mdir/capture.tar.gz"
	# shellcheck disable=SC2086 # KILN-CAPTURE-END SIZE MD5, as words
	set -- $end
	if [ "$(wc -c <"$mdir/capture.tar.gz")" -ne "$2" ] ||
		[ "$(md5sum <"$mdir/capture.tar.gz" | cut -d' ' -f1)" != "$3" ]; then
		die "$name: capture damaged in transfer"
	fi

	mkdir "$mdir/tree"
	tar -xzf "$mdir/capture.tar.gz" -C "$mdir/tree"
	{
		echo
		echo "# given: what QEMU was told to build ($("$QEMU" --version | head -n 1))"
		sed 's/^/given /' "$mdir/given.txt"
	} >>"$mdir/tree/kiln-truth.txt"

	# Sorted, owned by 0 and dated 0, so that a recapture of an unchanged
	# machine differs only where the kernel's answers differ.
	mkdir -p "$fixtures"
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-C "$mdir/tree" -cf - kiln-truth.txt kiln-unreadable.txt proc sys |
		gzip -9n >"$fixtures/$name.tar.gz.new"
	mv "$fixtures/$name.tar.gz.new" "$fixtures/$name.tar.gz"
	cp "$mdir/tree/kiln-truth.txt" "$fixtures/$name.truth"
	say "$name: $(du -k "$fixtures/$name.tar.gz" | cut -f1) KiB," \
		"$(grep -c '^block ' "$fixtures/$name.truth") block devices," \
		"$((t1 - t0)) s"
}

main () {
	# shellcheck disable=SC2086 # a list of names
	[ "$#" -gt 0 ] || set -- $MACHINES
	for name; do
		case " $MACHINES " in
		*" $name "*) ;;
		*) die "no machine $name (machines: $MACHINES)" ;;
		esac
	done
	command -v "$QEMU" >/dev/null ||
		die "no $QEMU (apt-get install qemu-system-x86)"
	[ -x "$DRACUT_INSTALL" ] ||
		die "no $DRACUT_INSTALL (apt-get install dracut-core)"

	sh "$top/scripts/kernel.sh"
	version=$(cat "$OUT/kernel/version")
	mkdir -p "$work"
	build_initramfs
	for name; do
		capture "$name"
	done
}

main "$@"
