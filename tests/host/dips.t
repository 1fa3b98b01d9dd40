#!/bin/sh
# needs: kiln
# The host's dips are the host's (judge/dips.c): a burn of four loop
# devices over files in /dev/shm frozen whole for 3 s (SIGSTOP of kiln,
# then SIGCONT), once its samples show it under way, WARNs no disk
# "unstable" for it, and ends as a clean burn does. No figure of the
# machine's speed is asserted: that a shared dip is found and said is
# proven on synthetic series (tests/unit/judge.c) and on disks that all
# hang together (tests/host/dips-lying.t).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

shm=/dev/shm/kiln-dips-$$
mkdir -p "$shm" || test_bail "cannot make $shm"
test_at_exit "rm -rf '$shm'"

# unstable RESULT: the reasons of RESULT's disks that say "unstable".
unstable () {
	json_get "$1" '[r for t in d["targets"] for r in t["reasons"] if r.startswith("unstable ")]'
}

test_expect_success 'a burn frozen whole for 3 s WARNs no disk unstable' '
	make_loop a 256M "$shm" && make_loop b 256M "$shm" &&
	make_loop c 256M "$shm" && make_loop e 256M "$shm" &&
	r="$TEST_TMP/r" &&
	{ "$KILN" burn --duration 20s --checkpoint 1 --destroy-data \
		--out "$r" "$a" "$b" "$c" "$e" >"$TEST_TMP/o" 2>"$TEST_TMP/e" & } &&
	pid=$! &&
	under_way "$r" 3 &&
	kill -STOP $pid &&
	test_wait_for "grep -q \"^State:.*T (stopped)\" /proc/$pid/status" &&
	sleep 3 &&
	kill -CONT $pid &&
	{ wait $pid; code=$?; } &&
	json_get "$r/result.json" "[t[\"stability\"] for t in d[\"targets\"]]" &&
	{ grep "^dips:" "$r/summary.txt"; true; } &&
	test_eq "$code" 0 "the exit" &&
	test_eq "$(unstable "$r/result.json")" "[]" "unstable reasons" || {
		cat "$TEST_TMP/e"; sed -n "1,40p" "$r/summary.txt"; false; }
'

test_done
