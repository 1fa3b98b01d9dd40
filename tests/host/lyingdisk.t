#!/bin/sh
# needs: kiln lyingdisk
# The lying disk that kiln's tests put under a loop device lies as told,
# and every lie shows through the loop device to a tester that uses
# O_DIRECT, as kiln does: dropped writes, a volatile cache lost at a power
# cut (and one that lies about flushes), a revert to an earlier image, a
# shrink, EIO on read and on write, slow ranges, units read wrong once
# (flaky), and a hang that resume, SIGTERM or even SIGKILL ends, so one
# hung disk never wedges the machine.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
M=1048576

# put FILE MIB [DD-OPTION]: FILE (1 MiB) to the device at MIB, O_DIRECT.
put () {
	dd if="$1" of="$d" bs=1M seek="$2" oflag=direct status=none $3
}

# is FILE MIB: the device holds FILE at MIB, read with O_DIRECT.
is () {
	dd if="$d" bs=1M skip="$2" count=1 iflag=direct status=none |
		cmp - "$1"
}

now_ms () {
	echo $(($(date +%s%N) / 1000000))
}

test_expect_success 'setup: a lying disk under a loop device with direct I/O' '
	for f in a b c x; do
		head -c $M /dev/urandom >"$TEST_TMP/$f" || return 1
	done &&
	make_lying d 16M &&
	[ "$(blockdev --getsize64 "$d")" = $((16 * M)) ] &&
	[ "$(cat "/sys/block/${d#/dev/}/loop/dio")" = 1 ] &&
	[ "$(lying_get "$d" size)" = $((16 * M)) ] &&
	[ "$(lying_get "$d" cache)" = off ]
'

test_expect_success 'every O_DIRECT read and write of the device reaches it' '
	w=$(lying_get "$d" write_bytes) && r=$(lying_get "$d" read_bytes) &&
	put "$TEST_TMP/a" 0 && is "$TEST_TMP/a" 0 && is "$TEST_TMP/a" 0 &&
	[ "$(lying_get "$d" write_bytes)" = $((w + M)) ] &&
	[ "$(lying_get "$d" read_bytes)" = $((r + 2 * M)) ]
'

# watched DEV OFF LEN: the reads answered that touched OFF (watch OFF LEN).
watched () {
	sed -n "s/^watch $2 $3 reads \([0-9]*\).*/\1/p" "$(lying_mnt "$1")/ctl"
}

# Counted by the disk's watch of the MiB read, not by its total of reads:
# the loop device's readahead past that MiB may still be answered after
# dd ends (later on a busy machine), and another test's kiln may read
# this disk's first sectors while it probes every disk.
test_expect_success 'a buffered re-read is served from the page cache: why O_DIRECT' '
	put "$TEST_TMP/a" 10 &&
	lying "$d" watch $((10 * M)) $M &&
	exec 3<"$d"
	dd if="$d" bs=1M skip=10 count=1 status=none | cmp - "$TEST_TMP/a"
	first=$?
	r=$(watched "$d" $((10 * M)) $M)
	dd if="$d" bs=1M skip=10 count=1 status=none | cmp - "$TEST_TMP/a"
	again=$?
	r2=$(watched "$d" $((10 * M)) $M)
	exec 3<&-
	lying "$d" watch clear &&
	[ "$first" = 0 ] && [ "$again" = 0 ] &&
	[ "$r" -ge 1 ] && test_eq "$r2" "$r" "reads of the MiB"
'

test_expect_success 'a dropped write is acknowledged and reads back old data' '
	lying "$d" drop on &&
	put "$TEST_TMP/b" 0 &&
	is "$TEST_TMP/a" 0 &&
	[ "$(lying_get "$d" dropped_bytes)" = $M ] &&
	lying "$d" drop off &&
	put "$TEST_TMP/b" 0 && is "$TEST_TMP/b" 0
'

test_expect_success 'a loop device without direct I/O still meets the lie (FOPEN_DIRECT_IO)' '
	buffered=$(losetup -f --show --direct-io=off "$(backing "$d")") &&
	test_at_exit "losetup -d $buffered" &&
	[ "$(cat "/sys/block/${buffered#/dev/}/loop/dio")" = 0 ] &&
	lying "$d" drop on &&
	dd if="$TEST_TMP/c" of="$buffered" bs=1M oflag=direct status=none &&
	dd if="$buffered" bs=1M count=1 iflag=direct status=none |
		cmp - "$TEST_TMP/b" &&
	lying "$d" drop off &&
	losetup -d "$buffered"
'

test_expect_success 'cache on: unflushed writes are read back, then lost at a power cut' '
	put "$TEST_TMP/a" 1 && put "$TEST_TMP/a" 2 &&
	lying "$d" cache on &&
	f=$(lying_get "$d" flushes) &&
	put "$TEST_TMP/c" 1 conv=fsync &&
	[ "$(lying_get "$d" flushes)" -gt "$f" ] &&
	put "$TEST_TMP/c" 2 &&
	is "$TEST_TMP/c" 2 &&
	[ "$(lying_get "$d" dirty)" = $M ] &&
	lying "$d" powercut &&
	is "$TEST_TMP/c" 1 &&
	is "$TEST_TMP/a" 2 &&
	[ "$(lying_get "$d" dirty)" = 0 ]
'

test_expect_success 'sync(1) and blockdev --flushbufs flush nothing; fsync of the device does' '
	f=$(lying_get "$d" flushes) &&
	put "$TEST_TMP/x" 2 &&
	sync && blockdev --flushbufs "$d" &&
	[ "$(lying_get "$d" flushes)" = "$f" ] &&
	lying "$d" powercut && is "$TEST_TMP/a" 2 &&
	put "$TEST_TMP/x" 2 &&
	sync "$d" &&
	[ "$(lying_get "$d" flushes)" = $((f + 1)) ] &&
	lying "$d" powercut && is "$TEST_TMP/x" 2
'

test_expect_success 'cache lie: a flush is acknowledged, and still lost at a power cut' '
	lying "$d" cache lie &&
	f=$(lying_get "$d" flushes) &&
	put "$TEST_TMP/b" 1 conv=fsync &&
	[ "$(lying_get "$d" flushes)" -gt "$f" ] &&
	is "$TEST_TMP/b" 1 &&
	lying "$d" powercut &&
	is "$TEST_TMP/c" 1
'

test_expect_success 'cache off writes the cache back' '
	put "$TEST_TMP/b" 1 &&
	lying "$d" cache off &&
	lying "$d" powercut &&
	is "$TEST_TMP/b" 1 &&
	[ "$(lying_get "$d" cache)" = off ]
'

test_expect_success 'revert puts the disk back to its snapshot' '
	put "$TEST_TMP/a" 3 &&
	lying "$d" snapshot &&
	put "$TEST_TMP/b" 3 && is "$TEST_TMP/b" 3 &&
	lying "$d" revert &&
	is "$TEST_TMP/a" 3 &&
	[ "$(lying_get "$d" snapshot)" = $((16 * M)) ]
'

test_expect_success 'shrink: past the end reads fail and writes find no space' '
	make_lying s 16M &&
	lying "$s" shrink 8M &&
	[ "$(stat -c %s "$(lying_mnt "$s")/disk")" = $((8 * M)) ] &&
	[ "$(blockdev --getsize64 "$s")" = $((16 * M)) ] &&
	! dd if="$s" bs=4k skip=$((12 * M / 4096)) count=1 iflag=direct \
		of=/dev/null 2>"$TEST_TMP/err" &&
	grep_in "Input/output error" "$TEST_TMP/err" &&
	! dd if="$TEST_TMP/x" of="$s" bs=4k seek=$((12 * M / 4096)) count=1 \
		oflag=direct 2>"$TEST_TMP/err" &&
	grep_in "No space left on device" "$TEST_TMP/err" &&
	dd if="$s" bs=4k skip=$((4 * M / 4096)) count=1 iflag=direct \
		of=/dev/null status=none
'

test_expect_success 'shrink: losetup -c gives the loop device the new size' '
	losetup -c "$s" &&
	[ "$(blockdev --getsize64 "$s")" = $((8 * M)) ]
'

test_expect_success 'EIO on read, at the offset given, and only on read' '
	lying "$d" eio 5M 4K read &&
	! dd if="$d" bs=4k skip=$((5 * M / 4096)) count=1 iflag=direct \
		of=/dev/null 2>"$TEST_TMP/err" &&
	grep_in "Input/output error" "$TEST_TMP/err" &&
	dd if="$d" bs=4k skip=$((5 * M / 4096 + 1)) count=1 iflag=direct \
		of=/dev/null status=none &&
	dd if="$TEST_TMP/x" of="$d" bs=4k seek=$((5 * M / 4096)) count=1 \
		oflag=direct status=none &&
	grep_in "eio 5242880 4096 read" "$(lying_mnt "$d")/ctl"
'

test_expect_success 'EIO on write, at the offset given, and only on write' '
	lying "$d" eio clear &&
	lying "$d" eio 6M 512 write &&
	e=$(lying_get "$d" errors) &&
	! dd if="$TEST_TMP/x" of="$d" bs=4k seek=$((6 * M / 4096)) count=1 \
		oflag=direct 2>"$TEST_TMP/err" &&
	grep_in "Input/output error" "$TEST_TMP/err" &&
	[ "$(lying_get "$d" errors)" -gt "$e" ] &&
	dd if="$d" bs=4k skip=$((6 * M / 4096)) count=1 iflag=direct \
		of=/dev/null status=none &&
	lying "$d" eio clear &&
	dd if="$TEST_TMP/x" of="$d" bs=4k seek=$((6 * M / 4096)) count=1 \
		oflag=direct status=none
'

test_expect_success 'flaky: each unit written in the range reads wrong once, then right' '
	lying "$d" flaky 3M 8K &&
	f=$(lying_get "$d" flipped) &&
	put "$TEST_TMP/c" 3 &&
	dd if="$d" bs=1M skip=3 count=1 iflag=direct status=none |
		cmp -l - "$TEST_TMP/c" >"$TEST_TMP/flips"
	[ "$(wc -l <"$TEST_TMP/flips")" = 2 ] &&
	[ "$(lying_get "$d" flipped)" = $((f + 2)) ] &&
	is "$TEST_TMP/c" 3 &&
	put "$TEST_TMP/c" 4 && is "$TEST_TMP/c" 4 &&
	[ "$(lying_get "$d" flipped)" = $((f + 2)) ] &&
	grep_in "flaky 3145728 8192" "$(lying_mnt "$d")/ctl" &&
	put "$TEST_TMP/c" 3 && lying "$d" flaky clear &&
	is "$TEST_TMP/c" 3 &&
	[ "$(lying_get "$d" flipped)" = $((f + 2)) ] &&
	! grep -q "^flaky" "$(lying_mnt "$d")/ctl"
'

# A delay is a floor any machine keeps: a loaded one adds to every dd's
# time, so only "at least" is asserted of a time. That a request outside
# the range was not delayed is the disk's own count, not a stopwatch.
test_expect_success 'slow: requests touching the range take that long, others not' '
	lying "$d" slow 7M 64K 4000 &&
	n0=$(lying_get "$d" delayed) &&
	t=$(now_ms) &&
	dd if="$d" bs=4k skip=$((7 * M / 4096 + 8)) count=1 iflag=direct \
		of=/dev/null status=none &&
	slow=$(($(now_ms) - t)) &&
	n1=$(lying_get "$d" delayed) &&
	dd if="$d" bs=4k skip=$((9 * M / 4096)) count=1 iflag=direct \
		of=/dev/null status=none &&
	n2=$(lying_get "$d" delayed) &&
	echo "slow ${slow} ms; delayed $n0, $n1 after it, $n2 after the other" &&
	[ "$slow" -ge 4000 ] && [ "$n1" -gt "$n0" ] && [ "$n2" = "$n1" ]
'

test_expect_success 'slow: a request held longer does not hold up a shorter one' '
	lying "$d" slow 8M 4K 10000 || return 1
	dd if="$d" bs=4k skip=$((8 * M / 4096)) count=1 iflag=direct \
		of=/dev/null status=none &
	lying_until "$d" pending 1 &&
	t=$(now_ms) &&
	dd if="$d" bs=4k skip=$((7 * M / 4096)) count=1 iflag=direct \
		of=/dev/null status=none &&
	short=$(($(now_ms) - t)) &&
	echo "the 4000 ms request took ${short} ms beside a 10000 ms one" &&
	[ "$short" -ge 4000 ] && [ "$(lying_get "$d" pending)" = 1 ] &&
	wait &&
	lying "$d" slow clear &&
	[ "$(lying_get "$d" pending)" = 0 ]
'

test_expect_success 'hang holds every request; resume lets them all finish' '
	# Not chained by && into the job: that would put it all in the job.
	rm -f "$TEST_TMP/hang.rc" &&
	head -c 4096 "$TEST_TMP/c" >"$TEST_TMP/c4" &&
	lying "$d" hang || return 1
	{ timeout 60 dd if="$TEST_TMP/c4" of="$d" bs=4k seek=2560 \
		oflag=direct status=none; echo $? >"$TEST_TMP/hang.rc"; } &
	lying_until "$d" pending 1 &&
	sleep 1 &&
	[ ! -e "$TEST_TMP/hang.rc" ] &&
	[ "$(lying_get "$d" hang)" = on ] &&
	lying "$d" resume &&
	wait &&
	[ "$(cat "$TEST_TMP/hang.rc")" = 0 ] &&
	[ "$(lying_get "$d" pending)" = 0 ] &&
	dd if="$d" bs=4k skip=2560 count=1 iflag=direct status=none |
		cmp - "$TEST_TMP/c4"
'

test_expect_success 'hold holds the requests of its range until resume; watch counts them' '
	lying "$d" watch 3M 4K && lying "$d" hold 3M 4K read &&
	grep_in "hold 3145728 4096 read" "$(lying_mnt "$d")/ctl" &&
	grep_in "watch 3145728 4096 reads 0 writes 0 reads_before_write 0" \
		"$(lying_mnt "$d")/ctl" || return 1
	{ dd if="$d" bs=4k skip=768 count=1 iflag=direct of="$TEST_TMP/held" \
		status=none; echo $? >"$TEST_TMP/hold.rc"; } &
	lying_until "$d" pending 1 &&
	put "$TEST_TMP/b" 5 && is "$TEST_TMP/b" 5 &&
	head -c 4096 "$TEST_TMP/c" >"$TEST_TMP/c4" &&
	dd if="$TEST_TMP/c4" of="$d" bs=4k seek=768 oflag=direct status=none &&
	[ ! -e "$TEST_TMP/hold.rc" ] && [ "$(lying_get "$d" pending)" = 1 ] &&
	grep_in "watch 3145728 4096 reads 0 writes 1 reads_before_write 0" \
		"$(lying_mnt "$d")/ctl" &&
	lying "$d" resume && wait &&
	[ "$(cat "$TEST_TMP/hold.rc")" = 0 ] && cmp "$TEST_TMP/held" "$TEST_TMP/c4" &&
	! grep -q "^hold" "$(lying_mnt "$d")/ctl" &&
	dd if="$d" bs=4k skip=768 count=1 iflag=direct of=/dev/null status=none &&
	grep_in "watch 3145728 4096 reads 2 writes 1 reads_before_write 0" \
		"$(lying_mnt "$d")/ctl" &&
	lying "$d" watch clear && ! grep -q "^watch" "$(lying_mnt "$d")/ctl"
'

test_expect_success 'hold after-write: reads before the first write go by, later ones are held' '
	lying "$d" hold 3M 4K read after-write &&
	grep_in "hold 3145728 4096 read after-write" "$(lying_mnt "$d")/ctl" &&
	dd if="$d" bs=4k skip=768 count=1 iflag=direct of=/dev/null status=none &&
	[ "$(lying_get "$d" pending)" = 0 ] &&
	put "$TEST_TMP/b" 5 &&
	grep_in "hold 3145728 4096 read" "$(lying_mnt "$d")/ctl" &&
	! grep -q "after-write" "$(lying_mnt "$d")/ctl" || return 1
	{ dd if="$d" bs=4k skip=768 count=1 iflag=direct of=/dev/null \
		status=none; echo $? >"$TEST_TMP/after.rc"; } &
	lying_until "$d" pending 1 &&
	[ ! -e "$TEST_TMP/after.rc" ] &&
	lying "$d" resume && wait &&
	[ "$(cat "$TEST_TMP/after.rc")" = 0 ]
'

test_expect_success 'a bad command is refused with EINVAL, and changes nothing' '
	before=$(cat "$(lying_mnt "$d")/ctl") &&
	for c in "frobnicate" "drop maybe" "cache sometimes" "eio 1M" \
		"eio 1M 0" "eio 1M 4K sideways" "eio x 4K" "slow 1M 4K" \
		"slow 1M 4K 0" "shrink 1G" "shrink 1000" "powercut now" \
		"hold 1M" "hold 1M 4K sideways" "hold 1M 4K read later" "watch 1M" "watch 1M 0" ""; do
		printf "%s\n" "$c" |
			dd of="$(lying_mnt "$d")/ctl" status=none 2>"$TEST_TMP/err" &&
			{ echo "accepted: $c"; return 1; }
		grep_in "Invalid argument" "$TEST_TMP/err" || return 1
	done &&
	[ "$(cat "$(lying_mnt "$d")/ctl")" = "$before" ]
'

test_expect_success 'SIGTERM in a hang answers what was held, then unmounts' '
	make_lying t 4M &&
	tm=$(lying_mnt "$t") &&
	lying "$t" hang || return 1
	{ timeout 60 dd if="$t" bs=4k count=1 iflag=direct of=/dev/null \
		status=none; echo $? >"$TEST_TMP/term.rc"; } &
	lying_until "$t" pending 1 &&
	kill -TERM "$(cat "$tm.pid")" &&
	wait &&
	[ "$(cat "$TEST_TMP/term.rc")" = 0 ] &&
	test_wait_for "lying_gone $(cat "$tm.pid")" &&
	! grep -q " $tm fuse" /proc/mounts &&
	! dd if="$t" bs=4k count=1 iflag=direct of=/dev/null status=none
'

test_expect_success 'SIGKILL in a hang: the held request fails, it does not wait for ever' '
	make_lying k 4M &&
	km=$(lying_mnt "$k") &&
	lying "$k" hang || return 1
	{ timeout 60 dd if="$k" bs=4k count=1 iflag=direct of=/dev/null \
		status=none; echo $? >"$TEST_TMP/kill.rc"; } &
	lying_until "$k" pending 1 &&
	kill -KILL "$(cat "$km.pid")" &&
	wait &&
	[ "$(cat "$TEST_TMP/kill.rc")" = 1 ]
'

test_done
