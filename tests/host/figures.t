#!/bin/sh
# needs: kiln lyingdisk
# One figure, one value: real burns of loop devices read back through
# every output, each figure held to result.json's at the rounding each
# prints it with (tests/lib/figures.py): a burn of several passes by
# time, with a group of like disks and one throttled through the lying
# disk, so the disks make different passes; a verify of a disk whose
# every unit reads zeroed, byte 0 included, and whose byte 0 comes back
# last; each read from the console, summary.txt, result.json,
# report.html (and its DOM as headless chromium renders it), ocptv.jsonl,
# an rma-*.txt, the metrics a real Pushgateway holds, and kiln fleet's
# fleet.csv and fleet.html, and summary.txt and report.html as kiln
# report writes them again from result.json. Outputs are compared with each other, never
# with expected speeds.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"
. "$TOP/tests/lib/servers.sh"

need_lying
command -v python3 >/dev/null 2>&1 || test_skip_all "needs python3"
FIG="python3 $TOP/tests/lib/figures.py"
# A results tree a run: kiln fleet says each machine's latest run.
mkdir -p "$TEST_TMP/time/figures-helper" "$TEST_TMP/zeroed/figures-helper"

if [ -x "$PG" ] && servers_pushgateway; then
	METRICS="--metrics $GW/"
else
	METRICS=
fi

test_expect_success 'a burn by time: like disks and a throttled one, all outputs agree' '
	make_loop a1 24M /dev/shm && make_loop a2 24M /tmp &&
	make_loop a3 24M /var/tmp && make_lying sl 24M &&
	lying "$sl" slow 0 24M 20 write &&
	"$KILN" burn --destroy-data --duration 4 --max-writes 0 \
		--interval 1 $METRICS --out "$TEST_TMP/time/figures-helper/run" \
		"$a1" "$a2" "$a3" "$sl" >"$TEST_TMP/time.out" 2>&1 &&
	cat "$TEST_TMP/time.out" | sed -n "/ done /p" &&
	grep -q "^work: [0-9]*-[0-9]* passes, " \
		"$TEST_TMP/time/figures-helper/run/summary.txt" &&
	if [ -n "$METRICS" ]; then
		gw_fetch time.prom && m="--metrics $TEST_TMP/time.prom"
	else
		m=
	fi &&
	$FIG "$TEST_TMP/time/figures-helper/run" --console "$TEST_TMP/time.out" $m
'

test_expect_success 'every unit zeroed, byte 0 read last: the first bad byte is 0 everywhere' '
	make_lying z 16M && lying "$z" snapshot &&
	"$KILN" burn --destroy-data --mode write --out "$TEST_TMP/zw" \
		"$z" >"$TEST_TMP/zw.out" 2>&1 &&
	lying "$z" revert &&
	# Its first request ends after the others, whose units fill the list.
	lying "$z" slow 0 1M 500 read &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/zw" --max-detail 10 \
		--reread 0 \
		$METRICS --out "$TEST_TMP/zeroed/figures-helper/run" \
		>"$TEST_TMP/zeroed.out" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/zeroed/figures-helper/run/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bad_units\"][\"count\"]")" = 4096 ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bad_units\"][\"first_byte\"]")" = 0 ] &&
	grep_in "the first at byte 0" "$TEST_TMP/zeroed/figures-helper/run/summary.txt" &&
	if [ -n "$METRICS" ]; then
		gw_fetch zeroed.prom && m="--metrics $TEST_TMP/zeroed.prom"
	else
		m=
	fi &&
	$FIG "$TEST_TMP/zeroed/figures-helper/run" --console "$TEST_TMP/zeroed.out" $m
'

test_expect_success 'kiln fleet says the passes and the duration the runs say' '
	for run in time zeroed; do
		"$KILN" fleet --out "$TEST_TMP/fleet-$run" "$TEST_TMP/$run" \
			>"$TEST_TMP/fleet.out" 2>&1 &&
		$FIG "$TEST_TMP/$run/figures-helper/run" \
			--fleet "$TEST_TMP/fleet-$run" || return 1
	done
'

test_expect_success 'kiln report writes them again from result.json: the same figures' '
	for run in time zeroed; do
		cp -a "$TEST_TMP/$run/figures-helper/run" "$TEST_TMP/again-$run" &&
		rm "$TEST_TMP/again-$run/summary.txt" \
			"$TEST_TMP/again-$run/report.html" &&
		{ "$KILN" report "$TEST_TMP/again-$run" >/dev/null 2>&1
		  test $? -le 1; } &&
		$FIG "$TEST_TMP/again-$run" || return 1
	done
'

if [ -n "$METRICS" ]; then
	:
else
	test_skip "no Pushgateway ($PG): the metrics were not compared"
fi

. "$TOP/tests/lib/chromium.sh"
if have_chromium; then
	test_expect_success 'report.html as chromium renders it says the same figures' '
		for run in time zeroed; do
			render "$TEST_TMP/$run/figures-helper/run/report.html" \
				"$TEST_TMP/$run.dom" &&
			$FIG "$TEST_TMP/$run/figures-helper/run" \
				--dom "$TEST_TMP/$run.dom" ||
				return 1
		done
	'
fi

test_done
