#!/bin/sh
# slow: QEMU boots. The machine's own signals in the real image (q35, TCG):
# QEMU's NVMe behind a PCIe root port, two AHCI disks and two drives on a
# MegaRAID card. During the burn the host raises the NVMe's critical
# warning (QMP qom-set of smart_critical_warning) and injects an
# uncorrectable, non-fatal PCIe error at the root port above it
# (pcie_aer_inject_error); after it, a short self-test runs on every
# drive. The NVMe FAILs with the warning's meaning, the AER error is
# counted against it (the device below the port), its temperature is in
# result.json; QEMU's AHCI drives pass their self-test, its NVMe has none
# that smartctl 7.3 can run; the MegaRAID card's drives are found by
# smartctl --scan-open and shown under their controller. QEMU's
# megasas-gen2 lists its second drive as megaraid,256 and its MFI
# pass-through cuts that to target 0, so it answers as the first drive:
# one drive is found, by its own number, and listed once. The CPUs'
# clock under load is read from /proc/cpuinfo (QEMU has no cpufreq). A
# SAS drive on QEMU's LSI SAS1068 (mptsas1068): the guest shows the HBA's
# eight SAS phys (/sys/class/sas_phy, each counter reads 0: QEMU counts no
# link errors), the drive on its own phy at 3.0 Gbit; QEMU's SCSI disk has
# no protocol log of its own, so the drive's counters are not there, and
# starts no self-test.
# QEMU's own BMC (ipmi-bmc-sim on a KCS interface) is read in-band: its
# event log before and after the burn (it logs nothing of a guest's run:
# only its watchdog, which nothing arms here, would add an entry), so the
# bmc object says the log was read twice and nothing was added.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
qmp="$TEST_TMP/qmp.sock"
truncate -s 24M "$lab_dir/nvme.img"
lab_add -M q35 -device pcie-root-port,id=rp1,chassis=1,slot=1 \
	-drive "if=none,id=dn,format=raw,cache=none,aio=threads,file=$lab_dir/nvme.img" \
	-device nvme,id=nvme0,serial=KILN-NVME0,bus=rp1 \
	-device nvme-ns,id=dev-nvme,bus=nvme0,nsid=1,drive=dn
lab_disk ahci sata-a 24
lab_disk ahci sata-b 24
lab_disk megasas raid-a 16
lab_disk megasas raid-b 16
lab_disk mptsas sas-a 16
lab_stick ""
lab_bmc sim

# n SERIAL-OR-NAME EXPR: EXPR of the target t with that serial or name.
n () {
	result "[$2 for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"])][0]"
}

test_expect_success 'boot: a burn with signals every 5 s, then a short self-test' '
	{
		# Once the burn is under way: the warning, then the error.
		{
			i=0
			# The first status line: the signals at the start
			# have been read, so the error rises from them.
			while [ $i -lt 1200 ] && ! grep -a -q "^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] pass" \
				"$TEST_TMP/signals.log" 2>/dev/null; do
				sleep 0.5; i=$((i + 1))
			done
			sleep 6
			qmp "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/nvme0\", \"property\": \"smart_critical_warning\", \"value\": 4}}" \
				"pcie_aer_inject_error rp1 POISON_TLP" \
				>"$TEST_TMP/qmp.out" 2>&1
		} &
	} &&
	LAB_EXTRA="-qmp unix:$qmp,server=on,wait=off" &&
	boot signals "kiln.duration=40s kiln.sensors=5 kiln.selftest=short kiln.reread=1" &&
	LAB_EXTRA= &&
	wait &&
	cat "$TEST_TMP/qmp.out" &&
	[ -n "$run" ] &&
	[ "$(result "d[\"exit_code\"]")" = 1 ]
'

test_expect_success 'the temperature of QEMU'"'"'s NVMe, sampled through the run' '
	[ "$(n nvme0n1 "t[\"signals\"][\"temperature\"][\"last\"]")" = 50 ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"temperature\"][\"limit\"]")" = 70 ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"temperature\"][\"limit_from\"]")" = drive ] &&
	[ "$(n nvme0n1 "len(t[\"signals\"][\"temperature\"][\"series\"][\"celsius\"]) >= 5")" = True ] &&
	[ "$(result "d[\"machine\"][\"samples\"] >= 6")" = True ] &&
	grep_in "temperature 50 C at the start, 50 C at most, 50 C at the end (limit 70 C, the drive'"'"'s own)" \
		"$run/summary.txt"
'

test_expect_success 'the critical warning raised mid-run FAILs the NVMe, with its meaning' '
	[ "$(n nvme0n1 "t[\"verdict\"]")" = FAIL ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"critical_warning_raised\"][\"bits\"]")" = 4 ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"smart_start\"][\"critical_warning\"]")" = 0 ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"smart_end\"][\"critical_warning\"]")" = 4 ] &&
	grep_in "NVMe critical warning 0x04: NVM subsystem reliability degraded" \
		"$run/summary.txt"
