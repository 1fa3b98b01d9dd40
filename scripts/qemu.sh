# qemu.sh: a QEMU lab for kiln, sourced by scripts/lab.sh and the e2e
# tests. A lab is a folder of raw disk images and a KILN stick, a list of
# QEMU arguments built up by the functions below, and one boot of kiln's
# kernel and initramfs under TCG (KVM guests hang on the build machines).
#
#	lab_init DIR
#	lab_disk nvme|ahci|megasas|mptsas|vscsi|virtio NAME MIB [SERIAL]
#					(the device's QEMU id is dev-NAME)
#	lab_errors NAME SECTOR...	(reads there fail: QEMU's blkdebug)
#	lab_drops NAME			(every write lost: reads give zeroes)
#	lab_readonly NAME		(the guest sees it write-protected)
#	lab_throttle NAME BYTES		(at most BYTES a second: a slow disk)
#	lab_ssd NAME			(it does not spin: rotation_rate=1)
#	lab_nvme_detached NAME		(before any nvme lab_disk: the NVMe
#					controller is in a subsystem, and
#					NAME's namespace is allocated there,
#					attached to no controller)
#	lab_discard NAME		(the guest's discards reach the image:
#					discard=unmap, holes punched)
#	lab_stick [KILN.CFG TEXT]
#	lab_bmc sim			(QEMU's own BMC on a KCS interface)
#	lab_bmc extern PORT		(a BMC outside QEMU, OpenIPMI's
#					ipmi_sim, on 127.0.0.1:PORT)
#	lab_usb IMAGE [KILN.CFG TEXT]	(a copy of a built stick, booted from)
#	lab_boot "KERNEL ARGS" LOG	(returns when the guest powers off)
#	lab_two_nets			(LAB_NET for two NICs, two networks)
#	lab_firmware_boot seabios|ovmf|ovmf-sb LOG [QEMU ARGS]
#					(no -kernel: the firmware boots a medium)
#	lab_pxe "KERNEL ARGS"		(a TFTP root of out/pxe whose
#					pxelinux.cfg/01-<MAC> boots this machine
#					with ARGS; LAB_NET set to boot from it)
#	lab_results OUTDIR		(copies kiln-results off the stick)
#	lab_exec FILE			(runs the QEMU LAB_ARGV=FILE wrote)
#	lab_failing_disks MIB		(make lab-fail's disks: one healthy,
#					one with read errors, one that drops
#					every write)
#
# LAB_DRY: lab_run prints QEMU's command line instead of running it.
# LAB_ARGV=FILE: it writes QEMU's argv to FILE instead, one a line, for a
# process that starts QEMU itself (ipmi_sim's startcmd: lab_exec FILE).
#
# Paths must not hold blanks: arguments are kept in one string.

LAB_QEMU=${LAB_QEMU:-qemu-system-x86_64}
LAB_MEM=${LAB_MEM:-1024}
LAB_CPU=${LAB_CPU:-max}
LAB_TIMEOUT=${LAB_TIMEOUT:-900}
lab_top=${lab_top:-$(cd "$(dirname "$0")/.." && pwd)}

lab_init () {
	lab_dir=$1
	mkdir -p "$lab_dir"
	lab_args=""
	lab_n=0
	lab_nvme=0
	lab_subsys=
	lab_ahci=0
	lab_mega=0
	lab_mpt=0
	lab_vscsi=0
}

lab_nvme_detached () {
	: >"$lab_dir/$1.detached"
	lab_subsys=1
}

lab_add () {
	lab_args="$lab_args $*"
}

