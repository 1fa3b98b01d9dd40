#!/bin/sh
# needs: kiln
# What QEMU cannot emulate, on small sysfs trees laid out as the kernel
# lays them out: NVMe behind Intel VMD (a PCI domain of its own), a SAS
# enclosure's slot, a SAS drive formatted with 520-byte sectors (capacity
# 0), a PCIe link running below its maximum (and one a slot holds to its
# own: not below it), a placeholder DMI serial.
. "$(dirname "$0")/../lib/tap.sh"

root="$TEST_TMP/root"
sys="$root/sys"

# attrs DIR NAME=VALUE...: writes attribute files.
attrs () {
	d=$1
	shift
	mkdir -p "$d"
	for kv in "$@"; do
		printf '%s\n' "${kv#*=}" >"$d/${kv%%=*}"
	done
}

# link FROM TO: a relative symlink, as sysfs has them.
link () {
	mkdir -p "$(dirname "$1")"
	ln -sfn "$(realpath -m --relative-to="$(dirname "$1")" "$2")" "$1"
}

pcidev () {
	attrs "$sys/devices/$1" "class=$2" "vendor=$3" "device=$4" "numa_node=${5:--1}"
	link "$sys/bus/pci/devices/$(basename "$1")" "$sys/devices/$1"
	mkdir -p "$sys/bus/pci/drivers/$6"
	link "$sys/devices/$1/driver" "$sys/bus/pci/drivers/$6"
}

