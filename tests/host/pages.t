#!/bin/sh
# needs: kiln
# The pages engineers look at first (issue 34): report.html opens with the
# run's verdict and its reasons, its first table says why for each disk,
# links each FAILed disk's rma-*.txt, says a note shared by every disk
# once, and shows a BMC badge only where there is a BMC. Rendered by
# Debian's headless chromium and read as a DOM (tests/lib/dom.py).
. "$(dirname "$0")/../lib/tap.sh"

R="$TEST_TMP/runs"

test_expect_success 'a failing run by the real binary, and one with no BMC' '
	"$KILN" burn --mode write --size 8M --out "$R/w" \
		"$TEST_TMP/bad.img" "$TEST_TMP/a.img" >"$TEST_TMP/burn.out" 2>&1 &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	{ "$KILN" burn --mode verify --from "$R/w" --out "$R/fail" \
		>"$TEST_TMP/verify.out" 2>&1; test $? = 1; } &&
	ls "$R/fail"/rma-*.txt &&
	mkdir -p "$R/nobmc" &&
	python3 - "$R/fail/result.json" "$R/nobmc/result.json" <<-\PY &&
	import json, sys
	doc = json.load(open(sys.argv[1]))
	doc["bmc"] = {"state": "absent", "verdict": "PASS",
	              "why": "no IPMI device (/dev/ipmi0)"}
	json.dump(doc, open(sys.argv[2], "w"))
	PY
	"$KILN" report "$R/nobmc" >/dev/null
'