# lab_disk KIND NAME MIB [SERIAL]: a disk image (kept if it exists) on a
# controller of that kind; the first disk of a kind adds the controller.
lab_disk () {
	kind=$1
	name=$2
	img="$lab_dir/$name.img"
	serial=${4:-KILN-$(echo "$name" | tr 'a-z' 'A-Z')}
	lab_n=$((lab_n + 1))
	if [ -e "$lab_dir/$name.drops" ]; then
		# lab_drops NAME: no image; QEMU's null driver acknowledges
		# every write and forgets it, and every read is zeroes.
		drive="if=none,id=d$lab_n,driver=null-co,size=${3}M,read-zeroes=on,cache=none,aio=threads"
	else
		[ -e "$img" ] || truncate -s "${3}M" "$img"
		drive="if=none,id=d$lab_n,format=raw,cache=none,aio=threads,file=$img"
	fi
	# blkdebug sits under the raw format, which signals its reads to it.
	[ -e "$lab_dir/$name.blkdebug" ] &&
		drive="if=none,id=d$lab_n,format=raw,cache=none,file.driver=blkdebug,file.config=$lab_dir/$name.blkdebug,file.image.filename=$img"
	# lab_readonly NAME: the guest sees a write-protected disk.
	[ -e "$lab_dir/$name.ro" ] && drive="$drive,readonly=on"
	# lab_throttle NAME BYTES: the disk moves at most BYTES a second.
	[ -e "$lab_dir/$name.bps" ] &&
		drive="$drive,throttling.bps-total=$(cat "$lab_dir/$name.bps")"
	# lab_discard NAME: QEMU passes the guest's discards to the image.
	[ -e "$lab_dir/$name.discard" ] && drive="$drive,discard=unmap"
	lab_add -drive "$drive"
	wwn=$(printf '0x5000c5%010x' "$lab_n")
	# lab_ssd NAME: a SATA or SCSI disk that does not spin.
	ssd=
	[ -e "$lab_dir/$name.ssd" ] && ssd=,rotation_rate=1
	case "$kind" in
	nvme)
		if [ "$lab_nvme" -eq 0 ] && [ -n "$lab_subsys" ]; then
			lab_add -device nvme-subsys,id=subsys0,nqn=kiln-subsys0
			lab_add -device nvme,id=nvme0,serial=KILN-NVME0,subsys=subsys0
		elif [ "$lab_nvme" -eq 0 ]; then
			lab_add -device nvme,id=nvme0,serial=KILN-NVME0
		fi
		lab_nvme=$((lab_nvme + 1))
		detached=
		[ -e "$lab_dir/$name.detached" ] && detached=,detached=true
		lab_add -device "nvme-ns,id=dev-$name,bus=nvme0,nsid=$lab_nvme,drive=d$lab_n,eui64=$wwn$detached"
		;;
	ahci)
		[ "$lab_ahci" -gt 0 ] || lab_add -device ahci,id=ahci
		lab_add -device "ide-hd,id=dev-$name,bus=ahci.$lab_ahci,drive=d$lab_n,serial=$serial,wwn=$wwn$ssd"
		lab_ahci=$((lab_ahci + 1))
		;;
	megasas)
		[ "$lab_mega" -gt 0 ] || lab_add -device megasas-gen2,id=mega
		lab_add -device "scsi-hd,id=dev-$name,bus=mega.0,scsi-id=$lab_mega,drive=d$lab_n,serial=$serial,wwn=$wwn$ssd"
		lab_mega=$((lab_mega + 1))
		;;
	mptsas)
		# An LSI SAS1068 HBA: each disk a SAS end device on its own
		# phy (the guest's /sys/class/sas_phy); QEMU needs a wwn.
		[ "$lab_mpt" -gt 0 ] ||
			lab_add -device mptsas1068,id=mpt,sas_address=0x5000c50000ff0000
		lab_add -device "scsi-hd,id=dev-$name,bus=mpt.0,scsi-id=$lab_mpt,drive=d$lab_n,serial=$serial,wwn=$wwn$ssd"
		lab_mpt=$((lab_mpt + 1))
		;;
	vscsi)
		[ "$lab_vscsi" -gt 0 ] || lab_add -device virtio-scsi-pci,id=vscsi
		lab_add -device "scsi-hd,id=dev-$name,bus=vscsi.0,scsi-id=$lab_vscsi,drive=d$lab_n,serial=$serial,wwn=$wwn$ssd"
		lab_vscsi=$((lab_vscsi + 1))
		;;
	virtio)
		lab_add -device "virtio-blk-pci,id=dev-$name,drive=d$lab_n,serial=$serial"
		;;
	*)
		echo "lab: no controller kind $kind" >&2
		return 1
		;;
	esac
}

