#!/bin/sh
# needs: kiln lyingdisk
# Like disks compared on real block devices: four loop devices of one
# size, three over files in /dev/shm and one over the lying disk
# (tests/lib/lyingdisk.c) told to answer every request 60 ms late. At
# --qd 1 that is 1 MiB per 60 ms, some 16 MB/s, while a loop device over
# /dev/shm reads hundreds of MB/s or more even on a loaded machine: the
# slow one is a few percent of its peers, far from the thresholds, so the
# verdicts do not depend on the machine's speed. With the thresholds
# pinned, only the slow one WARNs, its figures in result.json; read alone
# first (--solo), every disk's rate alone is recorded and the slow one
# FAILs under --slow-fail; one that stops answering while read alone
# FAILs as stalled and the others are burnt.
#
# A loaded machine can stall a fast disk for a second, and kiln rightly
# WARNs a disk unstable when its slowest second is far below its average
# (judge.c, proven by tests/unit/judge.c): that WARN says nothing about
# the peers, so no test here counts it (steady_verdicts).
# --deadline 15 bounds the re-read of the slow disk's slowest requests
# (4 KiB, 60 ms each), which takes the whole deadline (60 s by default);
# it is still 250 times any request's time here.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# t RESULT EXPR: a Python expression on each target t of RESULT, joined.
t () {
	json_get "$1" "\" \".join(str($2) for t in d[\"targets\"])"
}

# verdicts RESULT WANT: the targets' verdicts are WANT; if not, each
# target's figures and reasons are shown, so a failure says why.
verdicts () {
	test_eq "$(t "$1" "t[\"verdict\"]")" "$2" verdicts && return 0
	json_get "$1" "\"\\n\".join(str((t[\"verdict\"], t[\"reasons\"], t.get(\"peers\"), t.get(\"solo\"))) for t in d[\"targets\"])"
	return 1
}

# steady_verdicts RESULT WANT: as verdicts, but a WARN whose only reasons
# are "unstable ..." (the machine's load, not the disk) counts as PASS.
steady_verdicts () {
	test_eq "$(t "$1" "(\"PASS\" if t[\"verdict\"] == \"WARN\" and all(r.startswith(\"unstable \") for r in t[\"reasons\"]) else t[\"verdict\"])")" "$2" verdicts && return 0
	json_get "$1" "\"\\n\".join(str((t[\"verdict\"], t[\"reasons\"], t.get(\"peers\"), t.get(\"solo\"))) for t in d[\"targets\"])"
	return 1
}

test_expect_success 'four like disks, one slow: only it WARNs, with its figures' '
	make_loop a 64M && make_loop b 64M && make_loop c 64M &&
	make_lying s 64M && lying "$s" slow 0 64M 60 &&
	"$KILN" burn --mode read --duration 12s --qd 1 --deadline 15 --slow-warn 30 \
		--out "$TEST_TMP/w" "$a" "$b" "$c" "$s" >"$TEST_TMP/w.out" 2>&1 &&
	r="$TEST_TMP/w/result.json" &&
	steady_verdicts "$r" "PASS PASS PASS WARN" &&
	test_eq "$(t "$r" "t[\"peers\"][\"group_size\"]")" "4 4 4 4" &&
	test_eq "$(t "$r" "t[\"peers\"][\"ratio\"] < 0.3")" "False False False True" &&
	json_get "$r" "[r for r in d[\"targets\"][3][\"reasons\"] if r.startswith(\"slow \")][0]" >"$TEST_TMP/why" &&
	m=$(json_get "$r" "round(d[\"targets\"][3][\"peers\"][\"median_mbps\"])") &&
	mine=$(json_get "$r" "round(d[\"targets\"][3][\"peers\"][\"mbps\"])") &&
	grep_in "slow read: $mine MB/s, " "$TEST_TMP/why" &&
	grep_in "of the $m MB/s median of 4 like disks (slow-warn 30%)" "$TEST_TMP/why" &&
	test_eq "$(json_get "$r" "len(d[\"peer_groups\"]), d[\"peer_groups\"][0][\"disks\"]")" "(1, 4)" &&
	grep_in "loop devices, 64 MiB: 4 disks, median read $m MB/s" "$TEST_TMP/w/summary.txt"
'

test_expect_success '--solo 2s: every rate alone recorded, the slow one FAILs under --slow-fail' '
	{ "$KILN" burn --mode read --duration 3s --solo 2s --qd 1 --deadline 15 --slow-warn 20 \
		--slow-fail 15 --out "$TEST_TMP/s" "$a" "$b" "$c" "$s" \
		>"$TEST_TMP/s.out" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/s/result.json" &&
	steady_verdicts "$r" "PASS PASS PASS FAIL" &&
	test_eq "$(t "$r" "t[\"solo\"][\"mbps\"] > 0 and t[\"solo\"][\"seconds\"] > 1.5")" "True True True True" &&
	test_eq "$(json_get "$r" "d[\"settings\"][\"solo_seconds\"]")" 2 &&
	for dev in "$a" "$b" "$c" "$s"; do
		grep -q "^solo: $(basename "$dev") [0-9]* MB/s (2 s)$" "$TEST_TMP/s.out" ||
			{ echo "no solo line for $dev"; return 1; }
	done &&
	grep_in "slow alone: " "$TEST_TMP/s/summary.txt" &&
	grep_in "median of 4 like disks alone (slow-fail 15%)" "$TEST_TMP/s/summary.txt" &&
	test_eq "$(json_get "$r" "d[\"targets\"][3][\"peers\"][\"solo_ratio\"] < 0.15")" True
'

test_expect_success 'a disk that stops answering while read alone FAILs as stalled; the other is burnt' '
	make_lying h 32M && make_loop ok 32M &&
	{ "$KILN" burn --mode read --span 8M --solo 10s --deadline 10 \
		--out "$TEST_TMP/h" "$ok" "$h" >"$TEST_TMP/h.out" 2>&1 & } &&
	pid=$! && test_at_exit "lying $h resume" &&
	test_wait_for "grep -q \"^solo: $(basename "$ok") \" \"\$TEST_TMP/h.out\"" &&
	lying "$h" hang &&
	test_wait_for "[ -e \"\$TEST_TMP/h/result.json\" ]" &&
	r="$TEST_TMP/h/result.json" &&
	{ steady_verdicts "$r" "PASS FAIL" ||
		{ cat "$TEST_TMP/h.out"; false; }; } &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"bytes_read\"]")" 8388608 &&
	grep_in "stalled while read alone before the burn: a request during read got no answer in 10 s" \
		"$TEST_TMP/h/summary.txt" &&
	lying "$h" resume && { wait $pid; test $? = 1; }
'

test_done
