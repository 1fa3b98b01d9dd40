#!/bin/sh
# needs: kiln
# end=sanitize on a disk kiln has no sanitize command for (a loop device,
# a disk neither NVMe nor SCSI nor ATA): without a fallback the step is said
# and the disk left as it is, its units of this run still there, exit 0;
# with sanitize-fallback=zero it is zeroed, read back, and its certificate
# says it was the fallback; the rules of end= hold for it (kiln burn
# refuses a span short of the disk, exit 2, untouched). A drive's own
# command is proven in tests/e2e/sanitize.t (QEMU's NVMe Format NVM).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
M=1048576

# units FILE_OR_DEV: how many kiln units it holds, read with O_DIRECT.
units () {
	dd if="$1" bs=1M iflag=direct status=none | grep -c -a KILNUNIT
}

# end_of RUN KEY: the first disk's end KEY in result.json.
end_of () {
	json_get "$1/result.json" "d[\"end\"][\"disks\"][0][\"$2\"]"
}

test_expect_success 'no sanitize command, no fallback: said, the disk left as it is' '
	make_loop d1 64M &&
	"$KILN" burn --destroy-data --end sanitize --operator op-7 \
		--out "$TEST_TMP/none" "$d1" >"$TEST_TMP/none.out" 2>&1 &&
	cat "$TEST_TMP/none.out" &&
	test_eq "$(units "$d1")" 16384 units &&
	test_eq "$(end_of "$TEST_TMP/none" state)" said state &&
	grep -q "no sanitize command: not an NVMe namespace" \
		"$TEST_TMP/none.out" &&
	test_eq "$(json_get "$TEST_TMP/none/result.json" "d[\"verdict\"]")" \
		PASS verdict &&
	grep -q "^end=sanitize: loop[0-9]* said: no sanitize command" \
		"$TEST_TMP/none/summary.txt"
'

test_expect_success 'its certificate says nothing was sent' '
	c="$TEST_TMP/none/$(end_of "$TEST_TMP/none" certificate_json)" &&
	test_eq "$(json_get "$c" "d[\"end\"][\"method\"]")" sanitize method &&
	test_eq "$(json_get "$c" "d[\"end\"][\"promise\"]")" \
		"nothing: no sanitize command was sent" promise &&
	test_eq "$(json_get "$c" "d[\"end\"][\"nist_800_88_class\"]")" none class &&
	test_eq "$(json_get "$c" "d[\"end\"][\"sanitization_method\"]")" none applied &&
	json_get "$c" "d[\"end\"][\"method_why\"]" | grep -q "not an NVMe namespace"
'

test_expect_success 'sanitize-fallback=zero: zeroed instead, read back, said so' '
	"$KILN" burn --destroy-data --end sanitize --sanitize-fallback zero \
		--end-verify 5% --operator op-7 --out "$TEST_TMP/zero" "$d1" \
		>"$TEST_TMP/zero.out" 2>&1 &&
	cat "$TEST_TMP/zero.out" &&
	dd if="$d1" bs=1M iflag=direct status=none | cmp -n $((64 * M)) - /dev/zero &&
	test_eq "$(units "$d1")" 0 units &&
	test_eq "$(end_of "$TEST_TMP/zero" state)" done state &&
	grep -q "sanitize: none; zeroed instead (sanitize-fallback=zero): read back" \
		"$TEST_TMP/zero.out" &&
	c="$TEST_TMP/zero/$(end_of "$TEST_TMP/zero" certificate_json)" &&
	json_get "$c" "d[\"end\"][\"result\"]" | grep -q "zeroed instead (sanitize-fallback=zero)" &&
	test_eq "$(json_get "$c" "d[\"end\"][\"promise\"]")" \
		"written with zeros, then read back" promise &&
	test_eq "$(json_get "$c" "d[\"end\"][\"nist_800_88_class\"]")" clear class &&
	test_eq "$(json_get "$c" "d[\"end\"][\"ieee_2883_technique\"]")" Overwrite technique &&
	test_eq "$(end_of "$TEST_TMP/zero" nist_800_88_class)" clear "result.json class" &&
	h="$TEST_TMP/zero/$(end_of "$TEST_TMP/zero" certificate_html)" &&
	grep -q "sanitize-fallback=zero" "$h" &&
	grep -q "<th>NIST SP 800-88 class reached</th><td>clear</td>" "$h" &&
	grep "^end=sanitize: loop[0-9]* done: sanitize: none; zeroed instead .* (no sanitize: not an NVMe namespace, nor a SCSI or ATA disk: INQUIRY " \
		"$TEST_TMP/zero/summary.txt"
'

test_expect_success 'kiln burn: end=sanitize on a span short of the disk is exit 2, untouched' '
	before=$(sum_of "$d1") &&
	{ "$KILN" burn --destroy-data --end sanitize --sanitize-fallback zero \
		--span 32M --out "$TEST_TMP/span" "$d1" >"$TEST_TMP/span.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/span.out" &&
	test_eq "$rc" 2 exit &&
	grep -q "end=sanitize: .*does not write the whole disk" "$TEST_TMP/span.out" &&
	test_eq "$(sum_of "$d1")" "$before" "the disk"
'

# A drive's own sanitize erases the whole drive, and the kernel passes
# SG_IO and the NVMe admin ioctl from a partition down to its disk: a
# partition (or a device stacked on disks) is refused before any I/O,
# its disk's other partition untouched; end=zero is named instead.
test_expect_success 'kiln burn: end=sanitize on a partition is exit 2, the disk untouched' '
	make_loop pd 64M &&
	printf "label: gpt\n,24M,L\n,,L\n" | sfdisk -q "$pd" &&
	partx -a "$pd" 2>/dev/null; partx -u "$pd" 2>/dev/null;
	test_wait_for "test -b ${pd}p1 && test -b ${pd}p2" &&
	before=$(sum_of "$pd") &&
	for fb in none zero; do
		{ "$KILN" burn --destroy-data --end sanitize \
			--sanitize-fallback $fb --out "$TEST_TMP/part-$fb" \
			"${pd}p1" >"$TEST_TMP/part.out" 2>&1; rc=$?; }
		cat "$TEST_TMP/part.out"
		test_eq "$rc" 2 exit || return 1
		grep -q "end=sanitize: ${pd}p1: a partition: the disk.s own sanitize erases the whole disk, its other partitions too; give end=zero for it" \
			"$TEST_TMP/part.out" || return 1
	done &&
	test_eq "$(sum_of "$pd")" "$before" "the disk"
'

test_expect_success '... end=zero on the same partition is taken (its own bytes alone)' '
	p2=$(sum_of "${pd}p2") &&
	"$KILN" burn --destroy-data --end zero --out "$TEST_TMP/pz" "${pd}p1" \
		>"$TEST_TMP/pz.out" 2>&1 &&
	test_eq "$(sum_of "${pd}p2")" "$p2" "the other partition" &&
	dd if="${pd}p1" bs=1M iflag=direct status=none | cmp - /dev/zero 2>&1 |
		grep -q EOF
'

test_done