# lab_readonly NAME: disk NAME is read-only to the guest. Call before
# lab_disk NAME.
lab_readonly () {
	: >"$lab_dir/$1.ro"
}

# lab_ssd NAME: disk NAME (ahci, megasas, mptsas or vscsi) reports no
# rotation.
lab_ssd () {
	: >"$lab_dir/$1.ssd"
}

# lab_discard NAME: disk NAME's discards (NVMe deallocate, SCSI UNMAP,
# ATA TRIM) punch holes in its image file, which then reads zeros; by
# default QEMU takes them and keeps the data (discard=ignore). Call before
# lab_disk NAME.
lab_discard () {
	: >"$lab_dir/$1.discard"
}

# lab_throttle NAME BYTES: disk NAME moves at most BYTES a second, read
# and write together (QEMU's throttling.bps-total). Call before lab_disk.
lab_throttle () {
	echo "$2" >"$lab_dir/$1.bps"
}

# lab_errors NAME SECTOR...: reads of those 512-byte sectors of disk NAME
# fail with EIO, every time. Call before lab_disk NAME.
lab_errors () {
	name=$1
	shift
	: >"$lab_dir/$name.blkdebug"
	for sector in "$@"; do
		printf '[inject-error]\nevent = "read_aio"\niotype = "read"\nerrno = "5"\nsector = "%s"\nonce = "off"\n\n' \
			"$sector" >>"$lab_dir/$name.blkdebug"
	done
}

# lab_drops NAME: disk NAME acknowledges every write and keeps none (the
# lie of a disk whose cache never reaches the media): it reads as blank,
# so kiln writes it, and its verify reads zeroes. Call before lab_disk.
lab_drops () {
	: >"$lab_dir/$1.drops"
}

# lab_failing_disks MIB: make lab-fail's lab, which tests/e2e/faults.t
# boots too: a healthy disk, one whose reads fail at 10 and 20 MiB (not
# proven blank, so tested read-only, and FAIL with those offsets) and one
# that drops every write (FAIL: zeroed units), all on the ahci controller.
lab_failing_disks () {
	lab_errors bad 20480 40960
	lab_disk ahci bad "$1" KILN-BAD
	lab_disk ahci good "$1" KILN-GOOD
	lab_drops drop
	lab_disk ahci drop "$1" KILN-DROP
}

# lab_stick [KILN.CFG TEXT]: a fresh 64 MiB stick, MBR with one FAT32
# partition labelled KILN at 1 MiB, made without root (sfdisk, mkfs.vfat
# --offset, mtools), on usb-storage behind an xhci controller.
lab_stick () {
	stick="$lab_dir/stick.img"
	rm -f "$stick"
	truncate -s 64M "$stick"
	printf 'label: dos\nstart=2048, type=c, bootable\n' | sfdisk -q "$stick"
	mkfs.vfat -F 32 -n KILN --offset 2048 "$stick" $((63 * 1024)) >/dev/null 2>&1
	if [ -n "${1:-}" ]; then
		printf '%s\n' "$1" >"$lab_dir/kiln.cfg"
		MTOOLS_SKIP_CHECK=1 mcopy -i "$stick@@1M" "$lab_dir/kiln.cfg" ::kiln.cfg
	fi
	lab_add -device qemu-xhci,id=xhci \
		-drive "if=none,id=stick,format=raw,file=$stick" \
		-device usb-storage,bus=xhci.0,drive=stick,serial=KILN-STICK
}

