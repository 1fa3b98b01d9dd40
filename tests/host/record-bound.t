#!/bin/sh
# needs: kiln
# The run record is bounded by its disks, not by its passes: a soak of
# four 4 KiB files runs each phase thousands of times, and its result.json
# and checkpoints stay small (past 16 runs of a phase the rest is folded
# into its totals) and are read by kiln finish, verify --from and kiln
# fleet. A record too large for them (as kiln before schema 3 wrote) is
# said as too large, never finished over nor shown as a run.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

R="$TEST_TMP/lab/m1/run1"
F="$TEST_TMP/f"

test_expect_success 'a soak of four 4 KiB files' '
	mkdir -p "$TEST_TMP/lab/m1" &&
	"$KILN" burn --size 4k --passes 40 --out "$R" \
		"$F"1 "$F"2 "$F"3 "$F"4 >"$TEST_TMP/burn.out" 2>&1 ||
		{ cat "$TEST_TMP/burn.out"; false; }
'

# Counts, not times: the soak must have run well past the folding (40
# passes, not a duration: a busy machine makes fewer in a given time).
test_expect_success 'every target ran its phases more than 16 times' '
	r="$R/result.json" &&
	[ "$(json_get "$r" "d[\"schema_version\"]")" = 4 ] &&
	[ "$(json_get "$r" "min(t[\"pass_totals\"][p][\"passes\"]
		for t in d[\"targets\"] for p in (\"write\", \"verify\"))")" \
		-gt 16 ]
'

test_expect_success 'result.json and the checkpoints are under 1 MB' '
	for f in result.json checkpoint-a.json checkpoint-b.json; do
		s=$(stat -c %s "$R/$f") &&
		echo "$f: $s bytes" &&
		[ "$s" -lt 1000000 ] || return 1
	done
'

test_expect_success 'the folded totals count every run and every byte' '
	r="$R/result.json" &&
	[ "$(json_get "$r" "all(len(t[\"passes\"]) + t[\"passes_folded\"] ==
		sum(v[\"passes\"] for v in t[\"pass_totals\"].values())
		for t in d[\"targets\"])")" = True ] &&
	[ "$(json_get "$r" "all(t[\"pass_totals\"][p][\"bytes\"] ==
		t[\"phases\"][p][\"bytes\"] for t in d[\"targets\"]
		for p in (\"write\", \"verify\"))")" = True ] &&
	[ "$(json_get "$r" "all(len([q for q in t[\"passes\"]
		if q[\"phase\"] == p]) == min(24, v[\"passes\"])
		for t in d[\"targets\"]
		for p, v in t[\"pass_totals\"].items())")" = True ] &&
	[ "$(json_get "$r" "all(t[\"passes\"][-1][\"run\"] ==
		t[\"pass_totals\"][t[\"passes\"][-1][\"phase\"]][\"passes\"]
		for t in d[\"targets\"])")" = True ]
'

test_expect_success 'kiln finish reads it: finished already' '
	"$KILN" finish "$R" >"$TEST_TMP/finish.out" 2>&1 &&
	grep_in "is finished already (complete)" "$TEST_TMP/finish.out"
'

test_expect_success 'verify --from reads it and checks every file' '
	"$KILN" burn --mode verify --from "$R" --out "$TEST_TMP/v" \
		"$F"1 "$F"2 "$F"3 "$F"4 >"$TEST_TMP/verify.out" 2>&1 ||
		{ cat "$TEST_TMP/verify.out"; false; }
	[ "$(json_get "$TEST_TMP/v/result.json" "d[\"verdict\"]")" = PASS ]
'

# A run read whole is grouped by the machine id it carries; one that cannot
# be read (below) by its machine's folder.
test_expect_success 'kiln fleet reads it: the run is complete' '
	"$KILN" fleet --out "$TEST_TMP/fl" "$TEST_TMP/lab" \
		>"$TEST_TMP/fleet.out" 2>&1 &&
	mid=$(json_get "$R/result.json" "d[\"machine_id\"]") && [ -n "$mid" ] &&
	grep_in "\"$mid\",\"PASS\",\"complete\"" "$TEST_TMP/fl/fleet.csv"
'

# A copy whose result.json and newest checkpoint are past 512 MiB (sparse:
# nothing reads that far); the older checkpoint stays good, as an early
# one of today's kiln does: it must not stand in for the run's end.
B="$TEST_TMP/big/m1/run1"
seq_of () {
	sed -n "1s/.*\"seq\": \([0-9]*\).*/\1/p" "$1"
}
test_expect_success 'a record past the readers limit' '
	mkdir -p "$TEST_TMP/big/m1" && cp -r "$R" "$B" &&
	truncate -s 600M "$B/result.json" &&
	a=$(seq_of "$B/checkpoint-a.json") &&
	b=$(seq_of "$B/checkpoint-b.json") &&
	if [ "$a" -gt "$b" ]; then n=a; else n=b; fi &&
	truncate -s 600M "$B/checkpoint-$n.json"
'

test_expect_success 'kiln finish says it is too large and leaves it' '
	code=0 &&
	"$KILN" finish "$B" >"$TEST_TMP/bfinish.out" 2>&1 || code=$? &&
	cat "$TEST_TMP/bfinish.out" &&
	[ "$code" = 3 ] &&
	[ "$(wc -l <"$TEST_TMP/bfinish.out")" = 1 ] &&
	grep_in "$B/result.json is 629145600 bytes, over the limit of" \
		"$TEST_TMP/bfinish.out" &&
	grep_in " 536870912 that kiln reads" "$TEST_TMP/bfinish.out" &&
	[ "$(stat -c %s "$B/result.json")" = 629145600 ] &&
	[ ! -e "$B/result.json.tmp" ]
'

test_expect_success 'verify --from says it is too large, nothing verified' '
	code=0 &&
	"$KILN" burn --mode verify --from "$B" --out "$TEST_TMP/bv" \
		"$F"1 "$F"2 "$F"3 "$F"4 >"$TEST_TMP/bverify.out" 2>&1 ||
		code=$? &&
	cat "$TEST_TMP/bverify.out" &&
	[ "$code" = 2 ] &&
	grep_in "$B/result.json is 629145600 bytes, over the limit of" \
		"$TEST_TMP/bverify.out"
'

test_expect_success 'kiln fleet shows the run unreadable, not failed' '
	"$KILN" fleet --out "$TEST_TMP/bfl" "$TEST_TMP/big" \
		>"$TEST_TMP/bfleet.out" 2>&1 &&
	grep_in "\"m1\",\"\",\"unreadable\"" "$TEST_TMP/bfl/fleet.csv" &&
	grep_in "result.json is 629145600 bytes, over the limit of 536870912" \
		"$TEST_TMP/bfl/fleet.csv"
'

# A run cut off (no result.json) whose newest checkpoint is too large.
C="$TEST_TMP/cut/m1/run1"
test_expect_success 'a cut-off run: its newest checkpoint too large' '
	mkdir -p "$TEST_TMP/cut/m1" && cp -r "$B" "$C" &&
	rm "$C/result.json" &&
	ls -l "$C"/checkpoint-*.json
'

test_expect_success '...kiln finish says so and leaves it' '
	code=0 &&
	"$KILN" finish "$C" >"$TEST_TMP/cfinish.out" 2>&1 || code=$? &&
	cat "$TEST_TMP/cfinish.out" &&
	[ "$code" = 3 ] && [ ! -e "$C/result.json" ] &&
	[ "$(wc -l <"$TEST_TMP/cfinish.out")" = 1 ] &&
	grep_in "$C/checkpoint-$n.json is 629145600 bytes, over the limit" \
		"$TEST_TMP/cfinish.out"
'

test_expect_success '...verify --from and kiln fleet say so' '
	code=0 &&
	"$KILN" burn --mode verify --from "$C" --out "$TEST_TMP/cv" \
		"$F"1 "$F"2 "$F"3 "$F"4 >"$TEST_TMP/cverify.out" 2>&1 ||
		code=$? &&
	[ "$code" = 2 ] &&
	grep_in "$C/checkpoint-$n.json is 629145600 bytes, over the limit" \
		"$TEST_TMP/cverify.out" &&
	"$KILN" fleet --out "$TEST_TMP/cfl" "$TEST_TMP/cut" \
		>"$TEST_TMP/cfleet.out" 2>&1 &&
	grep_in "\"m1\",\"\",\"unreadable\"" "$TEST_TMP/cfl/fleet.csv" &&
	grep_in "checkpoint-$n.json is 629145600 bytes, over the limit" \
		"$TEST_TMP/cfl/fleet.csv"
'

test_expect_success 'a run takes 1,024 targets at most, nothing touched past' '
	mkdir "$TEST_TMP/many" &&
	set -- $(seq -f "$TEST_TMP/many/t%g" 1 1025) &&
	code=0 &&
	"$KILN" burn --size 4k --out "$TEST_TMP/manyrun" "$@" \
		>"$TEST_TMP/many.out" 2>&1 || code=$? &&
	cat "$TEST_TMP/many.out" &&
	[ "$code" = 2 ] &&
	grep_in "1025 targets: a run takes 1024 at most" "$TEST_TMP/many.out" &&
	[ -z "$(ls "$TEST_TMP/many")" ] && [ ! -e "$TEST_TMP/manyrun" ]
'

test_done
