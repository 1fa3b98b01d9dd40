#!/bin/sh
# needs: kiln
# kiln burn never destroys what was not meant to be destroyed: a device
# with a real partition table (made by sfdisk) is written only with
# --destroy-data and is read freely; a mounted device is refused always;
# an existing file that is not kiln's needs --destroy-data.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
command -v sfdisk >/dev/null || test_skip_all "needs sfdisk"

test_expect_success 'setup: a device with a GPT partition table, by sfdisk' '
	make_loop gpt 32M &&
	printf "label: gpt\n,8M,L\n,,L\n" | sfdisk -q "$gpt" &&
	gpt_sum=$(sum_of "$gpt")
'

test_expect_success 'write-verify and write are refused without --destroy-data' '
	for mode in write-verify write; do
		{ "$KILN" burn --mode $mode "$gpt" >"$TEST_TMP/o" 2>"$TEST_TMP/e"
		  test $? = 2; } || return 1
		grep_in "refusing to write $gpt" "$TEST_TMP/e" || return 1
		grep_in "GPT partition table (primary header) at byte 512" \
			"$TEST_TMP/e" || return 1
	done &&
	[ "$(sum_of "$gpt")" = "$gpt_sum" ]
'

test_expect_success 'one refused target stops the run before any I/O' '
	make_loop other 16M &&
	other_sum=$(sum_of "$other") &&
	{ "$KILN" burn "$TEST_TMP/created.img" --size 8M "$other" "$gpt" \
		>"$TEST_TMP/o" 2>"$TEST_TMP/e"; test $? = 2; } &&
	[ "$(sum_of "$other")" = "$other_sum" ] &&
	[ "$(sum_of "$gpt")" = "$gpt_sum" ] &&
	[ ! -e "$TEST_TMP/created.img" ]
'

test_expect_success 'read mode reads it and leaves it unchanged' '
	"$KILN" burn --mode read "$gpt" >"$TEST_TMP/o" 2>&1 &&
	grep_in "read only" "$TEST_TMP/o" &&
	[ "$(sum_of "$gpt")" = "$gpt_sum" ]
'

test_expect_success 'with --destroy-data it is written and verified' '
	"$KILN" burn --destroy-data "$gpt" >"$TEST_TMP/o" 2>&1 &&
	grep_in "has data, overwritten with consent (destroy-data)" "$TEST_TMP/o" &&
	[ "$(sum_of "$gpt")" != "$gpt_sum" ]
'

test_expect_success 'a blank device (all zeros) is written without consent' '
	make_loop blank 16M &&
	"$KILN" burn "$blank" >"$TEST_TMP/o" 2>&1 &&
	grep_in "blank: proven by reading" "$TEST_TMP/o"
'

test_expect_success '... and is kiln-data afterwards, written again freely' '
	"$KILN" burn --mode write "$blank" >"$TEST_TMP/o" 2>&1 &&
	grep_in "kiln-data: written by kiln before" "$TEST_TMP/o"
'

test_expect_success 'an unmounted ext4 is refused by name, written with consent' '
	make_loop ext 32M && mkfs.ext4 -q "$ext" &&
	ext_sum=$(sum_of "$ext") &&
	{ "$KILN" burn "$ext" >"$TEST_TMP/o" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "it holds ext2/3/4 filesystem at byte 1080" "$TEST_TMP/e" &&
	[ "$(sum_of "$ext")" = "$ext_sum" ] &&
	"$KILN" burn --destroy-data=1 "$ext" >"$TEST_TMP/o" 2>&1 &&
	[ "$(sum_of "$ext")" != "$ext_sum" ]
'

test_expect_success 'consent by a serial that is not this disk is no consent' '
	make_loop ext2 32M && mkfs.ext4 -q "$ext2" &&
	{ "$KILN" burn --destroy-data=NOTTHISONE "$ext2" >"$TEST_TMP/o" \
		2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "refusing to write $ext2" "$TEST_TMP/e"
'

test_expect_success 'a mounted device is refused, even with --destroy-data' '
	make_loop fs 32M &&
	mkfs.ext4 -q "$fs" &&
	mkdir "$TEST_TMP/mnt" && mount "$fs" "$TEST_TMP/mnt" &&
	test_at_exit "umount -l '$TEST_TMP/mnt'" &&
	for mode in write-verify read; do
		{ "$KILN" burn --destroy-data --mode $mode "$fs" >"$TEST_TMP/o" \
			2>"$TEST_TMP/e"; test $? = 2; } || return 1
		grep_in "it is in use ($(basename "$fs") is mounted at $TEST_TMP/mnt)" "$TEST_TMP/e" || return 1
	done &&
	umount "$TEST_TMP/mnt" &&
	! grep -q KILNUNIT "$fs"
'

test_done