# lab_bmc sim | extern PORT: a BMC the guest reaches in-band on an ISA
# KCS interface (ipmi_si, /dev/ipmi0). sim is QEMU's ipmi-bmc-sim: an
# event log (SEL) and a LAN address, but a chassis power cycle it answers
# "not supported" (its reset is warm, its power-off an ACPI request).
# extern is ipmi-bmc-extern, connected to a BMC simulator listening on
# PORT (OpenIPMI's ipmi_sim, its lan.conf "serial 15 ... codec VM"),
# whose chassis control may stop QEMU and start it again.
lab_bmc () {
	case "$1" in
	sim)
		lab_add -device ipmi-bmc-sim,id=bmc0 -device isa-ipmi-kcs,bmc=bmc0
		;;
	extern)
		lab_add -chardev "socket,id=ipmi0,host=127.0.0.1,port=$2,reconnect=10" \
			-device ipmi-bmc-extern,id=bmc0,chardev=ipmi0 \
			-device isa-ipmi-kcs,bmc=bmc0
		;;
	*)
		echo "lab: no BMC kind $1" >&2
		return 1
		;;
	esac
}

# lab_usb IMAGE [KILN.CFG TEXT]: a copy of a built stick (out/kiln-usb.img)
# as the lab's stick, first in the boot order; kiln.cfg replaced when given.
lab_usb () {
	stick="$lab_dir/stick.img"
	cp --sparse=always "$1" "$stick"
	if [ -n "${2:-}" ]; then
		printf '%s\n' "$2" >"$lab_dir/kiln.cfg"
		MTOOLS_SKIP_CHECK=1 mcopy -o -i "$stick@@1M" "$lab_dir/kiln.cfg" ::kiln.cfg
	fi
	lab_add -device qemu-xhci,id=xhci \
		-drive "if=none,id=stick,format=raw,file=$stick" \
		-device usb-storage,bus=xhci.0,drive=stick,serial=KILN-STICK,bootindex=0
}

# lab_pxe "KERNEL ARGS": the lab boots from the network as a lab's machine
# does: SeaBIOS's PXE ROM asks QEMU's DHCP and TFTP for pxelinux, and
# pxelinux reads the entry of this machine's MAC (LAB_MAC, default
# 52:54:00:12:34:56), which carries ARGS, as docs/lab.md's per-machine entry
# does; the menu appends BOOTIF=, so the image knows it was PXE-booted.
# Boot with lab_firmware_boot seabios.
lab_pxe () {
	mac=${LAB_MAC:-52:54:00:12:34:56}
	tftp=$lab_dir/tftp
	rm -rf "$tftp"
	cp -r "$lab_top/out/pxe" "$tftp"
	cat >"$tftp/pxelinux.cfg/01-$(echo "$mac" | tr 'A-F:' 'a-f-')" <<EOF
SERIAL 0 115200
DEFAULT kiln
SYSAPPEND 2
LABEL kiln
	KERNEL /kiln/vmlinuz
	INITRD /kiln/initrd.gz
	APPEND console=ttyS0,115200n8 $1
EOF
	LAB_NET="-netdev user,id=net0,tftp=$tftp,bootfile=pxelinux.0 -device e1000,netdev=net0,mac=$mac,bootindex=0"
}

