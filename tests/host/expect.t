#!/bin/sh
# needs: kiln
# The expected machine on a synthetic sysfs tree (as discover-synthetic.t
# lays one out, with two DIMMs in its SMBIOS table): kiln discover
# --expect-out writes an expect file of it, which read back with --expect
# finds the machine equal; a changed value is a machine FAIL saying what
# was expected and what was found; a file that does not parse is a bad
# setting (exit 2) naming its line; kiln burn --expect judges the same.
. "$(dirname "$0")/../lib/tap.sh"

root="$TEST_TMP/root"
sys="$root/sys"
KILN="${KILN_UNDER_TEST:-$TOP/out/kiln}"

attrs () {
	d=$1
	shift
	mkdir -p "$d"
	for kv in "$@"; do
		mkdir -p "$(dirname "$d/${kv%%=*}")" &&
		printf '%s\n' "${kv#*=}" >"$d/${kv%%=*}"
	done
}

link () {
	mkdir -p "$(dirname "$1")"
	ln -sfn "$(realpath -m --relative-to="$(dirname "$1")" "$2")" "$1"
}

test_expect_success 'setup: a machine with two SAS disks, a link and a NIC' '
	attrs "$sys/class/dmi/id" "sys_vendor=Acme" "product_name=Burner" \
		"product_serial=SN123" "chassis_asset_tag=Default string" \
		"chassis_serial=CZJ0042" &&
	mkdir -p "$root/proc" &&
	printf "MemTotal: 1900000 kB\n" >"$root/proc/meminfo" &&
	printf "processor\t: 0\nmodel name\t: AMD EPYC 7302\nphysical id\t: 0\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7302\nphysical id\t: 0\n" \
		>"$root/proc/cpuinfo" &&
	sas=pci0000:00/0000:00:03.0 &&
	attrs "$sys/devices/$sas" class=0x010700 vendor=0x1000 device=0x0097 \
		numa_node=0 "current_link_speed=8.0 GT/s PCIe" \
		current_link_width=8 "max_link_speed=8.0 GT/s PCIe" \
		max_link_width=8 &&
	link "$sys/bus/pci/devices/0000:00:03.0" "$sys/devices/$sas" &&
	mkdir -p "$sys/bus/pci/drivers/mpt3sas" &&
	link "$sys/devices/$sas/driver" "$sys/bus/pci/drivers/mpt3sas" &&
	n=0 &&
	for name in sda sdb; do
		dev=$sas/host0/port-0:$n/end_device-0:$n/target0:0:$n/0:0:$n:0 &&
		attrs "$sys/devices/$dev" vendor=SEAGATE model=ST4000NM0295 \
			rev=E004 "wwid=naa.5000c500a1b2c3d$n" &&
		b="$sys/devices/$dev/block/$name" &&
		attrs "$b" "dev=8:$((n * 16))" size=7814037168 removable=0 \
			queue/logical_block_size=512 \
			queue/physical_block_size=4096 queue/rotational=1 &&
		link "$b/device" "$sys/devices/$dev" &&
		link "$sys/block/$name" "$b" &&
		link "$sys/dev/block/8:$((n * 16))" "$b" &&
		n=$((n + 1)) || return 1
	done &&
	attrs "$sys/class/net/eth0" "address=3c:ec:ef:01:02:03" \
		"operstate=up" "speed=10000" &&
	link "$sys/class/net/eth0/device" "$sys/devices/$sas"
'

# dimm LOCATOR SIZE_MB SPEED PART: one SMBIOS type 17 of 0x28 bytes, as
# the specification lays it out, with its strings.
dimm () {
	python3 -c '
import struct, sys
loc, mb, speed, part = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
f = bytearray(0x28)
f[0], f[1] = 17, 0x28
struct.pack_into("<H", f, 0x0c, mb)
f[0x10], f[0x1a] = 1, 2
struct.pack_into("<H", f, 0x15, speed)
sys.stdout.buffer.write(bytes(f) + loc.encode() + b"\0" + part.encode() + b"\0\0")
' "$@"
}

test_expect_success 'setup: two DIMMs in the DMI table' '
	mkdir -p "$sys/firmware/dmi/tables" &&
	{ dimm DIMM_A1 1024 3200 M393A && dimm DIMM_B1 1024 3200 M393A &&
	  printf "\177\004\000\000\000\000"; } >"$sys/firmware/dmi/tables/DMI"
'

