#!/bin/sh
# needs: kiln
# A head node with four 106-bay JBODs is one run: 1,024 targets (regular
# files of 1 MiB here) are burnt in one kiln burn, which raises its soft
# limit of open files (an image's PID 1 starts at 1,024) to the hard one,
# and kiln fleet and kiln report read the folder it writes. A hard limit
# too low for the targets is said as such, before any file is made (one
# target past 1,024: record-bound.t).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

R="$TEST_TMP/lab/m1/run1"
F="$TEST_TMP/scale-f"

# burn N OUT [ARG...]: kiln burn of targets 1 to N, 1 MiB each.
burn () {
	n=$1 out=$2 && shift 2 &&
	i=0 && set -- --size 1M --out "$out" "$@" &&
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1)) && set -- "$@" "$F$i"
	done &&
	"$KILN" burn "$@"
}

test_expect_success 'a hard limit of open files too low: said, nothing made' '
	code=0 &&
	(ulimit -n 512 && burn 1024 "$TEST_TMP/low") \
		>"$TEST_TMP/low.out" 2>&1 || code=$? &&
	cat "$TEST_TMP/low.out" &&
	[ "$code" = 3 ] &&
	grep_in "1024 targets need" "$TEST_TMP/low.out" &&
	grep_in "the limit is 512 (RLIMIT_NOFILE" "$TEST_TMP/low.out" &&
	[ ! -e "$F"1 ] && [ ! -e "$TEST_TMP/low" ]
'

# The soft limit of an image's PID 1; the hard limit as the machine has it.
test_expect_success '1,024 targets at a soft limit of 1,024 files: PASS' '
	mkdir -p "$TEST_TMP/lab/m1" &&
	hard=$(ulimit -Hn) &&
	if [ "$hard" != unlimited ] && [ "$hard" -lt 3328 ]; then
		echo "# the hard limit of open files is $hard: too low" &&
		false
	fi &&
	(ulimit -Sn 1024 && burn 1024 "$R") >"$TEST_TMP/burn.out" 2>&1 ||
		{ tail -40 "$TEST_TMP/burn.out"; false; }
	[ "$(json_get "$R/result.json" "d[\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$R/result.json" "len(d[\"targets\"])")" = 1024 ] &&
	[ "$(json_get "$R/result.json" "sum(1 for t in d[\"targets\"]
		if t[\"verdict\"] == \"PASS\")")" = 1024 ] &&
	grep_in "PASS, 1024 targets, 0 failed" "$TEST_TMP/burn.out"
'

test_expect_success 'kiln fleet reads the folder: the run is complete' '
	"$KILN" fleet --out "$TEST_TMP/fl" "$TEST_TMP/lab" \
		>"$TEST_TMP/fleet.out" 2>&1 ||
		{ cat "$TEST_TMP/fleet.out"; false; }
	mid=$(json_get "$R/result.json" "d[\"machine_id\"]") && [ -n "$mid" ] &&
	grep_in "\"$mid\",\"PASS\",\"complete\"" "$TEST_TMP/fl/fleet.csv"
'

test_expect_success 'kiln report reads the folder and writes it again' '
	rm "$R/summary.txt" "$R/report.html" &&
	"$KILN" report "$R" >"$TEST_TMP/report.out" 2>&1 ||
		{ cat "$TEST_TMP/report.out"; false; }
	grep_in "$R: summary.txt and report.html written (PASS)" \
		"$TEST_TMP/report.out" &&
	[ -s "$R/summary.txt" ] && [ -s "$R/report.html" ]
'

test_done
