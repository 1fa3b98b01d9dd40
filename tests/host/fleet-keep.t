#!/bin/sh
# needs: kiln
# kiln fleet keeps only a line of each run behind a machine's latest
# (fleet_keep.c): a run read before a later one of its machine is cut
# down at once. The page must not depend on it: when copies of the later
# run (two roots) turn out to tell its start earlier, the run cut down is
# the latest after all and is shown whole; the runs behind it keep their
# line (a failing disk named); and the roots in either order give one page.
. "$(dirname "$0")/../lib/tap.sh"

SRC="$TEST_TMP/src"

# page NAME ROOT...: kiln fleet into TEST_TMP/NAME, without the line of when.
page () {
	name=$1
	shift
	"$KILN" fleet --out "$TEST_TMP/$name" "$@" >/dev/null 2>&1 &&
	sed '/<p class="id">read /d' "$TEST_TMP/$name/fleet.html" \
		>"$TEST_TMP/$name.html"
}

test_expect_success 'a passing run and a failing one' '
	"$KILN" burn --out "$SRC/pass" --size 8M "$TEST_TMP/a.img" \
		"$TEST_TMP/b.img" >/dev/null 2>&1 &&
	"$KILN" burn --out "$SRC/write" --mode write --size 8M \
		"$TEST_TMP/bad.img" >/dev/null 2>&1 &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	{ "$KILN" burn --out "$SRC/fail" --mode verify --from "$SRC/write" \
		>/dev/null 2>&1; test $? = 1; }
'

# One machine's runs, their clocks not trusted, so their folders' times
# order them: an old failing run, Y, and X twice: X in lab1 changed last,
# its copy in lab2 changed first (the older copy tells more, fleet.c).
test_expect_success 'a machine: an old failure, Y, and two copies of X' '
	python3 - "$SRC" "$TEST_TMP" <<-\PY
	import json, os, shutil, sys, time
	src, tmp = sys.argv[1], sys.argv[2]
	now = time.time()
	def run(lab, frm, name, run_id, mtime):
	    d = os.path.join(tmp, lab, "kiln-results", "m", name)
	    shutil.copytree(os.path.join(src, frm), d)
	    p = os.path.join(d, "result.json")
	    doc = json.load(open(p))
	    doc["run_id"] = run_id
	    doc["started"] = "2000-01-01T00:00:00Z"
	    doc["clock_trusted"] = False
	    json.dump(doc, open(p, "w"), indent=2)
	    # Changed by hand: its index is no longer its own.
	    os.remove(os.path.join(d, "index.json"))
	    for f in os.listdir(d):
	        os.utime(os.path.join(d, f), (mtime, mtime))
	    os.utime(d, (mtime, mtime))
	run("lab1", "fail", "20000101T000000Z-00000000000000c0", "00000000000000c0", now - 4000)
	run("lab1", "pass", "20000101T000001Z-00000000000000c1", "00000000000000c1", now - 2000)
	run("lab1", "pass", "20000101T000002Z-00000000000000c2", "00000000000000c2", now - 1000)
	run("lab2", "pass", "20000101T000002Z-00000000000000c2", "00000000000000c2", now - 3000)
	PY
'

test_expect_success 'Y, cut down while read, is the latest and shown whole' '
	page one "$TEST_TMP/lab1" "$TEST_TMP/lab2" &&
	python3 - "$TEST_TMP/one/fleet.csv" <<-\PY &&
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="")))
	assert len(rows) == 1, rows
	r = rows[0]
	assert r["run_id"] == "00000000000000c1", r["run_id"]
	assert r["runs"] == "3", r["runs"]
	assert r["verdict"] == "PASS", r["verdict"]
	PY
	grep -q "<summary>each disk</summary><ol><li>a.img: 1 pass" \
		"$TEST_TMP/one.html" &&
	grep -q "<summary>2 earlier</summary>" "$TEST_TMP/one.html"
'

test_expect_success 'a run behind the latest keeps its line: its failing disk' '
	grep -q "<li><span class=\"FAIL\">FAIL</span> complete, .*; FAIL bad.img" \
		"$TEST_TMP/one.html"
'

test_expect_success 'the roots in the other order: the same page and CSV' '
	page two "$TEST_TMP/lab2" "$TEST_TMP/lab1" &&
	cmp "$TEST_TMP/one.html" "$TEST_TMP/two.html" &&
	cmp "$TEST_TMP/one/fleet.csv" "$TEST_TMP/two/fleet.csv"
'

test_done
