#!/bin/sh
# needs: kiln
# kiln burn on healthy targets: four loop devices written and verified at
# once pass, with every result file in place; files are created and burnt
# too; the shipped binary is static.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

test_expect_success 'four loop devices: write-verify passes on all' '
	make_loop d1 64M && make_loop d2 64M &&
	make_loop d3 64M && make_loop d4 96M &&
	"$KILN" burn --destroy-data --out "$TEST_TMP/run" \
		"$d1" "$d2" "$d3" "$d4" >"$TEST_TMP/run.out" 2>&1 &&
	cat "$TEST_TMP/run.out" &&
	[ "$(grep -c "): PASS$" "$TEST_TMP/run/summary.txt")" = 4 ] &&
	grep_in "kiln burn: PASS, 4 targets, 0 failed" "$TEST_TMP/run/summary.txt"
'

test_expect_success 'result.json holds every target, all bytes verified' '
	r="$TEST_TMP/run/result.json" &&
	[ "$(json_get "$r" "d[\"schema_version\"]")" = 4 ] &&
	[ "$(json_get "$r" "d[\"state\"]")" = complete ] &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "len(d[\"targets\"])")" = 4 ] &&
	[ "$(json_get "$r" "sum(t[\"bytes_read\"] for t in d[\"targets\"])")" = \
		$((288 * 1048576)) ] &&
	[ "$(json_get "$r" "d[\"targets\"][3][\"identity\"]")" = \
		"loop:$(backing "$d4")" ] &&
	json_get "$r" "d[\"kernel\"]" | grep -q . &&
	json_get "$r" "d[\"kiln_version\"]" | grep -q .
'

test_expect_success 'report.html: the verdict, a row and a plot for every target' '
	h="$TEST_TMP/run/report.html" &&
	python3 -c "import html.parser,sys; html.parser.HTMLParser().feed(open(sys.argv[1]).read())" "$h" &&
	grep -q "<h1>kiln burn: <span class=\"PASS\">PASS</span></h1>" "$h" &&
	[ "$(grep -c "<div class=\"cell\"" "$h")" = 8 ] &&
	[ "$(grep -c "<svg" "$h")" -le 12 ] &&
	[ "$(grep -c "<h2>loop" "$h")" = 4 ] &&
	! grep -q "<script" "$h"
'

test_expect_success 'samples.csv has every target and both phases' '
	s="$TEST_TMP/run/samples.csv" &&
	head -1 "$s" | grep -q "^elapsed_s,target,phase,pass,write_bytes,read_bytes$" &&
	for d in "$d1" "$d2" "$d3" "$d4"; do
		grep -q ",$(basename "$d")," "$s" || return 1
	done &&
	awk -F, "NR > 1 { w += \$5; r += \$6 } END { exit !(w == r && w == 288 * 1048576) }" "$s"
'

test_expect_success 'the checkpoints are valid JSON with the final state' '
	for c in "$TEST_TMP/run"/checkpoint-*.json; do
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$c" || return 1
	done &&
	python3 -c "
import json, glob, sys
c = [json.load(open(f)) for f in glob.glob(sys.argv[1] + \"/checkpoint-*.json\")]
newest = max(c, key=lambda x: x[\"seq\"])
sys.exit(newest[\"result\"][\"state\"] != \"complete\")" "$TEST_TMP/run"
'

test_expect_success '--json prints the result document on stdout only' '
	"$KILN" burn --json --passes 2 --max-writes 0 --bs 128k --qd 4 \
		"$d1" >"$TEST_TMP/j.json" 2>"$TEST_TMP/j.err" &&
	[ "$(json_get "$TEST_TMP/j.json" "d[\"targets\"][0][\"region_writes\"]")" = 2 ] &&
	[ "$(json_get "$TEST_TMP/j.json" "d[\"targets\"][0][\"verified_pass\"]")" = 2 ] &&
	grep_in "PASS" "$TEST_TMP/j.err"
'

test_expect_success 'a quick span tests start, middle and end only' '
	"$KILN" burn --destroy-data --span quick:3M --json "$d4" \
		>"$TEST_TMP/q.json" 2>/dev/null &&
	[ "$(json_get "$TEST_TMP/q.json" "[e[\"offset\"] for e in d[\"targets\"][0][\"region\"]]")" = \
		"[0, 49807360, 99614720]" ] &&
	[ "$(json_get "$TEST_TMP/q.json" "d[\"targets\"][0][\"bytes_read\"]")" = 3145728 ]
'

test_expect_success 'a non-rotational disk is capped at 2 writes, then verifies (the first guarded)' '
	"$KILN" burn --passes 3 --json "$d2" >"$TEST_TMP/c.json" 2>"$TEST_TMP/c.err" &&
	grep_in "at most 2 whole-disk writes" "$TEST_TMP/c.err" &&
	[ "$(json_get "$TEST_TMP/c.json" "d[\"targets\"][0][\"region_writes\"]")" = 2 ] &&
	[ "$(json_get "$TEST_TMP/c.json" "\" \".join(p[\"phase\"] for p in d[\"targets\"][0][\"passes\"])")" = \
		"guard write flush verify write flush verify verify" ]
'

# A pass of 4 MiB, far shorter than the 3 s on any machine (ThreadSanitizer
# and a busy machine make one of 64 MiB take longer: then no second pass).
test_expect_success '--duration repeats passes until the time is up' '
	"$KILN" burn --duration 3s --span 4M --max-writes 0 --json "$d1" >"$TEST_TMP/d.json" 2>/dev/null &&
	[ "$(json_get "$TEST_TMP/d.json" "d[\"state\"]")" = complete ] &&
	[ "$(json_get "$TEST_TMP/d.json" "d[\"targets\"][0][\"region_writes\"] >= 2")" = True ] &&
	[ "$(json_get "$TEST_TMP/d.json" "d[\"elapsed_seconds\"] >= 3")" = True ]
'

test_expect_success 'a pass cut short by --duration verifies what it wrote' '
	make_loop long 1G &&
	"$KILN" burn --destroy-data --duration 1s --bs 4k --qd 1 --json "$long" \
		>"$TEST_TMP/cut.json" 2>/dev/null &&
	c="$TEST_TMP/cut.json" &&
	[ "$(json_get "$c" "d[\"targets\"][0][\"passes\"][0][\"complete\"]")" = False ] &&
	[ "$(json_get "$c" "d[\"targets\"][0][\"bytes_written\"] < 1 << 30")" = True ] &&
	[ "$(json_get "$c" "d[\"targets\"][0][\"bytes_read\"] == d[\"targets\"][0][\"bytes_written\"]")" = True ] &&
	[ "$(json_get "$c" "d[\"targets\"][0][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$c" "d[\"targets\"][0][\"stopped_because\"]")" = \
		"the duration ran out in pass 1" ]
'

test_done
