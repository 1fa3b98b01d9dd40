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
#
# Then the cut with nobody at the plug: the guest's BMC is OpenIPMI's
# ipmi_sim (ipmi-bmc-extern), which starts QEMU itself (startcmd) and,
# asked for a power cycle, stops that QEMU at once (SIGTERM: a real cut
# for the guest's disks) and starts it again on the same disk images.
# Boot 1 (profile powercut) writes and flushes, its init asks the BMC;
# boot 2 comes by itself, verifies (PASS) and starts no new power-cut
# test though the profile is still powercut. While boot 1 burns, the
# test adds a fan's non-critical event to the BMC's event log (ipmi_sim's
# sel_add): listed, not judged, so boot 1 stays pending (a FAILed boot 1
# ends the test there). While boot 2 verifies, a power supply failure:
# its machine FAILs naming it, and the fan's entry, there at its start,
# is not counted again.
. "$(dirname "$0")/../lib/e2e.sh"
. "$TOP/tests/lib/servers.sh"

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

# The lab of the BMC's case, and ipmi_sim's configuration: its system
# interface on a free port (QEMU connects), a LAN it needs to start on
# another, the start command, a BMC with an event log.
sim_lab () {
	S="$TEST_TMP/sim" && mkdir -p "$S" &&
	lab_init "$TEST_TMP/lab2" &&
	lab_disk ahci a 32 KILN-A &&
	lab_stick "" &&
	sim_port=$(free_port) &&
	lab_bmc extern "$sim_port" &&
	LAB_ARGV="$S/argv" boot unused "kiln.profile=powercut" &&
	cat >"$S/start.sh" <<-SH &&
	n=\$(( \$(cat "$S/boots" 2>/dev/null || echo 0) + 1 ))
	echo "\$n" >"$S/boots"
	echo "\$\$" >"$S/qemu.pid"
	lab_top="$TOP"
	. "$TOP/scripts/qemu.sh"
	# Not ipmi_sim's stdin, the test's console to it: QEMU would read it.
	lab_exec "$S/argv" </dev/null >"$S/boot\$n.log" 2>&1
	SH
	cat >"$S/lan.conf" <<-CONF &&
	name "kiln"
	set_working_mc 0x20
	  startlan 1
	    addr 127.0.0.1 $(free_port)
	    priv_limit admin
	    allowed_auths_callback none
	    allowed_auths_user none
	    allowed_auths_operator none
	    allowed_auths_admin none
	    guid a123456789abcdefa123456789abcdef
	  endlan
	  serial 15 127.0.0.1 $sim_port codec VM
	  startcmd "sh $S/start.sh"
	  startnow true
	  poweroff_wait 1
	  kill_wait 5
	CONF
	printf "%s\n" "mc_setbmc 0x20" \
		"mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02" \
		"sel_enable 0x20 1000 0x0a" "mc_enable 0x20" >"$S/emu.cmd"
}

sim_stop () {
	[ -n "${sim_pid:-}" ] && kill "$sim_pid" 2>/dev/null
	[ -e "$S/qemu.pid" ] && kill "$(cat "$S/qemu.pid")" 2>/dev/null
	sim_pid=
	return 0
}

if ! command -v ipmi_sim >/dev/null 2>&1; then
	test_skip "the power cut through a BMC needs ipmi_sim (Debian's openipmi)"
