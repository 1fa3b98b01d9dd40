#!/bin/sh
# needs: kiln
# Every run keeps its run folder, for anyone (no root, files only; the
# folder on a target's own filesystem is in runfolder-dev.t): kiln burn
# without --out files its results under ./kiln-results/<machine id>/<run
# folder>/, says where at the start and the end, and a later verify reads
# them; a folder it cannot write is exit 3 before any target is touched; a
# target inside the run folder, or the run folder under a target, is exit
# 2 naming both; and a run record edited so a disk's region is 0 bytes is
# exit 2, never a PASS of nothing.
. "$(dirname "$0")/../lib/tap.sh"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

sum_of () {
	md5sum <"$1" | cut -d' ' -f1
}

# folders_in DIR: the run folders under DIR/kiln-results, one a line.
folders_in () {
	find "$1/kiln-results" -mindepth 2 -maxdepth 2 -type d | sort
}

# refused CODE WHAT ARGS...: kiln exits CODE with one line on stderr,
# naming every word of WHAT (separated by |).
refused () {
	want=$1 what=$2
	shift 2
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ $code = "$want" ] || { echo "exit $code, want $want"; cat "$TEST_TMP/out" "$TEST_TMP/err"; return 1; }
	[ "$(wc -l <"$TEST_TMP/err")" = 1 ] || { echo "want one line:"; cat "$TEST_TMP/err"; return 1; }
	echo "$what" | tr '|' '\n' | while IFS= read -r w; do
		grep -qF -- "$w" "$TEST_TMP/err" || { echo "want '$w':"; cat "$TEST_TMP/err"; return 1; }
	done
}

test_expect_success 'the tests run in a scratch folder, not in the tree' '
	[ "$(pwd)" = "$TEST_TMP" ]
'

