#!/bin/sh
# needs: kiln lyingdisk
# One figure, one value: real burns of loop devices read back through
# every output, each figure held to result.json's at the rounding each
# prints it with (tests/lib/figures.py): a burn of several passes by
# time, with a group of 9 like disks (said once in summary.txt) and one
# throttled through the lying disk, so the disks make different passes;
# a verify of a disk whose every unit reads zeroed, byte 0 included, and
# whose byte 0 comes back last; a burn interrupted mid-pass; one killed
# and finished by kiln finish. Each is read
# from the console, summary.txt, result.json, report.html (and its DOM as
# headless chromium renders it), ocptv.jsonl, an rma-*.txt, the metrics a
# real Pushgateway holds, kiln fleet's fleet.csv and fleet.html, and
# summary.txt and report.html as kiln report writes them again from
# result.json. Outputs are compared with each other, never with expected
# speeds.
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
	set -- &&
	for i in 1 2 3; do
		for dir in /dev/shm /tmp /var/tmp; do
			make_loop a 16M "$dir" && set -- "$@" "$a" || return 1
		done
	done &&
	make_lying sl 24M &&
	lying "$sl" slow 0 24M 20 write &&
	"$KILN" burn --destroy-data --duration 4 --max-writes 0 \
		--interval 1 $METRICS --out "$TEST_TMP/time/figures-helper/run" \
		"$@" "$sl" >"$TEST_TMP/time.out" 2>&1 &&
	grep -q " (9 like disks)$" "$TEST_TMP/time/figures-helper/run/summary.txt" &&
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

test_expect_success 'a burn interrupted mid-pass: the pass cut short is counted by none' '
	mkdir -p "$TEST_TMP/cut/figures-helper" &&
	make_loop c1 32M /dev/shm && make_loop c2 48M /tmp &&
	{ "$KILN" burn --destroy-data --duration 600 --passes 1000000 \
		--max-writes 0 --interval 1 $METRICS \
		--out "$TEST_TMP/cut/figures-helper/run" "$c1" "$c2" \
		>"$TEST_TMP/cut.out" 2>&1 & } &&
	burn=$! &&
	test_at_exit "kill $burn 2>/dev/null" &&
	under_way "$TEST_TMP/cut/figures-helper/run" 3 &&
	kill -INT "$burn" && { wait "$burn"; [ $? = 4 ]; } &&
	grep -q "^[0-9:]* stopped 2/2  " "$TEST_TMP/cut.out" &&
	if [ -n "$METRICS" ]; then
		gw_fetch cut.prom && m="--metrics $TEST_TMP/cut.prom"
	else
		m=
	fi &&
	$FIG "$TEST_TMP/cut/figures-helper/run" --console "$TEST_TMP/cut.out" $m
'

test_expect_success 'a write-only burn and a read-only one: passes and rates of their phase' '
	make_loop w1 16M /tmp && make_loop w2 16M /dev/shm &&
	for mode in write read; do
		mkdir -p "$TEST_TMP/$mode/figures-helper" &&
		"$KILN" burn --destroy-data --mode $mode --passes 3 \
			--max-writes 0 $METRICS \
			--out "$TEST_TMP/$mode/figures-helper/run" "$w1" "$w2" \
			>"$TEST_TMP/$mode.out" 2>&1 &&
		[ "$(json_get "$TEST_TMP/$mode/figures-helper/run/result.json" \
			"[t[\"passes_made\"] for t in d[\"targets\"]]")" = "[3, 3]" ] &&
		if [ -n "$METRICS" ]; then
			gw_fetch $mode.prom && m="--metrics $TEST_TMP/$mode.prom"
		else
			m=
		fi &&
		$FIG "$TEST_TMP/$mode/figures-helper/run" \
			--console "$TEST_TMP/$mode.out" $m || return 1
	done
'

test_expect_success 'a burn killed, then kiln finish: its end is where its duration says' '
	mkdir -p "$TEST_TMP/killed/figures-helper" &&
	make_loop k1 32M /var/tmp &&
	{ "$KILN" burn --destroy-data --duration 600 --passes 1000000 \
		--max-writes 0 --checkpoint 1 \
		--out "$TEST_TMP/killed/figures-helper/run" "$k1" \
		>/dev/null 2>&1 & } &&
	kpid=$! &&
	test_at_exit "kill -9 $kpid 2>/dev/null" &&
	checkpointed "$TEST_TMP/killed/figures-helper/run" 4 &&
	kill -9 $kpid && { wait $kpid; true; } &&
	{ "$KILN" finish "$TEST_TMP/killed/figures-helper/run" >/dev/null 2>&1
	  test $? = 4; } &&
	$FIG "$TEST_TMP/killed/figures-helper/run"
'

test_expect_success 'kiln fleet says the passes and the duration the runs say' '
	for run in time zeroed cut killed write read; do
		"$KILN" fleet --out "$TEST_TMP/fleet-$run" "$TEST_TMP/$run" \
			>"$TEST_TMP/fleet.out" 2>&1 &&
		$FIG "$TEST_TMP/$run/figures-helper/run" \
			--fleet "$TEST_TMP/fleet-$run" || return 1
	done
'

test_expect_success 'kiln report writes them again from result.json: the same figures' '
	for run in time zeroed cut killed write read; do
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
		for run in time zeroed cut killed write read; do
			render "$TEST_TMP/$run/figures-helper/run/report.html" \
				"$TEST_TMP/$run.dom" &&
			$FIG "$TEST_TMP/$run/figures-helper/run" \
				--dom "$TEST_TMP/$run.dom" ||
				return 1
		done
	'
fi

test_done
