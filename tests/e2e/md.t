#!/bin/sh
# slow: a QEMU boot, of the image with a second archive on top, for what
# the kernel makes in a guest and this build host cannot.
#
# md RAID superblocks, made by the real mdadm in a guest (this build
# host's kernel has no md driver): each metadata version, 0.90
# and 1.0 at the end, 1.1 at the start, 1.2 at 4 KiB, is found by kiln
# probe and classed has-data; a member of a running array is in use, and
# kiln burn refuses it even with --destroy-data. Its two disks, their
# superblocks zeroed, are then the healthy disks of the faults below:
# /md-test, run first as PID 1, ends in the faults' script.
#
# Faults that come through the kernel's own error paths, not QEMU's: the
# SCSI midlayer (scsi_debug) and device-mapper (dm-flakey, dm-linear with
# an error segment), each FAILed by kiln run for what it is, beside
# healthy disks that PASS.
#
# The second archive brings the test's modules (scsi_debug, dm-flakey: a
# lab's, not the field's, so not in initramfs/modules.list), dmsetup and
# a script that plants the faults and then becomes kiln's /init. Disks:
#   KILN-A, B     healthy: md's disks, blank again
#   scsi_debug A  reads of sectors MED_LBA.. fail (MEDIUM ERROR, unrecovered
#                 read error): kiln's read errors there, and the kernel's
#                 "critical medium error" lines counted against A
#   scsi_debug B  every TIMEOUT_NTH read or write is never answered; B's
#                 SCSI timeout (30 s, sd's default) is past kiln's
#                 deadline (20 s): B stalls and FAILs, and kiln still ends
#   KILN-DROPS    dm-flakey: up 1 s, then drops every write for 1 s, over
#                 and over: the lost writes read back zeroed. It maps a
#                 virtio disk throttled to 16 MB/s, so its write phase
#                 spans an up and a down however fast the host is
#   KILN-CORRUPT  dm-flakey: byte CORRUPT_BYTE of every write set to 0:
#                 flipped bits, read bad twice
#   KILN-BADBLOCKS dm-linear with an error segment at ERR_SECTOR: consent
#                 (destroy-data) has it written unguarded, so the segment
#                 fails writes and reads
# scsi_debug's faults are the module's, not a disk's (6.1 keeps opts,
# every_nth and the medium error range for all its disks): A has B's
# timeouts too, but with a SCSI timeout of 3 s the kernel aborts and
# retries them well within kiln's deadline; B has A's medium errors, and
# may or may not reach them before it stalls. The disks the dm maps are
# built on are in use (held by them), never tested.
. "$(dirname "$0")/../lib/e2e.sh"

command -v mdadm >/dev/null 2>&1 || test_skip_all "needs mdadm (make deps)"
command -v dmsetup >/dev/null 2>&1 || test_skip_all "needs dmsetup (make deps)"
M=1048576
MED_LBA=41472		# 20.25 MiB
MED_COUNT=8
TIMEOUT_NTH=40
CORRUPT_BYTE=3000	# in the payload of a request's first unit
ERR_SECTOR=61440	# 30 MiB
ERR_LEN=16
over="$TEST_TMP/overlay"
mkdir -p "$over"
/usr/lib/dracut/dracut-install -D "$over" -a -l /sbin/mdadm /sbin/dmsetup ||
	test_bail "cannot copy mdadm and dmsetup"
kernel_modules "$over" kfaults.modules scsi_debug dm_flakey

cat >"$over/md-test" <<'SH'
#!/bin/sh
# Runs as PID 1 (rdinit): makes and probes md members, then plants the
# faults (/kfaults, which becomes kiln's /init).
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev; mount -t tmpfs tmpfs /run
modprobe -a virtio_pci virtio_blk md_mod raid1
# Both disks there (devtmpfs makes their nodes as they are found), not a
# guessed 2 s: a guest under TCG on a busy host finds them when it can.
i=0
while { [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; } && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
for v in 0.90 1.0 1.1 1.2; do
	mdadm --create /dev/md0 --run --force --level=1 --raid-devices=2 \
		--assume-clean --metadata=$v /dev/vda /dev/vdb >/dev/null 2>&1
	if [ "$v" = 1.2 ]; then
		echo "@@ running $(kiln probe /dev/vda)"
		kiln burn --destroy-data /dev/vda >/dev/null 2>&1
		echo "@@ burn-exit $?"
	fi
	mdadm --stop /dev/md0 >/dev/null 2>&1
	echo "@@ $v $(kiln probe /dev/vda)"
	mdadm --zero-superblock /dev/vda /dev/vdb
done
echo "@@ zeroed $(kiln probe /dev/vda)"
exec /kfaults
SH
chmod +x "$over/md-test"
cat >"$over/kfaults" <<SH
#!/bin/sh
# PID 1 after /md-test: plants the faults, then is kiln's /init.
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
while read -r ko; do
	case "\$ko" in
	*/scsi_debug.ko)
		insmod "/\$ko" add_host=2 per_host_store=1 dev_size_mb=32 \\
			medium_error_start=$MED_LBA medium_error_count=$MED_COUNT ;;
	*) insmod "/\$ko" 2>/dev/null ;;
	esac
