#!/bin/sh
# slow: QEMU boots. A sanitize left running in an NVMe drive is read at
# discovery from its Sanitize Status log (81h); QEMU 7.2's NVMe controller
# has no such log, so the disk is said to have "no sanitize log" (on the
# console and in inventory.json) and is burnt as before. The decision on
# a log that says a sanitize runs or failed is tests/unit/sanstatus.c's.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
lab_disk nvme nvme-a 24
lab_stick "# the plain run"

test_expect_success 'the lab boots, runs kiln, powers off' '
	boot san "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/san.log" &&
	[ -n "$run" ]
'

test_expect_success 'the console says the NVMe disk has no sanitize log' '
	grep_in "no sanitize log" "$TEST_TMP/san.log" &&
	! grep -q "SANITIZING" "$TEST_TMP/san.log"
'

test_expect_success 'inventory.json: no sanitize log, said' '
	json_get "$run/inventory.json" "[(x[\"name\"], x.get(\"sanitize\")) for x in d[\"disks\"]]" &&
	test_eq "$(json_get "$run/inventory.json" "[x[\"sanitize\"][\"state\"] for x in d[\"disks\"] if x[\"name\"] == \"nvme0n1\"][0]")" \
		"no sanitize log" state
'

test_expect_success 'the disk goes on as before: burnt, PASS' '
	test_eq "$(result "len(d[\"targets\"])")" 1 targets &&
	test_eq "$(steady_of nvme0n1)" PASS verdict &&
	! result "d[\"notes\"]" | grep -q "sanitize in progress"
'

e2e_done
