#!/bin/sh
# needs: kiln lyingdisk
# The guarded write leaves another writer no window. A guard read below a
# span is held (the lying disk holds the read at H, as a disk that answers
# one read late); kiln's guard read of the span at X above it has been
# answered (the lying disk's watch counts it); only then a second writer
# puts 4 KiB at X, through the same loop device (O_EXCL keeps out no plain
# writer); then the held read is answered. kiln must not write X on its
# check from before the writer: the span waited, so it is read and
# checked again first, the writer's data is found, the disk writes nothing
# more (exit 2) and X holds the writer's bytes. At several offsets, queue
# depths and request sizes; without a second writer the same wait PASSes,
# the span read twice before its write, the second read tallied as the
# guard's.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

MiB=1048576
head -c 4096 /dev/urandom >"$TEST_TMP/data"

# watch_get DEV OFF KEY: a counter of the lying disk's watch of OFF.
watch_get () {
	sed -n "s/^watch $2 4096 .*$3 \([0-9]*\).*/\1/p" "$(lying_mnt "$1")/ctl"
}

# intact DEV OFF: the 4 KiB at OFF are the second writer's.
intact () {
	dd if="$1" bs=4096 skip=$(($2 / 4096)) count=1 iflag=direct \
		status=none >"$TEST_TMP/got" &&
	cmp "$TEST_TMP/data" "$TEST_TMP/got"
}

# window N QD BS H X [WRITER]: a burn of a new lying disk at qd QD and bs
# BS whose guard read at H is held until kiln's guard read of X has been
# answered and (with WRITER) the second writer has put its 4 KiB at X.
# The hold starts at the disk's first write, so the reads that class the
# disk go by; H is QD spans or more from the start, so its guard read
# comes after that write (a slot is free again only once its write is
# done), and X lies in one of the QD - 1 spans above H's, read while H's
# is held. Spans are larger than half the loop device's largest request
# (1280 KiB), so the block layer never merges X's read into H's. The burn's exit is in $code, its folder $TEST_TMP/wN.
window () {
	make_lying dev 64M &&
	lying "$dev" watch "$5" 4K && lying "$dev" hold "$4" 4K read after-write || return 1
	{ "$KILN" burn --qd "$2" --bs "$3" --deadline 600 \
		--out "$TEST_TMP/w$1" "$dev" >"$TEST_TMP/o$1" 2>&1 &
	} 2>/dev/null
	pid=$!
	test_wait_for "[ \"\$(watch_get \"\$dev\" $5 reads)\" -ge 1 ] &&
		[ \"\$(lying_get \"\$dev\" pending)\" -ge 1 ]" || return 1
	test_eq "$(watch_get "$dev" "$5" writes)" 0 "kiln's writes at X before the writer" ||
		return 1
	if [ -n "$6" ]; then
		dd if="$TEST_TMP/data" of="$dev" bs=4096 seek=$(($5 / 4096)) \
			conv=notrunc oflag=direct status=none &&
		test_eq "$(watch_get "$dev" "$5" writes)" 1 "writes at X once the writer wrote" ||
			return 1
	fi
	lying "$dev" resume
	wait $pid
	code=$?
}

# stopped N X: the burn into wN exited 2, stopped at X, said so, and X
# holds the writer's bytes.
stopped () {
	test_eq "$code" 2 "the exit" || { cat "$TEST_TMP/o$1"; return 1; }
	intact "$dev" "$2" &&
	test_eq "$(json_get "$TEST_TMP/w$1/result.json" "d[\"targets\"][0][\"guard\"][\"stopped_at\"]")" \
		"$2" "where the guard stopped" &&
	grep_in "holds data from byte $2" "$TEST_TMP/o$1"
}

test_expect_success 'a writer after the check of 24.25 MiB, the read at 20 MiB held (qd 8, 1 MiB)' '
	window 1 8 1M $((20 * MiB)) 25427968 writer && stopped 1 25427968
'
test_expect_success 'the span just above the held one, its first unit (qd 2, 1 MiB)' '
	window 2 2 1M $((20 * MiB)) $((21 * MiB)) writer && stopped 2 $((21 * MiB))
'
test_expect_success 'sixteen spans in flight, the writer ten above (qd 16, 768 KiB)' '
	x=$((24 * MiB + 10 * 786432 + 8192)) &&
	window 3 16 768k $((24 * MiB)) $x writer && stopped 3 $x
'
test_expect_success 'a request size not a power of two, the last unit in flight (qd 4, 1000 KiB)' '
	x=$((40 * 1024000 + 4 * 1024000 - 4096)) &&
	window 4 4 1000k $((40 * MiB)) $x writer && stopped 4 $x
'
test_expect_success 'qd 32: the writer twenty spans above the held one (1 MiB)' '
	x=$((60 * MiB + 4096)) &&
	window 5 32 1M $((40 * MiB)) $x writer && stopped 5 $x
'
test_expect_success 'no second writer: PASS, the span read again before its write, as the guard' '
	window 6 8 1M $((20 * MiB)) 25427968 &&
	test_eq "$code" 0 "the exit" &&
	r=$(sed -n "s/^watch 25427968 4096 .*reads_before_write \([0-9]*\).*/\1/p" \
		"$(lying_mnt "$dev")/ctl") &&
	test_eq "$([ "$r" -ge 2 ] && echo yes)" yes "reads of X before its write ($r)" &&
	g=$(json_get "$TEST_TMP/w6/result.json" "d[\"targets\"][0][\"phases\"][\"guard\"][\"bytes\"]") &&
	echo "the guard read $g bytes of a 64 MiB region" &&
	test_eq "$([ "$g" -ge $((64 * MiB + 7 * MiB)) ] && echo yes)" yes \
		"the guard read the region and the seven spans that waited"
'
test_done