done </kfaults.modules
modprobe -a virtio_pci virtio_blk dm_mod sd_mod
sd_of () {	# ADAPTER: the disk of scsi_debug's adapter
	for b in /sys/bus/pseudo/devices/adapter\$1/host*/target*/*/block/*; do
		[ -e "\$b" ] && echo "\${b##*/}"
	done
}
vd_of () {	# SERIAL: the virtio disk with that serial
	for d in /sys/block/vd*; do
		[ "\$(cat "\$d/serial" 2>/dev/null)" = "\$1" ] && echo "/dev/\${d##*/}"
	done
}
i=0
while [ \$i -lt 60 ] && { [ -z "\$(sd_of 0)" ] || [ -z "\$(sd_of 1)" ] ||
	[ -z "\$(vd_of KILN-DMBACK)" ] || [ -z "\$(vd_of KILN-FLAKYBACK)" ]; }; do
	sleep 1; i=\$((i + 1))
done
a=\$(sd_of 0) b=\$(sd_of 1) back=\$(vd_of KILN-DMBACK) flaky=\$(vd_of KILN-FLAKYBACK)
echo "@@ medium \$a timeout \$b back \$back"
echo 3 >/sys/block/\$a/device/timeout
echo $TIMEOUT_NTH >/sys/bus/pseudo/drivers/scsi_debug/every_nth
# 2: medium errors on reads of the range; 128: medium access commands
# (reads, writes) time out on every_nth.
echo 130 >/sys/bus/pseudo/drivers/scsi_debug/opts
n=\$((64 * 2048))
dmsetup create kf-drops --noudevsync --uuid KILN-DROPS \\
	--table "0 \$n flakey \$flaky 0 1 1 1 drop_writes"
dmsetup create kf-corrupt --noudevsync --uuid KILN-CORRUPT \\
	--table "0 \$n flakey \$back 0 0 1 5 corrupt_bio_byte $CORRUPT_BYTE w 0 0"
e=$ERR_SECTOR l=$ERR_LEN
printf '%s\n' "0 \$e linear \$back \$n" "\$e \$l error" \\
	"\$((e + l)) \$((n - e - l)) linear \$back \$((n + e + l))" |
	dmsetup create kf-badblocks --noudevsync --uuid KILN-BADBLOCKS
dmsetup table | sed 's/^/@@ table /'
exec /init
SH
chmod +x "$over/kfaults"
(cd "$over" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip) \
	>"$TEST_TMP/overlay.cpio.gz"
cat "$TOP/out/initramfs.cpio.gz" "$TEST_TMP/overlay.cpio.gz" >"$TEST_TMP/initrd"

lab_init "$TEST_TMP/md"
lab_disk virtio a 32
lab_disk virtio b 32
lab_disk virtio dmback 128 KILN-DMBACK
# 16 MB/s, reads and writes together: its write phase spans more than one
# up and down of dm-flakey (1 s each), however fast the host.
lab_throttle flakyback 16000000
lab_disk virtio flakyback 64 KILN-FLAKYBACK
lab_stick ""

# t SERIAL FIELD: a field of the target with that serial (or name).
t () {
	result "[t[\"$2\"] for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"])][0]"
}

# errors_at NAME PHASE BYTE: a failed request of that phase spans BYTE.
errors_at () {
	result "[e for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"]) for e in t[\"io_errors\"][\"first\"] if e[\"phase\"] == \"$2\" and e[\"offset\"] <= $3 < e[\"offset\"] + e[\"length\"]]" |
		grep -q "offset"
}

