#!/bin/sh
# needs: kiln
# A run cut off (kill -9, a power cut) leaves checkpoints and no
# result.json; kiln finish makes it a finished folder from the newest good
# checkpoint: result.json (state interrupted), summary.txt, report.html,
# with what was seen until then, and exits with that run's code. A
# finished folder is left as it is; one with no good checkpoint is exit 3.
. "$(dirname "$0")/../lib/tap.sh"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# cut DIR ARGS...: a burn into DIR killed with SIGKILL once it has written
# three checkpoints (two of them during the burn).
cut () {
	d=$1
	shift
	"$KILN" burn --checkpoint 1 --out "$d" "$@" >/dev/null 2>&1 &
	cut_pid=$!
	checkpointed "$d" 3
	kill -9 $cut_pid
	wait $cut_pid
	[ ! -e "$d/result.json" ] && [ -e "$d/checkpoint-a.json" ]
}

test_expect_success 'a verify from a run cut off after its checkpoint: later passes are no loss' '
	"$KILN" burn --checkpoint 1 --out "$TEST_TMP/l" --mode write --passes 100000 \
		--bs 4k --qd 1 --size 8M "$TEST_TMP/l.img" >/dev/null 2>&1 &
	pid=$! &&
	test_wait_for "grep -q \"\\\"last_pass_written\\\": \\([2-9]\\|[1-9][0-9]\\)\" \
		\"$TEST_TMP/l\"/checkpoint-*.json 2>/dev/null" &&
	sleep 1 && kill -9 $pid && { wait $pid; true; } &&
	"$KILN" burn --mode verify --from "$TEST_TMP/l" --out "$TEST_TMP/lv" \
		"$TEST_TMP/l.img" >"$TEST_TMP/lv.out" 2>&1 &&
	r="$TEST_TMP/lv/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"units_of_later_passes\"] > 0")" = True ] &&
	grep_in "units hold a later pass of this run than pass" "$TEST_TMP/lv/summary.txt" &&
	{ "$KILN" finish "$TEST_TMP/l" >/dev/null 2>&1; test $? = 4; } &&
	"$KILN" burn --mode verify --from "$TEST_TMP/l" --out "$TEST_TMP/lf" \
		"$TEST_TMP/l.img" >/dev/null 2>&1
'

test_expect_success 'a verify cut off is finished against its record; a missing disk never started' '
	"$KILN" burn --out "$TEST_TMP/wn" --mode write --size 256M \
		"$TEST_TMP/n1.img" "$TEST_TMP/n2.img" >/dev/null 2>&1 &&
	mv "$TEST_TMP/n2.img" "$TEST_TMP/n2.gone" &&
	"$KILN" burn --out "$TEST_TMP/vn" --mode verify --from "$TEST_TMP/wn" \
		--bs 4k --qd 1 --checkpoint 1 >/dev/null 2>&1 &
	pid=$! &&
	test_wait_for "[ -e \"$TEST_TMP/vn/checkpoint-b.json\" ]" &&
	kill -9 $pid && { wait $pid; true; } &&
	{ "$KILN" finish "$TEST_TMP/vn" >/dev/null 2>&1; test $? = 1; } &&
	r="$TEST_TMP/vn/result.json" &&
	[ "$(json_get "$r" "d[\"verified_from\"]")" = "$TEST_TMP/wn" ] &&
	[ "$(json_get "$r" "d[\"targets\"][1][\"state\"]")" = "not started" ] &&
	! grep -q "verified without the run record" "$TEST_TMP/vn/summary.txt" &&
	rm -f "$TEST_TMP/n1.img" "$TEST_TMP/n2.gone"
'

test_expect_success 'a run killed with SIGKILL is finished: interrupted, exit 4' '
	cut "$TEST_TMP/k" --size 256M --passes 1000 --max-writes 0 "$TEST_TMP/k.img" &&
	{ "$KILN" finish "$TEST_TMP/k" >"$TEST_TMP/o" 2>&1; test $? = 4; } &&
	grep_in "finished from checkpoint" "$TEST_TMP/o" &&
	r="$TEST_TMP/k/result.json" &&
	[ "$(json_get "$r" "d[\"state\"]")" = interrupted ] &&
	[ "$(json_get "$r" "d[\"exit_code\"]")" = 4 ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bytes_written\"] > 0")" = True ] &&
	grep_in "finished by kiln finish from checkpoint" "$TEST_TMP/k/summary.txt" &&
	grep_in "<h1>kiln burn:" "$TEST_TMP/k/report.html"
'

test_expect_success 'a finished folder is left as it is (exit 0, said)' '
	s=$(md5sum <"$TEST_TMP/k/result.json") &&
	"$KILN" finish "$TEST_TMP/k" >"$TEST_TMP/o" 2>&1 &&
	grep_in "is finished already (interrupted): left as it is" "$TEST_TMP/o" &&
	[ "$(md5sum <"$TEST_TMP/k/result.json")" = "$s" ]
'

test_expect_success 'a run that had failed a disk finishes with exit 1' '
	"$KILN" burn --mode write --size 64M --out "$TEST_TMP/w" "$TEST_TMP/f.img" \
		>/dev/null 2>&1 &&
	python3 "$TOP/tests/lib/poke.py" "$TEST_TMP/f.img" flip 4096 1 &&
	cut "$TEST_TMP/v" --mode verify --from "$TEST_TMP/w" --duration 60s &&
	{ "$KILN" finish "$TEST_TMP/v" >"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	[ "$(json_get "$TEST_TMP/v/result.json" "d[\"targets\"][0][\"verdict\"]")" = FAIL ]
'

test_expect_success 'no good checkpoint: exit 3, naming the folder' '
	cut "$TEST_TMP/b" --size 256M --passes 1000 --max-writes 0 "$TEST_TMP/b.img" &&
	for c in "$TEST_TMP"/b/checkpoint-*.json; do
		python3 "$TOP/tests/lib/poke.py" "$c" flip 200 1 || return 1
	done &&
	{ "$KILN" finish "$TEST_TMP/b" 2>"$TEST_TMP/e"; test $? = 3; } &&
	grep_in "$TEST_TMP/b: no good checkpoint" "$TEST_TMP/e" &&
	[ ! -e "$TEST_TMP/b/result.json" ]
'

test_expect_success 'a torn newest checkpoint: finished from the one before' '
	cut "$TEST_TMP/t" --size 256M --passes 1000 --max-writes 0 "$TEST_TMP/t.img" &&
	newest=$(python3 -c "
import json, glob, sys
c = [(json.load(open(f))[\"seq\"], f) for f in glob.glob(sys.argv[1] + \"/checkpoint-*.json\")]
print(max(c)[1])" "$TEST_TMP/t") &&
	truncate -s 100 "$newest" &&
	{ "$KILN" finish "$TEST_TMP/t" >"$TEST_TMP/o" 2>&1; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/t/result.json" "d[\"state\"]")" = interrupted ]
'

test_done
