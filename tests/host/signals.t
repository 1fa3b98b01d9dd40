#!/bin/sh
# needs: kiln
# The machine's own signals sampled by the real binary during a burn of a
# file, its sysfs a copy of tests/fixtures/sensors/server (EDAC by DIMM
# and by csrow, AER of a root port and the NVMe below it, hwmon) given
# with --sysfs-root and changed while the burn runs, as a machine's
# counters change: an uncorrected memory error FAILs the machine, not the
# disk, exit 1, said once in the run's failure, and kiln finish of the
# same run cut off says it the same way; corrected PCIe errors at a
# function no tested disk hangs from WARN the machine, exit 0; a CPU that
# throttles for heat WARNs it, exit 0, with the clock under load (the
# fixture's cpufreq) and the DIMM's SMBIOS slot (a DMI table made here)
# in result.json and summary.txt.
. "$(dirname "$0")/../lib/tap.sh"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

fixture="$TOP/tests/fixtures/sensors/server/sys"
edac=devices/system/edac/mc/mc0

# sysfs DIR: a fresh copy of the fixture's sysfs.
sysfs () {
	rm -rf "$1" && cp -r "$fixture" "$1"
}

# later DIR FILE TEXT: writes TEXT into FILE once the burn into DIR has
# run two seconds by its own samples (in the background): after the
# start's sample however slowly the burn started.
later () {
	{ under_way "$1" 2 >/dev/null; printf '%s\n' "$3" >"$2"; } &
}

