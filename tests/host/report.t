#!/bin/sh
# needs: kiln
# kiln report RUN_DIR: summary.txt and report.html made again from a run's
# result.json, the record's verdicts kept, nothing else of the folder
# touched; bad input is one line and exit 2 (no folder) or 3 (no, broken
# or unknown result.json). Records made by tests/lib/reportgen.py (60
# like disks in 90 s, a 12 h soak of 12) read on one screen, and render
# in headless chromium with one line per disk, passes and bytes shown.
. "$(dirname "$0")/../lib/tap.sh"

G="$TEST_TMP/gen"

test_expect_success 'a real run, and the records made from it' '
	"$KILN" burn --size 64M --duration 3s --max-writes 0 \
		--out "$TEST_TMP/one" "$TEST_TMP/one.img" >"$TEST_TMP/burn.out" 2>&1 &&
	python3 "$TOP/tests/lib/reportgen.py" --template "$TEST_TMP/one/result.json" \
		--out "$G" &&
	[ -f "$G/sixty/result.json" ] && [ -f "$G/soak/result.json" ]
'

# A re-read cut short by the deadline (a busy machine's) is said in the
# summary kiln burn wrote, and kiln report says it again from result.json:
# it once left the line out.
test_expect_success 'a re-read cut short: kiln report says it as the run did' '
	mkdir -p "$TEST_TMP/cut" &&
	python3 - "$TEST_TMP/one/result.json" "$TEST_TMP/cut/result.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["targets"][0]["reread"] = {"state": "cut short",
	    "why": "the deadline (60 s) ran out", "read_bytes": 4096,
	    "direct_io": True, "seconds": 60.5, "errors": 0,
	    "grid": {"under_5_ms": 351, "under_20_ms": 452, "under_50_ms": 1077,
	             "under_150_ms": 147, "under_500_ms": 21, "from_500_ms": 0},
	    "times": None, "regions": [{"offset": 0, "length": 1048576,
	    "burn_ms": 30.0, "phase": "write", "pass": 1, "reads": 256,
	    "max_ms": 412.0, "max_at": 8192, "error": None}]}
	json.dump(d, open(sys.argv[2], "w"))
	PY
	"$KILN" report "$TEST_TMP/cut" >/dev/null &&
	grep_in "re-read at qd 1: 351 <5 ms, 452 <20 ms, 1077 <50 ms, 147 <150 ms, 21 <500 ms, the slowest 412 ms at byte 8192; cut short: the deadline (60 s) ran out" "$TEST_TMP/cut/summary.txt"
'

test_expect_success 'kiln report renders them: those two files, nothing else' '
	"$KILN" report "$G/sixty" "$G/soak" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
	[ ! -s "$TEST_TMP/err" ] &&
	grep_in "$G/sixty: summary.txt and report.html written (PASS)" "$TEST_TMP/out" &&
	grep_in "$G/soak: summary.txt and report.html written (WARN)" "$TEST_TMP/out" &&
	test_eq "$(ls "$G/sixty" | tr "\n" " ")" "report.html result.json summary.txt "
'

test_expect_success 'a real run rendered again: as the run said it, its plots too' '
	cp "$TEST_TMP/one/summary.txt" "$TEST_TMP/one.summary" &&
	cp "$TEST_TMP/one/report.html" "$TEST_TMP/one.html" &&
	"$KILN" report "$TEST_TMP/one" >/dev/null &&
	! ls "$TEST_TMP/one" | grep -q tmp &&
	# Figures come back from result.json rounded: the same lines, their
	# last digits aside.
	sed "s/[0-9][0-9.]*/N/g" "$TEST_TMP/one.summary" >"$TEST_TMP/was" &&
	sed "s/[0-9][0-9.]*/N/g" "$TEST_TMP/one/summary.txt" >"$TEST_TMP/now" &&
	diff "$TEST_TMP/was" "$TEST_TMP/now" &&
	test_eq "$(sed -n 1,2p "$TEST_TMP/one/summary.txt")" \
		"$(sed -n 1,2p "$TEST_TMP/one.summary")" &&
	python3 - "$TEST_TMP/one.html" "$TEST_TMP/one/report.html" <<-\PY
	import re, sys
	def plots(path):
	    page = open(path, encoding="utf-8").read()
	    return [[float(p.split(",")[1]) for p in pts.split()]
	            for pts in re.findall(r"<polyline fill=.none. stroke=.#[0-9a-f]+. "
	                                  r"stroke-width=.1\.5. points=.([^\x22]*)", page)]
	was, now = plots(sys.argv[1]), plots(sys.argv[2])
	assert len(was) == len(now) == 2, (len(was), len(now))
	for a, b in zip(was, now):
	    assert len(a) == len(b) and all(abs(x - y) < 2 for x, y in zip(a, b)), (a, b)
	PY
'

# rows FILE: the rows FILE takes on an 80-column screen, long lines wrapped.
rows () {
	awk "{ n += length > 80 ? int((length + 79) / 80) : 1 } END { print n }" "$1"
}