# lab_firmware_boot FIRMWARE LOG [QEMU ARGS]: the lab booted by SeaBIOS,
# OVMF, or OVMF with Secure Boot on and Microsoft's keys enrolled (q35 with
# SMM), each with a fresh copy of its variable store. LAB_NET replaces the
# default user-mode network (for PXE: tftp= and bootfile=).
lab_firmware_boot () {
	fw=$1
	log=$2
	shift 2
	ovmf=/usr/share/OVMF
	case "$fw" in
	seabios)
		machine="-M pc"
		;;
	ovmf)
		cp "$ovmf/OVMF_VARS_4M.fd" "$lab_dir/vars.fd"
		machine="-M q35 -drive if=pflash,format=raw,readonly=on,file=$ovmf/OVMF_CODE_4M.fd -drive if=pflash,format=raw,file=$lab_dir/vars.fd"
		;;
	ovmf-sb)
		cp "$ovmf/OVMF_VARS_4M.ms.fd" "$lab_dir/vars.fd"
		machine="-M q35,smm=on -global driver=cfi.pflash01,property=secure,value=on -drive if=pflash,format=raw,readonly=on,file=$ovmf/OVMF_CODE_4M.secboot.fd -drive if=pflash,format=raw,file=$lab_dir/vars.fd"
		;;
	*)
		echo "lab: no firmware $fw" >&2
		return 1
		;;
	esac
	net=${LAB_NET:-"-netdev user,id=net0 -device e1000,netdev=net0"}
	cpu=""
	[ "$LAB_CPU" = default ] || cpu="-cpu $LAB_CPU"
	# shellcheck disable=SC2086
	lab_run "$log" -accel tcg -m "$LAB_MEM" -smp 2 $cpu $machine -nographic \
		-no-reboot $net $lab_args "$@"
}

# lab_screen LOG: a serial console's log as its screen shows it. A loader
# redraws with cursor moves, and the firmware's serial mirror puts its
# own between the characters a loader writes (SYSLINUX's "booting kiln in
# 5 s" came as "5<ESC>[11;69H<ESC>[11;70H s", where the moves fall by the
# machine's speed): the escape sequences (CSI, charset, two-byte) are
# taken out, and a carriage return that redraws a line starts a new one,
# so a match sees the text, never where a redraw fell.
lab_screen () {
	LC_ALL=C sed -e 's|\x1b\[[0-?]*[ -/]*[@-~]||g' -e 's|\x1b[()*+][ -~]||g' \
		-e 's|\x1b[ -~]||g' -e 's|\r$||' -e 's|\r|\n|g' "$1"
}

# lab_seen LOG PATTERN: the console shows PATTERN (grep's), in its bytes
# or on its screen (lab_screen).
lab_seen () {
	grep -a -q -- "$2" "$1" 2>/dev/null ||
		lab_screen "$1" 2>/dev/null | grep -a -q -- "$2"
}

# lab_run LOG QEMU ARGS...: one QEMU run, the console to LOG; 124 when
# LAB_TIMEOUT runs out. LAB_SHOW: the console on this terminal too.
# LAB_KEYS: a command whose output is typed on the console. LAB_UNTIL: the
# run is done when the console shows this (a guest that waits at the end,
# after=wait), and QEMU is stopped. LAB_UNTIL_CMD: the same once this
# command succeeds (a state on the guest's disks, read from the host: a
# power cut once a checkpoint is on the stick). The seconds from power-on
# until kiln's first I/O go to LOG.first.
lab_run () {
	log=$1
	shift
	if [ -n "${LAB_DRY:-}" ]; then
		echo "$LAB_QEMU $*"
		return 0
	fi
	if [ -n "${LAB_ARGV:-}" ]; then
		printf '%s\n' "$LAB_QEMU" "$@" >"$LAB_ARGV"
		return 0
	fi
	if [ -n "${LAB_SHOW:-}" ]; then
		timeout "$LAB_TIMEOUT" "$LAB_QEMU" "$@" </dev/null 2>&1 | tee "$log"
		return
	fi
	rm -f "$log.first"
	if [ -n "${LAB_KEYS:-}" ]; then
		sh -c "$LAB_KEYS" | timeout "$LAB_TIMEOUT" "$LAB_QEMU" "$@" \
			>"$log" 2>&1 &
	else
		timeout "$LAB_TIMEOUT" "$LAB_QEMU" "$@" </dev/null >"$log" 2>&1 &
	fi
	qemu=$!
	start=$(date +%s)
	while kill -0 "$qemu" 2>/dev/null; do
		if [ ! -e "$log.first" ] &&
			grep -a -q "^kiln run: run [0-9a-f]*, bs" "$log" 2>/dev/null; then
			echo $(($(date +%s) - start)) >"$log.first"
		fi
		if { [ -n "${LAB_UNTIL:-}" ] && lab_seen "$log" "$LAB_UNTIL"; } ||
			{ [ -n "${LAB_UNTIL_CMD:-}" ] &&
			sh -c "$LAB_UNTIL_CMD" >/dev/null 2>&1; }; then
			kill "$qemu" 2>/dev/null
			wait "$qemu"
			return 0
		fi
		sleep 1
	done
	wait "$qemu"
}