test_expect_success 'the boot: arrays of each metadata version, then the faults, kiln run FAILs' '
	LAB_INITRD="$TEST_TMP/initrd" boot md \
		"rdinit=/md-test kiln.include=vd*,sd*,dm-* kiln.deadline=20 kiln.destroy-data=KILN-BADBLOCKS" &&
	grep -a -o "@@ .*" "$TEST_TMP/md.log" >"$TEST_TMP/said" &&
	cat "$TEST_TMP/said" &&
	grep -v "^@@ \(medium\|table\) " "$TEST_TMP/said" >"$TEST_TMP/found" &&
	[ "$(grep -c . "$TEST_TMP/found")" = 7 ] &&
	med=$(sed -n "s/^@@ medium \([a-z]*\) .*/\1/p" "$TEST_TMP/said") &&
	slow=$(sed -n "s/^@@ medium .* timeout \([a-z]*\) .*/\1/p" "$TEST_TMP/said") &&
	[ -n "$med" ] && [ -n "$slow" ] &&
	[ "$(grep -c "^@@ table kf-" "$TEST_TMP/said")" = 5 ] &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/md.log" &&
	grep_in "kiln-init: results are on the stick" "$TEST_TMP/md.log" &&
	[ "$(result "d[\"exit_code\"]")" = 1 ] &&
	[ "$(result "d[\"state\"]")" = complete ] &&
	[ "$(result "d[\"results_complete\"]")" = True ] &&
	[ "$(result "len(d[\"targets\"])")" = 7 ] &&
	for f in summary.txt report.html samples.csv; do
		[ -s "$run/$f" ] || { echo "no $f"; return 1; }
	done
'
test_expect_success 'metadata 0.90: superblock at the end, has-data' '
	grep -q "^@@ 0.90 /dev/vda: has-data: .*md RAID superblock 0.90 (at the end)" "$TEST_TMP/found"
'
test_expect_success 'metadata 1.0: superblock at the end, has-data' '
	grep -q "^@@ 1.0 /dev/vda: has-data: .*md RAID superblock 1.0 (at the end)" "$TEST_TMP/found"
'
test_expect_success 'metadata 1.1: superblock at the start, has-data' '
	grep -q "^@@ 1.1 /dev/vda: has-data: .*md RAID superblock 1.1 at byte 0" "$TEST_TMP/found"
'
test_expect_success 'metadata 1.2: superblock at 4 KiB, has-data' '
	grep -q "^@@ 1.2 /dev/vda: has-data: .*md RAID superblock 1.2 at byte 4096" "$TEST_TMP/found"
'
test_expect_success 'a member of a running array is in use; burn refuses it' '
	grep -q "^@@ running /dev/vda: in-use: vda is held by md0" "$TEST_TMP/found" &&
	grep -q "^@@ burn-exit 2" "$TEST_TMP/found"
'
test_expect_success 'superblocks zeroed: blank again' '
	grep -q "^@@ zeroed /dev/vda: blank" "$TEST_TMP/found"
'

test_expect_success 'the md disks, their superblocks zeroed, are healthy: PASS' '
	test_eq "$(steady_of KILN-A)" PASS KILN-A &&
	test_eq "$(steady_of KILN-B)" PASS KILN-B
'

test_expect_success 'scsi_debug A: read errors where the medium errors are' '
	[ "$(t "$med" verdict)" = FAIL ] &&
	[ "$(t "$med" mode)" = read ] &&
	grep_in "tested read-only: not proven blank: it could not be read at byte" \
		"$run/summary.txt" &&
	errors_at "$med" read $((MED_LBA * 512)) &&
	[ "$(t "$med" "io_errors\"][\"first\"][0][\"errno")" = 61 ]
'

# sd prints the block layer'"'"'s line of each failed request: "critical
# medium error, dev sdb, sector N": kiln counts it against that disk.
test_expect_success 'scsi_debug A: the kernel'"'"'s medium error lines are its own' '
	[ "$(t "$med" "signals\"][\"kernel_log\"][\"by_kind\"][\"medium error")" -ge 1 ] &&
	grep_in "critical medium error, dev $med, sector" "$run/summary.txt"
'

# B stalls where its first timed-out command falls: classing it, opening
# it or in the burn; each is a FAIL that says so.
test_expect_success 'scsi_debug B: its commands time out; stalled, FAIL' '
	[ "$(t "$slow" verdict)" = FAIL ] &&
	t "$slow" reasons | grep -q -E "stalled: (.* )?no answer in 20 s" &&
	[ -n "$(t "$slow" serial)" ]
'

test_expect_success 'dm-flakey drop_writes: lost writes read back zeroed, FAIL' '
	[ "$(t KILN-DROPS verdict)" = FAIL ] &&
	[ "$(t KILN-DROPS mode)" = write-verify ] &&
	[ "$(t KILN-DROPS "io_errors\"][\"count")" = 0 ] &&
	zeroed=$(t KILN-DROPS "bad_units\"][\"by_class\"][\"zeroed") &&
	[ "$zeroed" -gt 0 ] && [ "$zeroed" -lt $((64 * M / 4096)) ] &&
	[ "$(t KILN-DROPS "bad_units\"][\"count")" = "$zeroed" ] &&
	grep_in "$zeroed bad units ($zeroed zeroed)" "$run/summary.txt"
'

test_expect_success 'dm-flakey corrupt_bio_byte: flipped bits, FAIL' '
	[ "$(t KILN-CORRUPT verdict)" = FAIL ] &&
	[ "$(t KILN-CORRUPT "bad_units\"][\"by_class\"][\"bitflip")" -gt 0 ] &&
	result "sorted(set(b // 8 for t in d[\"targets\"] if t[\"serial\"] == \"KILN-CORRUPT\" for u in t[\"bad_units\"][\"first\"] for b in u[\"bit_positions\"]))" >"$TEST_TMP/bytes" &&
	cat "$TEST_TMP/bytes" &&
	[ "$(cat "$TEST_TMP/bytes")" = "[$((CORRUPT_BYTE - 1))]" ] &&
	result "[u[\"reread\"] for t in d[\"targets\"] if t[\"serial\"] == \"KILN-CORRUPT\" for u in t[\"bad_units\"][\"first\"]]" |
		grep -v -q "good on re-read"
'

test_expect_success 'dm-linear error segment: write and read errors there, FAIL' '
	[ "$(t KILN-BADBLOCKS verdict)" = FAIL ] &&
	errors_at KILN-BADBLOCKS write $((ERR_SECTOR * 512)) &&
	errors_at KILN-BADBLOCKS verify $((ERR_SECTOR * 512))
'

e2e_done
