#!/bin/sh
# needs: kiln
# kiln fleet past a page (page=, 1000 machines by default): fleet.html
# holds the first machines, failures first, and fleet-2.html on the rest,
# every machine on one page and on one only, each page linking every
# other; a render with fewer pages takes the earlier render's extra pages
# away (a link planted there is removed, never followed); fleet.csv keeps
# every machine; a page under 10 is bad usage (exit 2). No root needed.
. "$(dirname "$0")/../lib/tap.sh"

GEN="$TOP/tests/lib/fleetgen.py"
R="$TEST_TMP/lab/kiln-results"
P="$TEST_TMP/page"

# rows PAGE: the machines' rows of one page, a machine a line (each row
# begins with its machine's name in bold, as fleet_page.c writes it).
rows () {
	sed -n 's/.*<tr><td><b>\([^<]*\)<\/b>.*/\1/p' "$1"
}

test_expect_success '24 machines: a passing run copied to 23, one failing' '
	"$KILN" burn --out "$R/m-00/20261130T100000Z-00000000000000a1" \
		--size 8M "$TEST_TMP/a.img" >"$TEST_TMP/burn.out" 2>&1 &&
	"$KILN" burn --mode write --out "$R/m-zz/20261130T110000Z-00000000000000b1" \
		--size 8M "$TEST_TMP/bad.img" >>"$TEST_TMP/burn.out" 2>&1 &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	{ "$KILN" burn --mode verify --out "$R/m-zz/20261130T110001Z-00000000000000b2" \
		--from "$R/m-zz/20261130T110000Z-00000000000000b1" \
		>>"$TEST_TMP/burn.out" 2>&1; test $? = 1; } &&
	python3 "$GEN" --machine-id - "$R"/m-00/* "$R"/m-zz/* &&
	for i in $(seq 1 22); do
		cp -r "$R/m-00" "$R/$(printf m-%02d "$i")" || return 1
	done
'

test_expect_success 'page=10: three pages of 10, 10 and 4, said' '
	"$KILN" fleet --page 10 --out "$P" "$TEST_TMP/lab" >"$TEST_TMP/f.out" 2>&1 &&
	cat "$TEST_TMP/f.out" &&
	grep -q "kiln fleet: 24 machines.*fleet.html (3 pages of 10 machines)" "$TEST_TMP/f.out" &&
	rows "$P/fleet.html" >"$TEST_TMP/r1" && rows "$P/fleet-2.html" >"$TEST_TMP/r2" &&
	rows "$P/fleet-3.html" >"$TEST_TMP/r3" &&
	test_eq "$(wc -l <"$TEST_TMP/r1") $(wc -l <"$TEST_TMP/r2") $(wc -l <"$TEST_TMP/r3")" \
		"10 10 4" "rows a page" &&
	[ ! -e "$P/fleet-4.html" ]
'

test_expect_success 'every machine on one page only, the failing one first' '
	cat "$TEST_TMP/r1" "$TEST_TMP/r2" "$TEST_TMP/r3" | sort >"$TEST_TMP/all" &&
	test_eq "$(sort -u "$TEST_TMP/all" | wc -l)" 24 machines &&
	test_eq "$(wc -l <"$TEST_TMP/all")" 24 rows &&
	test_eq "$(head -n 1 "$TEST_TMP/r1")" m-zz "the first row" &&
	python3 - "$P/fleet.csv" <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
	assert len(rows) == 24 and rows[0]["machine"] == "m-zz", rows[:2]
	PY
'

test_expect_success 'each page links every other, says where it is, and parses' '
	for k in 1 2 3; do
		f="$P/fleet.html" && [ "$k" = 1 ] || f="$P/fleet-$k.html"
		grep -q "page $k of 3, machines" "$f" &&
		python3 -c "import html.parser,sys; html.parser.HTMLParser().feed(open(sys.argv[1]).read())" "$f" || return 1
		for o in 1 2 3; do
			[ "$o" = "$k" ] && continue
			n="fleet.html" && [ "$o" = 1 ] || n="fleet-$o.html"
			grep -q "<a href=\"$n\">$o</a>" "$f" || return 1
		done
	done &&
	grep -q "<h2>Like disks across machines</h2>" "$P/fleet.html" &&
	! grep -q "<h2>Like disks across machines</h2>" "$P/fleet-2.html"
'

test_expect_success 'fewer pages: the extra ones go, a link there removed, not followed' '
	echo keep >"$TEST_TMP/victim" &&
	rm "$P/fleet-3.html" && ln -s "$TEST_TMP/victim" "$P/fleet-3.html" &&
	"$KILN" fleet --page 20 --out "$P" "$TEST_TMP/lab" >"$TEST_TMP/f2.out" 2>&1 &&
	grep -q "(2 pages of 20 machines)" "$TEST_TMP/f2.out" &&
	[ -e "$P/fleet-2.html" ] && [ ! -e "$P/fleet-3.html" ] && [ ! -L "$P/fleet-3.html" ] &&
	test_eq "$(cat "$TEST_TMP/victim")" keep victim &&
	"$KILN" fleet --out "$P" "$TEST_TMP/lab" >"$TEST_TMP/f3.out" 2>&1 &&
	! grep -q "pages of" "$TEST_TMP/f3.out" && [ ! -e "$P/fleet-2.html" ] &&
	! grep -q "class=\"pages\"" "$P/fleet.html" && test_eq "$(rows "$P/fleet.html" | wc -l)" 24 rows
'

test_expect_success 'page under 10 or not a count: exit 2, a line that says why' '
	{ "$KILN" fleet --page 5 --out "$P" "$TEST_TMP/lab" >"$TEST_TMP/b.out" 2>&1; rc=$?; } ;
	test_eq "$rc" 2 exit && test_eq "$(wc -l <"$TEST_TMP/b.out")" 1 lines &&
	grep -q "page" "$TEST_TMP/b.out" &&
	{ "$KILN" fleet --page many --out "$P" "$TEST_TMP/lab" >"$TEST_TMP/b.out" 2>&1; rc=$?; } ;
	test_eq "$rc" 2 exit
'

test_done
