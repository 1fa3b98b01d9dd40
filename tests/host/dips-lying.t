#!/bin/sh
# needs: kiln lyingdisk
# The host's dips are the host's (judge/dips.c): four lying disks
# (tests/lib/lyingdisk.c), each answering a 1 MiB request 60 ms late, so
# some 16 MB/s at --qd 1 however fast the machine, all hang together for
# 3 s in the middle of their write (told to, once the burn's samples show
# it under way; held until each has a request waiting). The monitor,
# still running, sees seconds of 0 MB/s on every disk at once: that is
# the machine's, said once in summary.txt and result.json's shared_dips,
# and no disk WARNs "unstable" for it. One disk hung alone, the same way,
# still WARNs.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

for v in a b c e; do
	make_lying "$v" 256M || test_bail "no lying disk"
done

# unstable RESULT: the labels of RESULT's disks WARNed "unstable".
unstable () {
	json_get "$1" '" ".join(sorted(t["label"] for t in d["targets"] if any(r.startswith("unstable ") for r in t["reasons"])))'
}

# burn N DISK...: a burn of the four into $TEST_TMP/rN in the background
# ($pid) that hangs DISK... for 3 s once under way, then waits for it.
burn () {
	n=$1
	shift
	for v in "$a" "$b" "$c" "$e"; do
		lying "$v" resume && lying "$v" slow clear &&
		lying "$v" slow 0 268435456 60 || return 1
	done
	{ "$KILN" burn --qd 1 --deadline 15 --destroy-data \
		--out "$TEST_TMP/r$n" "$a" "$b" "$c" "$e" \
		>"$TEST_TMP/o$n" 2>"$TEST_TMP/e$n" & } &&
	pid=$! &&
	under_way "$TEST_TMP/r$n" 4 || return 1
	for v in "$@"; do
		lying "$v" hang || return 1
	done
	for v in "$@"; do
		test_wait_for "[ \"\$(lying_get \"$v\" pending)\" -ge 1 ]" ||
			return 1
	done
	# The hang's length, not a wait for a state: 3 s of no I/O.
	sleep 3
	for v in "$@"; do
		lying "$v" resume || return 1
	done
	wait $pid
	code=$?
	r="$TEST_TMP/r$n"
	json_get "$r/result.json" '[t["stability"] for t in d["targets"]]'
	grep "^dips:" "$r/summary.txt"
	test_eq "$code" 0 "the exit" || { cat "$TEST_TMP/e$n"; return 1; }
}

# The freeze lands in a different zone of each disk (they run apart): the
# like-disk comparison of zones leaves out the seconds the machine took
# from each disk's pass (judge/peers.c), so no zone WARNs for it either.
test_expect_success 'every disk hung together for 3 s: the machine'"'"'s dip, no disk WARNs' '
	burn 1 "$a" "$b" "$c" "$e" &&
	test_eq "$(unstable "$r/result.json")" "" "disks WARNed unstable" &&
	test_eq "$(json_get "$r/result.json" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" "PASS PASS PASS PASS" "verdicts" || {
		json_get "$r/result.json" "[t[\"reasons\"] for t in d[\"targets\"]]"; false; } &&
	grep_in "dips: the machine'"'"'s: most of its disks slowed together in second" "$r/summary.txt" &&
	test_eq "$(json_get "$r/result.json" "len(d[\"shared_dips\"]) >= 1 and all(s[\"controller\"] is None and s[\"dipped\"] >= 3 for s in d[\"shared_dips\"])")" True "shared_dips"
'

test_expect_success 'one disk hung alone for 3 s still WARNs unstable, nothing is the machine'"'"'s' '
	burn 2 "$b" &&
	test_eq "$(unstable "$r/result.json")" "$(basename "$b")" "disks WARNed unstable" &&
	test_eq "$(json_get "$r/result.json" "d[\"shared_dips\"]")" "[]" "shared_dips"
'

test_done
