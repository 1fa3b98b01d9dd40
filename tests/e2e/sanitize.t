#!/bin/sh
# slow: QEMU boots. end=sanitize on a real guest: QEMU's NVMe namespace
# takes Format NVM (its Identify Controller has no Sanitize, OACS says
# Format), so kiln formats it with secure erase, keeping its LBA format,
# reads it back and certifies it; its image holds zeros after (QEMU 7.2
# ignores SES and writes zeros: what this proves is kiln's command sent,
# answered and read back, not a secure erase). The ahci disk has no
# sanitize kiln sends, and sanitize-fallback=zero zeroes it and says so.
# Each certificate names its method, NIST SP 800-88 class and IEEE 2883
# technique.
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
lab_disk nvme nvme-a 24
lab_disk ahci sata-a 24
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

test_expect_success 'both disks written whole and PASS (steady), exit 0' '
	[ "$(result "len(d[\"targets\"])")" = 2 ] &&
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
	end_of KILN-SATA-A method_why | grep "^not an NVMe namespace" &&
	cmp -n $((24 * M)) "$lab_dir/sata-a.img" /dev/zero
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

e2e_done
