#!/bin/sh
# A PASS means the disk kept every byte: a verify reads the run record a
# write left (result.json), finds its disks by identity, and FAILs a disk
# that shrank or holds an older pass than the last one written; a pass cut
# short is checked for what it reached and the pass before it beyond;
# writing runs always draw a fresh run id, so an old run's data never
# passes for new.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

test_expect_success 'a device shrunk after the write FAILs as shrunk' '
	make_loop s 64M && img=$(backing "$s") &&
	"$KILN" burn --mode write --out "$TEST_TMP/ws" "$s" >/dev/null 2>&1 &&
	truncate -s 32M "$img" && losetup -c "$s" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/ws" --out "$TEST_TMP/vs" \
		>"$TEST_TMP/vs.out" 2>&1; test $? = 1; } &&
	grep_in "shrank: 33554432 bytes now, 67108864 when it was written" \
		"$TEST_TMP/vs/summary.txt" &&
	[ "$(json_get "$TEST_TMP/vs/result.json" "d[\"targets\"][0][\"verdict\"]")" = FAIL ]
'

test_expect_success 'found by identity, whatever its name: the device is found again' '
	make_loop m 16M && mimg=$(backing "$m") &&
	"$KILN" burn --mode write --out "$TEST_TMP/wm" "$m" >/dev/null 2>&1 &&
	losetup -d "$m" &&
	m2=$(losetup -f --show --direct-io=on "$mimg") &&
	test_at_exit "losetup -d $m2" &&
	"$KILN" burn --mode verify --from "$TEST_TMP/wm" --out "$TEST_TMP/vm" \
		>"$TEST_TMP/vm.out" 2>&1 &&
	[ "$(json_get "$TEST_TMP/vm/result.json" "d[\"targets\"][0][\"path\"]")" = "$m2" ]
'

test_expect_success 'a recorded disk that is gone FAILs as missing' '
	losetup -d "$m2" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/wm" --out "$TEST_TMP/vg" \
		>"$TEST_TMP/vg.out" 2>&1; test $? = 1; } &&
	grep_in "missing: no disk with identity loop:$mimg is attached" \
		"$TEST_TMP/vg/summary.txt"
'

test_expect_success 'a write cut short by --duration verifies clean from its record' '
	make_loop c 64M &&
	"$KILN" burn --mode write --duration 3s --max-writes 0 --out "$TEST_TMP/wc" \
		"$c" >/dev/null 2>&1 &&
	r="$TEST_TMP/wc/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"last_pass_written\"] >= 2")" = True ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"last_pass_complete\"]")" = False ] &&
	"$KILN" burn --mode verify --from "$TEST_TMP/wc" --out "$TEST_TMP/vc" \
		>"$TEST_TMP/vc.out" 2>&1 &&
	grep_in "was cut short at byte" "$TEST_TMP/vc.out" &&
	[ "$(json_get "$TEST_TMP/vc/result.json" "d[\"targets\"][0][\"bad_units\"][\"count\"]")" = 0 ] &&
	[ "$(json_get "$TEST_TMP/vc/result.json" "d[\"targets\"][0][\"bytes_read\"]")" = 67108864 ]
'

test_done
