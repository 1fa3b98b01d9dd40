#!/bin/sh
# slow: QEMU boots. The two-boot power-cut verify: boot 1 (profile
# powercut) writes and flushes every writable disk, leaves its run folder
# pending on the stick and says CUT THE POWER NOW; the next boot verifies
# that folder first, in a folder of its own that names it, and marks it
# verified. Untouched between the boots every disk PASSes; a disk whose
# image was partly rewritten between them FAILs, the others PASS. The
# second case starts from the disks and stick as boot 1 left them (kept
# then), so three boots test both. The guest has QEMU's own BMC
# (ipmi-bmc-sim), which answers a chassis power cycle "not supported":
# boot 1's init asks it once the stick is unmounted, says it refused, and
# falls back to the person at the plug (after=poweroff here).
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
lab_disk ahci a 32 KILN-A
lab_disk vscsi b 32 KILN-B
lab_disk nvme c 32
lab_stick ""
lab_bmc sim

# verify_folder: the run folder of the last boot that verified a pending one.
verify_folder () {
	grep -l '"pending_of"' "$TEST_TMP/$1.results"/kiln-results/*/*/result.json |
		sort | tail -n 1 | xargs dirname
}

v () {
	json_get "$vf/result.json" "$1"
}

test_expect_success 'boot 1: powercut writes, flushes, leaves a pending folder' '
	boot one "kiln.profile=powercut" &&
	grep_in "THE BMC CUTS THE POWER NOW" "$TEST_TMP/one.log" &&
	[ "$(result "d[\"state\"]")" = pending ] &&
	[ "$(result "d[\"exit_code\"]")" = 0 ] &&
	[ "$(result "len(d[\"targets\"])")" = 3 ] &&
	pending1=$(basename "$run") &&
	mkdir "$TEST_TMP/cut" &&
	cp --sparse=always "$lab_dir"/*.img "$TEST_TMP/cut/"
'

test_expect_success 'boot 1: the init asked the BMC after unmounting the stick, and fell back' '
	grep_in "kiln-init: power-cut test: the stick is unmounted; the BMC cycles the power now" \
		"$TEST_TMP/one.log" &&
	grep_in "kiln-init: the BMC did not cycle the power" "$TEST_TMP/one.log" &&
	grep_in "CUT THE POWER by hand" "$TEST_TMP/one.log" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/one.log" &&
	test_eq "$(result "d[\"bmc\"][\"state\"]")" read "bmc state"
'

test_expect_success 'boot 2: the pending folder is verified first: PASS' '
	boot two "kiln.profile=smoke kiln.mode=read" &&
	grep_in "a power-cut test is pending" "$TEST_TMP/two.log" &&
	vf=$(verify_folder two) && [ -n "$vf" ] &&
	v "d[\"pending_of\"]" | grep -q "$pending1" &&
	test_eq "$(v "\" \".join(sorted(set(steady(t) for t in d[\"targets\"]))) if d[\"verdict\"] != \"FAIL\" else \"FAIL\"")" PASS verdicts &&
	[ "$(v "\" \".join(t[\"mode\"] for t in d[\"targets\"])")" = "verify verify verify" ] &&
	grep_in "the second half of a power-cut test" "$vf/summary.txt" &&
	[ "$(json_get "$(dirname "$vf")/$pending1/result.json" "d[\"state\"]")" = \
		verified ]
'

test_expect_success 'as boot 1 left them again; then part of disk b is rewritten' '
	cp --sparse=always "$TEST_TMP/cut"/*.img "$lab_dir/" &&
	dd if=/dev/urandom of="$lab_dir/b.img" bs=1M seek=4 count=1 conv=notrunc \
		2>/dev/null
'

test_expect_success 'boot 3: that disk FAILs its verify, the others PASS' '
	boot three "kiln.profile=smoke kiln.mode=read" &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/three.log" &&
	vf=$(verify_folder three) && echo "verified in $vf" &&
	got=$(v "\" \".join(sorted(t[\"serial\"] + \"=\" + steady(t) for t in d[\"targets\"]))") &&
	echo "$got" && [ "$got" = "KILN-A=PASS KILN-B=FAIL KILN-NVME0=PASS" ] &&
	grep_in "bad units" "$vf/summary.txt"
'

e2e_done