disk () {	# disk DEVPATH BLOCKNAME MAJ:MIN SECTORS
	b="$sys/devices/$1/block/$2"
	case "$1" in */nvme/*) b="$sys/devices/$1/$2" ;; esac
	attrs "$b" "dev=$3" "size=$4" "removable=0" "queue/logical_block_size=512" \
		"queue/physical_block_size=4096" "queue/rotational=0"
	link "$b/device" "$sys/devices/$1"
	link "$sys/block/$2" "$b"
	link "$sys/dev/block/$3" "$b"
}

test_expect_success 'setup: a machine with VMD, SAS and an enclosure' '
	attrs "$sys/class/dmi/id" "sys_vendor=Acme" "product_name=Burner 9000" \
		"product_serial=To Be Filled By O.E.M." &&
	mkdir -p "$root/proc" && printf "MemTotal: 1024 kB\n" >"$root/proc/meminfo" &&
	printf "processor\t: 0\nmodel name\t: AMD EPYC\nphysical id\t: 0\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\nphysical id\t: 0\n" \
		>"$root/proc/cpuinfo" &&
	vmd=pci0000:00/0000:00:0e.0 &&
	pcidev $vmd 0x010400 0x8086 0x467f 0 vmd &&
	pcidev $vmd/pci10000:00/10000:00:02.0 0x060400 0x8086 0x43b0 0 pcieport &&
	nvme=$vmd/pci10000:00/10000:00:02.0/10000:01:00.0 &&
	pcidev $nvme 0x010802 0x144d 0xa80a 0 nvme &&
	attrs "$sys/devices/$vmd/pci10000:00/10000:00:02.0" \
		"max_link_speed=8.0 GT/s PCIe" "max_link_width=4" &&
	attrs "$sys/devices/$nvme" "current_link_speed=8.0 GT/s PCIe" \
		"current_link_width=4" "max_link_speed=16.0 GT/s PCIe" \
		"max_link_width=4" &&
	attrs "$sys/devices/$nvme/nvme/nvme0" "serial=S5P2NG0R123456" \
		"model=Samsung SSD 980 PRO 1TB" "firmware_rev=5B2QGXA7" &&
	disk $nvme/nvme/nvme0 nvme0n1 259:0 1953525168 &&
	attrs "$sys/block/nvme0n1" "wwid=eui.002538b911b2c3d4" "nsid=1" &&
	sas=pci0000:00/0000:00:03.0 &&
	pcidev $sas 0x010700 0x1000 0x0097 1 mpt3sas &&
	attrs "$sys/devices/$sas" "current_link_speed=8.0 GT/s PCIe" \
		"current_link_width=4" "max_link_speed=8.0 GT/s PCIe" "max_link_width=8" &&
	port=$sas/host0/port-0:0 &&
	attrs "$sys/devices/$port/phy-0:0" "dummy=1" &&
	attrs "$sys/class/sas_phy/phy-0:0" "negotiated_linkrate=12.0 Gbit" &&
	sda=$port/end_device-0:0/target0:0:0/0:0:0:0 &&
	attrs "$sys/devices/$sda" "vendor=SEAGATE" "model=ST4000NM0295" "rev=E004" \
		"wwid=naa.5000c500a1b2c3d4" &&
	disk $sda sda 8:0 7814037168 &&
	sdb=$sas/host0/port-0:1/end_device-0:1/target0:0:1/0:0:1:0 &&
	attrs "$sys/devices/$sdb" "vendor=HGST" "model=HUH721010AL4200" "rev=A21D" &&
	disk $sdb sdb 8:16 0 &&
	enc=$sas/host0/port-0:2/end_device-0:2/target0:0:2/0:0:2:0/enclosure/0:0:2:0 &&
	attrs "$sys/devices/$enc/Slot 07" "slot=7" &&
	link "$sys/devices/$enc/Slot 07/device" "$sys/devices/$sda" &&
	link "$sys/class/enclosure/0:0:2:0" "$sys/devices/$enc" &&
	attrs "$sys/class/net/eth0" "address=3c:ec:ef:01:02:03" "operstate=up" "speed=10000" &&
	link "$sys/class/net/eth0/device" "$sys/devices/$sas" &&
	mkdir -p "$sys/devices/virtual/block/loop3/queue" "$sys/devices/virtual/block/loop3/loop" &&
	attrs "$sys/devices/virtual/block/loop3" "dev=7:3" "size=131072" "removable=0" \
		"queue/logical_block_size=512" "queue/rotational=0" \
		"loop/backing_file=/srv/a.img" &&
	link "$sys/block/loop3" "$sys/devices/virtual/block/loop3" &&
	attrs "$sys/devices/virtual/block/loop0" "dev=7:0" "size=0" "removable=0" &&
	link "$sys/block/loop0" "$sys/devices/virtual/block/loop0" &&
	"$KILN" discover --json --sysfs-root "$sys" >"$TEST_TMP/inv.json" &&
	"$KILN" discover --sysfs-root "$sys" >"$TEST_TMP/inv.txt" &&
	cat "$TEST_TMP/inv.txt"
'

j () {
	json_get "$TEST_TMP/inv.json" "$1"
}
. "$(dirname "$0")/../lib/host.sh"

test_expect_success 'NVMe behind VMD is found through the VMD domain' '
	[ "$(j "d[\"disks\"][0][\"name\"]")" = nvme0n1 ] &&
	[ "$(j "d[\"disks\"][0][\"controller\"]")" = 10000:01:00.0 ] &&
	[ "$(j "[c[\"behind_vmd\"] for c in d[\"controllers\"] if c[\"pci\"] == \"10000:01:00.0\"][0]")" = 0000:00:0e.0 ] &&
	[ "$(j "d[\"disks\"][0][\"identity\"]")" = wwn:eui.002538b911b2c3d4 ] &&
	grep_in "behind Intel VMD 0000:00:0e.0" "$TEST_TMP/inv.txt"
'

test_expect_success 'a SAS disk: link rate, enclosure and slot' '
	[ "$(j "[x[\"link\"] for x in d[\"disks\"] if x[\"name\"] == \"sda\"][0]")" = "12.0 Gbit" ] &&
	[ "$(j "[x[\"transport\"] for x in d[\"disks\"] if x[\"name\"] == \"sda\"][0]")" = sas ] &&
	[ "$(j "[x[\"slot\"][\"enclosure\"] + \"/\" + str(x[\"slot\"][\"slot\"]) + \"/\" + x[\"slot\"][\"name\"] for x in d[\"disks\"] if x[\"name\"] == \"sda\"][0]")" = "0:0:2:0/7/Slot 07" ] &&
	[ "$(j "len([x for x in d[\"disks\"] if \"slot\" in x])")" = 1 ] &&
	grep_in "enclosure 0:0:2:0 slot 7 (Slot 07)" "$TEST_TMP/inv.txt"
'

test_expect_success 'a 520-byte-sector drive is listed, unusable, with the fix' '
	[ "$(j "[x[\"size\"] for x in d[\"disks\"] if x[\"name\"] == \"sdb\"][0]")" = 0 ] &&
	j "[x[\"unusable\"] for x in d[\"disks\"] if x[\"name\"] == \"sdb\"][0]" | grep -q sg_format &&
	grep_in "UNUSABLE" "$TEST_TMP/inv.txt"
'

test_expect_success 'a PCIe link below its maximum is marked, with its bandwidth' '
	[ "$(j "[c[\"link_below_max\"] for c in d[\"controllers\"] if c[\"pci\"] == \"0000:00:03.0\"][0]")" = True ] &&
	[ "$(j "[round(c[\"link_mbps_per_direction\"]) for c in d[\"controllers\"] if c[\"pci\"] == \"0000:00:03.0\"][0]")" = 3938 ] &&
	grep_in "PCIe 8 GT/s x4 (max 8 GT/s x8) BELOW MAX" "$TEST_TMP/inv.txt"
'

test_expect_success 'a PCIe 4.0 drive in a 3.0 slot is at its best, not below it' '
	[ "$(j "[c[\"link_below_max\"] for c in d[\"controllers\"] if c[\"pci\"] == \"10000:01:00.0\"][0]")" = False ] &&
	grep -q "PCIe 8 GT/s x4 (max 16 GT/s x4)" "$TEST_TMP/inv.txt" &&
	! grep "10000:01:00.0" "$TEST_TMP/inv.txt" | grep -q "BELOW MAX"
'

test_expect_success 'sizes in powers of 1024, as the plan and summary say them' '
	grep -q "^  nvme0n1 *931.5 GiB " "$TEST_TMP/inv.txt" &&
	grep -q "^  sda *3.6 TiB " "$TEST_TMP/inv.txt" &&
	! grep -q " [GT]B " "$TEST_TMP/inv.txt"
'

test_expect_success 'a loop device in use is listed as a disk of kind loop; a free one is not' '
	[ "$(j "[x[\"transport\"] + \" \" + x[\"identity\"] for x in d[\"disks\"] if x[\"name\"] == \"loop3\"][0]")" = "loop loop:/srv/a.img" ] &&
	[ "$(j "len([x for x in d[\"disks\"] if x[\"name\"] == \"loop0\"])")" = 0 ] &&
	grep -q "^  loop3 *64 MiB  -  *loop " "$TEST_TMP/inv.txt"
'

test_expect_success 'a placeholder DMI serial: the machine id is the MAC' '
	[ "$(j "d[\"system\"][\"machine_id\"]")" = 3cecef010203 ] &&
	[ "$(j "d[\"system\"][\"serial_real\"]")" = False ] &&
	[ "$(j "d[\"system\"][\"memory\"]")" = 1048576 ]
'

test_expect_success 'the system lines leave out what DMI does not say' '
	grep -q "^system   Acme Burner 9000$" "$TEST_TMP/inv.txt" &&
	! grep -q "BIOS *$" "$TEST_TMP/inv.txt" &&
	! grep -q " ?$\|board -\|serial -" "$TEST_TMP/inv.txt"
'

test_expect_success 'two CPUs in one socket are not "2 x EPYC"' '
	"$KILN" discover --sysfs-root "$sys" >"$TEST_TMP/cpu.txt" &&
	grep_in "AMD EPYC, 2 CPUs in 1 socket" "$TEST_TMP/cpu.txt" &&
	! grep -q "2 x" "$TEST_TMP/cpu.txt" &&
	"$KILN" discover --json --sysfs-root "$sys" >"$TEST_TMP/cpu.json" &&
	[ "$(json_get "$TEST_TMP/cpu.json" "d[\"system\"][\"sockets\"]")" = 1 ]
'

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

test_done
