#!/bin/sh
# slow: QEMU boots. Faults and safety in the real image, the first boot
# on make lab-fail's disks (lab_failing_disks): a disk whose reads fail at
# chosen sectors (QEMU's blkdebug) cannot be proven blank, so it is tested
# read-only, and FAILs with its error offsets; a disk that drops every
# write (QEMU's null driver) FAILs its verify, said on the console and in
# report.html; the others PASS; a disk with a GPT table and one with ext4
# come out byte for byte unchanged, tested read-only; consent naming one
# of them by serial (destroy-data) writes that one only. A disk pulled
# mid-run is vanished and FAILs; the one beside it PASSes. That one is an
# SSD: the pull stalls the controller for a quarter second or more, which
# a spinning disk of this size (zones of 5 MB) shows as a dip, and kiln
# cannot tell a controller's stall from a weak stretch of its surface (it
# WARNs when the dip cost half a second). Boot 1's outputs all say the
# same figures (tests/lib/figures.py, as tests/host/figures.t).
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
lab_failing_disks 24
truncate -s 24M "$lab_dir/gpt.img" "$lab_dir/ext4.img"
printf 'label: gpt\n,,L\n' | sfdisk -q "$lab_dir/gpt.img"
mkfs.ext4 -q -F "$lab_dir/ext4.img"
lab_disk vscsi gpt 24 KILN-GPT
lab_disk vscsi ext4 24 KILN-EXT4
lab_stick ""
gpt_sum=$(md5sum <"$lab_dir/gpt.img")
ext4_sum=$(md5sum <"$lab_dir/ext4.img")

# t SERIAL FIELD: a field of the target with that serial in result.json.
t () {
	result "[t[\"$2\"] for t in d[\"targets\"] if t[\"serial\"] == \"$1\"][0]"
}

test_expect_success 'boot 1: read errors, a GPT disk and an ext4 disk' '
	boot one "" &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/one.log" &&
	[ "$(result "d[\"exit_code\"]")" = 1 ]
'

test_expect_success 'the disk with read errors FAILs, with the error offsets' '
	[ "$(t KILN-BAD verdict)" = FAIL ] &&
	[ "$(t KILN-BAD "io_errors\"][\"first")" != "[]" ] &&
	result "[e[\"offset\"] for t in d[\"targets\"] if t[\"serial\"] == \"KILN-BAD\" for e in t[\"io_errors\"][\"first\"]]" >"$TEST_TMP/offsets" &&
	grep -q "$((10 * M))" "$TEST_TMP/offsets" &&
	grep -q "$((20 * M))" "$TEST_TMP/offsets" &&
	[ "$(t KILN-BAD mode)" = read ] &&
	bad=$(t KILN-BAD name) &&
	grep_in "$bad tested read-only: not proven blank: it could not be read at byte $((10 * M))" \
		"$run/summary.txt" &&
	grep_in "I/O errors, the first in read at byte $((10 * M))" "$run/summary.txt"
'

# QEMU has no SES enclosure, and its AHCI and SCSI HBAs drive no LEDs:
# kiln run (leds=fail) tries ledctl from the image for each FAILed disk
# and says what came of it: ledctl's word on that disk, not a failure of
# ledctl itself (it needs /var/log). ledctl 0.95 says yes for QEMU's
# AHCI, which has no LEDs: kiln says it was set, never that it is lit.
test_expect_success 'a FAILed disk'"'"'s fault LED: ledctl in the image tried, said' '
	led=$(t KILN-BAD fault_led) && echo "$led" &&
	dev=$(t KILN-BAD name) &&
	case "$led" in
	"no fault LED lit: in no enclosure bay, and ledctl failure=/dev/$dev said: /dev/$dev"* | \
	"fault LED set by ledctl (/dev/$dev), which took it;"*) ;;
	*) false ;;
	esac &&
	grep_in "$led" "$run/summary.txt"
'

test_expect_success 'the disk that drops writes FAILs: zeroed, on the console and in report.html' '
	[ "$(t KILN-DROP verdict)" = FAIL ] &&
	[ "$(t KILN-DROP mode)" = write-verify ] &&
	[ "$(t KILN-DROP "bad_units\"][\"by_class\"][\"zeroed")" = $((24 * M / 4096)) ] &&
	drop=$(t KILN-DROP name) &&
	grep -a "$drop" "$TEST_TMP/one.log" | grep -q FAIL &&
	grep_in "$drop" "$run/report.html" &&
	grep -q "FAIL\">$drop" "$run/report.html"
