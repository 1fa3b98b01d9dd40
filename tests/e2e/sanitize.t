#!/bin/sh
# slow: QEMU boots. end=sanitize on a real guest: QEMU's NVMe namespace
# takes Format NVM (its Identify Controller has no Sanitize, OACS says
# Format), so kiln formats it with secure erase, keeping its LBA format,
# reads it back and certifies it; its image holds zeros after (QEMU 7.2
# ignores SES and writes zeros: what this proves is kiln's command sent,
# answered and read back, not a secure erase). The ahci disk (behind
# libata) is asked IDENTIFY DEVICE through ATA PASS-THROUGH and the
# virtio-scsi scsi-hd REPORT SUPPORTED OPERATION CODES, through SG_IO:
# QEMU 7.2 has no SANITIZE for either, so each says what the drive
# answered, and sanitize-fallback=zero zeroes them and says so; a second
# lab with sanitize-fallback=none leaves them as they are, said as not
# sanitized. Each certificate names its method, NIST SP 800-88 class and
# IEEE 2883 technique.
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
lab_disk nvme nvme-a 24
lab_disk ahci sata-a 24
lab_disk vscsi scsi-a 24
lab_stick "# end=sanitize, with its fallback
end=sanitize
sanitize-fallback=zero"

# end_of SERIAL_OR_NAME KEY: result.json's end.disks[KEY] of that disk.
end_of () {
	result "[e[\"$2\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if \"$1\" in (t[\"serial\"], t[\"name\"]) and e[\"label\"] == t[\"label\"]][0]"
}

# cert_of SERIAL_OR_NAME EXPR: EXPR on d, that disk's certificate (JSON).
cert_of () {
	json_get "$run/$(end_of "$1" certificate_json)" "$2"
}

test_expect_success 'the lab boots, runs kiln with end=sanitize, powers off' '
	boot san "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/san.log" &&
	[ -n "$run" ] &&
	grep "^end=" "$run/summary.txt"
'

test_expect_success 'the three disks written whole and PASS (steady), exit 0' '
	[ "$(result "len(d[\"targets\"])")" = 3 ] &&
	test_eq "$(result "\" \".join(sorted(set(steady(t) for t in d[\"targets\"])))")" PASS verdicts &&
	test_eq "$(result "d[\"exit_code\"]")" 0 exit
'

test_expect_success 'the NVMe namespace: Format NVM with secure erase, read back zeros' '
	test_eq "$(end_of nvme0n1 state)" done state &&
	end_of nvme0n1 result | grep "^Format NVM, user data erase (SES 1): read back [0-9]* bytes, all zeros$" &&
	test_eq "$(result "d[\"end\"][\"method\"]")" sanitize method &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"promise_from\"]")" \
		"NVMe DLFEAT 001b" promise_from
'

test_expect_success 'the NVMe image holds zeros after, no kiln unit (read on the host)' '
	cmp -n $((24 * M)) "$lab_dir/nvme-a.img" /dev/zero &&
	! grep -q -a KILNUNIT "$lab_dir/nvme-a.img"
'

test_expect_success 'the ahci disk: no sanitize command, zeroed by the fallback, said' '
	test_eq "$(end_of KILN-SATA-A state)" done state &&
	end_of KILN-SATA-A result | grep "^sanitize: none; zeroed instead (sanitize-fallback=zero): read back [0-9]* bytes, all zeros$" &&
	end_of KILN-SATA-A method_why | grep "^ATA IDENTIFY DEVICE: neither the Sanitize nor the Security feature set$" &&
	grep "^end=sanitize: [^ ]* done: sanitize: none; zeroed instead .* (no sanitize: ATA IDENTIFY DEVICE: neither the Sanitize nor the Security feature set)" "$run/summary.txt" &&
	cmp -n $((24 * M)) "$lab_dir/sata-a.img" /dev/zero
'

