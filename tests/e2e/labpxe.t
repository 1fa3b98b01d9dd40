#!/bin/sh
# slow: QEMU boots. The lab server as an admin stands it up, in one
# command (scripts/labserver.sh): from a machines file, every machine's
# boot entry and lab settings rendered, nginx and the Pushgateway started
# on loopback ports as this user. A BIOS machine boots its pxelinux
# entry and a UEFI machine its GRUB entry (shim, Debian's signed network
# GRUB, grub.cfg loading grub.cfg-01-<MAC>), each over QEMU's TFTP from
# the rendered root, and an iPXE machine (the NIC's ROM) kiln.ipxe, which
# chains kiln.ipxe-01-<MAC>; each is named by its entry
# (kiln.machine-id), takes the rest of its settings from the lab server
# by that name, uploads its run folder and pushes its gauges, and the
# fleet page lists them.
. "$(dirname "$0")/../lib/e2e.sh"
. "$TOP/scripts/labservers.sh"

[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"
[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
command -v openssl >/dev/null 2>&1 || test_skip_all "needs openssl (scripts/deps.list)"
[ -e "$TOP/out/pxe/bootx64.efi" ] || test_bail "no out/pxe: make image"

LS="$TOP/scripts/labserver.sh"
D="$TEST_TMP/lab"
port=$(free_port)
gw=$(free_port)
# Settings the init reads go on the entry, the others come from the lab
# server by the machine's name (config/NAME.cfg).
keys="after=poweroff settle=20 countdown=0 stress=off reread=0 interval=1 duration=12s max-writes=0"
cat >"$TEST_TMP/machines" <<EOF
52:54:00:12:34:56 LAB-BIOS $keys
52:54:00:12:34:57 LAB-UEFI $keys
52:54:00:12:34:58 LAB-IPXE $keys
52:54:00:12:34:59 LAB-SPARE
EOF

test_at_exit '"$LS" stop "$D" >/dev/null 2>&1'
test_expect_success 'rendered and started on loopback ports, the image'"'"'s PXE root beside the entries' '
	"$LS" render --server "http://10.0.2.2:$port" --metrics "http://10.0.2.2:$gw/" \
		"$TEST_TMP/machines" "$D" >"$TEST_TMP/render.out" 2>&1 &&
	cp -r "$TOP/out/pxe/." "$D/tftp/" &&
	LABSERVER_PORT=$port LABSERVER_GW_PORT=$gw "$LS" start "$D" \
		>"$TEST_TMP/start.out" 2>&1 &&
	[ -s "$D/tftp/grub/grub.cfg-01-52-54-00-12-34-57" ]
'

# pxe NAME MAC FIRMWARE BOOTFILE NIC: one machine booted from the lab's
# TFTP root, its console in NAME.log.
pxe () {
	lab_init "$TEST_TMP/$1" && lab_disk ahci one 24 "SN-$1-ONE" &&
	LAB_NET="-netdev user,id=net0,tftp=$D/tftp,bootfile=$4 -device $5,netdev=net0,mac=$2,bootindex=0" \
		lab_firmware_boot "$3" "$TEST_TMP/$1.log" ||
		{ echo "# QEMU ended with $?"; tail -30 "$TEST_TMP/$1.log" | sed -e "s/^/# /"; return 1; }
}

# arrived ID: the machine's run folder is whole at the server.
arrived () {
	dir=$(ls -d "$D/srv/kiln/kiln-results/$1"/*/) &&
	for f in summary.txt result.json report.html kmsg.log; do
		[ -s "$dir$f" ] || { echo "# no $f in $dir"; return 1; }
	done &&
	grep -q "kiln.machine-id=$1 " "${dir}kmsg.log"
}

test_expect_success 'BIOS: pxelinux boots its MAC'"'"'s entry, the run folder arrives under its name' '
	pxe bios 52:54:00:12:34:56 seabios pxelinux.0 e1000 &&
	grep_in "PXELINUX" "$TEST_TMP/bios.log" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/bios.log" &&
	arrived LAB-BIOS
'

test_expect_success 'UEFI: GRUB loads grub.cfg-01-<MAC>, the run folder arrives under its name' '
	pxe uefi 52:54:00:12:34:57 ovmf bootx64.efi "virtio-net-pci,romfile=" &&
	grep_in "GNU GRUB" "$TEST_TMP/uefi.log" &&
	grep_in "kiln LAB-UEFI" "$TEST_TMP/uefi.log" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/uefi.log" &&
	arrived LAB-UEFI
'

test_expect_success 'iPXE: kiln.ipxe chains kiln.ipxe-01-<MAC>, the run folder arrives under its name' '
	pxe ipxe 52:54:00:12:34:58 seabios kiln.ipxe e1000 &&
	grep_in "iPXE" "$TEST_TMP/ipxe.log" &&
	! lab_seen "$TEST_TMP/ipxe.log" "no entry for this MAC" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/ipxe.log" &&
	arrived LAB-IPXE
'

test_expect_success 'the settings came from the lab server by name' '
	for m in bios:LAB-BIOS uefi:LAB-UEFI ipxe:LAB-IPXE; do
		log="$TEST_TMP/${m%%:*}.log" &&
		grep_in "kiln: settings from the lab server: http://10.0.2.2:$port/config/${m#*:}.cfg" "$log" &&
		lab_screen "$log" | grep -a -q "^  duration  *12  *lab server" || return 1
	done
'

test_expect_success 'the fleet page lists all three, the gateway has their pushes' '
	"$LS" fleet "$D" &&
	python3 -c "import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())" \
		"http://127.0.0.1:$port/fleet/fleet.html" >"$TEST_TMP/fleet.html" &&
	grep -q LAB-BIOS "$TEST_TMP/fleet.html" &&
	grep -q LAB-UEFI "$TEST_TMP/fleet.html" &&
	grep -q LAB-IPXE "$TEST_TMP/fleet.html" &&
	python3 -c "import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())" \
		"http://127.0.0.1:$gw/metrics" >"$TEST_TMP/gw" &&
	grep -q "kiln_run_state{.*machine=\"LAB-BIOS\"" "$TEST_TMP/gw" &&
	grep -q "kiln_run_state{.*machine=\"LAB-UEFI\"" "$TEST_TMP/gw" &&
	grep -q "kiln_run_state{.*machine=\"LAB-IPXE\"" "$TEST_TMP/gw"
'

e2e_done
