#!/bin/sh
# slow: QEMU boots. The lab: kiln's ramboot on eight blank disks behind
# nvme, ahci, megasas-gen2 and virtio-scsi, with -cpu max so the SSE4.2 and
# PCLMUL paths run: every disk found under its controller, written and
# PASS; results on the stick, whose FAT stays clean; the boot's figures.
. "$(dirname "$0")/../lib/e2e.sh"

lab_init "$TEST_TMP/lab"
lab_disk nvme nvme-a 24
lab_disk nvme nvme-b 24
lab_disk ahci sata-a 24
lab_disk ahci sata-b 24
lab_disk megasas raid-a 24
lab_disk megasas raid-b 24
lab_disk vscsi vscsi-a 24
lab_disk vscsi vscsi-b 24
lab_stick "# the e2e lab"

test_expect_success 'the lab boots, runs kiln and powers off (-cpu max)' '
	LAB_CPU=max boot lab "" &&
	grep_in "kiln-init: after: poweroff" "$TEST_TMP/lab.log" &&
	[ -n "$run" ]
'

test_expect_success 'every disk is found, each under its controller' '
	python3 - "$run/inventory.json" <<-PY
	import json, sys
	inv = json.load(open(sys.argv[1]))
	ctrl = {c["pci"]: c["driver"] for c in inv["controllers"]}
	got = {}
	for d in inv["disks"]:
	    got[d["serial"] or d["wwn"]] = ctrl.get(d["controller"])
	want = {"KILN-SATA-A": "ahci", "KILN-SATA-B": "ahci",
	        "KILN-RAID-A": "megaraid_sas", "KILN-RAID-B": "megaraid_sas",
	        "KILN-VSCSI-A": "virtio-pci", "KILN-VSCSI-B": "virtio-pci",
	        "KILN-STICK": "xhci_hcd"}
	nvme = [d for d in inv["disks"] if d["transport"] == "nvme"]
	bad = [f"{k}: {got.get(k)} not {v}" for k, v in want.items() if got.get(k) != v]
	if len(nvme) != 2 or any(ctrl.get(d["controller"]) != "nvme" for d in nvme):
	    bad.append("two nvme namespaces behind the nvme controller")
	print("\n".join(bad))
	sys.exit(bool(bad))
	PY
'

test_expect_success 'each blank disk is written whole, verified and PASSes (steady)' '
	[ "$(result "len(d[\"targets\"])")" = 8 ] &&
	test_eq "$(result "\" \".join(sorted(set(steady(t) for t in d[\"targets\"])))")" PASS verdicts &&
	[ "$(result "all(t[\"bytes_read\"] == t[\"size\"] == 24 << 20 for t in d[\"targets\"])")" = True ] &&
	[ "$(result "\" \".join(sorted(set(t[\"mode\"] for t in d[\"targets\"])))")" = write-verify ] &&
	[ "$(result "d[\"exit_code\"]")" = 0 ] &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/lab.log"
'

test_expect_success 'the stick is never written by the burn-in (in-use)' '
	grep_in "boot or results medium (--protect)" "$run/summary.txt"
'

test_expect_success 'the results are all on the stick' '
	for f in summary.txt result.json samples.csv inventory.json kmsg.log report.html; do
		[ -s "$run/$f" ] || { echo "no $f"; return 1; }
	done &&
	grep -q "kiln: burn-in I/O starts" "$run/kmsg.log" &&
	ran_clean "$run/summary.txt" 8
'

test_expect_success 'SMART before and after, through smartctl in the image' '
	[ "$(result "[t[\"smart\"][\"after\"][\"passed\"] for t in d[\"targets\"] if t[\"serial\"] == \"KILN-SATA-A\"][0]")" = True ] &&
	[ "$(result "[t[\"smart\"][\"before\"][\"reallocated_sectors\"] for t in d[\"targets\"] if t[\"serial\"] == \"KILN-SATA-A\"][0]")" = 0 ] &&
	[ "$(result "[t[\"smart\"][\"after\"][\"media_errors\"] for t in d[\"targets\"] if t[\"name\"] == \"nvme0n1\"][0]")" = 0 ] &&
	ls "$run" | grep -q "^smart-nvme0n1-before.txt$" &&
	grep -q "PASSED" "$run/smart-nvme0n1-after.txt"
'

test_expect_success 'the stick FAT is clean after the run (fsck.fat -n)' '
	lab_fsck >"$TEST_TMP/fsck" 2>&1 || { cat "$TEST_TMP/fsck"; return 1; }
'

test_expect_success '-cpu max: the PCLMUL CRC32C ran' '
	[ "$(result "d[\"crc32c\"]")" = pclmul ]
'

test_expect_success 'figures: initramfs size, kernel start to first burn-in I/O' '
	first=$(sed -n "s/^\[ *\([0-9.]*\)\] kiln: burn-in I\/O starts.*/\1/p" "$run/kmsg.log") &&
	[ -n "$first" ]
'
say "initramfs $(du -k "$TOP/out/initramfs.cpio.gz" | cut -f1) KiB; first burn-in I/O ${first:-?} s after kernel start (TCG, -cpu max)"

e2e_done
