#!/bin/sh
# slow: QEMU boots. A disk that stops answering once kiln has started: the
# guest has probed it (the init's "disks:" line), then the host throttles
# it to a byte a second through QMP (block_set_io_throttle), so every
# request to it from then on waits for hours. kiln must FAIL it as
# stalled, burn the disk beside it, write every result to the stick, and
# exit; the init then powers the machine off by itself, the kernel's own
# shutdown of the dead disk included.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
qmp="$TEST_TMP/qmp.sock"
lab_disk vscsi dead 64 KILN-DEAD
lab_disk vscsi fine 32 KILN-FINE
lab_stick ""

n () {
	result "[$2 for t in d[\"targets\"] if t[\"serial\"] == \"$1\"][0]"
}

test_expect_success 'boot: the disk dies once the guest has seen it; the guest powers off' '
	{
		i=0
		while [ $i -lt 1200 ] && ! grep -a -q "kiln-init: disks:" \
			"$TEST_TMP/dead.log" 2>/dev/null; do
			sleep 0.25; i=$((i + 1))
		done
		qmp "{\"execute\": \"block_set_io_throttle\", \"arguments\": {\"id\": \"dev-dead\", \"bps\": 1, \"bps_rd\": 0, \"bps_wr\": 0, \"iops\": 0, \"iops_rd\": 0, \"iops_wr\": 0}}" \
			>"$TEST_TMP/qmp.out" 2>&1
	} &
	LAB_EXTRA="-qmp unix:$qmp,server=on,wait=off" &&
	boot dead "kiln.deadline=5" &&
	LAB_EXTRA= &&
	wait &&
	cat "$TEST_TMP/qmp.out" &&
	grep_in "'"'"'return'"'"'" "$TEST_TMP/qmp.out" &&
	[ -n "$run" ] &&
	[ "$(result "d[\"exit_code\"]")" = 1 ]
'

test_expect_success 'the dead disk FAILs as stalled; the one beside it PASSes' '
	n KILN-DEAD "t[\"verdict\"]" | grep -qx FAIL &&
	n KILN-DEAD "t[\"reasons\"]" | grep -q "stalled" &&
	test_eq "$(steady_of KILN-FINE)" PASS KILN-FINE &&
	[ "$(n KILN-FINE "t[\"bytes_written\"]")" = $((32 << 20)) ]
'

test_expect_success 'every result is on the stick, and the init said so' '
	for f in result.json summary.txt report.html ocptv.jsonl; do
		[ -s "$run/$f" ] || { echo "no $f"; return 1; }
	done &&
	grep_in "kiln run: FAIL" "$TEST_TMP/dead.log" &&
	grep_in "results are on the stick" "$TEST_TMP/dead.log" &&
	lab_fsck
'

e2e_done
