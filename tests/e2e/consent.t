#!/bin/sh
# slow: QEMU boots. Consent in the image: a disk wiped with wipefs after
# holding a GPT and two ext4 filesystems, and one with ext4 at 1 MiB and no
# partition table, come out of a default kiln run byte for byte unchanged
# (tested read-only); a write-protected disk is tested read-only with a
# note; the blank disk is burnt. A disk whose ext4 at 17 MiB lies between
# the samples is classed blank, and the guarded write stops at it: the
# filesystem comes out whole and the run goes on (exit 0).
. "$(dirname "$0")/../lib/e2e.sh"

M=1048576
lab_init "$TEST_TMP/lab"
truncate -s 64M "$lab_dir/wiped.img" "$lab_dir/ext1m.img"
printf 'label: gpt\n,24M,L\n,24M,L\n' | sfdisk -q "$lab_dir/wiped.img"
for start in $(sfdisk -d "$lab_dir/wiped.img" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p'); do
	mkfs.ext4 -q -F -E offset=$((start * 512)) "$lab_dir/wiped.img" 20M
done
wipefs -q -a -f "$lab_dir/wiped.img"
mkfs.ext4 -q -F -E offset=$M "$lab_dir/ext1m.img" 48M
truncate -s 256M "$lab_dir/ext17m.img"
mkdir "$TEST_TMP/content"
head -c 300000 /dev/urandom >"$TEST_TMP/content/precious"
precious_sum=$(sha256sum <"$TEST_TMP/content/precious")
mkfs.ext4 -q -F -E offset=$((17 * M)) -d "$TEST_TMP/content" \
	"$lab_dir/ext17m.img" 8M
lab_disk ahci wiped 64 KILN-WIPED
lab_disk vscsi ext1m 64 KILN-EXT1M
lab_disk vscsi blank 32 KILN-BLANK
lab_disk ahci ext17m 256 KILN-EXT17M
lab_readonly ro
lab_disk vscsi ro 32 KILN-RO
lab_stick ""
wiped_sum=$(sha256sum <"$lab_dir/wiped.img")
ext1m_sum=$(sha256sum <"$lab_dir/ext1m.img")

t () {
	result "[t[\"$2\"] for t in d[\"targets\"] if t[\"serial\"] == \"$1\"][0]"
}

test_expect_success 'setup: ext4 at 17 MiB lies between the samples: blank' '
	"$KILN" probe "$lab_dir/ext17m.img" >"$TEST_TMP/probe" &&
	grep_in "blank" "$TEST_TMP/probe"
'

test_expect_success 'a default kiln run (setup: wipefs, ext4 at 1 MiB, ro, blank)' '
	boot one "" &&
	[ "$(result "d[\"exit_code\"]")" = 0 ]
'

test_expect_success 'the wiped GPT disk: has-data, read only, unchanged' '
	[ "$(t KILN-WIPED class)" = has-data ] && [ "$(t KILN-WIPED mode)" = read ] &&
	[ "$(t KILN-WIPED bytes_written)" = 0 ] &&
	[ "$(sha256sum <"$lab_dir/wiped.img")" = "$wiped_sum" ]
'

test_expect_success 'ext4 at 1 MiB: found there, read only, unchanged' '
	t KILN-EXT1M class_reasons | grep -q "ext2/3/4 filesystem at byte $((M + 1080))" &&
	[ "$(t KILN-EXT1M mode)" = read ] &&
	[ "$(sha256sum <"$lab_dir/ext1m.img")" = "$ext1m_sum" ]
'

test_expect_success 'a write-protected disk is tested read-only, with a note' '
	[ "$(t KILN-RO mode)" = read ] && test_eq "$(steady_of KILN-RO)" PASS KILN-RO &&
	grep_in "tested read-only: a read-only device" "$run/summary.txt"
'

test_expect_success 'the blank disk is burnt' '
	[ "$(t KILN-BLANK mode)" = write-verify ] &&
	[ "$(t KILN-BLANK bytes_written)" = $((32 * M)) ] &&
	test_eq "$(steady_of KILN-BLANK)" PASS KILN-BLANK
'

test_expect_success 'ext4 at 17 MiB: the guard stops there, the filesystem is whole' '
	[ "$(t KILN-EXT17M class)" = blank ] &&
	[ "$(result "[t for t in d[\"targets\"] if t[\"serial\"] == \"KILN-EXT17M\"][0][\"guard\"][\"stopped_at\"]")" = $((17 * M)) ] &&
	t KILN-EXT17M reasons | grep -q "holds data from byte $((17 * M)): not written past it" &&
	test_eq "$(steady_of KILN-EXT17M)" PASS KILN-EXT17M &&
	dd if="$lab_dir/ext17m.img" of="$TEST_TMP/fs.img" bs=1M skip=17 count=8 \
		status=none &&
	e2fsck -fn "$TEST_TMP/fs.img" &&
	[ "$(debugfs -R "cat /precious" "$TEST_TMP/fs.img" 2>/dev/null |
		sha256sum)" = "$precious_sum" ]
'

e2e_done
