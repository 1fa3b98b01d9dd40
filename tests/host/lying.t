#!/bin/sh
# needs: kiln lyingdisk
# A disk that lies never passes, and one that stops answering never hangs
# the run: a FUSE disk under a loop device (tests/lib/lyingdisk.c) drops
# acknowledged writes, loses its flushed cache at a power cut, reverts to
# an earlier pass, fails writes, and hangs before the burn.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
M=1048576

v () {
	json_get "$1/result.json" "d[\"targets\"][0][\"$2\"]"
}

test_expect_success 'a disk that drops every write FAILs write-verify' '
	make_lying a 32M &&
	"$KILN" burn --mode write "$a" >/dev/null 2>&1 &&
	lying "$a" drop on &&
	{ "$KILN" burn --out "$TEST_TMP/drop" "$a" >"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	[ "$(v "$TEST_TMP/drop" verdict)" = FAIL ] &&
	[ "$(json_get "$TEST_TMP/drop/result.json" "d[\"targets\"][0][\"bad_units\"][\"by_class\"][\"stale\"]")" = 8192 ]
'

test_expect_success 'a disk reverted to its first pass FAILs the verify of the second' '
	make_lying b 32M && lying "$b" snapshot at-flush 1 &&
	"$KILN" burn --mode write --passes 2 --max-writes 0 --out "$TEST_TMP/w2" \
		"$b" >/dev/null 2>&1 &&
	lying "$b" revert &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w2" --out "$TEST_TMP/v2" \
		>"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	[ "$(v "$TEST_TMP/v2" verified_pass)" = 2 ] &&
	grep_in "lost flushed writes: 8192 units" "$TEST_TMP/v2/summary.txt"
'

test_expect_success 'without the record, writes lost where the pass is guessed still FAIL' '
	make_lying g 8M && lying "$g" snapshot at-flush 1 &&
	"$KILN" burn --mode write --passes 2 --max-writes 0 --out "$TEST_TMP/wg" \
		"$g" >/dev/null 2>&1 &&
	dd if="$g" of="$TEST_TMP/p2" bs=1M iflag=direct status=none &&
	lying "$g" revert &&
	dd if="$g" of="$TEST_TMP/p1" bs=1M iflag=direct status=none &&
	python3 - "$TEST_TMP/p1" "$TEST_TMP/p2" "$TEST_TMP/wg/result.json" <<-\PY &&
	# Pass 2 everywhere but at the units the pass is guessed from, which
	# lost their pass 2 writes: the start, the middle and the end.
	import json, sys
	p1, p2 = open(sys.argv[1], "rb").read(), bytearray(open(sys.argv[2], "rb").read())
	e = json.load(open(sys.argv[3]))["targets"][0]["region"]
	assert len(e) == 1, e
	off, n = e[0]["offset"], e[0]["length"]
	for u in (0, n // 2 // 4096 * 4096, n - 4096):
	    p2[off + u:off + u + 4096] = p1[off + u:off + u + 4096]
	open(sys.argv[2], "wb").write(p2)
	PY
	dd if="$TEST_TMP/p2" of="$g" bs=1M oflag=direct conv=fsync status=none &&
	id=$(json_get "$TEST_TMP/wg/result.json" "d[\"run_id\"]") &&
	{ "$KILN" burn --mode verify --run-id "$id" --out "$TEST_TMP/vg" "$g" \
		>"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	[ "$(v "$TEST_TMP/vg" verdict)" = FAIL ] &&
	[ "$(v "$TEST_TMP/vg" units_of_later_passes)" = 0 ]
'

test_expect_success 'a volatile cache that keeps flushed data: PASS after a power cut' '
	make_lying c 32M && lying "$c" cache on &&
	"$KILN" burn --mode write --out "$TEST_TMP/wc" "$c" >/dev/null 2>&1 &&
	lying "$c" powercut &&
	"$KILN" burn --mode verify --from "$TEST_TMP/wc" --out "$TEST_TMP/vc" \
		>"$TEST_TMP/o" 2>&1 &&
	[ "$(v "$TEST_TMP/vc" verdict)" = PASS ]
'

test_expect_success 'a cache that lies about flushes: FAIL, lost flushed writes' '
	make_lying l 32M && lying "$l" cache lie &&
	"$KILN" burn --mode write --out "$TEST_TMP/wl" "$l" >/dev/null 2>&1 &&
	lying "$l" powercut &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/wl" --out "$TEST_TMP/vl" \
		>"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	grep_in "lost flushed writes" "$TEST_TMP/vl/summary.txt"
'

test_expect_success 'a failed write is not written, not hundreds of bad units' '
	make_lying e 32M && lying "$e" eio $((4 * M)) $M write &&
	{ "$KILN" burn --out "$TEST_TMP/eio" "$e" >"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/eio/result.json" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"io_errors\"][\"first\"][0][\"phase\"]")" = write ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bad_units\"][\"count\"]")" = 0 ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"units_not_written\"]")" = 256 ]
'

test_expect_success 'a disk that hangs before the burn FAILs as stalled; the other passes' '
	make_lying h 32M && make_loop ok 32M &&
	"$KILN" burn --mode write "$h" >/dev/null 2>&1 &&
	lying "$h" hang &&
	{ "$KILN" burn --deadline 3 --out "$TEST_TMP/hang" "$h" "$ok" \
		>"$TEST_TMP/hang.out" 2>&1 & } &&
	pid=$! && test_at_exit "lying $h resume" &&
	test_wait_for "[ -e \"\$TEST_TMP/hang/result.json\" ]" &&
	r="$TEST_TMP/hang/result.json" &&
	[ "$(json_get "$r" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" = "FAIL PASS" ] &&
	grep_in "stalled: no answer in 3 s while it was opened" "$TEST_TMP/hang/summary.txt" &&
	lying "$h" resume && { wait $pid; test $? = 1; }
'

test_expect_success 'kiln probe of a hung disk says stalled and goes on' '
	lying "$h" hang &&
	{ "$KILN" probe --deadline 2 "$h" "$ok" >"$TEST_TMP/probe" 2>&1 & } &&
	pid=$! &&
	test_wait_for "grep -q \"$ok\" \"\$TEST_TMP/probe\"" &&
	grep_in "$h: stalled: no answer in 2 s" "$TEST_TMP/probe" &&
	grep_in "$ok: kiln-data" "$TEST_TMP/probe" &&
	lying "$h" resume && { wait $pid; test $? = 1; }
'

test_expect_success 'kiln paused (SIGSTOP) longer than the deadline fails no disk' '
	make_loop p 256M &&
	{ "$KILN" burn --deadline 2 --passes 1000 --max-writes 0 --out "$TEST_TMP/stop" \
		"$p" >"$TEST_TMP/stop.out" 2>&1 & } &&
	pid=$! && under_way "$TEST_TMP/stop" && kill -STOP $pid &&
	n=$(burn_rows "$TEST_TMP/stop") && sleep 6 && kill -CONT $pid &&
	under_way "$TEST_TMP/stop" $((n + 2)) && kill -INT $pid && { wait $pid; test $? = 4; } &&
	[ "$(v "$TEST_TMP/stop" state)" = stopped ]
'

test_done
