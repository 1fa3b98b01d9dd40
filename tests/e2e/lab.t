#!/bin/sh
# slow: QEMU boots. The lab: kiln's ramboot on eight blank disks behind
# nvme, ahci, megasas-gen2 and virtio-scsi, with -cpu max so the SSE4.2 and
# PCLMUL paths run: every disk found under its controller, written and
# PASS; results on the stick, whose FAT stays clean; the boot's figures.
# Then end=discard on disks whose discards reach their images: each left
# as its device promises, certificates that name the drive and the
# machine (its SMBIOS serial and asset tag), their digests in result.json.
. "$(dirname "$0")/../lib/e2e.sh"

DISKS="nvme-a nvme-b sata-a sata-b raid-a raid-b vscsi-a vscsi-b"
lab_init "$TEST_TMP/lab"
for d in $DISKS; do
	lab_discard "$d"
done
lab_disk nvme nvme-a 24
lab_disk nvme nvme-b 24
lab_disk ahci sata-a 24
lab_disk ahci sata-b 24
lab_disk megasas raid-a 24
lab_disk megasas raid-b 24
lab_disk vscsi vscsi-a 24
lab_disk vscsi vscsi-b 24
lab_stick "# the e2e lab
end=discard"

test_expect_success 'the lab boots, runs kiln and powers off (-cpu max)' '
	LAB_CPU=max LAB_EXTRA="-smbios type=1,serial=SN-LAB-END -smbios type=3,serial=CHASSIS-9,asset=ASSET-7" \
		boot lab "" &&
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

# end_of LABEL_OR_SERIAL KEY: result.json's end.disks[KEY] of that disk.
end_of () {
	result "[e[\"$2\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if \"$1\" in (t[\"serial\"], t[\"name\"], t[\"label\"]) and e[\"label\"] == t[\"label\"]][0]"
}

test_expect_success 'end=discard: each disk left as its device promises' '
	python3 - "$run" <<-PY
	import json, os, sys
	run = sys.argv[1]
	d = json.load(open(os.path.join(run, "result.json")))
	end = d["end"]
	got = {}
	why = {}
	bad = []
	for t, e in zip(d["targets"], end["disks"]):
	    k = t["serial"] if t["transport"] != "nvme" else t["name"]
	    if t["label"] != e["label"]:
	        bad.append(f"{k}: end.disks out of order")
	    got[k] = e
	    c = json.load(open(os.path.join(run, e["certificate_json"])))
	    why[k] = c["end"]["promise_from"]
	for k, e in sorted(got.items()):
	    print(k, e["state"], why[k], e["result"])
	# QEMU nvme promises zeros (DLFEAT 001b) and its image gives them;
	# its SCSI disks set no LBPRZ in page B2h, and libata gives none to a
	# SATA drive whose RZAT it does not know: nothing promised, said.
	want = {"nvme0n1": "done", "nvme0n2": "done",
	        "KILN-SATA-A": "said", "KILN-SATA-B": "said",
	        "KILN-RAID-A": "said", "KILN-RAID-B": "said",
	        "KILN-VSCSI-A": "said", "KILN-VSCSI-B": "said"}
	# lab_discard: every disk read back zeros, promised or not.
	for k, e in got.items():
	    rb = e["read_back"]
	    if not rb["reads"] or rb["zero_bytes"] != rb["bytes"]:
	        bad.append(f"{k}: read back {rb}")
	for k in want:
	    w = ("NVMe DLFEAT 001b" if k.startswith("nvme") else
	         "ATA TRIM, no RZAT trusted (SAT\x27s LBPRZ 000b)"
	         if k.startswith("KILN-SATA") else "SCSI LBPRZ 000b")
	    if why.get(k) != w:
	        bad.append(f"{k}: promise from {why.get(k)} not {w}")
	state = {k: e["state"] for k, e in got.items()}
	bad += [f"{k}: {state.get(k)} not {v}"
	        for k, v in want.items() if state.get(k) != v]
	method = end["method"]
	if method != "discard":
	    bad.append(f"method {method}")
	print("\n".join(bad))
	sys.exit(bool(bad))
	PY
'

test_expect_success 'end=discard: no kiln unit left in any image, all holes' '
	for n in $DISKS; do
		img="$lab_dir/$n.img" &&
		test_eq "$(grep -c -a KILNUNIT "$img")" 0 "units in $n.img" &&
		python3 -c "
import os, sys
f = os.open(sys.argv[1], os.O_RDONLY)
try:
    at = os.lseek(f, 0, os.SEEK_DATA)
