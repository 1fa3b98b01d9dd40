#!/bin/sh
# slow: QEMU boots. The boot media, each firmware path once: the USB stick
# under SeaBIOS (from usb-storage on qemu-xhci), under OVMF, and under OVMF
# with Secure Boot on and Microsoft's keys enrolled, which must also refuse
# a kernel whose signature is broken; BIOS PXE and UEFI PXE from QEMU's
# TFTP; the ISO as a CD-ROM under SeaBIOS and OVMF. Each boot reaches kiln
# run, finishes, and leaves its results on the stick or on the console.
# The media are booted as built: only the stick's kiln.cfg is set. The
# loaders' words are matched as the screen shows them (grep_in, lab_seen:
# where a redraw's cursor moves fall depends on the machine's speed).
# Each boot is bounded by qemu.sh's LAB_TIMEOUT (900 s), a hang's bound
# and not a speed: a boot of 50 s here took 261 s under a loaded CI run,
# and a 400 s bound failed the ISO's OVMF boot there.
. "$(dirname "$0")/../lib/e2e.sh"

for f in kiln-usb.img kiln.iso pxe/pxelinux.0; do
	[ -e "$TOP/out/$f" ] || test_bail "no out/$f: run make check (it builds make image)"
done
cfg="countdown=0
after=poweroff
settle=20
stress=off
reread=0"

# usb FIRMWARE NAME: boots a copy of the stick with one blank disk.
usb () {
	lab_init "$TEST_TMP/$2" && lab_disk virtio one 16 && lab_disk ahci two 16 &&
	lab_usb "$TOP/out/kiln-usb.img" "$cfg" &&
	lab_firmware_boot "$1" "$TEST_TMP/$2.log" &&
	rm -rf "$TEST_TMP/$2.results" && lab_results "$TEST_TMP/$2.results" &&
	run=$(find "$TEST_TMP/$2.results" -name summary.txt | sort | tail -n 1) &&
	run=${run%/summary.txt} && [ -n "$run" ]
}

# console FIRMWARE NAME QEMU ARGS...: a boot whose results are on the
# console only; the default entry counts down 10 s and waits at the end.
# (qemu.sh's functions use name, fw and the like: these are c_ prefixed.)
console () {
	c_fw=$1
	c_log="$TEST_TMP/$2.log"
	shift 2
	lab_init "$TEST_TMP/${c_log##*/}.lab" && lab_disk virtio one 16 &&
	LAB_UNTIL="done: waiting" \
		lab_firmware_boot "$c_fw" "$c_log" "$@" &&
	ran_clean "$c_log" 1 &&
	grep_in "kiln-init: no KILN stick found" "$c_log"
}

test_expect_success 'USB stick, SeaBIOS: syslinux boots kiln, results on the stick' '
	usb seabios usb-bios &&
	grep_in "booting kiln in 5 s" "$TEST_TMP/usb-bios.log" &&
	ran_clean "$run/summary.txt" 2 &&
	grep_in "BIOS, Secure Boot off" "$run/summary.txt"
'

test_expect_success '... the stick FAT is clean, its results read with mtools' '
	lab_fsck >"$TEST_TMP/fsck" 2>&1 &&
	MTOOLS_SKIP_CHECK=1 mdir -i "$lab_dir/stick.img@@1M" -/ ::kiln-results |
		grep -q result.json
'

test_expect_success 'USB stick, OVMF: shim, signed GRUB, kiln; results on the stick' '
	usb ovmf usb-uefi &&
	grep_in "GNU GRUB" "$TEST_TMP/usb-uefi.log" &&
	ran_clean "$run/summary.txt" 2 &&
	grep_in "UEFI, Secure Boot off" "$run/summary.txt" &&
	lab_fsck >"$TEST_TMP/fsck" 2>&1
'

