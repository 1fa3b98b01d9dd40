#!/bin/sh
# slow: QEMU boots. end=discard held to what each device promises a
# discarded block reads as, in one boot of the image with a second archive
# on top (scsi_debug, as tests/e2e/md.t brings it):
#   nvme0n1      QEMU's NVMe without discard=unmap: the deallocate is
#                acknowledged and DLFEAT promises zeros, but the image
#                keeps kiln's units: the end step FAILs, the disk FAILs,
#                the run exits 1, its certificate says failed, and the
#                image on the host still holds the units
#   scsi_debug   lbpu=1 lbprz=1: UNMAP taken, zeros promised (SCSI LBPRZ
#                001b) and kept: done, the read-back all zeros
#   KILN-SAYS    virtio-scsi with discard=unmap: nothing promised (LBPRZ
#                000b), its holes read zeros: said, never judged
. "$(dirname "$0")/../lib/e2e.sh"

over="$TEST_TMP/overlay"
mkdir -p "$over"
kernel_modules "$over" promise.modules scsi_debug

cat >"$over/promise" <<'SH'
#!/bin/sh
# PID 1 (rdinit): a scsi_debug disk that unmaps to zeros and says so,
# found, then kiln's /init.
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r ko; do
	case "$ko" in
	*/scsi_debug.ko)
		# lbpu: UNMAP taken; lbprz: an unmapped block reads zeros,
		# which page B2h says and scsi_debug's store then holds.
		insmod "/$ko" dev_size_mb=16 lbpu=1 lbprz=1 ;;
	*) insmod "/$ko" 2>/dev/null ;;
	esac
done </promise.modules
modprobe sd_mod
i=0
until ls /sys/bus/pseudo/devices/adapter0/host*/target*/*/block/* >/dev/null 2>&1 ||
	[ $i -ge 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
for b in /sys/bus/pseudo/devices/adapter0/host*/target*/*/block/*; do
	echo "@@ scsi_debug ${b##*/} $(od -An -tx1 -j5 -N1 "/sys/class/block/${b##*/}/device/vpd_pgb2" 2>&1)"
done
exec /init
SH
chmod +x "$over/promise"
(cd "$over" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip) \
	>"$TEST_TMP/overlay.cpio.gz"
cat "$TOP/out/initramfs.cpio.gz" "$TEST_TMP/overlay.cpio.gz" >"$TEST_TMP/initrd"

lab_init "$TEST_TMP/promise"
lab_disk nvme keeps 16
lab_discard says
lab_disk vscsi says 16 KILN-SAYS
lab_stick "# end=discard, promises kept and broken
end=discard
countdown=0"

# end_of WHO KEY: result.json's end.disks[KEY] of the target whose
# serial, name or model is WHO.
end_of () {
	result "[e[\"$2\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if \"$1\" in (t[\"serial\"], t[\"name\"], t[\"model\"]) and e[\"label\"] == t[\"label\"]][0]"
}

# t WHO FIELD: a field of that target.
t () {
	result "[t[\"$2\"] for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"], t[\"model\"])][0]"
}

# cert_of WHO EXPR: EXPR on d = that disk's certificate.
cert_of () {
	json_get "$run/$(end_of "$1" certificate_json)" "$2"
}

