#!/bin/sh
# needs: kiln
# Link error counters read by the real binary during a burn of a file, its
# sysfs the before/ of tests/fixtures/sysfs/sasexp (an HBA, an expander,
# three disks; built by hand from the kernel's documentation) given with
# --sysfs-root and changed while the burn runs, as a phy's counters grow:
# result.json keeps each SAS phy's counters before and after and their
# growth, a phy whose counters will not read is said once in the notes
# and keeps why, and a file on no phy's path is judged as before (exit 0).
. "$(dirname "$0")/../lib/tap.sh"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

tarball="$TOP/tests/fixtures/sysfs/sasexp/sasexp.tar.gz"
phy=devices/pci0000:00/0000:00:03.0/0000:03:00.0/host7/port-7:0/expander-7:0/phy-7:0:5/sas_phy/phy-7:0:5

# later DIR FILE TEXT: writes TEXT into FILE once the burn into DIR has
# run two seconds by its own samples (in the background).
later () {
	{ under_way "$1" 2 >/dev/null; printf '%s\n' "$3" >"$2"; } &
}

# c NAME COUNTER FIELD: that field of a phy's counter in result.json.
c () {
	json_get "$TEST_TMP/r1/result.json" "[p for p in d[\"sas_phys\"] if p[\"phy\"] == \"$1\"][0][\"counters\"][\"$2\"][\"$3\"]"
}

test_expect_success 'a phy whose counters grow during the burn: before, after, growth' '
	tar xzf "$tarball" -C "$TEST_TMP" before/sys &&
	mv "$TEST_TMP/before/sys" "$TEST_TMP/sys" &&
	later "$TEST_TMP/r1" "$TEST_TMP/sys/$phy/invalid_dword_count" 250 &&
	"$KILN" burn --size 64M --duration 5s --sensors 1 \
		--sysfs-root "$TEST_TMP/sys" --out "$TEST_TMP/r1" \
		"$TEST_TMP/d1.img" >"$TEST_TMP/o1" 2>&1 &&
	wait &&
	test_eq "$(c phy-7:0:5 invalid_dword_count before)" 0 "before" &&
	test_eq "$(c phy-7:0:5 invalid_dword_count after)" 250 "after" &&
	test_eq "$(c phy-7:0:5 invalid_dword_count growth)" 250 "growth" &&
	test_eq "$(c phy-7:2 invalid_dword_count growth)" 0 "another phy" &&
	r="$TEST_TMP/r1/result.json" &&
	test_eq "$(json_get "$r" "len(d[\"sas_phys\"])")" 16 "phys" &&
	test_eq "$(json_get "$r" "[(p[\"owner\"], p[\"controller\"], p[\"in_use\"]) for p in d[\"sas_phys\"] if p[\"phy\"] == \"phy-7:0:5\"][0]")" \
		"('"'"'expander-7:0'"'"', '"'"'0000:03:00.0'"'"', True)" "its place" &&
	test_eq "$(json_get "$r" "d[\"settings\"][\"link_errors_fail\"]")" 100 "the limit"
'

test_expect_success 'a phy that will not read is said once, and keeps why' '
	r="$TEST_TMP/r1/result.json" &&
	test_eq "$(c phy-7:0:7 invalid_dword_count error)" "Is a directory" "why" &&
	test_eq "$(c phy-7:0:7 invalid_dword_count before)" None "not read" &&
	test_eq "$(json_get "$r" "sum(\"SAS phy phy-7:0:7\" in n for n in d[\"notes\"])")" 1 "said once"
'

test_expect_success 'a file on no phy path: judged as before, no link errors' '
	r="$TEST_TMP/r1/result.json" &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" PASS "its verdict" &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"link_errors\"]")" "{}" "its counters" &&
	! grep -q "link error" "$TEST_TMP/r1/summary.txt"
'

test_done