test_expect_success 'USB stick, OVMF with Secure Boot on: it boots and says so' '
	usb ovmf-sb usb-sb &&
	ran_clean "$run/summary.txt" 2 &&
	grep_in "UEFI, Secure Boot on, kernel lockdown integrity" "$run/summary.txt" &&
	[ "$(json_get "$run/result.json" "d[\"firmware\"][\"secure_boot\"]")" = True ] &&
	grep -q "Secure boot enabled" "$run/kmsg.log"
'

test_expect_success '... where O_DIRECT, discovery and SMART pass-through still work' '
	[ "$(json_get "$run/result.json" "[t[\"smart\"][\"after\"][\"passed\"] for t in d[\"targets\"] if t[\"serial\"] == \"KILN-TWO\"][0]")" = True ] &&
	[ "$(json_get "$run/result.json" "all(t[\"direct_io\"] and t[\"bytes_read\"] == t[\"size\"] for t in d[\"targets\"])")" = True ] &&
	[ "$(json_get "$run/inventory.json" "len(d[\"disks\"])")" = 3 ]
'

test_expect_success '... and refuses a kernel whose signature is broken' '
	lab_init "$TEST_TMP/broken" &&
	cp --sparse=always "$TOP/out/kiln-usb.img" "$TEST_TMP/broken.img" &&
	MTOOLS_SKIP_CHECK=1 mcopy -i "$TEST_TMP/broken.img@@1M" ::kiln/vmlinuz \
		"$TEST_TMP/vmlinuz" &&
	python3 "$TOP/tests/lib/poke.py" "$TEST_TMP/vmlinuz" flip 1048576 0x01 &&
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$TEST_TMP/broken.img@@1M" \
		"$TEST_TMP/vmlinuz" ::kiln/vmlinuz &&
	lab_usb "$TEST_TMP/broken.img" "$cfg" &&
	LAB_UNTIL="bad shim signature" \
		lab_firmware_boot ovmf-sb "$TEST_TMP/broken.log" &&
	lab_seen "$TEST_TMP/broken.log" "bad shim signature" &&
	! lab_seen "$TEST_TMP/broken.log" "kiln-init"
'

test_expect_success 'BIOS PXE: pxelinux over TFTP, DHCP in the image' '
	LAB_NET="-netdev user,id=net0,tftp=$TOP/out/pxe,bootfile=pxelinux.0 -device e1000,netdev=net0,bootindex=0" \
		console seabios pxe-bios &&
	grep_in "PXELINUX" "$TEST_TMP/pxe-bios.log" &&
	grep_in "kiln-init: network: eth0 is up" "$TEST_TMP/pxe-bios.log"
'

test_expect_success 'UEFI PXE: shim and the signed network GRUB over TFTP' '
	LAB_NET="-netdev user,id=net0,tftp=$TOP/out/pxe,bootfile=bootx64.efi -device virtio-net-pci,netdev=net0,romfile=,bootindex=0" \
		console ovmf pxe-uefi &&
	grep_in "GNU GRUB" "$TEST_TMP/pxe-uefi.log" &&
	grep_in "kiln-init: network: eth0 is up" "$TEST_TMP/pxe-uefi.log"
'

test_expect_success 'HTTP boot: the NIC ROM (iPXE) runs kiln.ipxe over HTTP' '
	port=$(python3 -c "import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])") &&
	{ python3 -m http.server "$port" --bind 127.0.0.1 --directory "$TOP/out/pxe" \
		>"$TEST_TMP/httpd.log" 2>&1 & } &&
	http=$! &&
	test_at_exit "kill $http" &&
	test_wait_for "python3 -c \"import socket, sys; socket.create_connection((\\\"127.0.0.1\\\", int(sys.argv[1])))\" $port 2>/dev/null" &&
	LAB_NET="-netdev user,id=net0,bootfile=http://10.0.2.2:$port/kiln.ipxe -device e1000,netdev=net0,bootindex=0" \
		console seabios http &&
	grep -q "GET /kiln/initrd.gz" "$TEST_TMP/httpd.log" &&
	grep_in "kiln-init: network: eth0 is up" "$TEST_TMP/http.log"
'

test_expect_success 'the ISO as a CD-ROM under SeaBIOS (isolinux)' '
	console seabios iso-bios -drive "if=none,id=cd,media=cdrom,format=raw,file=$TOP/out/kiln.iso" \
		-device ide-cd,drive=cd,bootindex=0 &&
	grep_in "ISOLINUX" "$TEST_TMP/iso-bios.log"
'

test_expect_success 'the ISO as a CD-ROM under OVMF (shim, CD GRUB)' '
	console ovmf iso-uefi -drive "if=none,id=cd,media=cdrom,format=raw,file=$TOP/out/kiln.iso" \
		-device ide-cd,bus=ide.0,drive=cd,bootindex=0 &&
	grep_in "GNU GRUB" "$TEST_TMP/iso-uefi.log"
'

for b in usb-bios usb-uefi usb-sb pxe-bios pxe-uefi http iso-bios iso-uefi; do
	say "$b: first burn-in I/O $(cat "$TEST_TMP/$b.log.first" 2>/dev/null || echo ?) s after power-on"
done
say "sizes: $(du -h --apparent-size "$TOP/out/kiln-usb.img" | cut -f1) stick image ($(du -h "$TOP/out/kiln-usb.img" | cut -f1) used), $(du -h "$TOP/out/kiln.iso" | cut -f1) ISO, $(du -sh "$TOP/out/pxe" | cut -f1) PXE root"
e2e_done