test_expect_success 'an uncorrected memory error during the burn FAILs the machine (exit 1)' '
	sysfs "$TEST_TMP/ue" &&
	later "$TEST_TMP/r1" "$TEST_TMP/ue/$edac/dimm0/dimm_ue_count" 1 &&
	later "$TEST_TMP/r1" "$TEST_TMP/ue/$edac/ue_count" 1 &&
	{ "$KILN" burn --size 64M --duration 5s --sensors 1 \
		--sysfs-root "$TEST_TMP/ue" --out "$TEST_TMP/r1" \
		"$TEST_TMP/d1.img" >"$TEST_TMP/o1" 2>&1; test $? = 1; } &&
	wait &&
	r="$TEST_TMP/r1/result.json" &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = FAIL ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"machine\"][\"verdict\"]")" = FAIL ] &&
	[ "$(json_get "$r" "d[\"machine\"][\"samples\"] >= 4")" = True ] &&
	[ "$(json_get "$r" "d[\"machine\"][\"selftest\"]")" = none ] &&
	[ "$(json_get "$r" "d[\"failure\"] == d[\"machine\"][\"failure\"]")" = True ] &&
	[ "$(json_get "$r" "[e[\"uncorrected_end\"] for e in d[\"machine\"][\"edac\"][\"counts\"] if e[\"where\"] == \"mc0/dimm0\"][0]")" = 1 ] &&
	grep_in "FAIL: uncorrected memory errors at mc0/dimm0 (CPU_SrcID#0_MC#0_Chan#0_DIMM#0) rose from 0 to 1 during the run" \
		"$TEST_TMP/r1/summary.txt" &&
	[ "$(grep -c "uncorrected memory errors at" "$TEST_TMP/r1/summary.txt")" = 1 ]
'

test_expect_success 'kiln finish of the same run cut off says it the same way, once' '
	sysfs "$TEST_TMP/cut" &&
	later "$TEST_TMP/r2" "$TEST_TMP/cut/$edac/dimm0/dimm_ue_count" 1 &&
	"$KILN" burn --size 256M --passes 1000 --max-writes 0 --sensors 1 \
		--checkpoint 1 --sysfs-root "$TEST_TMP/cut" --out "$TEST_TMP/r2" \
		"$TEST_TMP/d2.img" >/dev/null 2>&1 &
	pid=$! &&
	test_wait_for "grep -qx 1 \"$TEST_TMP/cut/$edac/dimm0/dimm_ue_count\"" &&
	n=$(burn_rows "$TEST_TMP/r2") &&
	under_way "$TEST_TMP/r2" $((n + 3)) && kill -9 $pid &&
	{ wait $pid; true; } && wait || return 1
	"$KILN" finish "$TEST_TMP/r2" >"$TEST_TMP/o2" 2>&1
	test_eq $? 1 "the exit of kiln finish" || { cat "$TEST_TMP/o2"; return 1; }
	r="$TEST_TMP/r2/result.json" &&
	test_eq "$(json_get "$r" "d[\"machine\"][\"verdict\"]")" FAIL "the machine" &&
	test_eq "$(json_get "$r" "d[\"failure\"].count(\"uncorrected memory errors\")")" 1 "failures said" &&
	test_eq "$(json_get "$r" "d[\"failure\"] == d[\"machine\"][\"failure\"]")" True "the failure is the machine one"
'

test_expect_success 'corrected PCIe errors where no tested disk hangs WARN the machine (exit 0)' '
	sysfs "$TEST_TMP/aer" &&
	dev=devices/pci0000:00/0000:00:1c.0/0000:02:00.0 &&
	sed "s/^TOTAL_ERR_COR .*/TOTAL_ERR_COR 9/" \
		"$TEST_TMP/aer/$dev/aer_dev_correctable" >"$TEST_TMP/cor" &&
	later "$TEST_TMP/r3" "$TEST_TMP/aer/$dev/aer_dev_correctable" "$(cat "$TEST_TMP/cor")" &&
	"$KILN" burn --size 64M --duration 5s --sensors 1 \
		--sysfs-root "$TEST_TMP/aer" --out "$TEST_TMP/r3" \
		"$TEST_TMP/d3.img" >"$TEST_TMP/o3" 2>&1 &&
	wait &&
	r="$TEST_TMP/r3/result.json" &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = WARN ] &&
	[ "$(json_get "$r" "d[\"failure\"]")" = None ] &&
	grep_in "PCIe corrected errors at 0000:02:00.0 rose from" \
		"$TEST_TMP/r3/summary.txt" &&
	grep_in "machine: WARN" "$TEST_TMP/r3/summary.txt"
'

# dmi FILE: a DMI table of one SMBIOS type 17 (16 GiB in slot DIMM_A1 of
# BANK 0), laid out as the DMTF specification has it, then the end.
dmi () {
	python3 - "$1" <<-\PY
	import struct, sys
	t = bytearray(0x28)
	t[0], t[1] = 17, 0x28
	struct.pack_into("<H", t, 0x0c, 16384)
	t[0x10], t[0x11] = 1, 2
	t += b"DIMM_A1\0BANK 0\0\0" + bytes([127, 4, 0, 0, 0, 0])
	open(sys.argv[1], "wb").write(t)
	PY
}

test_expect_success 'a CPU throttled during the burn WARNs the machine (exit 0), the clock and slot said' '
	rm -rf "$TEST_TMP/thr" &&
	cp -r "$TOP/tests/fixtures/sensors/server" "$TEST_TMP/thr" &&
	mkdir -p "$TEST_TMP/thr/sys/firmware/dmi/tables" &&
	dmi "$TEST_TMP/thr/sys/firmware/dmi/tables/DMI" &&
	cpu="$TEST_TMP/thr/sys/devices/system/cpu" &&
	later "$TEST_TMP/r4" "$cpu/cpu2/thermal_throttle/core_throttle_count" 5 &&
	"$KILN" burn --size 64M --duration 5s --sensors 1 \
		--sysfs-root "$TEST_TMP/thr/sys" --out "$TEST_TMP/r4" \
		"$TEST_TMP/d4.img" >"$TEST_TMP/o4" 2>&1 &&
	wait &&
	r="$TEST_TMP/r4/result.json" &&
	test_eq "$(json_get "$r" "d[\"verdict\"]")" WARN "the run" &&
	test_eq "$(json_get "$r" "d[\"machine\"][\"cpu\"][\"throttled_cpus\"]")" 2 "throttled" &&
	test_eq "$(json_get "$r" "d[\"machine\"][\"cpu\"][\"nominal_mhz\"]")" 2100 "nominal" &&
	test_eq "$(json_get "$r" "d[\"machine\"][\"cpu\"][\"clock_mhz\"][\"max\"]")" 3100 "clock" &&
	test_eq "$(json_get "$r" "[e[\"slot\"] for e in d[\"machine\"][\"edac\"][\"counts\"] if e[\"where\"] == \"mc1/csrow0\"][0]")" DIMM_A1 "slot" &&
	test_eq "$(json_get "$r" "[e[\"slot\"] for e in d[\"machine\"][\"edac\"][\"counts\"] if e[\"where\"] == \"mc0/dimm0\"][0]")" None "no slot" &&
	grep_in "1 CPU throttled for heat during the run: CPU 2 (core throttle count up by 5" \
		"$TEST_TMP/r4/summary.txt" &&
	grep_in "CPU clock under load: 2800/2950/3100 MHz min/avg/max, nominal 2100 MHz (base_frequency)" \
		"$TEST_TMP/r4/summary.txt" &&
	"$KILN" report "$TEST_TMP/r4" >/dev/null 2>&1 &&
	grep_in "1 CPU throttled for heat during the run: CPU 2" \
		"$TEST_TMP/r4/summary.txt" &&
	grep_in "CPU clock under load: 2800/2950/3100 MHz" "$TEST_TMP/r4/report.html"
'

# What a person sees: report.html as chromium renders it.
. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	test_done
	exit
fi

test_expect_success 'report.html in chromium: the failing machine before the plots, its tables' '
	render "$TEST_TMP/r1/report.html" "$TEST_TMP/dom1.html" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/dom1.html" <<-\PY
	import sys, dom
	page = dom.load(sys.argv[1])
	body = page.one("body")
	m = page.one("div", "machine")
	assert m.one("h2").one("span").text() == "FAIL", m.one("h2").text()
	assert any("uncorrected memory errors at mc0/dimm0" in li.text()
	           for li in m.all("li")), m.text()
	# After the disks table, before the plots.
	order = list(body.all())
	table, zones = next(body.all("table")), page.one("div", "zones")
	assert order.index(table) < order.index(m) < order.index(zones)
	rows = {r.all("td").__next__().text(): [c.text() for c in r.all("td")]
	        for r in m.one("table", "edac").all("tr") if list(r.all("td"))}
	assert rows["mc0/dimm0"][4] == "0 to 1", rows["mc0/dimm0"]
	cell = list(m.one("table", "edac").all("td", "rose"))
	assert [c.text() for c in cell] == ["0 to 1", "0 to 1"], cell
	hw = [r for r in m.one("table", "hwmon").all("tr") if list(r.all("td"))]
	assert any("coretemp" in r.text() for r in hw), [r.text() for r in hw]
	# The inventory: the file under no controller.
	inv = page.one("ul", "inventory")
	assert [d.one("span").text() for d in inv.all("li", "disk")] == \
	    ["d1.img"], inv.text()
	PY
'

test_done
