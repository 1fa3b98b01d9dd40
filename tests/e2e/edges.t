#!/bin/sh
# slow: QEMU boots. The edges of the image, each said plainly and each
# ending as the setting after says: no disks at all; no stick; an unknown
# setting in kiln.cfg; a bad value on the kernel command line; after=wait.
# One boot runs QEMU's default CPU (no SSE4.2): the portable CRC32C. A
# boot checks several things where they do not meet.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/servers.sh"

test_expect_success 'no disks at all: nothing to test, FAIL on the stick' '
	lab_init "$TEST_TMP/nodisks" && lab_stick "" &&
	boot nodisks "" &&
	grep_in "kiln: nothing to test: no disk may be tested" "$TEST_TMP/nodisks.log" &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/nodisks.log" &&
	grep_in "FAIL: nothing was tested" "$run/summary.txt" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/nodisks.log"
'

# One boot: no stick, QEMU's default CPU and after=wait.
test_expect_success 'no stick, default CPU: console only, portable CRC, PASS' '
	lab_init "$TEST_TMP/nostick" && lab_disk virtio one 16 &&
	LAB_CPU=default LAB_UNTIL="done: waiting" \
		lab_boot "quiet kiln.countdown=0 kiln.settle=20 kiln.after=wait kiln.stress=off kiln.reread=0" \
		"$TEST_TMP/nostick.log" &&
	grep_in "kiln-init: no KILN stick found: results go to the console only" \
		"$TEST_TMP/nostick.log" &&
	grep_in "kiln: no results medium: results on the console only" \
		"$TEST_TMP/nostick.log" &&
	grep_in "crc32c portable" "$TEST_TMP/nostick.log" &&
	ran_clean "$TEST_TMP/nostick.log" 1
'

test_expect_success '... after=wait: the verdict stays on screen, the machine waits' '
	grep_in "kiln-init: done: waiting" "$TEST_TMP/nostick.log"
'

test_expect_success 'an unknown setting in kiln.cfg: not started, said why' '
	lab_init "$TEST_TMP/unknown" && lab_disk virtio one 16 &&
	lab_stick "countdown=0
frobnicate=1" &&
	one_sum=$(md5sum <"$lab_dir/one.img") &&
	boot unknown "" &&
	grep_in "kiln: bad setting: kiln.cfg line 2: unknown setting '\''frobnicate'\''" \
		"$TEST_TMP/unknown.log" &&
	grep_in "kiln-init: kiln run: not started: a bad setting" "$TEST_TMP/unknown.log" &&
	grep_in "NOT STARTED: bad settings" "$run/summary.txt" &&
	[ "$(md5sum <"$lab_dir/one.img")" = "$one_sum" ]
'

test_expect_success 'a bad value on the kernel command line; after=reboot' '
	lab_init "$TEST_TMP/badvalue" && lab_disk virtio one 16 && lab_stick "" &&
	boot badvalue "kiln.duration=5x kiln.after=reboot" &&
	grep_in "kernel command line: bad value for duration: '\''5x'\''" \
		"$TEST_TMP/badvalue.log" &&
	grep_in "kiln-init: after: reboot" "$TEST_TMP/badvalue.log"
'

# One boot: a second disk with kiln's boot files, and the network beside:
# two NICs on two user networks, each to its own iperf3 server on the
# host's loopback (10.0.2.2 and 10.0.3.2 reach it), for the whole burn.
test_expect_success 'another disk with kiln boot files is protected, even from destroy-data=1' '
	p1=$(free_port) && p2=$(free_port) &&
	{ iperf3 -s -p "$p1" >"$TEST_TMP/iperf3-1.log" 2>&1 & } &&
	test_at_exit "kill $! 2>/dev/null" &&
	{ iperf3 -s -p "$p2" >"$TEST_TMP/iperf3-2.log" 2>&1 & } &&
	test_at_exit "kill $! 2>/dev/null" &&
	lab_init "$TEST_TMP/twosticks" &&
	truncate -s 32M "$lab_dir/other.img" &&
	mkfs.vfat -n RENAMED "$lab_dir/other.img" >/dev/null &&
	MTOOLS_SKIP_CHECK=1 mmd -i "$lab_dir/other.img" ::kiln &&
	MTOOLS_SKIP_CHECK=1 mcopy -i "$lab_dir/other.img" "$TOP/README.md" ::kiln/vmlinuz &&
	lab_disk virtio other 32 && lab_disk virtio blank 16 && lab_stick "" &&
	other_sum=$(md5sum <"$lab_dir/other.img") &&
	LAB_NET=$(lab_two_nets) boot twosticks "kiln.destroy-data=1 kiln.duration=45s kiln.max-writes=0 kiln.iperf=10.0.2.2:$p1,10.0.3.2:$p2 kiln.iperf-min=0" &&
	grep_in "kiln-init: /dev/vda holds kiln" "$TEST_TMP/twosticks.log" &&
	grep_in "s boot files: protected" "$TEST_TMP/twosticks.log" &&
	grep_in "vda not tested: in use: vda is the boot or results medium" "$run/summary.txt" &&
	[ "$(md5sum <"$lab_dir/other.img")" = "$other_sum" ] &&
	ran_clean "$run/summary.txt" 1
