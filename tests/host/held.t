#!/bin/sh
# needs: kiln
# A disk whose worker the host keeps off the CPU is not blamed for it
# (engine/held.h, judge/monitor.h MONITOR_HELD_SHARE): two loop devices
# over files in /dev/shm are read for 24 s; while the burn runs, one
# disk's worker thread (named kiln:loopN) is put in the idle class on
# the CPU of a busy loop, so it waits for a CPU nearly all of each
# second and its reads stop, while the other disk's go on, so the
# seconds are no machine's dip (dips.h: that needs most disks). The
# kernel counts the worker's wait only once it runs again, after the
# seconds were sampled: the monitor gives the wait back to them, they are
# left out as the host's, said in its stability, and the disk PASSes
# with no "unstable" reason. Without the wait, the same run WARNed it
# unstable at 0 MB/s: a healthy disk blamed for a busy host (seen in CI
# as a MAAS run's "degraded" and a WARN in dips.t). What holds on any
# machine is asserted: the hold lasts while the other disk is sampled
# eight more times, however long that takes.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
for c in chrt taskset; do
	command -v $c >/dev/null || test_skip_all "needs $c (util-linux)"
done
[ -r /proc/thread-self/schedstat ] || test_skip_all "needs the kernel's schedstat (CONFIG_SCHED_INFO)"
[ "$(nproc)" -ge 2 ] || test_skip_all "needs two CPUs (one busy, one for the rest)"

# tid PID NAME: the thread of PID named NAME, once it is there.
tid () {
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] && { basename "$t"; return 0; }
	done
	return 1
}

# rows_of DIR DISK: samples.csv rows of that disk so far.
rows_of () {
	[ -e "$1/samples.csv" ] || { echo 0; return; }
	grep -c ",${2#/dev/}," "$1/samples.csv"
}

test_expect_success 'a worker the host holds off the CPU: its seconds are the host'"'"'s, no WARN' '
	make_loop a 64M && make_loop b 64M || return 1
	r="$TEST_TMP/held"
	"$KILN" burn --mode read --duration 24s --passes 100000 \
		--out "$r" "$a" "$b" >"$TEST_TMP/held.out" 2>&1 &
	kp=$!
	test_at_exit "kill $kp 2>/dev/null"
	under_way "$r" 2 &&
	test_wait_for "tid $kp kiln:${a#/dev/}" &&
	w=$(tid $kp "kiln:${a#/dev/}") || return 1
	cpu=$(( $(nproc) - 1 ))
	taskset -c $cpu sh -c "while :; do :; done" &
	hog=$!
	test_at_exit "kill $hog 2>/dev/null"
	taskset -p -c $cpu "$w" >/dev/null && chrt --idle -p 0 "$w" &&
	# Held while the other disk has eight more seconds of samples.
	n=$(rows_of "$r" "$b") &&
	test_wait_for "[ \$(rows_of \"$r\" \"$b\") -ge $((n + 8)) ]" &&
	# Let go: the busy loop ends first, then its class and CPUs again.
	kill $hog && wait $hog 2>/dev/null
	chrt --other -p 0 "$w" && taskset -p -c 0-$cpu "$w" >/dev/null || return 1
	wait $kp || { cat "$TEST_TMP/held.out"; return 1; }
	t="d[\"targets\"][0]"
	json_get "$r/result.json" "$t[\"stability\"]" >"$TEST_TMP/stab" &&
	cat "$TEST_TMP/stab" &&
	test_eq "$(json_get "$r/result.json" "$t[\"verdict\"]")" PASS verdict ||
		{ json_get "$r/result.json" "$t[\"reasons\"]"
		  grep ",${a#/dev/}," "$r/samples.csv" | sed "s/^/# /"; return 1; }
	grep -q "read: [0-9]* of its slowest seconds held by the host (kiln.s worker waited for a CPU), not judged" "$TEST_TMP/stab" &&
	! json_get "$r/result.json" "$t[\"reasons\"]" | grep -q unstable &&
	grep_in "held by the host" "$r/summary.txt"
'

test_done
