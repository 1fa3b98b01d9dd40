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
assert kids.index(top) < kids.index(next(body.all(\"table\"))), kids
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

test_expect_success 'no BMC: no BMC badge, the page says there is none' '
	check "$R/nobmc/report.html" "
for h in body.all(\"h3\"):
    assert not h.text().startswith(\"BMC:\"), h.text()
assert \"no BMC\" in body.text(), body.text()
"
'

test_done
