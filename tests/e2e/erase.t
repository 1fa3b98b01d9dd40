#!/bin/sh
# slow: QEMU boots. kiln run with profile=erase on a machine back from a
# customer: no burn pass; the NVMe disk destroy-data names, full of data,
# gets only its end step (end=sanitize by default: QEMU 7.2's Format NVM),
# read back and certified, and reads zeros after; the ahci disk with data
# and the blank one, not named, are left as they are, said "not erased".
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
for n in nvme-a sata-a; do
	head -c $((24 * M)) /dev/urandom >"$lab_dir/$n.img"
done
# The NVMe controller's serial is KILN-NVME0 (scripts/qemu.sh gives it).
lab_disk nvme nvme-a 24
lab_disk ahci sata-a 24
lab_disk vscsi blank 24 KILN-BLANK
lab_stick "# a machine back from a customer
profile=erase
destroy-data=KILN-NVME0"
sata_sum=$(sha256sum <"$lab_dir/sata-a.img")

# t SERIAL EXPR: EXPR on t, that disk's target in result.json.
t () {
	result "[$2 for t in d[\"targets\"] if t[\"serial\"] == \"$1\"][0]"
}

# end_of SERIAL KEY: result.json's end.disks[KEY] of that disk.
end_of () {
	result "[e[\"$2\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if t[\"serial\"] == \"$1\" and e[\"label\"] == t[\"label\"]][0]"
}

test_expect_success 'the lab boots, kiln run erases, powers off' '
	boot erase "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/erase.log" &&
	[ -n "$run" ] &&
	grep_in "profile erase: no burn pass" "$TEST_TMP/erase.log" &&
	test_eq "$(result "d[\"settings\"][\"profile\"]")" erase profile
'

test_expect_success 'no disk had a burn pass' '
	test_eq "$(result "len(d[\"targets\"])")" 3 targets &&
	test_eq "$(result "set(t[\"mode\"] for t in d[\"targets\"]) == {\"none\"}")" \
		True modes &&
	test_eq "$(result "sum(len(t[\"passes\"]) for t in d[\"targets\"])")" 0 passes
'

test_expect_success 'the NVMe disk named: sanitized, read back, certified, zeros' '
	test_eq "$(end_of KILN-NVME0 state)" done state &&
	test_eq "$(t KILN-NVME0 "t[\"verdict\"]")" PASS verdict &&
	t KILN-NVME0 "t[\"reasons\"][0]" | grep -q "^erased (end=sanitize): " &&
	[ -s "$run/$(end_of KILN-NVME0 certificate_json)" ] &&
	cmp -n $((24 * M)) "$lab_dir/nvme-a.img" /dev/zero
'

test_expect_success 'the disks not named: left as they are, said not erased' '
	test_eq "$(sha256sum <"$lab_dir/sata-a.img")" "$sata_sum" "the ahci disk" &&
	t KILN-SATA-A "t[\"reasons\"][0]" | grep -q "^not erased" &&
	t KILN-BLANK "t[\"reasons\"][0]" |
		grep -q "^not erased (end=sanitize): left as it is: profile erase: destroy-data does not name it" &&
	grep -q " erased$" "$run/summary.txt"
'

e2e_done