test_expect_success 'the boot: scsi_debug unmaps to zeros, kiln run ends, its results complete' '
	LAB_INITRD="$TEST_TMP/initrd" boot promise "rdinit=/promise" &&
	grep -a -o "@@ .*" "$TEST_TMP/promise.log" | tee "$TEST_TMP/said" &&
	# Page B2h byte 5 as the guest kernel read it: LBPU (80h) and
	# LBPRZ 001b (04h).
	grep -q "^@@ scsi_debug sd[a-z]*  *84" "$TEST_TMP/said" &&
	grep_in "kiln-init: results are on the stick" "$TEST_TMP/promise.log" &&
	[ "$(result "d[\"state\"]")" = complete ] &&
	[ "$(result "d[\"results_complete\"]")" = True ] &&
	test_eq "$(result "len(d[\"targets\"])")" 3 targets &&
	test_eq "$(result "d[\"end\"][\"method\"]")" discard method &&
	result "\"\\n\".join(\" \".join((t[\"name\"], t[\"verdict\"], \"end\", e[\"state\"] + \":\", e[\"result\"])) for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]))"
'

test_expect_success 'each blank disk is written whole and verified' '
	test_eq "$(result "\" \".join(sorted(set(t[\"mode\"] for t in d[\"targets\"])))")" write-verify modes &&
	[ "$(result "all(t[\"bytes_read\"] == t[\"size\"] == 16 << 20 for t in d[\"targets\"])")" = True ]
'

test_expect_success 'NVMe that keeps its data: zeros promised, units found, failed' '
	test_eq "$(end_of nvme0n1 state)" failed state &&
	why=$(end_of nvme0n1 result) && echo "$why" &&
	echo "$why" | grep -q "units of this run (the first at byte [0-9]*) where zeros were promised" &&
	[ "$(result "[e[\"read_back\"][\"units_of_this_run\"] > 0 for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if t[\"name\"] == \"nvme0n1\"][0]")" = True ] &&
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"promise_from\"]")" "NVMe DLFEAT 001b" promise
'

test_expect_success 'a failed end step FAILs the disk and the run: exit 1' '
	test_eq "$(t nvme0n1 verdict)" FAIL verdict &&
	t nvme0n1 reasons | grep -q "end=discard: discarded: .* where zeros were promised" &&
	test_eq "$(result "d[\"verdict\"]")" FAIL "run verdict" &&
	test_eq "$(result "d[\"exit_code\"]")" 1 exit_code &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/promise.log"
'

test_expect_success 'its certificate says failed, and why' '
	test_eq "$(cert_of nvme0n1 "d[\"end\"][\"state\"]")" failed state &&
	cert_of nvme0n1 "d[\"end\"][\"result\"]" | grep -q "where zeros were promised" &&
	test_eq "$(cert_of nvme0n1 "d[\"burn_in\"][\"verdict\"]")" FAIL verdict
'

test_expect_success 'on the host: the NVMe image still holds kiln units' '
	n=$(grep -c -a KILNUNIT "$lab_dir/keeps.img") &&
	echo "$n lines with KILNUNIT in keeps.img" &&
	[ "$n" -gt 0 ]
'

test_expect_success 'scsi_debug lbprz=1: done, read back all zeros, SCSI LBPRZ 001b' '
	test_eq "$(end_of scsi_debug state)" done state &&
	end_of scsi_debug result | grep -q "deallocated, zeros promised: read back [0-9]* bytes, all zeros" &&
	[ "$(result "[e[\"read_back\"][\"reads\"] > 0 and e[\"read_back\"][\"zero_bytes\"] == e[\"read_back\"][\"bytes\"] for t, e in zip(d[\"targets\"], d[\"end\"][\"disks\"]) if t[\"model\"] == \"scsi_debug\"][0]")" = True ] &&
	test_eq "$(cert_of scsi_debug "d[\"end\"][\"promise_from\"]")" "SCSI LBPRZ 001b" promise &&
	test_eq "$(steady_of "$(t scsi_debug name)")" PASS verdict
'

test_expect_success 'virtio-scsi with discard=unmap: nothing promised, said, PASS' '
	test_eq "$(end_of KILN-SAYS state)" said state &&
	end_of KILN-SAYS result | grep -q "deallocated, contents not promised" &&
	test_eq "$(cert_of KILN-SAYS "d[\"end\"][\"promise_from\"]")" "SCSI LBPRZ 000b" promise &&
	test_eq "$(steady_of KILN-SAYS)" PASS verdict &&
	test_eq "$(grep -c -a KILNUNIT "$lab_dir/says.img")" 0 "units in says.img"
'

test_expect_success 'each certificate is the one result.json names, its SHA-256' '
	python3 "$TOP/tests/lib/certs.py" "$run"
'

e2e_done
