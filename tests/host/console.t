#!/bin/sh
# needs: kiln
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

test_expect_success '...the status line and the summary say max-writes made it verify only' '
	grep_in "done 1/1  3 passes (2 written: max-writes)" "$TEST_TMP/cap.err" &&
	grep_in "so 2 write passes of its 32 MiB region; later passes only verify" \
		"$TEST_TMP/cap.err"
'

test_expect_success '--mode write ends "written, not verified", never a bare PASS' '
	make_loop w1 32M &&
	"$KILN" burn --destroy-data --mode write --out "$TEST_TMP/w" "$w1" \
		>"$TEST_TMP/w.out" 2>&1 &&
	for f in "$TEST_TMP/w.out" "$TEST_TMP/w/summary.txt"; do
		grep_in "kiln burn: written, not verified, 1 target, 0 failed" "$f" &&
		grep_in "written, not verified: verify with kiln burn --mode verify --from $TEST_TMP/w" "$f" &&
		! grep -n "PASS" "$f" || return 1
	done &&
	test_eq "$(json_get "$TEST_TMP/w/result.json" "d[\"verdict\"]")" PASS
'

test_expect_success '...and the verify it names passes' '
	"$KILN" burn --mode verify --from "$TEST_TMP/w" "$w1" >"$TEST_TMP/v.out" 2>&1 &&
	grep_in "kiln burn: PASS, 1 target, 0 failed" "$TEST_TMP/v.out" &&
	! grep -q "not verified" "$TEST_TMP/v.out"
'

test_expect_success 'like disks with like plans are said once at the start, an exception alone' '
	make_loop g1 32M && make_loop g2 32M && make_loop g3 32M &&
	make_loop g4 32M && make_loop g5 48M &&
	"$KILN" burn --destroy-data --mode write "$g1" "$g2" "$g3" "$g4" "$g5" \
		>"$TEST_TMP/g.out" 2>&1 &&
	sed -n "/^kiln burn: run /,/^note\|^[0-9][0-9]:/p" "$TEST_TMP/g.out" >"$TEST_TMP/g.plan" &&
	cat "$TEST_TMP/g.plan" &&
	test_eq "$(grep -c "^  .*  4 disks, 32 MiB each$" "$TEST_TMP/g.plan")" 1 &&
	test_eq "$(grep -c "^    write: " "$TEST_TMP/g.plan")" 2 &&
	grep_in "  $(basename "$g5")  48 MiB  loop:$(backing "$g5")" "$TEST_TMP/g.plan"
'

test_expect_success 'every table-interval a per-disk table: each disk, 80 columns' '
	make_loop t1 64M && make_loop t2 64M &&
	"$KILN" burn --destroy-data --duration 3s --max-writes 0 --interval 1 \
		--table-interval 1 "$t1" "$t2" >"$TEST_TMP/t.out" 2>&1 &&
	sed -n "/ per disk: /,/^$/p" "$TEST_TMP/t.out" &&
	grep -q " per disk: MB/s write, read since the last table, done, left; \* slowest$" "$TEST_TMP/t.out" &&
	grep -q "^  disks: 2 disks, write [0-9]* read [0-9]* MB/s$" "$TEST_TMP/t.out" &&
	grep -E "^   [ *]$(basename "$t1") +[0-9]+ +[0-9]+ +[0-9]+% " "$TEST_TMP/t.out" |
		grep -q -E " [ *]$(basename "$t2") +[0-9]+ +[0-9]+ +[0-9]+% " &&
	test_eq "$(awk "/ per disk: / { n = 3 } n && n-- && length > 80" "$TEST_TMP/t.out")" "" &&
	grep -E "^[0-9:]+ pass [0-9-]+ " "$TEST_TMP/t.out" | grep -q " write [0-9]* read [0-9]* MB/s "
'

test_expect_success 'table-interval 0: no table, the status lines still' '
	"$KILN" burn --destroy-data --duration 2s --max-writes 0 --interval 1 \
		--table-interval 0 "$t1" >"$TEST_TMP/t0.out" 2>&1 &&
	! grep -q " per disk: " "$TEST_TMP/t0.out" &&
	grep -q -E "^[0-9:]+ done 1/1  [0-9]+ pass" "$TEST_TMP/t0.out"
'

test_done
