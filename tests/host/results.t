#!/bin/sh
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

test_expect_success 'an --out that holds files is refused (exit 2), nothing written' '
	"$KILN" burn --size 4M --out "$TEST_TMP/used" "$TEST_TMP/u.img" >/dev/null 2>&1 &&
	s=$(md5sum <"$TEST_TMP/u.img") &&
	{ "$KILN" burn --out "$TEST_TMP/used" "$TEST_TMP/u.img" 2>"$TEST_TMP/e"
	  test $? = 2; } &&
	grep_in "is not empty" "$TEST_TMP/e" &&
	[ "$(md5sum <"$TEST_TMP/u.img")" = "$s" ] &&
	mkdir "$TEST_TMP/empty" &&
	"$KILN" burn --out "$TEST_TMP/empty" "$TEST_TMP/u.img" >/dev/null 2>&1 &&
	results_in "$TEST_TMP/empty"
'

test_expect_success 'two files with one name keep their bad units apart' '
	mkdir -p "$TEST_TMP/a" "$TEST_TMP/b" &&
	"$KILN" burn --mode write --size 4M --out "$TEST_TMP/w" \
		"$TEST_TMP/a/disk.img" "$TEST_TMP/b/disk.img" >/dev/null 2>&1 &&
	for d in a b; do
		python3 "$TOP/tests/lib/poke.py" "$TEST_TMP/$d/disk.img" flip 5000 1 ||
			return 1
	done &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" --out "$TEST_TMP/v" \
		>/dev/null 2>&1; test $? = 1; } &&
	[ -e "$TEST_TMP/v/bad-unit-disk.img-4096.read" ] &&
	[ -e "$TEST_TMP/v/bad-unit-disk.img-2-4096.read" ] &&
	grep_in "disk.img-2" "$TEST_TMP/v/summary.txt"
'

test_expect_success 'long names are not cut in the table' '
	"$KILN" burn --size 4M --out "$TEST_TMP/n" "$TEST_TMP/burn-slot-01.img" \
		"$TEST_TMP/burn-slot-02.img" >/dev/null 2>&1 &&
	grep -q "^burn-slot-01.img$" "$TEST_TMP/n/summary.txt" &&
	grep -q "^burn-slot-02.img$" "$TEST_TMP/n/summary.txt"
'

test_expect_success 'SIGHUP ends a run like SIGTERM: results written, exit 4' '
	{ "$KILN" burn --size 256M --passes 1000 --max-writes 0 --out "$TEST_TMP/hup" \
		"$TEST_TMP/hup.img" >/dev/null 2>&1 & } &&
	pid=$! && sleep 2 && kill -HUP $pid && { wait $pid; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/hup/result.json" "d[\"state\"]")" = interrupted ]
'

test_expect_success 'a closed stdout ends a run like SIGTERM: results written, exit 4' '
	mkfifo "$TEST_TMP/pipe" &&
	{ "$KILN" burn --interval 1 --size 256M --passes 1000 --max-writes 0 \
		--out "$TEST_TMP/pipe.out" "$TEST_TMP/p.img" >"$TEST_TMP/pipe" \
		2>/dev/null & } &&
	pid=$! && head -n 2 <"$TEST_TMP/pipe" >/dev/null &&
	{ wait $pid; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/pipe.out/result.json" "d[\"state\"]")" = interrupted ]
'

test_expect_success 'an interrupted run: its last line says stopped, figures hold' '
	{ "$KILN" burn --interval 1 --size 256M --passes 1000 --max-writes 0 \
		--out "$TEST_TMP/i" "$TEST_TMP/i.img" >"$TEST_TMP/i.out" 2>&1 & } &&
	pid=$! && sleep 4 && kill -INT $pid && { wait $pid; test $? = 4; } &&
	grep " stopped 1/1 " "$TEST_TMP/i.out" && ! grep -q " done 1/1 " "$TEST_TMP/i.out" &&
	python3 - "$TEST_TMP/i/result.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	for t in d["targets"]:
	    for name, p in t["phases"].items():
	        if p["min_mbps"] is not None:
	            assert p["min_mbps"] <= p["avg_mbps"] <= p["max_mbps"], (name, p)
	PY
'

test_expect_success 'samples.csv: never two rows of one target at one time' '
	s="$TEST_TMP/i/samples.csv" &&
	[ "$(tail -n +2 "$s" | cut -d, -f1,2 | sort | uniq -d | wc -l)" = 0 ] &&
	[ "$(tail -n +2 "$s" | wc -l)" -ge 3 ]
'

test_expect_success 'checkpoints keep to their period' '
	python3 - "$TEST_TMP/i" <<-\PY
	import glob, json, sys
	seqs = [json.load(open(f))["seq"] for f in glob.glob(sys.argv[1] + "/checkpoint-*.json")]
	assert max(seqs) >= 2, seqs
	PY
'

test_expect_success 'a quick span too small for three pieces is refused' '
	{ "$KILN" burn --span quick:4k "$TEST_TMP/i.img" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "three pieces" "$TEST_TMP/e"
'

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
	pid=$! && sleep 2 &&
	dd if=/dev/zero of="$TEST_TMP/small/filler" bs=64k 2>/dev/null;
	sleep 3 && kill -INT $pid && { wait $pid; test $? = 3; } &&
	grep_in "cannot write the results" "$TEST_TMP/e" &&
	grep_in "INCOMPLETE" "$TEST_TMP/o" &&
	results_in "$TEST_TMP/small/run" &&
	[ "$(json_get "$TEST_TMP/small/run/result.json" "d[\"results_complete\"]")" = False ]
'

test_expect_success 'kill -9 on a full medium leaves a good checkpoint' '
	rm -f "$TEST_TMP/small/filler" && rm -rf "$TEST_TMP/small/run" &&
	{ "$KILN" burn --duration 60s --checkpoint 1 --max-writes 0 \
		--out "$TEST_TMP/small/run" "$d2" >/dev/null 2>&1 & } &&
	pid=$! && sleep 3 &&
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

test_expect_success 'a --span 4M burn of flash says nothing of passes it will not make' '
	make_loop f 64M &&
	"$KILN" burn --span 4M "$f" >"$TEST_TMP/o" 2>&1 &&
	! grep -q "only verify" "$TEST_TMP/o" &&
	"$KILN" burn --span 4M --passes 40 "$f" >"$TEST_TMP/o" 2>&1 &&
	grep_in "at most 2 whole-disk writes on flash (max-writes), so 32 write passes of its 4 MiB region" "$TEST_TMP/o"
'

test_done
