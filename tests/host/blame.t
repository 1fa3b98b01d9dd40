#!/bin/sh
# needs: kiln lyingdisk
# Transfer errors placed where they belong, on real loop devices over the
# lying disk (tests/lib/lyingdisk.c, flaky: each unit written in a range
# reads wrong once, then right): one disk alone FAILs for a transfer
# error, not its media, beside a clean disk that PASSes; several loop
# devices with such errors share only the host, so the machine FAILs and
# they WARN, while a disk whose units read bad twice (writes dropped)
# FAILs for its media beside them. result.json says the place, and kiln
# report, reading it back, says it again.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# t DIR I KEY: target I's KEY in DIR's result.json.
t () {
	json_get "$1/result.json" "d[\"targets\"][$2][\"$3\"]"
}

# reasons DIR I: target I's reasons, a line each.
reasons () {
	json_get "$1/result.json" "\"\\n\".join(d[\"targets\"][$2][\"reasons\"])"
}

blame () {
	json_get "$1/result.json" "d[\"blame\"][\"$2\"]"
}

test_expect_success 'one disk with units that read back good: a transfer error, not the media' '
	make_lying a 16M && make_lying b 16M &&
	lying "$a" flaky 4M 64K &&
	{ "$KILN" burn --out "$TEST_TMP/one" "$a" "$b" >"$TEST_TMP/o" 2>&1
	  test $? = 1; } &&
	[ "$(t "$TEST_TMP/one" 0 verdict)" = FAIL ] &&
	[ "$(t "$TEST_TMP/one" 1 verdict)" = PASS ] &&
	[ "$(lying_get "$a" flipped)" = 16 ] &&
	reasons "$TEST_TMP/one" 0 >"$TEST_TMP/r" &&
	grep_in "16 bad units read back good: a transfer error of its path" "$TEST_TMP/r" &&
	grep_in "not the media" "$TEST_TMP/r" &&
	[ "$(blame "$TEST_TMP/one" place)" = disk ] &&
	[ "$(json_get "$TEST_TMP/one/result.json" "d[\"machine\"][\"verdict\"]")" = PASS ] &&
	grep_in "transfer errors: placed on ${a#/dev/}, the one disk" "$TEST_TMP/one/summary.txt"
'

test_expect_success 'several loop devices with them: the machine FAILs, they WARN; dropped writes FAIL their disk' '
	make_lying c 16M && make_lying e 16M && make_lying f 16M &&
	lying "$c" flaky 2M 32K && lying "$e" flaky 8M 16K &&
	lying "$f" drop on &&
	{ "$KILN" burn --out "$TEST_TMP/many" "$c" "$e" "$f" >"$TEST_TMP/o" 2>&1
	  test $? = 1; } &&
	[ "$(t "$TEST_TMP/many" 0 verdict)" = WARN ] &&
	[ "$(t "$TEST_TMP/many" 1 verdict)" = WARN ] &&
	[ "$(t "$TEST_TMP/many" 2 verdict)" = FAIL ] &&
	reasons "$TEST_TMP/many" 0 >"$TEST_TMP/r" &&
	grep_in "8 bad units read back good: a transfer error placed on the machine" "$TEST_TMP/r" &&
	reasons "$TEST_TMP/many" 2 >"$TEST_TMP/r" &&
	grep_in "4096 bad units (4096 zeroed)" "$TEST_TMP/r" &&
	! grep -q "read back good" "$TEST_TMP/r" &&
	[ "$(blame "$TEST_TMP/many" place)" = machine ] &&
	[ "$(json_get "$TEST_TMP/many/result.json" "len(d[\"blame\"][\"disks\"])")" = 2 ] &&
	[ "$(json_get "$TEST_TMP/many/result.json" "d[\"machine\"][\"verdict\"]")" = FAIL ] &&
	grep_in "with no controller (loop devices or files)" "$TEST_TMP/many/result.json" &&
	grep_in "transfer errors: placed on the machine, not the 2 disks" "$TEST_TMP/many/summary.txt"
'

test_expect_success 'kiln report says the same place from result.json' '
	cp "$TEST_TMP/many/summary.txt" "$TEST_TMP/summary.before" &&
	"$KILN" report "$TEST_TMP/many" >"$TEST_TMP/o" 2>&1 &&
	grep_in "transfer errors: placed on the machine, not the 2 disks" "$TEST_TMP/many/summary.txt" &&
	grep_in "FAIL: 12 bad units read back good on 2 disks (loop" "$TEST_TMP/many/summary.txt"
'

test_done