'

test_expect_success 'the others PASS' '
	test_eq "$(steady_of KILN-GOOD)" PASS KILN-GOOD &&
	test_eq "$(steady_of KILN-GPT)" PASS KILN-GPT &&
	test_eq "$(steady_of KILN-EXT4)" PASS KILN-EXT4
'

test_expect_success 'GPT and ext4: tested read-only, byte for byte unchanged' '
	[ "$(t KILN-GPT mode)" = read ] && [ "$(t KILN-EXT4 mode)" = read ] &&
	[ "$(t KILN-GPT bytes_written)" = 0 ] &&
	grep_in "tested read-only: has data; no consent" "$run/summary.txt" &&
	[ "$(md5sum <"$lab_dir/gpt.img")" = "$gpt_sum" ] &&
	[ "$(md5sum <"$lab_dir/ext4.img")" = "$ext4_sum" ]
'

# The same check as tests/host/figures.t on a boot of make lab-fail's
# disks: every output of boot 1 (the serial console, summary.txt,
# result.json, report.html, ocptv.jsonl, an rma-*.txt where there is
# one, kiln fleet's page of the stick's results) says the same figures.
test_expect_success 'boot 1: one figure, one value in every output' '
	"$KILN" fleet --out "$TEST_TMP/one.fleet" \
		"$TEST_TMP/one.results/kiln-results" >"$TEST_TMP/one.fleet.out" 2>&1 &&
	python3 "$TOP/tests/lib/figures.py" "$run" \
		--console "$TEST_TMP/one.log" --fleet "$TEST_TMP/one.fleet"
'

test_expect_success 'boot 2: destroy-data names the GPT disk by serial' '
	boot two "kiln.destroy-data=KILN-GPT kiln.exclude=KILN-BAD,KILN-DROP,KILN-TYPO" &&
	[ "$(result "d[\"exit_code\"]")" = 0 ] &&
	grep_in "exclude names KILN-TYPO: no disk matches (a typo?)" \
		"$TEST_TMP/two.log"
'

test_expect_success 'only that disk is written; ext4 is still untouched' '
	[ "$(t KILN-GPT mode)" = write-verify ] &&
	test_eq "$(steady_of KILN-GPT)" PASS KILN-GPT &&
	[ "$(md5sum <"$lab_dir/gpt.img")" != "$gpt_sum" ] &&
	[ "$(t KILN-EXT4 mode)" = read ] &&
	[ "$(md5sum <"$lab_dir/ext4.img")" = "$ext4_sum" ] &&
	grep_in "not tested: excluded" "$run/summary.txt"
'

test_expect_success 'boot 3: a disk pulled mid-run is marked vanished and FAILs' '
	lab_init "$TEST_TMP/pull" && lab_ssd stays &&
	lab_disk vscsi stays 512 KILN-STAYS &&
	lab_disk vscsi gone 2048 KILN-GONE && lab_stick "" &&
	sock="$TEST_TMP/monitor.sock" &&
	{
		# In the background, only this: pull the disk once its
		# burn-in has started.
		{
			i=0
			while [ $i -lt 600 ] && ! grep -a -q "^kiln run: run [0-9a-f]*, bs" \
				"$TEST_TMP/pull.log" 2>/dev/null; do
				sleep 0.5; i=$((i + 1))
			done
			sleep 1
			lab_monitor "$sock" "device_del dev-gone"
		} &
	} &&
	LAB_EXTRA="-monitor unix:$sock,server,nowait" &&
	boot pull "" &&
	LAB_EXTRA= &&
	wait &&
	[ "$(t KILN-GONE verdict)" = FAIL ] &&
	[ "$(t KILN-GONE state)" = vanished ] &&
	grep_in "vanished: the device went away" "$run/summary.txt" &&
	[ "$(t KILN-STAYS rotational)" = False ] &&
	test_eq "$(steady_of KILN-STAYS)" PASS KILN-STAYS
'

e2e_done
