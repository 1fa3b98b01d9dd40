#!/bin/sh
# Like disks compared on real block devices: four loop devices of one
# size, three over files in /dev/shm and one over the lying disk
# (tests/lib/lyingdisk.c) told to answer every request 60 ms late (a
# tenth of the others' rate or less, however busy the machine). With the
# thresholds pinned, only the slow one WARNs, its figures in result.json;
# read alone first (--solo), every disk's rate alone is recorded and the
# slow one FAILs under --slow-fail; one that stops answering while read
# alone FAILs as stalled and the others are burnt.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# t RESULT EXPR: a Python expression on each target t of RESULT, joined.
t () {
	json_get "$1" "\" \".join(str($2) for t in d[\"targets\"])"
}

test_expect_success 'four like disks, one slow: only it WARNs, with its figures' '
	make_loop a 64M && make_loop b 64M && make_loop c 64M &&
	make_lying s 64M && lying "$s" slow 0 64M 60 &&
	"$KILN" burn --mode read --duration 12s --slow-warn 30 \
		--out "$TEST_TMP/w" "$a" "$b" "$c" "$s" >"$TEST_TMP/w.out" 2>&1 &&
	r="$TEST_TMP/w/result.json" &&
	[ "$(t "$r" "t[\"verdict\"]")" = "PASS PASS PASS WARN" ] &&
	[ "$(t "$r" "t[\"peers\"][\"group_size\"]")" = "4 4 4 4" ] &&
	[ "$(t "$r" "t[\"peers\"][\"ratio\"] < 0.3")" = "False False False True" ] &&
	json_get "$r" "d[\"targets\"][3][\"reasons\"][-1]" >"$TEST_TMP/why" &&
	m=$(json_get "$r" "round(d[\"targets\"][3][\"peers\"][\"median_mbps\"])") &&
	mine=$(json_get "$r" "round(d[\"targets\"][3][\"peers\"][\"mbps\"])") &&
	grep_in "slow read: $mine MB/s, " "$TEST_TMP/why" &&
	grep_in "of the $m MB/s median of 4 like disks (slow-warn 30%)" "$TEST_TMP/why" &&
	[ "$(json_get "$r" "len(d[\"peer_groups\"]), d[\"peer_groups\"][0][\"disks\"]")" = "(1, 4)" ] &&
	grep_in "loop devices, 64 MiB: 4 disks, median read $m MB/s" "$TEST_TMP/w/summary.txt"
'

test_expect_success '--solo 2s: every rate alone recorded, the slow one FAILs under --slow-fail' '
	{ "$KILN" burn --mode read --duration 3s --solo 2s --slow-warn 20 \
		--slow-fail 15 --out "$TEST_TMP/s" "$a" "$b" "$c" "$s" \
		>"$TEST_TMP/s.out" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/s/result.json" &&
	[ "$(t "$r" "t[\"verdict\"]")" = "PASS PASS PASS FAIL" ] &&
	[ "$(t "$r" "t[\"solo\"][\"mbps\"] > 0 and t[\"solo\"][\"seconds\"] > 1.5")" = "True True True True" ] &&
	[ "$(json_get "$r" "d[\"settings\"][\"solo_seconds\"]")" = 2 ] &&
	for dev in "$a" "$b" "$c" "$s"; do
		grep -q "^solo: $(basename "$dev") [0-9]* MB/s (2 s)$" "$TEST_TMP/s.out" ||
			{ echo "no solo line for $dev"; return 1; }
	done &&
	grep_in "slow alone: " "$TEST_TMP/s/summary.txt" &&
	grep_in "median of 4 like disks alone (slow-fail 15%)" "$TEST_TMP/s/summary.txt" &&
	[ "$(json_get "$r" "d[\"targets\"][3][\"peers\"][\"solo_ratio\"] < 0.15")" = True ]
'

test_expect_success 'a disk that stops answering while read alone FAILs as stalled; the other is burnt' '
	make_lying h 32M && make_loop ok 32M &&
	{ "$KILN" burn --mode read --span 8M --solo 4s --deadline 3 \
		--out "$TEST_TMP/h" "$ok" "$h" >"$TEST_TMP/h.out" 2>&1 & } &&
	pid=$! && test_at_exit "lying $h resume" &&
	i=0 && while [ $i -lt 300 ] && ! grep -q "^solo: $(basename "$ok")" "$TEST_TMP/h.out"; do
		sleep 0.1; i=$((i + 1)); done &&
	grep_in "solo: $(basename "$ok") " "$TEST_TMP/h.out" &&
	lying "$h" hang &&
	i=0 && while [ $i -lt 300 ] && [ ! -e "$TEST_TMP/h/result.json" ]; do
		sleep 0.1; i=$((i + 1)); done &&
	r="$TEST_TMP/h/result.json" &&
	{ [ "$(t "$r" "t[\"verdict\"]")" = "PASS FAIL" ] ||
		{ cat "$TEST_TMP/h.out"; false; }; } &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bytes_read\"]")" = 8388608 ] &&
	grep_in "stalled while read alone before the burn: a request during read got no answer in 3 s" \
		"$TEST_TMP/h/summary.txt" &&
	lying "$h" resume && { wait $pid; test $? = 1; }
'

test_done
