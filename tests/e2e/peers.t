#!/bin/sh
# slow: QEMU boots. Like disks in the real image: four AHCI drives of one
# model, size and controller, the fourth throttled by QEMU through QMP
# (block_set_io_throttle) to 512 KiB/s once the burn has started, after
# kiln has read every disk to prove it blank. Like disks under TCG move 20
# MB/s and more on an idle host and 3 MB/s or more on one with a load of
# 17 on its 2 cores, so the slow one is a sixth of them or less on any
# host. With the thresholds pinned (slow-warn 30%, far below the like
# disks' spread, which is within a quarter or so; slow-fail 25%; no solo
# phase), the slow one WARNs against the median of
# its like disks and the others PASS; the controller's aggregate is in the
# results and its live line on the console. The three are judged by
# steady() (tests/lib/e2e.sh): a WARN a loaded host causes is not counted
# against them.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
qmp="$TEST_TMP/qmp.sock"
lab_disk ahci like-a 48
lab_disk ahci like-b 48
lab_disk ahci like-c 48
lab_disk ahci like-d 48
lab_stick ""

# t SERIAL EXPR: EXPR of the target t with that serial.
t () {
	result "[$2 for t in d[\"targets\"] if t[\"serial\"] == \"$1\"][0]"
}

test_expect_success 'boot: four like disks for 30 s, one throttled' '
	{
		i=0
		while [ $i -lt 4800 ] && ! grep -a -q "^kiln run: run [0-9a-f]*, bs" \
			"$TEST_TMP/peers.log" 2>/dev/null; do
			sleep 0.25; i=$((i + 1))
		done
		qmp "{\"execute\": \"block_set_io_throttle\", \"arguments\": {\"id\": \"dev-like-d\", \"bps\": 524288, \"bps_rd\": 0, \"bps_wr\": 0, \"iops\": 0, \"iops_rd\": 0, \"iops_wr\": 0}}" \
			>"$TEST_TMP/qmp.out" 2>&1
	} &
	LAB_EXTRA="-qmp unix:$qmp,server=on,wait=off" &&
	boot peers "kiln.duration=30s kiln.slow-warn=30 kiln.slow-fail=25 kiln.solo=0" &&
	LAB_EXTRA= && wait && cat "$TEST_TMP/qmp.out" &&
	grep_in "'"'"'return'"'"'" "$TEST_TMP/qmp.out" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/peers.log" &&
	[ "$(result "d[\"exit_code\"]")" = 0 ] &&
	for s in A B C D; do
		say "KILN-LIKE-$s: $(t KILN-LIKE-$s "(t[\"verdict\"], t[\"reasons\"], t[\"peers\"])")"
	done
'

test_expect_success 'the throttled disk WARNs as slow against its like disks, by figure and threshold' '
	test_eq "$(t KILN-LIKE-D "t[\"verdict\"]")" WARN verdict &&
	test_eq "$(t KILN-LIKE-D "t[\"peers\"][\"group_size\"]")" 4 group_size &&
	test_eq "$(t KILN-LIKE-D "t[\"peers\"][\"ratio\"] < 0.25")" True "ratio < 0.25" &&
	t KILN-LIKE-D "t[\"reasons\"]" >"$TEST_TMP/reasons" &&
	grep -E "slow (write|verify): [0-9]+ MB/s, [0-9]+% of the [0-9]+ MB/s median of 4 like disks \(slow-warn 30%\)" \
		"$TEST_TMP/reasons" &&
	grep_in "slow-warn 30%" "$run/summary.txt"
'

test_expect_success 'the three like disks at full speed PASS' '
	for s in A B C; do
		test_eq "$(t KILN-LIKE-$s "steady(t)")" PASS \
			"KILN-LIKE-$s $(t KILN-LIKE-$s "t[\"reasons\"]")" || return 1
	done
'

test_expect_success 'the AHCI controller: its four disks, its aggregate, its live line' '
	[ "$(result "[c[\"disks\"] for c in d[\"controllers\"] if c[\"driver\"] == \"ahci\"]")" = "[4]" ] &&
	[ "$(result "[c[\"aggregate_mbps\"][\"write\"] > 0 for c in d[\"controllers\"] if c[\"driver\"] == \"ahci\"]")" = "[True]" ] &&
	grep -a -q "^  ctrl " "$TEST_TMP/peers.log"
'

e2e_done