test_expect_success 'the scsi-hd: REPORT SUPPORTED OPERATION CODES refused, said, zeroed' '
	test_eq "$(end_of KILN-SCSI-A state)" done state &&
	end_of KILN-SCSI-A result | grep "^sanitize: none; zeroed instead (sanitize-fallback=zero): read back [0-9]* bytes, all zeros$" &&
	end_of KILN-SCSI-A method_why | grep "^SCSI REPORT SUPPORTED OPERATION CODES refused: ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE (ASC/ASCQ 20h/00h)$" &&
	grep "^end=sanitize: [^ ]* done: .* (no sanitize: SCSI REPORT SUPPORTED OPERATION CODES refused: ILLEGAL REQUEST" "$run/summary.txt" &&
	cmp -n $((24 * M)) "$lab_dir/scsi-a.img" /dev/zero &&
	test_eq "$(cert_of KILN-SCSI-A "d[\"end\"][\"sanitization_method\"]")" zero "scsi method"
'

test_expect_success 'each certificate: the method applied, its class and technique' '
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"sanitization_method\"]")" \
		format-user-data-erase "nvme method" &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"nist_800_88_class\"]")" clear "nvme class" &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"ieee_2883_technique\"]")" \
		"User Data Erase" "nvme technique" &&
	test_eq "$(cert_of KILN-SATA-A "d[\"end\"][\"sanitization_method\"]")" zero "ahci method" &&
	test_eq "$(cert_of KILN-SATA-A "d[\"end\"][\"nist_800_88_class\"]")" clear "ahci class" &&
	test_eq "$(cert_of KILN-SATA-A "d[\"end\"][\"ieee_2883_technique\"]")" Overwrite "ahci technique" &&
	cert_of KILN-SATA-A "d[\"end\"][\"result\"]" | grep -q "zeroed instead (sanitize-fallback=zero)" &&
	grep -q ">clear</td>" "$run/cert-machine.html"
'

# A lab of the two alone, with no fallback: asked, none, left as they are.
lab_init "$TEST_TMP/lab2"
lab_disk ahci sata-b 16
lab_disk vscsi scsi-b 16
lab_stick "# end=sanitize, no fallback
end=sanitize
sanitize-fallback=none"

test_expect_success 'sanitize-fallback=none: both run, PASS, exit 0' '
	boot nofb "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/nofb.log" &&
	[ "$(result "len(d[\"targets\"])")" = 2 ] &&
	test_eq "$(result "\" \".join(sorted(set(steady(t) for t in d[\"targets\"])))")" PASS verdicts &&
	test_eq "$(result "d[\"exit_code\"]")" 0 exit
'

test_expect_success 'sanitize-fallback=none: each said not sanitized, with what it answered' '
	test_eq "$(end_of KILN-SATA-B state)" said "ahci state" &&
	test_eq "$(end_of KILN-SCSI-B state)" said "scsi state" &&
	grep "^end=sanitize: [^ ]* said: no sanitize command: ATA IDENTIFY DEVICE: neither the Sanitize nor the Security feature set; left as it is" "$run/summary.txt" &&
	grep "^end=sanitize: [^ ]* said: no sanitize command: SCSI REPORT SUPPORTED OPERATION CODES refused: ILLEGAL REQUEST" "$run/summary.txt" &&
	test_eq "$(cert_of KILN-SATA-B "d[\"end\"][\"nist_800_88_class\"]")" none "ahci class" &&
	test_eq "$(cert_of KILN-SCSI-B "d[\"end\"][\"sanitization_method\"]")" none "scsi method" &&
	test_eq "$(cert_of KILN-SATA-B "d[\"end\"][\"disposition\"]")" "not sanitized: destroy" "ahci disposition" &&
	test_eq "$(cert_of KILN-SCSI-B "d[\"end\"][\"disposition\"]")" "not sanitized: destroy" "scsi disposition" &&
	grep -q -a KILNUNIT "$lab_dir/sata-b.img" &&
	grep -q -a KILNUNIT "$lab_dir/scsi-b.img"
'

e2e_done
