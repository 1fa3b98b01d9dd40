#!/bin/sh
# needs: kiln
# index.json, what kiln fleet reads of a run in place of result.json
# (fleet_index.c): kiln burn writes it beside result.json; kiln fleet's
# page and CSV are the same with it as without it (an older folder); an
# index that is torn, of another size, older than result.json, or
# without a column a signal gives (signal.h) is passed over for
# result.json; one that matches is what is read.
. "$(dirname "$0")/../lib/tap.sh"

R="$TEST_TMP/lab/kiln-results"
RUN="$R/m-pass/20261130T100000Z-00000000000000a1"
FAIL="$R/m-fail/20261130T110001Z-00000000000000b2"

# page NAME: kiln fleet into TEST_TMP/NAME, without the line of when.
page () {
	"$KILN" fleet --out "$TEST_TMP/$1" "$TEST_TMP/lab" >/dev/null 2>&1 &&
	sed '/<p class="id">read /d' "$TEST_TMP/$1/fleet.html" \
		>"$TEST_TMP/$1.html"
}

# same A B: the two pages and CSVs alike, else both said.
same () {
	cmp "$TEST_TMP/$1.html" "$TEST_TMP/$2.html" &&
	cmp "$TEST_TMP/$1/fleet.csv" "$TEST_TMP/$2/fleet.csv" || {
		diff "$TEST_TMP/$1.html" "$TEST_TMP/$2.html" | head -5 >&2
		diff "$TEST_TMP/$1/fleet.csv" "$TEST_TMP/$2/fleet.csv" >&2
		false
	}
}

# drop DIR: its index gone, the folder's time kept (the page shows it).
drop () {
	touch -r "$1" "$TEST_TMP/dirtime" &&
	rm -f "$1/index.json" &&
	touch -r "$TEST_TMP/dirtime" "$1"
}

test_expect_success 'kiln burn writes index.json beside result.json' '
	"$KILN" burn --out "$RUN" --size 8M "$TEST_TMP/a.img" \
		"$TEST_TMP/b.img" >/dev/null 2>&1 &&
	"$KILN" burn --out "${FAIL%2}1" --mode write --size 8M \
		"$TEST_TMP/bad.img" >/dev/null 2>&1 &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	{ "$KILN" burn --out "$FAIL" --mode verify --from "${FAIL%2}1" \
		>/dev/null 2>&1; test $? = 1; } &&
	for d in "$RUN" "$FAIL" "${FAIL%2}1"; do
		python3 - "$d" <<-PY || return 1
		import json, os, sys
		d = sys.argv[1]
		x = json.load(open(os.path.join(d, "index.json")))
		assert x["schema"] == "kiln-fleet-index", x["schema"]
		assert x["result_bytes"] == os.path.getsize(
		    os.path.join(d, "result.json")), x["result_bytes"]
		assert len(x["disks"]) == len(json.load(open(
		    os.path.join(d, "result.json")))["targets"])
		PY
	done &&
	grep -q "\"verdict\": \"FAIL\"" "$FAIL/index.json" &&
	# One host made them all: each machine is then its folder.
	python3 "$TOP/tests/lib/fleetgen.py" --machine-id - "$RUN" "$FAIL" \
		"${FAIL%2}1"
'

test_expect_success 'the page is the same from the index as from result.json' '
	cp -p "$RUN/index.json" "$TEST_TMP/run.index" &&
	page with &&
	grep -q "m-fail" "$TEST_TMP/with.html" &&
	for d in "$RUN" "$FAIL" "${FAIL%2}1"; do drop "$d"; done &&
	page without &&
	same with without
'

test_expect_success 'a torn index, or one of another size, is passed over' '
	head -c 100 "$TEST_TMP/run.index" >"$RUN/index.json" &&
	page torn && same without torn &&
	sed "s/\"result_bytes\": [0-9]*/\"result_bytes\": 7/" \
		"$TEST_TMP/run.index" >"$RUN/index.json" &&
	page size && same without size
'

test_expect_success 'a matching index is read; an older one is not' '
	# PASS and WARN are as long: only the time tells this index apart.
	sed "0,/\"verdict\": \"PASS\"/s//\"verdict\": \"WARN\"/" \
		"$TEST_TMP/run.index" >"$RUN/index.json" &&
	touch -d "@$(($(stat -c %Y "$RUN/result.json") - 10))" \
		"$RUN/index.json" &&
	page older && same without older &&
	touch -d "@$(($(stat -c %Y "$RUN/result.json") + 10))" \
		"$RUN/index.json" &&
	page newer &&
	grep -q "^\"m-pass\",\"WARN\"" "$TEST_TMP/newer/fleet.csv"
'

test_expect_success 'an index without a signal'"'"'s column (written before the signal gave it) is passed over' '
	python3 - "$TEST_TMP/run.index" "$RUN/index.json" <<-\PY &&
	import json, sys
	x = json.load(open(sys.argv[1]))
	assert "bmc_address" in x and "bmc_mac" in x, sorted(x)
	x["verdict"] = "WARN"
	del x["bmc_mac"]
	json.dump(x, open(sys.argv[2], "w"))
	PY
	touch -d "@$(($(stat -c %Y "$RUN/result.json") + 10))" \
		"$RUN/index.json" &&
	page nocolumn && same without nocolumn
'

test_expect_success 'an index that is a FIFO, a folder or empty is passed over' '
	rm -f "$RUN/index.json" && mkfifo "$RUN/index.json" &&
	page fifo && same without fifo &&
	rm -f "$RUN/index.json" && mkdir "$RUN/index.json" &&
	page folder && same without folder &&
	rmdir "$RUN/index.json" && : >"$RUN/index.json" &&
	page empty && same without empty
'

# relink NAME: the page NAME's links to the runs as if not through a link
# (they go to where the folder is, as before: realpath).
relink () {
	sed -i "s#\.\./elsewhere/#../lab/kiln-results/#g" "$TEST_TMP/$1.html" \
		"$TEST_TMP/$1/fleet.csv"
}

test_expect_success 'a machine folder or a run folder reached by a link reads the same' '
	cp -p "$TEST_TMP/run.index" "$RUN/index.json" &&
	page direct &&
	mkdir "$TEST_TMP/elsewhere" &&
	mv "$R/m-pass" "$TEST_TMP/elsewhere/m-pass" &&
	ln -s "$TEST_TMP/elsewhere/m-pass" "$R/m-pass" &&
	page machinelink && relink machinelink && same direct machinelink &&
	rm "$R/m-pass" && mkdir "$R/m-pass" &&
	ln -s "$TEST_TMP/elsewhere/m-pass/${RUN##*/}" "$RUN" &&
	page runlink && relink runlink && same direct runlink
'

test_done