'

# port K EXPR: EXPR of network.ports[K] in the last boot's result.json.
port () {
	result "d[\"network\"][\"ports\"][$1]$2"
}

test_expect_success '... both NICs under load for the whole burn, each to its own server' '
	grep_in "kiln-init: network: eth0 is up" "$TEST_TMP/twosticks.log" &&
	grep_in "kiln-init: network: eth1 is up" "$TEST_TMP/twosticks.log" &&
	result "[(p[\"name\"], p[\"server\"], p[\"port\"], p[\"seconds\"], p[\"burn_seconds\"], p[\"restarts\"], p[\"verdict\"], p[\"why\"]) for p in d[\"network\"][\"ports\"]]" &&
	[ "$(result "len(d[\"network\"][\"ports\"])")" = 2 ] &&
	[ "$(port 0 "[\"name\"]")" = eth0 ] && [ "$(port 1 "[\"name\"]")" = eth1 ] &&
	[ "$(port 0 "[\"server\"]")" = 10.0.2.2 ] && [ "$(port 0 "[\"port\"]")" = "$p1" ] &&
	[ "$(port 1 "[\"server\"]")" = 10.0.3.2 ] && [ "$(port 1 "[\"port\"]")" = "$p2" ] &&
	for k in 0 1; do
		[ "$(port $k "[\"speed_mbps\"]")" = 1000 ] &&
		[ "$(port $k "[\"restarts\"]")" = 0 ] &&
		[ "$(port $k "[\"mean_mbps\"] > 0")" = True ] &&
		[ "$(port $k "[\"burn_seconds\"] >= 40")" = True ] &&
		[ "$(port $k "[\"seconds\"] >= 0.9 * d[\"network\"][\"ports\"][$k][\"burn_seconds\"]")" = True ] || return 1
	done &&
	grep_in "network eth0 (1000 Mbit/s) to 10.0.2.2:$p1: " "$run/summary.txt" &&
	grep_in "network eth1 (1000 Mbit/s) to 10.0.3.2:$p2: " "$run/summary.txt" &&
	[ -s "$run/iperf3-eth0.json" ] && [ -s "$run/iperf3-eth1.json" ] &&
	grep -q "connected to" "$TEST_TMP/iperf3-1.log" &&
	grep -q "connected to" "$TEST_TMP/iperf3-2.log"
'

test_expect_success 'a key on the serial console stops the countdown: nothing written' '
	lab_init "$TEST_TMP/abort" && lab_disk virtio one 16 && lab_stick "" &&
	one_sum=$(md5sum <"$lab_dir/one.img") &&
	LAB_KEYS="i=0; while [ \$i -lt 40 ]; do sleep 3; printf x; i=\$((i + 1)); done" \
		lab_boot "quiet kiln.after=poweroff kiln.countdown=60 kiln.settle=20 kiln.stress=off kiln.reread=0" \
		"$TEST_TMP/abort.log" &&
	grep_in "kiln: stopped by a key press before any write: nothing was written" \
		"$TEST_TMP/abort.log" &&
	grep_in "kiln-init: kiln run: interrupted" "$TEST_TMP/abort.log" &&
	[ "$(md5sum <"$lab_dir/one.img")" = "$one_sum" ]
'

e2e_done