'

test_expect_success 'the NVMe'"'"'s own logs before and after, read by kiln; QEMU has no C0h and no telemetry' '
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"controller\"]")" = /dev/nvme0 ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"before\"][\"serial\"]")" = KILN-NVME0 ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"before\"][\"health\"][\"critical_warning\"]")" = 0 ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"after\"][\"health\"][\"critical_warning\"]")" = 4 ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"after\"][\"health\"][\"available_spare\"] >= t[\"nvme_logs\"][\"after\"][\"health\"][\"spare_threshold\"]")" = True ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"after\"][\"ocp_smart\"]")" = None ] &&
	[ "$(n nvme0n1 "t[\"error_log\"][\"entries_before\"] == t[\"error_log\"][\"entries_after\"]")" = True ] &&
	[ "$(n nvme0n1 "t[\"error_log\"][\"new\"]")" = "[]" ] &&
	[ "$(n nvme0n1 "t[\"nvme_logs\"][\"telemetry\"]")" = "not kept: the drive has no host-initiated telemetry log" ] &&
	[ "$(n KILN-SATA-A "\"nvme_logs\" in t")" = False ]
'

test_expect_success 'the FAILed NVMe has its RMA file: the drive, the failure, its logs before and after' '
	rma="$run/rma-KILN-NVME0.txt" &&
	grep_in "serial:         KILN-NVME0" "$rma" &&
	grep_in "NVMe critical warning 0x04" "$rma" &&
	grep_in "SMART / Health log (02h) before: critical warning 0x00" "$rma" &&
	grep_in "SMART / Health log (02h) after: critical warning 0x04" "$rma" &&
	grep_in "SMART after the run (smartctl)" "$rma" &&
	! ls "$run" | grep -v "^rma-KILN-NVME0.txt$" | grep -q "^rma-" &&
	grep_in "rma-KILN-NVME0.txt" "$run/summary.txt"
'

test_expect_success 'the SAS drive on QEMU'"'"'s SAS1068: its phy and the HBA'"'"'s eight, counters before and after' '
	mpt=$(result "[c[\"pci\"] for c in d[\"controllers\"] if c[\"driver\"] == \"mptsas\"][0]") &&
	test_eq "$(result "len([p for p in d[\"sas_phys\"] if p[\"controller\"] == \"$mpt\"])")" 8 "phys of the HBA" &&
	phy=$(result "[p[\"phy\"] for p in d[\"sas_phys\"] if p[\"in_use\"]]") &&
	test_eq "$(echo "$phy" | grep -Ec "^\[.phy-[0-9]+:[0-7].\]$")" 1 "one phy in use: $phy" &&
	phy=$(echo "$phy" | tr -d "[]'"'"'") &&
	test_eq "$(result "all(c[\"before\"] == 0 and c[\"after\"] == 0 and c[\"growth\"] == 0 and c[\"error\"] is None for p in d[\"sas_phys\"] for c in p[\"counters\"].values())")" True "every counter read, none grew" &&
	test_eq "$(n KILN-SAS-A "sorted(set(c[\"source\"] for c in t[\"link_errors\"].values()))")" "['"'"'$phy'"'"']" "the drive'"'"'s counters: its phy'"'"'s only" &&
	test_eq "$(n KILN-SAS-A "len(t[\"link_errors\"])")" 4 "its phy'"'"'s four counters" &&
	test_eq "$(n KILN-SAS-A "[r for r in t[\"reasons\"] if not r.startswith((\"no I/O errors\", \"unstable \", \"slow reads confirmed: \", \"short self-test not supported\"))]")" "[]" "KILN-SAS-A: reasons but the host'"'"'s load and its self-test" &&
	inv="$run/inventory.json" &&
	test_eq "$(json_get "$inv" "[x[\"sas_phys\"] for x in d[\"disks\"] if x.get(\"serial\") == \"KILN-SAS-A\"][0]")" "['"'"'$phy'"'"']" "the disk'"'"'s phy in inventory.json" &&
	test_eq "$(json_get "$inv" "[p[\"negotiated_linkrate\"] for p in d[\"sas_phys\"] if p[\"phy\"] == \"$phy\"][0]")" "3.0 Gbit" "its rate"
'

test_expect_success 'the AER error at the root port is counted against the NVMe below it' '
	port=$(n nvme0n1 "t[\"signals\"][\"pci_path\"][1][\"pci\"]") &&
	[ "$(n nvme0n1 "t[\"signals\"][\"pci_path\"][1][\"nonfatal\"]")" = 1 ] &&
	[ "$(result "[a[\"nonfatal_end\"] - a[\"nonfatal_start\"] for a in d[\"machine\"][\"aer\"] if a[\"pci\"] == \"$port\"][0]")" = 1 ] &&
	grep_in "PCIe uncorrected (non-fatal) errors on its path: $port rose from 0 to 1" \
		"$run/summary.txt" &&
	[ "$(n KILN-SATA-A "any(p[\"nonfatal\"] for p in t[\"signals\"][\"pci_path\"])")" = False ] &&
	[ "$(result "d[\"machine\"][\"verdict\"]")" = PASS ]
'

test_expect_success 'the kernel log said it too, against the port the NVMe hangs from' '
	[ "$(result "d[\"machine\"][\"kernel_log\"][\"read\"]")" = True ] &&
	[ "$(n nvme0n1 "t[\"signals\"][\"kernel_log\"][\"by_kind\"].get(\"PCIe uncorrected error\", 0) >= 1")" = True ]
'

test_expect_success 'the CPUs: the clock under load from /proc/cpuinfo (QEMU has no cpufreq), nothing throttled, no machine check' '
	[ "$(result "d[\"machine\"][\"cpu\"][\"clock_mhz\"][\"readings\"] >= 1")" = True ] &&
	[ "$(result "d[\"machine\"][\"cpu\"][\"clock_mhz\"][\"min\"] > 0")" = True ] &&
	[ "$(result "d[\"machine\"][\"cpu\"][\"throttled_cpus\"]")" = None ] &&
	[ "$(result "d[\"machine\"][\"machine_checks\"][\"uncorrected\"]")" = 0 ] &&
	grep_in "CPU clock under load: " "$run/summary.txt"
'

test_expect_success 'selftest=short: QEMU'"'"'s AHCI drives pass it; its NVMe has none smartctl 7.3 runs' '
	[ "$(result "d[\"machine\"][\"selftest\"]")" = short ] &&
	[ "$(n KILN-SATA-A "t[\"signals\"][\"selftest\"][\"result\"]")" = passed ] &&
	[ "$(n KILN-SATA-B "t[\"signals\"][\"selftest\"][\"result\"]")" = passed ] &&
	test_eq "$(steady_of KILN-SATA-A)" PASS KILN-SATA-A &&
	[ "$(n nvme0n1 "t[\"signals\"][\"selftest\"][\"result\"]")" = "not supported" ] &&
	grep_in "kiln: short self-test on 7 drives" "$TEST_TMP/signals.log" &&
	grep_in "short self-test: passed: Completed without error" "$run/summary.txt"
'

test_expect_success 'the MegaRAID card'"'"'s drives are found by smartctl --scan-open, under their controller' '
	mega=$(result "[c[\"pci\"] for c in d[\"controllers\"] if c[\"driver\"] == \"megaraid_sas\"][0]") &&
	[ "$(result "[(h[\"type\"], h[\"serial\"]) for h in d[\"machine\"][\"raid_drives\"]] == [(\"megaraid,0\", \"KILN-RAID-A\")]")" = True ] &&
	[ "$(result "all(h[\"controller\"] == \"$mega\" and h[\"type\"].startswith(\"megaraid,\") for h in d[\"machine\"][\"raid_drives\"])")" = True ] &&
	[ "$(result "len(set(h[\"serial\"] for h in d[\"machine\"][\"raid_drives\"])) == len(d[\"machine\"][\"raid_drives\"])")" = True ] &&
	grep_in "behind $mega: QEMU QEMU HARDDISK KILN-RAID-A" "$run/summary.txt"
'

. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	e2e_done
	exit
fi

test_expect_success 'report.html in chromium: the FAIL first, temperatures over time, the tree' '
	port=$(n nvme0n1 "t[\"signals\"][\"pci_path\"][1][\"pci\"]") &&
	render "$run/report.html" "$TEST_TMP/dom.html" &&
	PYTHONPATH="$TOP/tests/lib" python3 - "$TEST_TMP/dom.html" "$port" <<-\PY
	import sys, dom
	page = dom.load(sys.argv[1])
	rows = [[c.text() for c in r.all("td")]
	        for r in next(page.all("table")).all("tr")]
	rows = [r for r in rows if r]
	# The verdict, then why (the last cell).
	assert rows[0][0] == "nvme0n1" and rows[0][-2] == "FAIL", rows
	assert all(r[-2] != "FAIL" for r in rows[1:]), rows
	# Its temperature over the run, under its limit line.
	cells = {c.one("span").text(): c
	         for c in page.one("div", "temps").all("div", "cell")}
	points = cells["nvme0n1"].one("polyline", "temp").attrs["points"]
	assert len(points.split()) >= 5, points
	cells["nvme0n1"].one("line", "temp-limit")
	# The tree: each disk under its controller, PCIe links with budgets.
	inv = page.one("ul", "inventory")
	under = {d.one("span").text(): c for c in inv.all("li", "ctrl")
	         for d in c.all("li", "disk")}
	assert len(under) == len(rows), (under.keys(), rows)
	assert list(under["nvme0n1"].all("span", "budget")), under["nvme0n1"].text()
	# The machine: the AER error where it was injected.
	aer = [[c.text() for c in r.all("td")]
	       for r in page.one("div", "machine").one("table", "aer").all("tr")]
	assert [r for r in aer if r and r[0] == sys.argv[2]][0][2] == "0 to 1", aer
	PY
'

test_expect_success 'the BMC: its event log read before and after the burn, nothing added' '
	test_eq "$(result "d[\"bmc\"][\"state\"]")" read "bmc state" &&
	test_eq "$(result "d[\"bmc\"][\"end_read\"]")" True "read at the end" &&
	test_eq "$(result "d[\"bmc\"][\"added\"]")" 0 "entries added" &&
	test_eq "$(result "d[\"bmc\"][\"verdict\"]")" PASS "its verdict" &&
	grep_in "the BMC'"'"'s event log holds 0 entries before the burn" \
		"$TEST_TMP/signals.log" &&
	grep_in "bmc: address not known, event log 0 entries before, 0 after, 0 added during the run: PASS" \
		"$run/summary.txt"
'

# The other boots set reread=0 (tests/lib/e2e.sh): this one reads again.
test_expect_success 'reread=1: the slowest requests of each disk that did not fail read again' '
	test_eq "$(result "sum(1 for t in d[\"targets\"] if t[\"verdict\"] != \"FAIL\") >= 2")" True "disks not failed" &&
	# Done, or cut short by the deadline on a slow machine: it ran.
	test_eq "$(result "all(t[\"reread\"][\"state\"] in (\"done\", \"cut short\") and t[\"reread\"][\"seconds\"] > 0 for t in d[\"targets\"] if t[\"verdict\"] != \"FAIL\")")" True "re-read ran"
'
e2e_done
