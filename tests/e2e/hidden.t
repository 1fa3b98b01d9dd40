#!/bin/sh
# slow: QEMU boots. Capacity a disk hides from the OS, found on real
# emulated devices in one boot of the image with end=zero:
#   nvme0n1      nsid 1 of an NVMe controller in a subsystem whose nsid 2
#                is allocated and attached to no controller (QEMU's
#                detached=true): discovery says nsid 2 is hidden, in
#                inventory.json, result.json and summary.txt, and the
#                certificate of the zeroed nsid 1 says "partly sanitized;
#                not reached: nsid 2 ..." instead of "sanitized"
#   KILN-SATA-A  an ahci disk whose READ NATIVE MAX ADDRESS EXT answers
#                its own size: "no HPA", and its certificate "sanitized"
#   the stick    behind USB: no ATA command sent, "not checked" said
# The first boot has hidden=restore and no destroy-data: nothing is
# changed, and nvme0n1 says why. A second boot has hidden=restore and
# destroy-data naming the NVMe disk: before its burn nsid 2 is attached
# to this controller by Namespace Attachment and the kernel's rescan
# makes it nvme0n2, said in result.json, summary.txt and the certificate.
# QEMU cannot make an HPA or a DCO: those, and removing an HPA, are proven
# only on the ATA layouts, by tests/unit/hidden.c.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
lab_nvme_detached nvme-hid
lab_disk nvme nvme-a 24
lab_disk nvme nvme-hid 16
lab_disk ahci sata-a 24
lab_stick "# end=zero, with a namespace the OS cannot see
end=zero"

# target_of SERIAL_OR_NAME EXPR: EXPR on t, that disk's result.json target.
target_of () {
	result "[$2 for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"])][0]"
}

# cert_of SERIAL_OR_NAME EXPR: EXPR on d, that disk's certificate (JSON).
cert_of () {
	json_get "$run/$(result "[e[\"certificate_json\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if \"$1\" in (t[\"serial\"], t[\"name\"])][0]")" "$2"
}

# inv_of NAME EXPR: EXPR on h, that disk's hidden object in inventory.json.
inv_of () {
	json_get "$run/inventory.json" "[$2 for h in [x[\"hidden\"] for x in d[\"disks\"] if x[\"name\"] == \"$1\"]][0]"
}

test_expect_success 'the lab boots, runs kiln with end=zero, powers off' '
	boot hid "kiln.hidden=restore" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/hid.log" &&
	[ -n "$run" ] &&
	test_eq "$(result "len(d[\"targets\"])")" 2 targets
'

test_expect_success 'the guest sees nsid 1 only: the detached nsid 2 is no block device' '
	test_eq "$(result "\" \".join(sorted(t[\"name\"] for t in d[\"targets\"]))")" \
		"nvme0n1 sda" names
'

test_expect_success 'inventory.json: nsid 2 found hidden beside nvme0n1, said' '
	test_eq "$(inv_of nvme0n1 "h[\"state\"]")" found state &&
	test_eq "$(inv_of nvme0n1 "h[\"namespaces\"]")" "[2]" namespaces &&
	inv_of nvme0n1 "h[\"said\"]" |
		grep "hidden: nsid 2 (16 MiB) allocated, not attached to this controller" &&
	inv_of nvme0n1 "h[\"todo\"]" | grep "nvme attach-ns"
'

test_expect_success 'result.json and summary.txt say it too' '
	test_eq "$(target_of nvme0n1 "t[\"hidden\"][\"state\"]")" found state &&
	test_eq "$(target_of nvme0n1 "t[\"hidden\"][\"bytes\"]")" 16777216 bytes &&
	grep "^hidden: nvme0n1: nsid 2 (16 MiB) allocated, not attached to this controller" \
		"$run/summary.txt" &&
	grep_in "did not reach what it hides from the OS: nsid 2" "$TEST_TMP/hid.log"
'

test_expect_success 'the zeroed nsid 1 is certified partly sanitized, nsid 2 not reached' '
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"state\"]")" done state &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"disposition\"]")" \
		"partly sanitized; not reached: nsid 2 (16 MiB) allocated, not attached to this controller" \
		disposition &&
	cert_of nvme0n1 "d[\"end\"][\"not_reached\"]" | grep "^nsid 2 " &&
	python3 "$TOP/tests/lib/certs.py" "$run"
'

test_expect_success 'the ahci disk: READ NATIVE MAX ADDRESS EXT answers its own size, no HPA' '
	test_eq "$(target_of KILN-SATA-A "t[\"hidden\"][\"state\"]")" none state &&
	target_of KILN-SATA-A "t[\"hidden\"][\"said\"]" |
		grep "no HPA (native max 49151, as visible)" &&
	test_eq "$(target_of KILN-SATA-A "t[\"hidden\"][\"native_sectors\"]")" 49152 native &&
	test_eq "$(cert_of KILN-SATA-A "d[\"end\"][\"disposition\"]")" sanitized disposition
'

test_expect_success 'the KILN stick, behind USB, is sent no ATA command: not checked, said' '
	test_eq "$(json_get "$run/inventory.json" "[x[\"hidden\"][\"said\"] for x in d[\"disks\"] if x[\"transport\"] == \"usb\"][0]")" \
		"not checked: a USB disk (no ATA command is sent through a USB bridge)" said
'

test_expect_success 'hidden=restore without destroy-data: nothing changed, said why' '
	target_of nvme0n1 "t[\"hidden\"][\"restored\"]" |
		grep "not restored: destroy-data does not name this disk" &&
	grep "^  hidden=restore: not restored: destroy-data does not name this disk" \
		"$run/summary.txt" &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"hidden_restored\"]")" \
		"not restored: destroy-data does not name this disk, and hidden=restore needs it to" \
		certificate
'

test_expect_success 'hidden=restore with destroy-data naming the disk: the lab boots again' '
	boot hid2 "kiln.hidden=restore kiln.destroy-data=KILN-NVME0" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/hid2.log" &&
	[ -n "$run" ] &&
	grep_in "hidden=restore: what each disk destroy-data names" "$TEST_TMP/hid2.log"
'

test_expect_success 'nsid 2 attached to this controller, the rescan made it a disk, said' '
	restored=$(target_of nvme0n1 "t[\"hidden\"][\"restored\"]") &&
	echo "$restored" &&
	echo "$restored" | grep "nsid 2 (16 MiB) attached to this controller (CNTLID [0-9]*, hidden=restore)" &&
	echo "$restored" | grep "nsid 2 is nvme0n2 after the kernel.s rescan: a disk of its own, which this run does not test" &&
	grep "^  hidden=restore: nsid 2 (16 MiB) attached to this controller" "$run/summary.txt"
'

test_expect_success 'the certificate says what was restored, and nsid 2 still not reached by this erase' '
	cert_of nvme0n1 "d[\"end\"][\"hidden_restored\"]" |
		grep "nsid 2 (16 MiB) attached to this controller" &&
	cert_of nvme0n1 "d[\"end\"][\"disposition\"]" |
		grep "^partly sanitized; not reached: nsid 2 " &&
	python3 "$TOP/tests/lib/certs.py" "$run"
'

e2e_done