S="$G/sixty/summary.txt"
test_expect_success 'summary.txt of 60 like disks fits a screen' '
	cat "$S" &&
	[ "$(rows "$S")" -le 50 ] &&
	grep_in "loop0-59: blank, 128 MiB, write-verify, PASS (60 like disks)" "$S" &&
	grep -E -q "^  10[1-7]-10[1-7] passes, [0-9.]+-[0-9.]+ GiB written, [0-9.]+-[0-9.]+ GiB read each$" "$S" &&
	grep -E -q "^work: 10[1-7]-10[1-7] passes, [0-9.]+ GiB written, [0-9.]+ GiB read in all \(60 disks\)$" "$S" &&
	grep -q "^loop0-59 *128 MiB .* PASS$" "$S" &&
	! grep -q "plateau" "$S"
'

test_expect_success 'the 12 h soak: its duration, the WARN alone, its passes' '
	s="$G/soak/summary.txt" && cat "$s" &&
	grep_in "(12:00:00)" "$s" &&
	grep_in "loop20-22, loop24-31: blank, 4 GiB, write-verify, PASS (11 like disks)" "$s" &&
	grep_in "loop23 (/dev/loop23): WARN" "$s" &&
	grep -E -q "^  [0-9]+ passes, [0-9.]+ TiB written, [0-9.]+ TiB read$" "$s" &&
	[ "$(rows "$s")" -le 50 ]
'

# bad DIR CODE WHAT: kiln report DIR exits CODE with one line saying WHAT,
# and writes nothing there.
bad () {
	{ "$KILN" report "$1" >"$TEST_TMP/o" 2>"$TEST_TMP/e"; test $? = "$2"; } &&
	test_eq "$(wc -l <"$TEST_TMP/e")" 1 && grep_in "$3" "$TEST_TMP/e" &&
	[ ! -e "$1/summary.txt" ] && [ ! -e "$1/report.html" ]
}

test_expect_success 'bad input: one line, exit 2 or 3, nothing written' '
	bad "$TEST_TMP/nowhere" 2 "no such run folder" &&
	: >"$TEST_TMP/plain" && bad "$TEST_TMP/plain" 2 "not a directory" &&
	mkdir -p "$TEST_TMP/empty" && bad "$TEST_TMP/empty" 3 "no result.json" &&
	mkdir -p "$TEST_TMP/torn" && printf "{\"schema\": \"kiln-res" >"$TEST_TMP/torn/result.json" &&
	bad "$TEST_TMP/torn" 3 "$TEST_TMP/torn/result.json: " &&
	mkdir -p "$TEST_TMP/new" &&
	sed "s/\"schema_version\": 4/\"schema_version\": 99/" "$G/sixty/result.json" \
		>"$TEST_TMP/new/result.json" &&
	bad "$TEST_TMP/new" 3 "schema version 99, which this kiln does not know" &&
	mkdir -p "$TEST_TMP/other" && printf "{\"a\": 1}" >"$TEST_TMP/other/result.json" &&
	bad "$TEST_TMP/other" 3 "not a kiln result" &&
	{ "$KILN" report >/dev/null 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "no run folder given" "$TEST_TMP/e"
'

# What a person sees: report.html as chromium renders it.
. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	test_done
	exit
fi

test_expect_success 'report.html of 60 disks in chromium: a line a disk, passes and bytes' '
	render "$G/sixty/report.html" "$TEST_TMP/dom60.html" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/dom60.html" <<-\PY
	import re, sys, dom
	page = dom.load(sys.argv[1])
	body = page.one("body")
	table = next(body.all("table"))
	head = [th.text() for th in next(table.all("tr")).all("th")]
	assert head[5:8] == ["passes", "written", "read"], head
	rows = [[td.text() for td in tr.all("td")] for tr in table.all("tr")]
	rows = [r for r in rows if r]
	assert len(rows) == 60, len(rows)
	assert sorted(r[0] for r in rows) == sorted("loop%d" % i for i in range(60))
	for r in rows:
	    assert 101 <= int(r[9]) <= 107, r
	    assert re.fullmatch(r"[0-9.]+ GiB", r[10]) and r[10] == r[11], r
	    assert r[-2:] == ["PASS", "no I/O errors, no bad units"], r
	work = page.one("p", "work").text()
	assert re.fullmatch(r"work: 10[1-7]-10[1-7] passes, [\d.]+ GiB written, "
	                    r"[\d.]+ GiB read in all \(60 disks\)", work), work
	assert "plateau" not in body.text()
	assert "No disk reported SMART" in body.text()
	PY
'

test_expect_success 'report.html of the soak: the SMART counters that grew' '
	render "$G/soak/report.html" "$TEST_TMP/domsoak.html" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/domsoak.html" <<-\PY
	import sys, dom
	page = dom.load(sys.argv[1])
	smart = [t for t in page.all("table") if t.attrs.get("id") == "smart"][0]
	rows = [[td.text() for td in tr.all("td")] for tr in smart.all("tr")]
	rows = [r for r in rows if r]
	assert rows == [["loop23", "reallocated sectors", "0", "8", "+8"],
	                ["loop23", "pending sectors", "0", "2", "+2"],
	                ["loop27", "reallocated sectors", "0", "1", "+1"]], rows
	assert "12 disks reported SMART" in page.one("body").text()
	assert "(12:00:00)" in page.one("body").text()
	PY
'

test_done
