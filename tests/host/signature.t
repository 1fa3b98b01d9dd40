#!/bin/sh
# needs: kiln
# Every kind of data a disk can hold is found, on images made by the real
# tools (sfdisk, mkfs.*, mkswap, cryptsetup, xorriso, pvcreate, mdadm),
# and the disk is classed has-data with the right reason; zeros are blank;
# a backup GPT alone still counts; kiln's own data is kiln-data. ZFS has no
# tool in Debian main: tests/unit/signature.c covers it.
. "$(dirname "$0")/../lib/tap.sh"

# probe_is IMAGE CLASS [WHAT]: kiln probe says CLASS, and names WHAT.
probe_is () {
	"$KILN" probe --json "$1" >"$TEST_TMP/probe.json" || return 1
	python3 - "$TEST_TMP/probe.json" "$2" "${3:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))[0]
ok = d["class"] == sys.argv[2] and (not sys.argv[3] or
     any(sys.argv[3] in s["what"] for s in d["signatures"]))
if not ok:
    print("got", d["class"], d["reasons"])
sys.exit(not ok)
PY
}

img () {
	rm -f "$TEST_TMP/$1.img"
	truncate -s "$2" "$TEST_TMP/$1.img"
	echo "$TEST_TMP/$1.img"
}

need () {
	command -v "$1" >/dev/null 2>&1
}

test_expect_success 'zeros are blank' '
	probe_is "$(img zero 64M)" blank
'
test_expect_success 'sfdisk MBR' '
	i=$(img mbr 64M) && printf "label: dos\n,,L\n" | sfdisk -q "$i" &&
	probe_is "$i" has-data "MBR partition table"
'
test_expect_success 'sfdisk GPT: primary and backup headers' '
	i=$(img gpt 64M) && printf "label: gpt\n,,L\n" | sfdisk -q "$i" &&
	probe_is "$i" has-data "GPT partition table (primary header)" &&
	probe_is "$i" has-data "protective MBR" &&
	probe_is "$i" has-data "backup header at the end"
'
test_expect_success 'only a backup GPT at the end still has data' '
	dd if=/dev/zero of="$i" bs=1M count=1 conv=notrunc 2>/dev/null &&
	probe_is "$i" has-data "backup header at the end"
'
test_expect_success 'mkfs.ext4' '
	i=$(img ext4 64M) && mkfs.ext4 -q -F "$i" &&
	probe_is "$i" has-data "ext2/3/4 filesystem"
'
test_expect_success 'mkfs.xfs' '
	i=$(img xfs 320M) && mkfs.xfs -q -f "$i" &&
	probe_is "$i" has-data "XFS filesystem"
'
test_expect_success 'mkfs.btrfs' '
	i=$(img btrfs 256M) && mkfs.btrfs -q -f "$i" >/dev/null &&
	probe_is "$i" has-data "Btrfs filesystem"
'
test_expect_success 'mkfs.vfat, FAT32 and FAT16' '
	i=$(img fat32 64M) && mkfs.vfat -F 32 "$i" >/dev/null &&
	probe_is "$i" has-data "FAT32 filesystem" &&
	i=$(img fat16 64M) && mkfs.vfat -F 16 "$i" >/dev/null &&
	probe_is "$i" has-data "FAT filesystem"
'
test_expect_success 'mkfs.ntfs' '
	i=$(img ntfs 64M) && mkfs.ntfs -q -F -f "$i" >/dev/null 2>&1 &&
	probe_is "$i" has-data "NTFS filesystem"
'
test_expect_success 'mkswap' '
	i=$(img swap 64M) && mkswap "$i" >/dev/null 2>&1 &&
	probe_is "$i" has-data "swap"
'
test_expect_success 'cryptsetup luksFormat' '
	i=$(img luks 64M) && printf secret >"$TEST_TMP/key" &&
	cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 "$i" "$TEST_TMP/key" &&
	probe_is "$i" has-data "LUKS"
'
test_expect_success 'xorriso ISO9660' '
	mkdir -p "$TEST_TMP/iso" && echo hello >"$TEST_TMP/iso/hello" &&
	xorriso -as mkisofs -quiet -o "$TEST_TMP/iso.img" "$TEST_TMP/iso" 2>/dev/null &&
	probe_is "$TEST_TMP/iso.img" has-data "ISO9660"
'
test_expect_success 'a file kiln wrote is kiln-data' '
	"$KILN" burn --size 8M "$TEST_TMP/kiln.img" >/dev/null &&
	probe_is "$TEST_TMP/kiln.img" kiln-data
'

if [ "$(id -u)" -ne 0 ]; then
	test_skip "needs root (loop devices): LVM2 and md superblocks"
	test_done
	exit
fi
. "$(dirname "$0")/../lib/host.sh"

test_expect_success 'pvcreate: an LVM2 physical volume' '
	make_loop pv 64M &&
	pvcreate -q -y -ff --devices "$pv" "$pv" >/dev/null 2>&1 ||
		pvcreate -q -y -ff "$pv" >/dev/null &&
	probe_is "$pv" has-data "LVM2 physical volume"
'

if [ ! -e /proc/mdstat ]; then
	for v in 0.90 1.0 1.1 1.2; do
		test_skip "md metadata $v: this kernel has no md driver (tests/e2e/md.t makes them in a guest)"
	done
	test_skip "a running array: this kernel has no md driver"
	test_done
	exit
fi

# md_member VERSION: a RAID1 of two loop devices with that superblock,
# stopped again; prints nothing, leaves $m1 as a member.
md_member () {
	make_loop m1 32M && make_loop m2 32M &&
	mdadm --create "/dev/md/kiln$$" --run --quiet --level=1 --raid-devices=2 \
		--assume-clean --metadata="$1" "$m1" "$m2" 2>/dev/null &&
	mdadm --stop "/dev/md/kiln$$" >/dev/null 2>&1
}

test_expect_success 'mdadm metadata 0.90: superblock at the end' '
	md_member 0.90 && probe_is "$m1" has-data "md RAID superblock 0.90"
'
test_expect_success 'mdadm metadata 1.0: superblock at the end' '
	md_member 1.0 && probe_is "$m1" has-data "md RAID superblock 1.0"
'
test_expect_success 'mdadm metadata 1.1: superblock at the start' '
	md_member 1.1 && probe_is "$m1" has-data "md RAID superblock 1.1"
'
test_expect_success 'mdadm metadata 1.2: superblock at 4 KiB' '
	md_member 1.2 && probe_is "$m1" has-data "md RAID superblock 1.2"
'
test_expect_success 'a member of a running array is in use: refused always' '
	make_loop r1 32M && make_loop r2 32M &&
	mdadm --create "/dev/md/kilnr$$" --run --quiet --level=1 --raid-devices=2 \
		--assume-clean --metadata=1.2 "$r1" "$r2" 2>/dev/null &&
	test_at_exit "mdadm --stop /dev/md/kilnr$$" &&
	probe_is "$r1" in-use &&
	{ "$KILN" burn --destroy-data "$r1" >"$TEST_TMP/o" 2>"$TEST_TMP/e";
	  test $? = 2; } &&
	grep -q "busy\|in use" "$TEST_TMP/e"
'

test_done