test_expect_success 'kiln discover --expect-out writes a commented file of it' '
	"$KILN" discover --sysfs-root "$sys" --expect-out "$TEST_TMP/expect.cfg" \
		>/dev/null 2>"$TEST_TMP/err" &&
	cat "$TEST_TMP/expect.cfg" &&
	grep_in "wrote the expect file" "$TEST_TMP/err" &&
	grep -q "^# " "$TEST_TMP/expect.cfg" &&
	grep -qx "cpu-model=AMD EPYC 7302" "$TEST_TMP/expect.cfg" &&
	grep -qx "cpus=2" "$TEST_TMP/expect.cfg" &&
	grep -qx "memory=2G" "$TEST_TMP/expect.cfg" &&
	grep -qx "dimms=2" "$TEST_TMP/expect.cfg" &&
	grep -qx "dimm-size=1024M" "$TEST_TMP/expect.cfg" &&
	grep -qx "dimm-speed=3200" "$TEST_TMP/expect.cfg" &&
	grep -qx "dimm-part=M393A" "$TEST_TMP/expect.cfg" &&
	grep -qx "disks=2" "$TEST_TMP/expect.cfg" &&
	grep -qx "disks.ST4000NM0295=2" "$TEST_TMP/expect.cfg" &&
	grep -qx "disk-firmware.ST4000NM0295=E004" "$TEST_TMP/expect.cfg" &&
	grep -qx "disk-size.ST4000NM0295=4000787030016" "$TEST_TMP/expect.cfg" &&
	grep -qx "controller.0000:00:03.0=x8 8.0 GT/s PCIe" "$TEST_TMP/expect.cfg" &&
	grep -qx "nic.eth0=10000" "$TEST_TMP/expect.cfg"
'

test_expect_success 'the DIMMs and the chassis serial in the tree and the JSON (no placeholder asset tag)' '
	"$KILN" discover --sysfs-root "$sys" >"$TEST_TMP/tree" 2>/dev/null &&
	grep_in "dimms    2 x 1 GiB 3200 MT/s M393A" "$TEST_TMP/tree" &&
	grep_in "         chassis CZJ0042" "$TEST_TMP/tree" &&
	! grep -q "asset tag" "$TEST_TMP/tree" &&
	"$KILN" discover --json --sysfs-root "$sys" >"$TEST_TMP/inv.json" 2>/dev/null &&
	test_eq "$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print(\" \".join(\"%s/%d/%s/%s\" % (x[\"locator\"], x[\"size\"], x[\"speed_mts\"], x[\"part\"]) for x in d[\"dimms\"]))" "$TEST_TMP/inv.json")" \
		"DIMM_A1/1073741824/3200/M393A DIMM_B1/1073741824/3200/M393A" "dimms" &&
	grep -q "\"chassis_serial\": \"CZJ0042\"" "$TEST_TMP/inv.json" &&
	grep -q "\"asset_tag\": null" "$TEST_TMP/inv.json"
'

test_expect_success 'read back, the file finds the machine as it expects' '
	"$KILN" discover --sysfs-root "$sys" --expect "$TEST_TMP/expect.cfg" \
		>/dev/null 2>"$TEST_TMP/err" &&
	grep_in "is as $TEST_TMP/expect.cfg expects" "$TEST_TMP/err" &&
	! grep -q FAIL "$TEST_TMP/err"
'

test_expect_success 'a changed value is a machine FAIL, exit 1' '
	sed "s/^memory=.*/memory=4G/; s/^disks=2/disks=24/; s/^dimm-speed=.*/dimm-speed=2933/" \
		"$TEST_TMP/expect.cfg" >"$TEST_TMP/changed.cfg" &&
	rc=0 &&
	"$KILN" discover --sysfs-root "$sys" --expect "$TEST_TMP/changed.cfg" \
		>/dev/null 2>"$TEST_TMP/err" || rc=$? &&
	test_eq "$rc" 1 "exit code" &&
	grep_in "machine FAIL: memory: expected 4 GiB, found 2 GiB" "$TEST_TMP/err" &&
	grep_in "machine FAIL: disks: expected 24, found 2" "$TEST_TMP/err" &&
	grep_in "machine FAIL: DIMM DIMM_A1 speed: expected 2933 MT/s, found 3200 MT/s" "$TEST_TMP/err"
'

test_expect_success 'a file that does not parse is a bad setting: exit 2, its line named' '
	printf "cpus=2\nmemroy=4G\n" >"$TEST_TMP/bad.cfg" &&
	rc=0 &&
	"$KILN" discover --sysfs-root "$sys" --expect "$TEST_TMP/bad.cfg" \
		>/dev/null 2>"$TEST_TMP/err" || rc=$? &&
	test_eq "$rc" 2 "exit code" &&
	grep_in "bad setting: expect: $TEST_TMP/bad.cfg line 2: memroy=4G: not a key" "$TEST_TMP/err"