# lab_boot "KERNEL ARGS" LOG: boots kiln's kernel and initramfs (or
# LAB_INITRD) straight from QEMU; LAB_EXTRA adds QEMU arguments, LAB_NET
# replaces the one user-mode NIC (lab_two_nets: two). As lab_run: QEMU's
# status, 124 when LAB_TIMEOUT ran out. The kernel skips its crypto
# self-tests (cryptomgr.notests): kiln's CRC and TLS (curl) run in user
# space, and under TCG a self-test once held a guest CPU (cryptomgr_test)
# until the timeout. The images' boot menus keep them: on a real CPU a
# failed self-test is a finding.
lab_boot () {
	log=$2
	net=${LAB_NET:-"-netdev user,id=net0 -device e1000,netdev=net0"}
	cpu=""
	[ "$LAB_CPU" = default ] || cpu="-cpu $LAB_CPU"
	# shellcheck disable=SC2086
	lab_run "$log" -accel tcg -m "$LAB_MEM" -smp 2 $cpu -nographic -no-reboot \
		-kernel "$lab_top/out/kernel/vmlinuz" \
		-initrd "${LAB_INITRD:-$lab_top/out/initramfs.cpio.gz}" \
		-append "console=ttyS0,115200 panic=-1 cryptomgr.notests=1 $1" \
		$net $lab_args ${LAB_EXTRA:-}
}

# lab_two_nets: LAB_NET for two NICs (e1000, 1000 Mbit/s) on two user
# networks, 10.0.2.0/24 and 10.0.3.0/24, each with its own gateway to the
# host's loopback (10.0.2.2 and 10.0.3.2).
lab_two_nets () {
	echo "-netdev user,id=net0,net=10.0.2.0/24 -device e1000,netdev=net0" \
		"-netdev user,id=net1,net=10.0.3.0/24 -device e1000,netdev=net1"
}

# lab_exec FILE: becomes the QEMU that LAB_ARGV=FILE wrote down (so a
# signal to this process is QEMU's own).
lab_exec () {
	argv_file=$1
	set --
	while IFS= read -r arg; do
		set -- "$@" "$arg"
	done <"$argv_file"
	exec "$@"
}

# lab_monitor SOCKET COMMAND: a command to QEMU's monitor (HMP), started
# with LAB_EXTRA="-monitor unix:SOCKET,server,nowait".
lab_monitor () {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
time.sleep(1)
s.close()
PY
}

# lab_results OUTDIR: the stick's kiln-results folder, copied out.
lab_results () {
	mkdir -p "$1"
	MTOOLS_SKIP_CHECK=1 mcopy -s -n -i "$lab_dir/stick.img@@1M" \
		::kiln-results "$1/" 2>/dev/null
}

# lab_fsck: fsck.fat -n on the stick's FAT (a copy: fsck reads whole files).
lab_fsck () {
	dd if="$lab_dir/stick.img" of="$lab_dir/stick.fat" bs=1M skip=1 2>/dev/null &&
		fsck.fat -n "$lab_dir/stick.fat"
}
