#!/bin/sh
# slow: QEMU boots. A sanitize left running in a drive is asked at
# discovery: an NVMe drive's Sanitize Status log (81h), an ATA disk's
# SANITIZE STATUS EXT through ATA PASS-THROUGH(16), a SCSI disk's REQUEST
# SENSE. QEMU 7.2's NVMe controller has no log 81h, so that disk is said
# to have "no sanitize log"; its ahci disk has no SANITIZE feature set in
# IDENTIFY DEVICE (so it is not sent STATUS EXT): "no sanitize status";
# its virtio-scsi scsi-hd answers REQUEST SENSE with NO SENSE: "idle".
# Each is said on the console and in inventory.json, the USB stick is
# never asked, and all three disks are burnt as before. The decision on
# answers that say a sanitize runs or failed is tests/unit/sanstatus.c's.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
lab_disk nvme nvme-a 24
lab_disk ahci sata-a 24
lab_disk vscsi scsi-a 24
lab_stick "# the plain run"

# san_of SERIAL_OR_NAME KEY: inventory.json's sanitize[KEY] of that disk.
san_of () {
	json_get "$run/inventory.json" "[(x.get(\"sanitize\") or {}).get(\"$2\") for x in d[\"disks\"] if \"$1\" in (x.get(\"serial\"), x[\"name\"])][0]"
}

test_expect_success 'the lab boots, runs kiln, powers off' '
	boot san "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/san.log" &&
	[ -n "$run" ]
'

test_expect_success 'the console says the NVMe disk has no sanitize log, none is sanitizing' '
	grep_in "no sanitize log" "$TEST_TMP/san.log" &&
	! grep -q "SANITIZING" "$TEST_TMP/san.log"
'

test_expect_success 'inventory.json: the NVMe disk has no sanitize log' '
	json_get "$run/inventory.json" "[(x[\"name\"], x.get(\"sanitize\")) for x in d[\"disks\"]]" &&
	test_eq "$(san_of nvme0n1 state)" "no sanitize log" state
'

test_expect_success 'the ahci disk: IDENTIFY DEVICE has no SANITIZE, so no sanitize status, said' '
	test_eq "$(san_of KILN-SATA-A state)" "no sanitize status" state &&
	san_of KILN-SATA-A why | grep "no SANITIZE feature set" &&
	grep_in "no sanitize status" "$TEST_TMP/san.log"
'

test_expect_success 'the virtio-scsi disk: REQUEST SENSE says none runs, idle' '
	test_eq "$(san_of KILN-SCSI-A state)" idle state
'

test_expect_success 'the USB stick is never asked' '
	test_eq "$(san_of KILN-STICK state)" None state
'

test_expect_success 'the disks go on as before: all three burnt, PASS' '
	test_eq "$(result "len(d[\"targets\"])")" 3 targets &&
	test_eq "$(steady_of nvme0n1)" PASS nvme &&
	test_eq "$(steady_of KILN-SATA-A)" PASS sata &&
	test_eq "$(steady_of KILN-SCSI-A)" PASS scsi &&
	! result "d[\"notes\"]" | grep -q "sanitize in progress"
'

e2e_done
