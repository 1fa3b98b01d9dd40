#!/bin/sh
# slow: QEMU boots. The whole server under load, and held to what it should
# be: two boots of a guest with 2 CPUs, 1 GiB and two small disks. (1) The
# memory and CPU stress on (stressapptest beside the burn, memory,cpu) and
# an expect file on the stick that matches the guest: it PASSes, with
# stressapptest's figures in result.json, summary.txt and report.html. (2)
# An expect file that names 3 disks and 2 GiB: the machine FAILs, both
# differences named in summary.txt and result.json's expect object.
. "$(dirname "$0")/../lib/e2e.sh"

# expect_on_stick TEXT: the stick's expect.cfg.
expect_on_stick () {
	printf '%s\n' "$1" >"$lab_dir/expect.cfg" &&
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$lab_dir/stick.img@@1M" \
		"$lab_dir/expect.cfg" ::expect.cfg
}

test_expect_success 'stress on, expect matching: PASS with the stress figures' '
	lab_init "$TEST_TMP/load" && lab_disk virtio one 32 KILN-ONE &&
	lab_disk ahci two 32 KILN-TWO && lab_stick "" &&
	expect_on_stick "# this guest, as QEMU makes it
disks=2
memory=1G
cpus=2" &&
	boot load "kiln.stress=memory,cpu kiln.duration=20s kiln.max-writes=0" &&
	grep_in "stressapptest beside the burn (memory,cpu)" "$TEST_TMP/load.log" &&
	ran_clean "$run/summary.txt" 2 &&
	[ "$(result "d[\"stress\"][\"verdict\"]")" = PASS ] &&
	[ "$(result "d[\"stress\"][\"tool\"]")" = stressapptest ] &&
	[ "$(result "d[\"stress\"][\"load\"]")" = memory,cpu ] &&
	[ "$(result "d[\"stress\"][\"ended\"]")" = stopped ] &&
	[ "$(result "d[\"stress\"][\"seconds\"] > 0")" = True ] &&
	[ "$(result "d[\"stress\"][\"memory_bytes\"] > 0")" = True ] &&
	[ "$(result "d[\"stress\"][\"cpu_threads\"]")" = 2 ] &&
	[ "$(result "d[\"stress\"][\"miscompares\"][\"count\"]")" = 0 ] &&
	[ "$(result "d[\"expect\"][\"differences\"]")" = "[]" ] &&
	[ "$(result "d[\"verdict\"] != \"FAIL\"")" = True ] &&
	grep_in "stress: stressapptest (memory,cpu)" "$run/summary.txt" &&
	grep_in "0 miscompares: PASS" "$run/summary.txt" &&
	grep_in "Memory and CPU stress: <span class=\"PASS\">PASS</span>" \
		"$run/report.html"
'

test_expect_success 'expect names 3 disks and 2 GiB: the machine FAILs, both named' '
	lab_init "$TEST_TMP/drift" && lab_disk virtio one 32 KILN-ONE &&
	lab_disk ahci two 32 KILN-TWO && lab_stick "" &&
	expect_on_stick "disks=3
memory=2G" &&
	boot drift "kiln.span=4M" &&
	[ "$(result "d[\"verdict\"]")" = FAIL ] &&
	[ "$(result "d[\"exit_code\"]")" = 1 ] &&
	grep_in "disks: expected 3, found 2" "$run/summary.txt" &&
	grep_in "memory: expected 2 GiB, found 1 GiB" "$run/summary.txt" &&
	[ "$(result "sorted(d[\"expect\"][\"differences\"]) == [\"disks: expected 3, found 2\", \"memory: expected 2 GiB, found 1 GiB\"]")" = True ] &&
	[ "$(result "\"stress\" in d")" = False ]
'

e2e_done
