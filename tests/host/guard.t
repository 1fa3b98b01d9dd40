#!/bin/sh
# needs: kiln lyingdisk
# The guarded write: a disk written because of its class (blank or
# kiln-data, no consent names it) is never written at a byte kiln has not
# read in this run and found blank or kiln's. The class is proven by
# samples; what lies between them (a filesystem at 17 MiB, at half the
# disk, just before the last 16 MiB; random data in the middle) must
# survive kiln burn whole, and the disk is tested read-only from there.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
command -v mkfs.ext4 >/dev/null || test_skip_all "needs mkfs.ext4"
command -v e2fsck >/dev/null || test_skip_all "needs e2fsck"

MiB=1048576
SIZE=$((256 * MiB))

# fs_at VAR OFFSET [FS_SIZE]: a loop device of SIZE, blank but for an ext4
# (of 8 MiB) at OFFSET holding one file; FILE_SUM is that file's md5.
fs_at () {
	make_loop "$1" "$SIZE" || return 1
	eval "fs_dev=\$$1"
	mkdir -p "$TEST_TMP/content" &&
	head -c 300000 /dev/urandom >"$TEST_TMP/content/precious" &&
	FILE_SUM=$(sum_of "$TEST_TMP/content/precious") &&
	mkfs.ext4 -q -F -E offset="$2" -d "$TEST_TMP/content" \
		"$fs_dev" "${3:-8M}"
}

# fs_intact DEV OFFSET: e2fsck finds the filesystem clean and the file
# reads back as it was written.
fs_intact () {
	img="$TEST_TMP/fs-copy.img"
	dd if="$1" of="$img" bs=4096 skip=$(($2 / 4096)) count=2048 \
		status=none &&
	e2fsck -fn "$img" >"$TEST_TMP/fsck" 2>&1 &&
	debugfs -R "cat /precious" "$img" 2>/dev/null >"$TEST_TMP/got" &&
	[ "$(sum_of "$TEST_TMP/got")" = "$FILE_SUM" ]
}

test_expect_success 'setup: the class check samples, so it calls it blank' '
	fs_at d17 $((17 * MiB)) &&
	"$KILN" probe "$d17" >"$TEST_TMP/probe" 2>&1 &&
	grep_in "blank" "$TEST_TMP/probe"
'

test_expect_success 'a filesystem at 17 MiB survives kiln burn, exit 2' '
	{ "$KILN" burn --out "$TEST_TMP/r17" "$d17" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	fs_intact "$d17" $((17 * MiB)) &&
	grep_in "holds data from byte $((17 * MiB))" "$TEST_TMP/o" &&
	grep_in "ext2/3/4 filesystem" "$TEST_TMP/o"
'

test_expect_success 'result.json says where the guard stopped and what is there' '
	r="$TEST_TMP/r17/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"guard\"][\"stopped_at\"]")" = \
		$((17 * MiB)) ] &&
	json_get "$r" "d[\"targets\"][0][\"guard\"][\"found\"]" \
		>"$TEST_TMP/found" &&
	grep_in "ext2/3/4 filesystem" "$TEST_TMP/found" &&
	json_get "$r" "d[\"targets\"][0][\"reasons\"]" >"$TEST_TMP/why" &&
	grep_in "holds data from byte $((17 * MiB)): not written past it" \
		"$TEST_TMP/why"
'

test_expect_success 'the disk was tested read-only past the data: every byte read' '
	r="$TEST_TMP/r17/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = PASS ]
'

test_expect_success 'a filesystem at half the disk survives' '
	fs_at dhalf $((SIZE / 2)) &&
	{ "$KILN" burn --out "$TEST_TMP/rhalf" "$dhalf" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	fs_intact "$dhalf" $((SIZE / 2)) &&
	grep_in "holds data from byte $((SIZE / 2))" "$TEST_TMP/o"
'

test_expect_success 'a filesystem 17 MiB before the end survives' '
	at=$((SIZE - 17 * MiB)) &&
	fs_at dend $at 1M &&
	{ "$KILN" burn --out "$TEST_TMP/rend" "$dend" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	fs_intact "$dend" $at &&
	grep_in "holds data from byte $at" "$TEST_TMP/o"
'

test_expect_success 'random data in the middle only survives, named as unknown data' '
	make_loop drnd "$SIZE" &&
	head -c $MiB /dev/urandom >"$TEST_TMP/rnd" &&
	rnd_at=$((100 * MiB + 12288)) &&
	dd if="$TEST_TMP/rnd" of="$drnd" bs=4096 seek=$((rnd_at / 4096)) \
		conv=notrunc status=none &&
	{ "$KILN" burn --out "$TEST_TMP/rrnd" "$drnd" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	dd if="$drnd" bs=4096 skip=$((rnd_at / 4096)) count=256 status=none \
		>"$TEST_TMP/rnd-after" &&
	cmp "$TEST_TMP/rnd" "$TEST_TMP/rnd-after" &&
	grep_in "holds data from byte $rnd_at" "$TEST_TMP/o"
'

test_expect_success 'a disk kiln wrote before is written whole again, guarded' '
	make_loop dk $((64 * MiB)) &&
	"$KILN" burn --destroy-data=1 --out "$TEST_TMP/rk1" "$dk" \
		>"$TEST_TMP/o" 2>&1 &&
	"$KILN" burn --passes 2 --out "$TEST_TMP/rk2" "$dk" \
		>"$TEST_TMP/o" 2>&1 &&
	r="$TEST_TMP/rk2/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"guard\"][\"checked\"]")" = \
		$((64 * MiB)) ]
'

test_expect_success 'consent is not guarded: the filesystem is overwritten' '
	fs_at dc $((17 * MiB)) &&
	"$KILN" burn --destroy-data=1 --out "$TEST_TMP/rc" "$dc" \
		>"$TEST_TMP/o" 2>&1 &&
	! fs_intact "$dc" $((17 * MiB)) &&
	r="$TEST_TMP/rc/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0].get(\"guard\")")" = None ]
'

test_expect_success 'a disk that stops the guard beside a blank one: that one is written whole' '
	fs_at dm $((40 * MiB)) &&
	make_loop db $((64 * MiB)) &&
	{ "$KILN" burn --out "$TEST_TMP/rm" "$dm" "$db" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	fs_intact "$dm" $((40 * MiB)) &&
	r="$TEST_TMP/rm/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][1][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"targets\"][1][\"guard\"][\"checked\"]")" = \
		$((64 * MiB)) ]
'

# The span holding the data answers late: the spans after it are read
# and checked first, and must still not be written.
test_expect_success 'reads that come back out of order write nothing past the data' '
	make_lying dl $SIZE &&
	at=$((100 * MiB + 12288)) &&
	head -c 4096 /dev/urandom >"$TEST_TMP/four" &&
	dd if="$TEST_TMP/four" of="$dl" bs=4096 seek=$((at / 4096)) \
		oflag=direct conv=notrunc status=none &&
	lying "$dl" slow $at 4096 800 read &&
	{ "$KILN" burn --out "$TEST_TMP/rl" "$dl" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	lying "$dl" slow clear &&
	# dd wrote 4096 bytes; kiln, nothing from the span holding them on.
	[ "$(lying_get "$dl" write_bytes)" -le $((100 * MiB + 4096)) ] &&
	dd if="$dl" bs=4096 skip=$((at / 4096)) count=1 iflag=direct \
		status=none >"$TEST_TMP/four-after" &&
	cmp "$TEST_TMP/four" "$TEST_TMP/four-after" &&
	grep_in "holds data from byte $at" "$TEST_TMP/o"
'

test_done
