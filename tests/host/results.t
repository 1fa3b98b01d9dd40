#!/bin/sh
# needs: kiln
# Results are never lost silently: the run folder is proven writable with
# room before any disk is touched (exit 3, nothing touched), must be absent
# or empty, keeps one good checkpoint whatever is torn, and a run whose
# results are not all written never exits 0. SIGHUP and a closed stdout
# end a run as SIGTERM does. Figures are honest: averages inside their
# slowest and fastest seconds, names whole, samples one a time.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

M=1048576

# results_in DIR: the run's folder has a result.json that parses.
results_in () {
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1/result.json"
}

need_root

# tmpfs DIR SIZE: a small filesystem of our own, gone at exit.
tmpfs () {
	mkdir -p "$1" && mount -t tmpfs -o "size=$2" kiln-results "$1" &&
	test_at_exit "umount -l '$1'"
}

test_expect_success 'no room for the results: exit 3 before any disk is touched' '
	tmpfs "$TEST_TMP/full" 2M && make_loop d 16M && s=$(md5sum <"$d") &&
	{ "$KILN" burn --out "$TEST_TMP/full/run" "$d" >"$TEST_TMP/o" 2>"$TEST_TMP/e"
	  test $? = 3; } &&
	grep_in "cannot write the results in $TEST_TMP/full/run" "$TEST_TMP/e" &&
	[ "$(md5sum <"$d")" = "$s" ] && [ ! -e "$TEST_TMP/full/run" ]
'

test_expect_success 'results that fill up mid-run: said, exit 3; one good checkpoint' '
	tmpfs "$TEST_TMP/small" 8M && make_loop d2 64M &&
	{ "$KILN" burn --duration 60s --checkpoint 1 --interval 1 --max-writes 0 \
		--out "$TEST_TMP/small/run" "$d2" >"$TEST_TMP/o" 2>"$TEST_TMP/e" & } &&
	pid=$! && checkpointed "$TEST_TMP/small/run" 2 &&
	dd if=/dev/zero of="$TEST_TMP/small/filler" bs=64k 2>/dev/null;
	test_wait_for "grep -q \"cannot write the results\" \"\$TEST_TMP/e\"" &&
	kill -INT $pid && { wait $pid; test $? = 3; } &&
	grep_in "cannot write the results" "$TEST_TMP/e" &&
	grep_in "INCOMPLETE" "$TEST_TMP/o" &&
	results_in "$TEST_TMP/small/run" &&
	[ "$(json_get "$TEST_TMP/small/run/result.json" "d[\"results_complete\"]")" = False ]
'

test_expect_success 'kill -9 on a full medium leaves a good checkpoint' '
	rm -f "$TEST_TMP/small/filler" && rm -rf "$TEST_TMP/small/run" &&
	{ "$KILN" burn --duration 60s --checkpoint 1 --max-writes 0 \
		--out "$TEST_TMP/small/run" "$d2" >/dev/null 2>&1 & } &&
	pid=$! && checkpointed "$TEST_TMP/small/run" 2 &&
	dd if=/dev/zero of="$TEST_TMP/small/filler" bs=4k 2>/dev/null;
	sleep 3 && kill -9 $pid && { wait $pid; true; } &&
	python3 - "$TEST_TMP/small/run" <<-\PY
	import glob, json, sys
	good = 0
	for f in glob.glob(sys.argv[1] + "/checkpoint-*.json"):
	    try:
	        json.load(open(f)); good += 1
	    except ValueError:
	        pass
	assert good >= 1, "no good checkpoint"
	PY
'

test_expect_success '--json that cannot be written: said, and the results are in the run folder' '
	mkdir "$TEST_TMP/jd" && cd "$TEST_TMP/jd" &&
	"$KILN" burn --json --size 4M "$TEST_TMP/j.img" >/dev/full 2>"$TEST_TMP/e" &&
	cd "$TEST_TMP" &&
	grep_in "cannot write the results to standard output: No space left on device; they are in ./kiln-results/" "$TEST_TMP/e" &&
	[ "$(find "$TEST_TMP/jd/kiln-results" -name result.json | wc -l)" = 1 ] &&
	"$KILN" burn --json --out "$TEST_TMP/jo" --size 4M "$TEST_TMP/j.img" \
		>/dev/full 2>"$TEST_TMP/e" &&
	grep_in "standard output: No space left on device; they are in $TEST_TMP/jo" "$TEST_TMP/e" &&
	"$KILN" burn --json --size 4M "$TEST_TMP/j.img" 2>/dev/null >"$TEST_TMP/j.json" &&
	[ "$(json_get "$TEST_TMP/j.json" "d[\"exit_code\"]")" = 0 ]
'

test_expect_success 'a --span 4M burn of flash says nothing of passes it will not make' '
	make_loop f 64M &&
	"$KILN" burn --span 4M "$f" >"$TEST_TMP/o" 2>&1 &&
	! grep -q "only verify" "$TEST_TMP/o" &&
	"$KILN" burn --span 4M --passes 40 "$f" >"$TEST_TMP/o" 2>&1 &&
	grep_in "at most 2 whole-disk writes on flash (max-writes), so 32 write passes of its 4 MiB region" "$TEST_TMP/o"
'

test_done
