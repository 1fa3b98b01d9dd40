#!/bin/sh
# slow: a QEMU boot. md RAID superblocks, made by the real mdadm in a guest
# (this build host's kernel has no md driver): each metadata version, 0.90
# and 1.0 at the end, 1.1 at the start, 1.2 at 4 KiB, is found by kiln
# probe and classed has-data; a member of a running array is in use, and
# kiln burn refuses it even with --destroy-data. The guest runs kiln's own
# initramfs with a second archive on top: mdadm and this test's script.
. "$(dirname "$0")/../lib/e2e.sh"

command -v mdadm >/dev/null 2>&1 || test_skip_all "needs mdadm (make deps)"
over="$TEST_TMP/overlay"
mkdir -p "$over"
/usr/lib/dracut/dracut-install -D "$over" -a -l /sbin/mdadm ||
	test_bail "cannot copy mdadm"
cat >"$over/md-test" <<'SH'
#!/bin/sh
# Runs as PID 1 (rdinit): makes and probes md members, then powers off.
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
poweroff -f
SH
chmod +x "$over/md-test"
(cd "$over" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip) \
	>"$TEST_TMP/overlay.cpio.gz"
cat "$TOP/out/initramfs.cpio.gz" "$TEST_TMP/overlay.cpio.gz" >"$TEST_TMP/initrd"

lab_init "$TEST_TMP/md"
lab_disk virtio a 32
lab_disk virtio b 32

test_expect_success 'the guest makes arrays of each metadata version' '
	LAB_INITRD="$TEST_TMP/initrd" lab_boot "rdinit=/md-test quiet" "$TEST_TMP/md.log" &&
	grep -a -o "@@ .*" "$TEST_TMP/md.log" >"$TEST_TMP/found" &&
	cat "$TEST_TMP/found" &&
	[ "$(grep -c . "$TEST_TMP/found")" = 7 ]
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

e2e_done