# Machines s-1 to s-4 with disks of one model, s-4 at half the rate, in
# phases of milliseconds: the runs said their rates were too short to
# compare. Machine warn-1 warned after no I/O errors.
test_expect_success 'a fleet: short runs of like disks, and a warning' '
	python3 - "$R/w" "$TEST_TMP/lab" <<-\PY &&
	import json, os, shutil, sys
	src, lab = sys.argv[1], sys.argv[2]
	def copy(machine, change):
	    d = os.path.join(lab, machine, "20261130T150000Z-0000000000000401")
	    shutil.copytree(src, d)
	    p = os.path.join(d, "result.json")
	    doc = json.load(open(p))
	    doc.pop("machine_id", None)
	    for i, t in enumerate(doc["targets"]):
	        t["model"], t["serial"] = "TESTDISK 2000", "%s-%d" % (machine, i)
	        t["size"] = 2000398934016
	        change(t)
	    doc["verdict"] = max((t["verdict"] for t in doc["targets"]),
	                         key=["PASS", "WARN", "FAIL"].index)
	    json.dump(doc, open(p, "w"))
	for n in range(1, 5):
	    def rates(t, n=n):
	        t["phases"]["write"]["avg_mbps"] = 500.0 if n == 4 else 1000.0
	        t["phases"]["verify"]["avg_mbps"] = 1000.0
	    copy("s-%d" % n, rates)
	def warn(t):
	    t["model"] = "TESTDISK 3000"
	    t["verdict"] = "WARN"
	    t["reasons"] = ["no I/O errors, no bad units",
	                    "SMART reallocated sectors grew by 8 during the run (0 to 8)"]
	copy("warn-1", warn)
	# The same four machines in phases of an hour: compared.
	lab = lab + "2"
	for n in range(1, 5):
	    def hour(t, n=n):
	        for ph in ("write", "verify"):
	            t["phases"][ph]["avg_mbps"] = 500.0 if n == 4 and ph == "write" else 1000.0
	            t["phases"][ph]["seconds"] = 3600.0
	    copy("s-%d" % n, hour)
	PY
	python3 "$TOP/tests/lib/fleetgen.py" --machine-id - "$TEST_TMP"/lab*/*/* &&
	"$KILN" fleet --out "$TEST_TMP/fleet" "$TEST_TMP/lab" >/dev/null &&
	"$KILN" fleet --out "$TEST_TMP/fleet2" "$TEST_TMP/lab2" >/dev/null
'

# Six like disks of 30-130 MB/s, their zones drawn, one with a sample of
# 20 GB/s (a clock's spike); each run too short to judge zones.
test_expect_success 'zones of like disks, one with a spike' '
	"$KILN" burn --size 64M --duration 3s --max-writes 0 \
		--out "$TEST_TMP/one" "$TEST_TMP/one.img" >/dev/null 2>&1 &&
	mkdir -p "$R/zones" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/one/result.json" \
		"$R/zones/result.json" <<-\PY &&
	import copy, json, random, sys
	import reportgen as g
	tpl = json.load(open(sys.argv[1]))
	rng = random.Random(1)
	doc = g.run_of(tpl, rng, 90)
	size = 64 << 20
	zones = tpl["targets"][0]["zones"]
	doc["targets"] = []
	for i, rate in enumerate((30, 50, 80, 100, 130, 60)):
	    t = g.target(tpl["targets"][0], i, "sd%c" % (97 + i), size, 3,
	                 float(rate), 40.0, 40, rng)
	    t["zones"] = z = copy.deepcopy(zones)
	    for ph in z["phases"]:
	        ph["mbps"] = [rate * (1 + 0.01 * (k % 5)) for k in range(100)]
	    if i == 2:
	        z["phases"][0]["mbps"][40] = 20000.0
	    doc["targets"].append(t)
	g.peer_group(doc, size, 6)
	json.dump(doc, open(sys.argv[2], "w"))
	PY
	"$KILN" report "$R/zones" >/dev/null &&
	python3 "$TOP/tests/lib/reportgen.py" --template "$TEST_TMP/one/result.json" \
		--out "$R/gen" && "$KILN" report "$R/gen/sixty" "$R/gen/soak" >/dev/null
'

. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	test_done
	exit
fi

# check PAGE PYTHON: PYTHON run on PAGE as chromium rendered it, with
# page (its root), body, folder (PAGE's) and the dom module at hand.
check () {
	render "$1" "$TEST_TMP/dom.html" &&
	PYTHONPATH="$TOP/tests/lib" python3 -c "
import os, re, sys, dom
page = dom.load(sys.argv[1])
body = page.one('body')
folder = os.path.dirname(sys.argv[2])
$2" "$TEST_TMP/dom.html" "$1"
}

test_expect_success 'report.html: the verdict and its reasons at the top' '
	check "$R/fail/report.html" "
top = page.one(\"div\", \"verdict\")
kids = [c for c in body.children if not isinstance(c, str)]
assert kids.index(top) < kids.index(body.one(\"div\", \"disks\")), kids
said = [\" \".join(p.text().split()) for p in top.all(\"p\")]
assert re.fullmatch(r\"FAIL bad.img \(rma-[0-9a-f]+.txt\): 3 bad units \"
                    r\"\(3 foreign\), the first at byte [0-9]+\", said[0]), said
assert said[1:] == [\"PASS a.img: no I/O errors, no bad units\"], said
"
'

test_expect_success 'the first table: a why cell for each disk' '
	check "$R/fail/report.html" "
table = next(body.all(\"table\"))
head = [th.text() for th in next(table.all(\"tr\")).all(\"th\")]
assert head[-1] == \"why\", head
rows = {r[0]: r for r in ([td.text() for td in tr.all(\"td\")]
                          for tr in table.all(\"tr\")) if r}
assert rows[\"bad.img\"][-1].startswith(\"3 bad units (3 foreign)\"), rows
assert rows[\"a.img\"][-1] == \"no I/O errors, no bad units\", rows
"
'

test_expect_success 'each FAILed disk its rma-*.txt linked, and it is there' '
	check "$R/fail/report.html" "
rma = sorted(f for f in os.listdir(folder) if f.startswith(\"rma-\"))
links = sorted(set(a.attrs[\"href\"] for a in body.all(\"a\")
                   if a.attrs.get(\"href\", \"\").startswith(\"rma-\")))
assert links == rma and rma, (links, rma)
"
'

test_expect_success 'a note every disk shares is said once' '
	check "$R/fail/report.html" "
assert body.text().count(\"too short a run to plot\") == 1, body.text()
"
'

test_expect_success 'no BMC: no BMC badge, the page says there is none' '
	check "$R/nobmc/report.html" "
for h in body.all(\"h3\"):
    assert not h.text().startswith(\"BMC:\"), h.text()
assert \"no BMC\" in body.text(), body.text()
"
'

# cells MACHINE: the machines table row of MACHINE, cell by cell, as text.
FLEET_ROWS='
rows = {}
for tr in [t for t in page.all("table") if t.attrs.get("id") == "machines"][0].all("tr"):
    cells = [" ".join(td.text().split()) for td in tr.all("td")
             if td.parent is tr]
    if cells:
        rows[next(next(tr.all("td")).all("b")).text()] = cells
'

test_expect_success 'fleet.html: no below like disks where the runs could not compare' '
	check "$TEST_TMP/fleet/fleet.html" "$FLEET_ROWS
assert \"s-1\" in rows, rows
for m in (\"s-1\", \"s-2\", \"s-3\", \"s-4\"):
    assert rows[m][6] == \"\", rows[m]
assert \"of like disks\" not in body.text(), body.text()
"
'

test_expect_success '...and below like disks where the runs were long enough' '
	check "$TEST_TMP/fleet2/fleet.html" "$FLEET_ROWS
assert \"s-4\" in rows, rows
assert rows[\"s-4\"][6].endswith(\"write 50% of like disks\"), rows[\"s-4\"]
assert rows[\"s-1\"][6] == \"\", rows[\"s-1\"]
keys = [t.text() for t in page.all(\"text\", \"key\")]
assert keys == [\"write\", \"verify\", \"slow\", \"median\", \"85%\"], keys
"
'

test_expect_success 'fleet.html: the warnings column leads with the warning' '
	check "$TEST_TMP/fleet/fleet.html" "$FLEET_ROWS
assert \"warn-1\" in rows, rows
w = rows[\"warn-1\"][5]
assert \": SMART reallocated sectors grew by 8\" in w, w
assert \"no I/O errors\" not in w.split(\"SMART\")[0], w
"
'

test_expect_success 'zones: like disks on one scale, the spike clipped and said, short said once' '
	check "$R/zones/report.html" "
cells = list(page.one(\"div\", \"zones\").all(\"div\", \"cell\"))
assert len(cells) == 6, len(cells)
scales = [next(c.all(\"text\")).text() for c in cells]
assert len(set(scales)) == 1, scales
top = float(scales[0].split()[0])
assert 130 <= top < 200, scales
said = {next(c.all(\"span\")).text(): \" \".join(c.text().split()) for c in cells}
assert \"clipped\" in said[\"sdc\"] and \"20000 MB/s\" in said[\"sdc\"], said
assert not [d for d in said if d != \"sdc\" and \"clipped\" in said[d]], said
assert body.text().count(\"too short to judge zones\") == 1, body.text()
"
'

# layout PAGE WIDTH: PAGE laid out by chromium in a window WIDTH px wide
# (tests/lib/layout.js): no element wider than its container, no text
# under 11 px; and every relative link names a file that is there.
layout () {
	copy="$(dirname "$1")/layout-check-$2.html" &&
	python3 - "$1" "$TOP/tests/lib/layout.js" "$copy" <<-\PY &&
	import sys
	page = open(sys.argv[1], encoding="utf-8").read()
	js = open(sys.argv[2], encoding="utf-8").read()
	i = page.rindex("</body>")
	open(sys.argv[3], "w", encoding="utf-8").write(
	    page[:i] + "<script>" + js + "</script>" + page[i:])
	PY
	render "$copy" "$TEST_TMP/dom.html" "$2" &&
	rm -f "$copy" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/dom.html" "$1" <<-\PY
	import os, sys, dom
	from urllib.parse import unquote, urlsplit
	page = dom.load(sys.argv[1])
	faults = [p for p in page.all("pre") if p.attrs.get("id") == "layout-check"]
	assert len(faults) == 1, "layout.js did not run"
	said = faults[0].text().strip()
	assert not said, said
	folder = os.path.dirname(sys.argv[2])
	for a in page.all("a"):
	    u = urlsplit(a.attrs.get("href", ""))
	    assert not u.scheme and not u.netloc, a.attrs
	    if u.path:
	        f = os.path.join(folder, unquote(u.path))
	        assert os.path.isfile(f), (a.attrs["href"], f)
	PY
}

for width in 1400 800; do
	test_expect_success "report.html at $width px: fits, text of 11 px, links there" "
		layout \"\$R/fail/report.html\" $width
	"
	test_expect_success "fleet.html at $width px: fits, text of 11 px, links there" "
		layout \"\$TEST_TMP/fleet/fleet.html\" $width &&
		layout \"\$TEST_TMP/fleet2/fleet.html\" $width
	"
	test_expect_success "report.html of zones, 60 disks, a soak at $width px: fits, text of 11 px" "
		layout \"\$R/zones/report.html\" $width &&
		layout \"\$R/gen/sixty/report.html\" $width &&
		layout \"\$R/gen/soak/report.html\" $width
	"
done

test_done
