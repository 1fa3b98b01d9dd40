#!/bin/sh
# needs: kiln kiln-asan
# The LEDs kiln sets, on a copy of the hand-built SAS/SES fixture
# (tests/fixtures/sysfs/ses-expander, README there), by the files kiln
# writes: kiln locate DISK lights its bay's locate file ("1"; --off "0"),
# whatever names the disk (kernel name, /dev/ name, serial, WWN with or
# without naa., identity); a disk in no bay is exit 3 and a name of no
# disk exit 2, neither writing any LED. With root, through real burns of
# loop devices mapped into the copy's bays (dev/block/MAJ:MIN): leds=fail
# clears the fault LEDs of the disks tested at the start and lights the
# FAILed one's at the end (said in summary.txt and result.json), leaves a
# bay it does not test alone; kiln burn's default, off, writes no LED.
. "$(dirname "$0")/../lib/tap.sh"

fx="$TOP/tests/fixtures/sysfs/ses-expander.tar.gz"
[ -e "$fx" ] || test_skip_all "no fixture $fx"
root="$TEST_TMP/ses"
sys="$root/sys"
enc="$sys/class/enclosure/0:0:3:0"

# led BAY FILE: what the bay's LED file holds.
led () {
	cat "$enc/Slot 0$1/$2"
}

# leds: every LED file of the enclosure, in order, on one line.
leds () {
	for b in 0 1 2 3; do
		printf '%s%s ' "$(led $b fault)" "$(led $b locate)"
	done
}

test_expect_success 'setup: a copy of the SAS expander and SES fixture' '
	rm -rf "$root" && mkdir -p "$root" && tar xzf "$fx" -C "$root" &&
	[ "$(leds)" = "00 00 00 00 " ]
'

test_expect_success 'kiln locate sdb lights bay 1 alone, says its bay (exit 0)' '
	"$KILN" locate --sysfs-root "$sys" sdb >"$TEST_TMP/l.out" &&
	grep_in "sdb: locate LED lit: enclosure 0:0:3:0 slot 1 (Slot 01)" \
		"$TEST_TMP/l.out" &&
	test_eq "00 01 00 00 " "$(leds)"
'

test_expect_success '--off clears it, found by serial' '
	"$KILN" locate --sysfs-root "$sys" --off ZC1A0002 &&
	test_eq "00 00 00 00 " "$(leds)"
'

test_expect_success 'by /dev/ name, WWN bare and with naa., and identity' '
	"$KILN" locate --sysfs-root "$sys" /dev/sdc &&
	"$KILN" locate --sysfs-root "$sys" 5000c500a1b2c300 &&
	"$KILN" locate --sysfs-root "$sys" --off naa.5000c500a1b2c300 &&
	"$KILN" locate --sysfs-root "$sys" wwn:naa.5000c500a1b2c310 &&
	test_eq "00 01 01 00 " "$(leds)" &&
	"$KILN" locate --sysfs-root "$sys" --off=1 sdb &&
	"$KILN" locate --sysfs-root "$sys" --off serial:ST2000NM0055-1V4:ZBS0ABCD &&
	test_eq "00 00 00 00 " "$(leds)"
'

test_expect_success 'a disk in no bay: exit 3, said, no LED written' '
	{ "$KILN" locate --sysfs-root "$sys" sdd 2>"$TEST_TMP/e3"; test $? = 3; } &&
	grep_in "sdd: no locate LED kiln can reach" "$TEST_TMP/e3" &&
	test_eq "00 00 00 00 " "$(leds)"
'

test_expect_success 'no such disk, or none given: exit 2, nothing written' '
	{ "$KILN" locate --sysfs-root "$sys" sdx 2>"$TEST_TMP/e2"; test $? = 2; } &&
	grep_in "no disk is '\''sdx'\''" "$TEST_TMP/e2" &&
	{ "$KILN" locate --sysfs-root "$sys" 2>/dev/null; test $? = 2; } &&
	{ "$KILN" locate --sysfs-root "$sys" "" 2>/dev/null; test $? = 2; } &&
	{ "$KILN" locate --sysfs-root "$sys" sda sdb 2>/dev/null; test $? = 2; } &&
	test_eq "00 00 00 00 " "$(leds)"
'

test_expect_success 'a bay whose LED file cannot be written: exit 3' '
	rm "$enc/Slot 02/locate" &&
	{ "$KILN" locate --sysfs-root "$sys" sdc 2>"$TEST_TMP/e4"; test $? = 3; } &&
	grep_in "sdc: no locate LED kiln can reach" "$TEST_TMP/e4" &&
	printf "0\n" >"$enc/Slot 02/locate"
'

test_expect_success 'the same under ASan and UBSan' '
	"$TOP/out/tests/kiln-asan" locate --sysfs-root "$sys" sda >/dev/null &&
	"$TOP/out/tests/kiln-asan" locate --sysfs-root "$sys" --off sda >/dev/null &&
	{ "$TOP/out/tests/kiln-asan" locate --sysfs-root "$sys" sdd 2>/dev/null;
	  test $? = 3; } &&
	test_eq "00 00 00 00 " "$(leds)"