test_expect_success 'kiln burn without --out keeps its results in ./kiln-results/<machine id>/<run folder>/' '
	mkdir "$TEST_TMP/a" && cd "$TEST_TMP/a" &&
	"$KILN" burn --size 4M a.img >"$TEST_TMP/a.out" 2>&1 &&
	cd "$TEST_TMP" &&
	[ "$(folders_in a | wc -l)" = 1 ] &&
	run=$(folders_in a) &&
	id=$(json_get "$run/result.json" "d[\"run_id\"]") &&
	machine=$(json_get "$run/result.json" "d[\"machine_id\"]") &&
	[ -n "$machine" ] &&
	name=${run#a/kiln-results/} &&
	[ "$name" = "$machine/${name#*/}" ] &&
	echo "${name#*/}" | grep -Eq "^[0-9]{8}T[0-9]{6}Z-$id\$" &&
	[ "$(json_get "$run/result.json" "d[\"verdict\"]")" = PASS ] &&
	[ -f "$run/summary.txt" ] && [ -f "$run/samples.csv" ] &&
	[ "$(grep -cF "./kiln-results/$name" "$TEST_TMP/a.out")" = 2 ] &&
	head -n 3 "$TEST_TMP/a.out" | grep -qF "./kiln-results/$name" &&
	tail -n 1 "$TEST_TMP/a.out" | grep -qF "results: ./kiln-results/$name"
'

test_expect_success '...so a later verify --from reads them, each into a folder of its own' '
	cd "$TEST_TMP/a" &&
	run=$(folders_in . | head -n 1) &&
	"$KILN" burn --mode verify --from "$run" >"$TEST_TMP/v1.out" 2>&1 &&
	"$KILN" burn --mode verify --from "$run" >"$TEST_TMP/v2.out" 2>&1 &&
	cd "$TEST_TMP" &&
	[ "$(folders_in a | wc -l)" = 3 ] &&
	for v in $(folders_in a); do
		[ "$(json_get "$v/result.json" "d[\"verdict\"]")" = PASS ] || return 1
	done
'

test_expect_success 'machine-id names the machine whatever its serial: folder and result.json' '
	mkdir "$TEST_TMP/m" && cd "$TEST_TMP/m" &&
	"$KILN" burn --machine-id LAB-07.rack3 --size 4M m.img >"$TEST_TMP/m.out" 2>&1 &&
	cd "$TEST_TMP" &&
	run=$(folders_in m) &&
	[ "${run#m/kiln-results/LAB-07.rack3/}" != "$run" ] &&
	[ "$(json_get "$run/result.json" "d[\"machine_id\"]")" = LAB-07.rack3 ] &&
	# Every NIC the machine has (not lo), so a lab finds it by any port.
	nics=$(json_get "$run/result.json" "\" \".join(sorted(n[\"name\"] for n in d[\"system\"][\"nics\"]))") &&
	for n in $nics; do [ -e "/sys/class/net/$n" ] && [ "$n" != lo ] || return 1; done &&
	[ -n "$nics" ] || [ "$(ls /sys/class/net | grep -vx lo | wc -l)" = 0 ]
'

test_expect_success 'a machine-id that could not name one folder: exit 2, nothing made' '
	mkdir "$TEST_TMP/m2" && cd "$TEST_TMP/m2" &&
	for bad in "../up" "a/b" ".hidden" "with space" "-x"; do
		"$KILN" burn --machine-id "$bad" --size 4M m.img >"$TEST_TMP/m2.out" 2>&1
		[ $? = 2 ] && grep -q "bad value for --machine-id" "$TEST_TMP/m2.out" &&
			[ ! -e m.img ] && [ ! -e kiln-results ] || { cat "$TEST_TMP/m2.out"; return 1; }
	done
	cd "$TEST_TMP"
'

test_expect_success 'a run folder that cannot be made is exit 3 before any target is touched' '
	mkdir "$TEST_TMP/b" && cd "$TEST_TMP/b" &&
	: >kiln-results &&
	"$KILN" burn --size 4M --out "$TEST_TMP/b.ok" kept.img >/dev/null 2>&1 &&
	before=$(sum_of kept.img) &&
	refused 3 "kiln-results" burn --size 4M new.img kept.img &&
	[ ! -e new.img ] && [ "$(sum_of kept.img)" = "$before" ] &&
	[ ! -s kiln-results ] &&
	cd "$TEST_TMP"
'

test_expect_success 'a run refused before it starts leaves no kiln-results behind' '
	mkdir "$TEST_TMP/c" && cd "$TEST_TMP/c" &&
	head -c 1048576 /dev/urandom >foreign &&
	refused 2 "foreign" burn foreign &&
	[ ! -e kiln-results ] &&
	refused 2 "" burn --no-such-option x.img &&
	[ ! -e kiln-results ] &&
	cd "$TEST_TMP"
'

test_expect_success 'a target inside the run folder is exit 2 naming both, and nothing is made' '
	refused 2 "$TEST_TMP/d|$TEST_TMP/d/checkpoint-a.json" \
		burn --size 4M --out "$TEST_TMP/d" "$TEST_TMP/d/checkpoint-a.json" &&
	[ ! -e "$TEST_TMP/d" ] &&
	refused 2 "$TEST_TMP/d|d/x.img" \
		burn --size 4M --out "$TEST_TMP/d" d/x.img &&
	[ ! -e "$TEST_TMP/d" ]
'

test_expect_success '...by its real path: through a symbolic link, or with ..' '
	mkdir "$TEST_TMP/e" && ln -s e "$TEST_TMP/e-link" &&
	refused 2 "$TEST_TMP/e|$TEST_TMP/e-link/x.img" \
		burn --size 4M --out "$TEST_TMP/e" "$TEST_TMP/e-link/x.img" &&
	[ ! -e "$TEST_TMP/e/x.img" ] &&
	refused 2 "e-link/sub" \
		burn --size 4M --out e-link/sub "$TEST_TMP/e/sub/../sub/x.img" &&
	[ ! -e "$TEST_TMP/e/sub" ] &&
	[ -z "$(ls -A "$TEST_TMP/e")" ]
'

test_expect_success 'a run folder under a target path is exit 2 naming both' '
	"$KILN" burn --size 4M --out "$TEST_TMP/f.ok" "$TEST_TMP/f.img" >/dev/null 2>&1 &&
	before=$(sum_of "$TEST_TMP/f.img") &&
	refused 2 "$TEST_TMP/f.img/r|$TEST_TMP/f.img" \
		burn --out "$TEST_TMP/f.img/r" "$TEST_TMP/f.img" &&
	[ "$(sum_of "$TEST_TMP/f.img")" = "$before" ]
'

test_expect_success 'a run record whose disk has a region of 0 bytes is exit 2, naming the disk and the field' '
	"$KILN" burn --size 4M --out "$TEST_TMP/w" "$TEST_TMP/w.img" >/dev/null 2>&1 &&
	cp -r "$TEST_TMP/w" "$TEST_TMP/w0" &&
	python3 - "$TEST_TMP/w0/result.json" <<-\PY &&
	import json, sys
	p = sys.argv[1]
	d = json.load(open(p))
	for e in d["targets"][0]["region"]:
	    e["length"] = 0
	json.dump(d, open(p, "w"))
	PY
	before=$(sum_of "$TEST_TMP/w.img") &&
	refused 2 "file:$TEST_TMP/w.img|\"region\"" \
		burn --mode verify --from "$TEST_TMP/w0" --out "$TEST_TMP/v0" &&
	[ ! -e "$TEST_TMP/v0" ] &&
	[ "$(sum_of "$TEST_TMP/w.img")" = "$before" ] &&
	"$KILN" burn --mode verify --from "$TEST_TMP/w" --out "$TEST_TMP/v" \
		>/dev/null 2>&1 &&
	[ "$(json_get "$TEST_TMP/v/result.json" "d[\"verdict\"]")" = PASS ]
'

# A disk that FAILed before its burn (stalled while classed, missing) is
# recorded with no region: the other disks of that run must still verify.
test_expect_success 'a record with a disk that never started still verifies the others' '
	"$KILN" burn --size 4M --out "$TEST_TMP/ns" "$TEST_TMP/a.img" \
		"$TEST_TMP/b.img" >/dev/null 2>&1 &&
	python3 - "$TEST_TMP/ns/result.json" <<-\PY &&
	import json, sys
	p = sys.argv[1]
	d = json.load(open(p))
	t = d["targets"][1]
	t.update(region=[], state="not started", last_pass_written=0,
	         last_pass_reached=0, last_pass_complete=False, verdict="FAIL")
	json.dump(d, open(p, "w"))
	PY
	"$KILN" burn --mode verify --from "$TEST_TMP/ns" --out "$TEST_TMP/nsv" \
		>"$TEST_TMP/o" 2>&1 &&
	r="$TEST_TMP/nsv/result.json" &&
	test_eq "$(json_get "$r" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" \
		PASS "the verify" &&
	grep_in "never started in the recorded run" "$TEST_TMP/o" &&
	refused 2 "b.img|never started" burn --mode verify \
		--from "$TEST_TMP/ns" --out "$TEST_TMP/nsv2" "$TEST_TMP/b.img"
'

test_done