'

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

test_expect_success 'kiln burn --expect: the machine as expected PASSes' '
	"$KILN" burn --size 64M --span 8M --sysfs-root "$sys" \
		--expect "$TEST_TMP/expect.cfg" --out "$TEST_TMP/r1" \
		"$TEST_TMP/d1.img" >"$TEST_TMP/o1" 2>&1 || { cat "$TEST_TMP/o1"; false; } &&
	r="$TEST_TMP/r1/result.json" &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"expect\"][\"differences\"]")" = "[]" ] &&
	grep_in "the machine is as $TEST_TMP/expect.cfg expects" "$TEST_TMP/o1"
'

test_expect_success 'kiln burn --expect: a difference FAILs the machine, said in result.json and the summary' '
	{ "$KILN" burn --size 64M --span 8M --sysfs-root "$sys" \
		--expect "$TEST_TMP/changed.cfg" --out "$TEST_TMP/r2" \
		"$TEST_TMP/d2.img" >"$TEST_TMP/o2" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/r2/result.json" &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = FAIL ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"machine\"][\"verdict\"]")" = FAIL ] &&
	[ "$(json_get "$r" "d[\"expect\"][\"file\"]")" = "$TEST_TMP/changed.cfg" ] &&
	[ "$(json_get "$r" "\"memory: expected 4 GiB, found 2 GiB\" in d[\"expect\"][\"differences\"]")" = True ] &&
	grep_in "memory: expected 4 GiB, found 2 GiB" "$TEST_TMP/r2/summary.txt" &&
	grep_in "disks: expected 24, found 2" "$TEST_TMP/r2/summary.txt"
'

test_expect_success 'kiln burn --expect with a bad file: exit 2, nothing touched' '
	{ "$KILN" burn --size 64M --span 8M --sysfs-root "$sys" \
		--expect "$TEST_TMP/bad.cfg" --out "$TEST_TMP/r3" \
		"$TEST_TMP/d3.img" >"$TEST_TMP/o3" 2>&1; test $? = 2; } &&
	grep_in "bad setting: expect: $TEST_TMP/bad.cfg line 2" "$TEST_TMP/o3" &&
	[ ! -e "$TEST_TMP/d3.img" ] && [ ! -e "$TEST_TMP/r3/result.json" ]
'

test_expect_success 'kiln run: a bad expect.cfg on the stick is NOT STARTED, exit 2' '
	mkdir -p "$TEST_TMP/stick" &&
	cp "$TEST_TMP/bad.cfg" "$TEST_TMP/stick/expect.cfg" &&
	{ "$KILN" run --cmdline /dev/null --mode read --countdown 0 \
		--results "$TEST_TMP/stick" >"$TEST_TMP/o4" 2>&1; test $? = 2; } &&
	grep_in "bad setting: expect: $TEST_TMP/stick/expect.cfg line 2: memroy=4G" "$TEST_TMP/o4" &&
	summary=$(find "$TEST_TMP/stick" -name summary.txt) &&
	grep_in "NOT STARTED: bad settings" "$summary" &&
	grep_in "expect.cfg line 2: memroy=4G: not a key" "$summary"
'

# --expect-out names a file: a disk given there by mistake is never
# written (fopen's "w" would put the text on it): a real loop device.
if [ "$(id -u)" = 0 ]; then
	test_expect_success 'kiln discover --expect-out a disk: refused, exit 2, the disk unchanged' '
		head -c 4194304 /dev/urandom >"/dev/shm/kiln-expect-$$.img" &&
		test_at_exit "rm -f /dev/shm/kiln-expect-$$.img" &&
		dev=$(losetup -f --show "/dev/shm/kiln-expect-$$.img") &&
		test_at_exit "losetup -d $dev" &&
		sum=$(md5sum <"$dev") &&
		{ "$KILN" discover --sysfs-root "$sys" --expect-out "$dev" \
			>"$TEST_TMP/dev.out" 2>&1; test $? = 2; } &&
		grep_in "not a regular file: nothing written" "$TEST_TMP/dev.out" &&
		test_eq "$(md5sum <"$dev")" "$sum" "the disk'"'"'s bytes"
	'
else
	test_skip "--expect-out on a loop device needs root"
fi

test_done