'

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
	test_skip "needs root (loop devices): the LEDs of a burn"
	test_done
fi
. "$(dirname "$0")/../lib/host.sh"
poke="python3 $TOP/tests/lib/poke.py"

# target RESULT N: the Nth target's verdict, bay and fault_led ("-": none).
target () {
	python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["targets"][int(sys.argv[2])]
s = t.get("slot")
bay = " ".join(str(s[k]) for k in ("enclosure", "slot", "name")) if s else "-"
print(t["verdict"], "|", bay, "|", t.get("fault_led", "-"))' "$1" "$2"
}

# into_bay LOOP DISK: the loop device's number names DISK's block folder
# in the copy, so the burn finds DISK's bay for it.
into_bay () {
	mm=$(cat "/sys/block/$(basename "$1")/dev") &&
	ln -sfn "$(readlink -f "$sys/block/$2")" "$sys/dev/block/$mm"
}

test_expect_success 'setup: two loop devices in bays 0 and 1, written once' '
	make_loop a 16M && make_loop b 16M && img=$(backing "$a") &&
	into_bay "$a" sda && into_bay "$b" sdb &&
	"$KILN" burn --destroy-data --mode write --sysfs-root "$sys" \
		--out "$TEST_TMP/w" "$a" "$b" >"$TEST_TMP/w.out" 2>&1 &&
	test_eq "00 00 00 00 " "$(leds)" &&
	test_eq "PASS | 0:0:3:0 0 Slot 00 | -" \
		"$(target "$TEST_TMP/w/result.json" 0)" &&
	test_eq "PASS | 0:0:3:0 1 Slot 01 | -" \
		"$(target "$TEST_TMP/w/result.json" 1)"
'

test_expect_success 'leds=off (kiln burn default): a FAIL lights nothing' '
	$poke "$img" flip 1000000 0x05 &&
	printf "1\n" >"$enc/Slot 01/fault" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" --sysfs-root "$sys" \
		--out "$TEST_TMP/v0" "$a" "$b" >"$TEST_TMP/v0.out" 2>&1;
	  test $? = 1; } &&
	test_eq "00 10 00 00 " "$(leds)" &&
	! grep -q "fault LED" "$TEST_TMP/v0/summary.txt"
'

test_expect_success 'leds=fail: the tested bays cleared, the FAILed one lit (exit 1)' '
	printf "1\n" >"$enc/Slot 02/fault" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" --sysfs-root "$sys" \
		--leds fail --out "$TEST_TMP/v1" "$a" "$b" >"$TEST_TMP/v1.out" 2>&1;
	  test $? = 1; } &&
	cat "$TEST_TMP/v1.out" &&
	test_eq "10 00 10 00 " "$(leds)" &&
	grep_in "fault LEDs of 2 disks cleared" "$TEST_TMP/v1.out" &&
	grep_in "fault LED lit: enclosure 0:0:3:0 slot 0 (Slot 00)" \
		"$TEST_TMP/v1/summary.txt" &&
	grep_in "enclosure 0:0:3:0 slot 1 (Slot 01)" "$TEST_TMP/v1/summary.txt" &&
	test_eq "FAIL | 0:0:3:0 0 Slot 00 | fault LED lit: enclosure 0:0:3:0 slot 0 (Slot 00)" \
		"$(target "$TEST_TMP/v1/result.json" 0)" &&
	test_eq "PASS | 0:0:3:0 1 Slot 01 | -" \
		"$(target "$TEST_TMP/v1/result.json" 1)" &&
	grep_in "fault LED lit: enclosure 0:0:3:0 slot 0 (Slot 00)" \
		"$TEST_TMP/v1/report.html"
'

test_expect_success 'kiln report makes the same summary lines from result.json' '
	cp -r "$TEST_TMP/v1" "$TEST_TMP/v1r" && rm "$TEST_TMP/v1r/summary.txt" &&
	"$KILN" report "$TEST_TMP/v1r" >/dev/null 2>&1 &&
	grep_in "fault LED lit: enclosure 0:0:3:0 slot 0 (Slot 00)" \
		"$TEST_TMP/v1r/summary.txt" &&
	grep_in "enclosure 0:0:3:0 slot 1 (Slot 01)" "$TEST_TMP/v1r/summary.txt"
'

test_expect_success 'a FAILed disk in no bay: said so, no LED file written' '
	rm "$sys/dev/block/$(cat "/sys/block/$(basename "$a")/dev")" &&
	printf "0\n" >"$enc/Slot 00/fault" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" --sysfs-root "$sys" \
		--leds fail --out "$TEST_TMP/v2" "$a" "$b" >"$TEST_TMP/v2.out" 2>&1;
	  test $? = 1; } &&
	test_eq "00 00 10 00 " "$(leds)" &&
	grep_in "no fault LED lit: in no enclosure bay kiln can see" \
		"$TEST_TMP/v2/summary.txt"
'

test_done