else
	test_expect_success 'through ipmi_sim: boot 1 writes, the BMC cycles the power, boot 2 verifies by itself' '
		sim_lab && mkfifo "$S/console" && {
			ipmi_sim -c "$S/lan.conf" -f "$S/emu.cmd" -s "$S" -p \
				<"$S/console" >"$S/sim.log" 2>&1 &
			sim_pid=$!
		} &&
		test_at_exit "kill $sim_pid; kill \$(cat $S/qemu.pid)" &&
		exec 9>"$S/console" &&
		# Once boot 1 read the log: a fan below its lower
		# non-critical threshold (sensor type 04h, threshold 01h,
		# offset 0); once boot 2 read it: a power supply failure
		# (08h, sensor-specific 6Fh, offset 1).
		test_wait_for "grep -a -q \"event log holds\" \"$S/boot1.log\" 2>/dev/null" &&
		echo "sel_add 0x20 0x02 0 0 0 0 0x20 0x00 0x04 0x04 0x30 0x01 0x00 0xff 0xff" >&9 &&
		test_wait_for "grep -q \"Added record 1\" \"$S/sim.log\"" &&
		test_wait_for "grep -a -q \"event log holds\" \"$S/boot2.log\" 2>/dev/null" &&
		echo "sel_add 0x20 0x02 0 0 0 0 0x20 0x00 0x04 0x08 0x40 0x6f 0x01 0xff 0xff" >&9 &&
		test_wait_for "grep -q \"Added record 2\" \"$S/sim.log\"" &&
		test_wait_for "grep -a -q \"kiln-init: after:\" \"$S/boot2.log\" 2>/dev/null" &&
		test_wait_for "! kill -0 \$(cat \"$S/qemu.pid\") 2>/dev/null" &&
		exec 9>&- && sim_stop &&
		sed -n "/sel_add/,+1p" "$S/sim.log" &&
		grep_in "THE BMC CUTS THE POWER NOW" "$S/boot1.log" &&
		grep_in "kiln-init: power-cut test: the stick is unmounted; the BMC cycles the power now" \
			"$S/boot1.log" &&
		! grep -a -q "did not cycle the power" "$S/boot1.log" &&
		test_eq "$(cat "$S/boots")" 2 "boots" &&
		grep_in "a power-cut test is pending" "$S/boot2.log" &&
		grep_in "this boot starts no new one" "$S/boot2.log" &&
		rm -rf "$TEST_TMP/sim.results" && lab_results "$TEST_TMP/sim.results"
	'

	test_expect_success 'boot 1: the fan'"'"'s entry listed, not judged; pending, then verified' '
		one=$(grep -l "\"verified\"" "$TEST_TMP/sim.results"/kiln-results/*/*/result.json |
			xargs grep -L "\"pending_of\"" | head -n 1) && [ -n "$one" ] &&
		test_eq "$(json_get "$one" "d[\"state\"]")" verified "boot 1 state" &&
		test_eq "$(json_get "$one" "d[\"bmc\"][\"added\"]")" 1 "entries added" &&
		test_eq "$(json_get "$one" "d[\"bmc\"][\"entries\"][0][\"critical\"]")" None "its class" &&
		test_eq "$(json_get "$one" "d[\"bmc\"][\"verdict\"]")" PASS "bmc verdict" &&
		grep_in "Fan sensor 30h: lower non-critical going low" "$(dirname "$one")/summary.txt"
	'

	test_expect_success 'boot 2: the disk PASSes its verify; the power supply failure FAILs the machine' '
		two=$(grep -l "\"pending_of\"" "$TEST_TMP/sim.results"/kiln-results/*/*/result.json) &&
		[ -n "$two" ] &&
		test_eq "$(json_get "$two" "d[\"targets\"][0][\"verdict\"]")" PASS "the disk" &&
		test_eq "$(json_get "$two" "d[\"bmc\"][\"entries_start\"]")" 1 "the log at the start" &&
		test_eq "$(json_get "$two" "d[\"bmc\"][\"added\"]")" 1 "entries added" &&
		test_eq "$(json_get "$two" "d[\"bmc\"][\"entries\"][0][\"critical\"]")" \
			"power supply failure" "its class" &&
		test_eq "$(json_get "$two" "d[\"bmc\"][\"verdict\"]")" FAIL "bmc verdict" &&
		grep_in "the BMC logged 1 critical event during the run" "$(dirname "$two")/summary.txt"
	'
fi

e2e_done