except OSError:
    sys.exit(0)
print(sys.argv[1], \"has data at byte\", at)
sys.exit(1)" "$img" || return 1
	done
'

test_expect_success 'each certificate is the one result.json names, its SHA-256' '
	python3 "$TOP/tests/lib/certs.py" "$run"
'

test_expect_success 'the two NVMe namespaces have a certificate each, their own' '
	a=$(end_of nvme0n1 certificate_json) && b=$(end_of nvme0n2 certificate_json) &&
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] &&
	[ -s "$run/$a" ] && [ -s "$run/$b" ] &&
	test_eq "$(json_get "$run/$a" "d[\"drive\"][\"name\"]")" nvme0n1 "$a" &&
	test_eq "$(json_get "$run/$b" "d[\"drive\"][\"name\"]")" nvme0n2 "$b" &&
	! cmp -s "$run/$a" "$run/$b"
'

test_expect_success 'a certificate names the drive as result.json does, firmware too' '
	python3 - "$run" <<-PY
	import json, os, sys
	run = sys.argv[1]
	d = json.load(open(os.path.join(run, "result.json")))
	bad = []
	for t, e in zip(d["targets"], d["end"]["disks"]):
	    c = json.load(open(os.path.join(run, e["certificate_json"])))["drive"]
	    label = t["label"]
	    for k, want in (("name", t["name"]), ("model", t["model"]),
	                    ("serial", t["serial"]), ("wwn", t["wwn"]),
	                    ("identity", t["identity"]),
	                    ("firmware", t["firmware"]),
	                    ("capacity_bytes", t["size"])):
	        if not want or c[k] != want:
	            bad.append(f"{label}: {k} {c[k]} not {want}")
	print("\n".join(bad))
	sys.exit(bool(bad))
	PY
'

test_expect_success 'a certificate names the machine: SMBIOS serials, asset tag' '
	for c in $(result "\" \".join(e[\"certificate_json\"] for e in d[\"end\"][\"disks\"])"); do
		test_eq "$(json_get "$run/$c" "d[\"machine\"][\"serial\"]")" SN-LAB-END "$c serial" &&
		test_eq "$(json_get "$run/$c" "d[\"machine\"][\"asset_tag\"]")" ASSET-7 "$c asset tag" &&
		test_eq "$(json_get "$run/$c" "d[\"machine\"][\"chassis_serial\"]")" CHASSIS-9 "$c chassis serial" &&
		test_eq "$(json_get "$run/$c" "d[\"end\"][\"method\"]")" discard "$c method" ||
			return 1
	done &&
	test_eq "$(result "d[\"end\"][\"machine_serial\"]")" SN-LAB-END machine_serial
'

test_expect_success 'the certificates are whole HTML; cert-machine.html names all' '
	[ -s "$run/cert-machine.html" ] &&
	python3 - "$run" <<-PY
	import html.parser, json, os, sys
	run = sys.argv[1]
	class P(html.parser.HTMLParser):
	    def __init__(self):
	        super().__init__()
	        self.open = []
	        self.text = []
	        self.links = []
	        self.bad = []
	    def handle_starttag(self, tag, a):
	        self.links += [v for k, v in a if tag == "a" and k == "href"]
	        if tag not in ("br", "meta", "link", "img", "hr", "input", "col"):
	            self.open.append(tag)
	    def handle_endtag(self, tag):
	        if not self.open or self.open[-1] != tag:
	            self.bad.append(f"</{tag}> closes {self.open[-1:]}")
	        else:
	            self.open.pop()
	    def handle_data(self, t):
	        self.text.append(t)
	def parse(name):
	    p = P()
	    p.feed(open(os.path.join(run, name)).read())
	    p.close()
	    bad.extend(f"{name}: {b}" for b in p.bad)
	    if p.open:
	        bad.append(f"{name}: left open: {p.open}")
	    return p
	bad = []
	disks = json.load(open(os.path.join(run, "result.json")))["end"]["disks"]
	for e in disks:
	    parse(e["certificate_html"])
	m = parse("cert-machine.html")
	text = "".join(m.text)
	want = ["SN-LAB-END", "ASSET-7", "CHASSIS-9"] + [e["label"] for e in disks]
	bad += [f"cert-machine.html does not name {w}" for w in want if w not in text]
	r = parse("report.html")
	links = ["cert-machine.html"] + [e["certificate_html"] for e in disks]
	bad += [f"report.html does not link {n}" for n in links if n not in r.links]
	print("\n".join(bad))
	sys.exit(bool(bad))
	PY
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

