#!/bin/sh
# slow: a QEMU boot. Faults that come through the kernel's own error
# paths, not QEMU's: the SCSI midlayer (scsi_debug) and device-mapper
# (dm-flakey, dm-linear with an error segment), each FAILed by kiln run
# for what it is, beside a healthy disk that PASSes.
#
# The guest boots kiln's own initramfs with a second archive on top: the
# test's modules (scsi_debug, dm-flakey: a lab's, not the field's, so not
# in initramfs/modules.list), dmsetup and a script that runs first as PID
# 1, plants the faults and then becomes kiln's /init. Its disks:
#   KILN-GOOD     a healthy virtio disk
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

command -v dmsetup >/dev/null 2>&1 || test_skip_all "needs dmsetup (make deps)"
M=1048576
MED_LBA=41472		# 20.25 MiB
MED_COUNT=8
TIMEOUT_NTH=40
CORRUPT_BYTE=3000	# in the payload of a request's first unit
ERR_SECTOR=61440	# 30 MiB
ERR_LEN=16

kver=$(cat "$TOP/out/kernel/version")
kroot=$TOP/out/kernel/root
over="$TEST_TMP/overlay"
mkdir -p "$over"
/usr/lib/dracut/dracut-install -D "$over" -a -l /sbin/dmsetup ||
	test_bail "cannot copy dmsetup"
# The modules and what they need, in the order insmod takes them.
/sbin/modprobe -d "$kroot" -S "$kver" --show-depends -a scsi_debug dm_flakey |
	awk -v k="$kroot/lib/" '$1 == "insmod" && !seen[$2]++ {
		print "usr/lib/" substr($2, length(k) + 1) }' \
	>"$over/kfaults.modules" || test_bail "cannot list the modules"
while read -r ko; do
	mkdir -p "$over/${ko%/*}"
	cp "$kroot/lib/${ko#usr/lib/}" "$over/$ko" || test_bail "no $ko"
done <"$over/kfaults.modules"
grep -q scsi_debug.ko "$over/kfaults.modules" ||
	test_bail "no scsi_debug in kernel $kver"

cat >"$over/kfaults" <<SH
#!/bin/sh
# Runs first as PID 1 (rdinit): plants the faults, then is kiln's /init.
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
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

lab_init "$TEST_TMP/lab"
lab_disk virtio good 32 KILN-GOOD
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

test_expect_success 'the boot: faults planted, kiln run FAILs, the stick has the results' '
	LAB_INITRD="$TEST_TMP/initrd" boot faults \
		"rdinit=/kfaults kiln.include=vd*,sd*,dm-* kiln.deadline=20 kiln.destroy-data=KILN-BADBLOCKS" &&
	grep -a -o "@@ .*" "$TEST_TMP/faults.log" >"$TEST_TMP/planted" &&
	cat "$TEST_TMP/planted" &&
	med=$(sed -n "s/^@@ medium \([a-z]*\) .*/\1/p" "$TEST_TMP/planted") &&
	slow=$(sed -n "s/^@@ medium .* timeout \([a-z]*\) .*/\1/p" "$TEST_TMP/planted") &&
	[ -n "$med" ] && [ -n "$slow" ] &&
	[ "$(grep -c "^@@ table kf-" "$TEST_TMP/planted")" = 5 ] &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/faults.log" &&
	grep_in "kiln-init: results are on the stick" "$TEST_TMP/faults.log" &&
	[ "$(result "d[\"exit_code\"]")" = 1 ] &&
	[ "$(result "d[\"state\"]")" = complete ] &&
	[ "$(result "d[\"results_complete\"]")" = True ] &&
	[ "$(result "len(d[\"targets\"])")" = 6 ] &&
	for f in summary.txt report.html samples.csv; do
		[ -s "$run/$f" ] || { echo "no $f"; return 1; }
	done
'

test_expect_success 'the healthy disk PASSes' '
	test_eq "$(steady_of KILN-GOOD)" PASS KILN-GOOD
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
