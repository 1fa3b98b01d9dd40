#!/bin/sh
# What kiln burn says on the console while it runs and at its end: the
# passes and bytes in the status line, the per-disk table, like disks'
# plans said once, a pass cap said where it binds, and a write-only burn
# that ends saying it was not verified.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

test_expect_success '--passes 3 capped by max-writes lists each pass once' '
	make_loop d1 32M &&
	"$KILN" burn --destroy-data --passes 3 --max-writes 2 --json "$d1" \
		>"$TEST_TMP/cap.json" 2>"$TEST_TMP/cap.err" &&
	test_eq "$(json_get "$TEST_TMP/cap.json" "\" \".join(\"%s:%s\" % (p[\"pass\"], p[\"phase\"]) for p in d[\"targets\"][0][\"passes\"])")" \
		"1:write 1:flush 1:verify 2:write 2:flush 2:verify 3:verify" &&
	test_eq "$(json_get "$TEST_TMP/cap.json" "d[\"targets\"][0][\"verified_pass\"]")" 2
'

test_done
