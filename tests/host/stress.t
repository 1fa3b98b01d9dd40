#!/bin/sh
# needs: kiln
# The memory and CPU stress beside kiln burn (stress is off for kiln burn
# unless asked): stressapptest runs while the disks burn, below them in
# priority (SCHED_IDLE, nice 19), with none of kiln's environment, and its
# figures are in result.json with verdict PASS; it never outlives kiln,
# even one killed with SIGKILL, and a ^C at the terminal is kiln's (the
# stress is stopped by kiln, not dead of it). Off, there is none. A stressapptest that
# is not in PATH is a machine WARN saying so, the disks still judged.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
Q="'"
command -v stressapptest >/dev/null ||
	test_skip_all "needs stressapptest (scripts/deps.list)"

# child_of PID: the stressapptest whose parent is PID, or nothing.
child_of () {
	for s in /proc/[0-9]*/stat; do
		p=${s#/proc/}; p=${p%/stat}
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = stressapptest ] || continue
		[ "$(sed 's/.*) //' "$s" 2>/dev/null | cut -d" " -f2)" = "$1" ] &&
			echo "$p" && return 0
	done
	return 0
}

# seen_under PID: waits for PID's stressapptest while PID runs (however
# slow the machine, the stress lasts the burn); sets spid, or fails.
seen_under () {
	spid=
	while kill -0 "$1" 2>/dev/null; do
		spid=$(child_of "$1")
		[ -n "$spid" ] && return 0
		sleep 0.2
	done
	echo "no stressapptest seen under kiln $1"
	return 1
}

make_loop d1 64M && make_loop d2 64M || test_bail "cannot make loop devices"

test_expect_success 'stress on: stressapptest below the disks, no env of kilns' '
	KILN_TEST_SECRET=hush "$KILN" burn --destroy-data --stress memory,cpu \
		--stress-memory 64M --duration 15s --max-writes 0 \
		--out "$TEST_TMP/on" "$d1" "$d2" >"$TEST_TMP/on.out" 2>&1 &
	kpid=$! &&
	seen_under "$kpid" &&
	stat=$(sed "s/.*) //" "/proc/$spid/stat") &&
	nice=$(echo "$stat" | cut -d" " -f17) &&
	policy=$(echo "$stat" | cut -d" " -f39) &&
	env=$(tr "\0" "\n" <"/proc/$spid/environ") &&
	wait "$kpid" && cat "$TEST_TMP/on.out" &&
	echo "nice $nice policy $policy" &&
	[ "$nice" = 19 ] && [ "$policy" = 5 ] &&
	! echo "$env" | grep -q KILN_TEST_SECRET &&
	! kill -0 "$spid" 2>/dev/null
'

test_expect_success 'its figures are in result.json, verdict PASS' '
	r="$TEST_TMP/on/result.json" &&
	[ "$(json_get "$r" "d[\"stress\"][\"verdict\"]")" = PASS ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"tool\"]")" = stressapptest ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"ended\"]")" = stopped ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"memory_bytes\"]")" = $((64 << 20)) ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"seconds\"] > 0")" = True ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"miscompares\"][\"count\"]")" = 0 ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"cpu_threads\"] > 0")" = True ] &&
	grep_in "stress: stressapptest (memory,cpu)" "$TEST_TMP/on/summary.txt" &&
	grep_in "stress: stressapptest (memory,cpu)" "$TEST_TMP/on.out" &&
	grep_in "Memory and CPU stress" "$TEST_TMP/on/report.html"
'

test_expect_success 'kiln finish and kiln report read the stress back' '
	"$KILN" report "$TEST_TMP/on" >"$TEST_TMP/report.out" 2>&1 ||
		{ cat "$TEST_TMP/report.out"; false; } &&
	grep_in "stress: stressapptest (memory,cpu)" "$TEST_TMP/on/summary.txt"
'

test_expect_success 'kiln killed with SIGKILL: its stressapptest goes with it' '
	"$KILN" burn --destroy-data --stress cpu --duration 60s --max-writes 0 \
		--out "$TEST_TMP/killed" "$d1" >"$TEST_TMP/killed.out" 2>&1 &
	kpid=$! &&
	seen_under "$kpid" &&
	kill -KILL "$kpid" && { wait "$kpid" || :; } &&
	test_wait_for "! kill -0 $spid 2>/dev/null"
'

test_expect_success 'a ^C to kiln and its group: stopped by kiln, not died (exit 4)' '
	setsid "$KILN" burn --destroy-data --stress cpu --duration 60s \
		--max-writes 0 --out "$TEST_TMP/int" "$d1" \
		>"$TEST_TMP/int.out" 2>&1 &
	kpid=$! &&
	seen_under "$kpid" &&
	kill -INT "-$kpid" &&
	{ wait "$kpid"; code=$?; } ; cat "$TEST_TMP/int.out" &&
	[ "$code" = 4 ] &&
	r="$TEST_TMP/int/result.json" &&
	[ "$(json_get "$r" "d[\"stress\"][\"ended\"]")" = stopped ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"verdict\"]")" = PASS ]
'

test_expect_success 'stress off (kiln burn by default): none runs' '
	"$KILN" burn --destroy-data --out "$TEST_TMP/off" "$d1" "$d2" \
		>"$TEST_TMP/off.out" 2>&1 &&
	[ "$(json_get "$TEST_TMP/off/result.json" "\"stress\" in d")" = False ] &&
	! grep -q stressapptest "$TEST_TMP/off.out" &&
	! grep -q "^stress:" "$TEST_TMP/off/summary.txt"
'

test_expect_success 'no stressapptest in PATH: a machine WARN, the disks judged' '
	PATH=/nonexistent "$KILN" burn --destroy-data --stress memory,cpu \
		--stress-memory 64M --out "$TEST_TMP/none" "$d1" "$d2" \
		>"$TEST_TMP/none.out" 2>&1 &&
	r="$TEST_TMP/none/result.json" &&
	[ "$(json_get "$r" "d[\"stress\"][\"verdict\"]")" = WARN ] &&
	[ "$(json_get "$r" "d[\"stress\"][\"ended\"]")" = "not started" ] &&
	json_get "$r" "d[\"stress\"][\"why\"]" | grep -q "stressapptest is not in PATH" &&
	[ "$(json_get "$r" "d[\"machine\"][\"verdict\"]")" = WARN ] &&
	[ "$(json_get "$r" "[t[\"verdict\"] for t in d[\"targets\"]]")" = \
		"[${Q}PASS${Q}, ${Q}PASS${Q}]" ] &&
	[ "$(json_get "$r" "d[\"verdict\"]")" = WARN ] &&
	grep_in "did not run: stressapptest is not in PATH" "$TEST_TMP/none/summary.txt"
'

test_expect_success 'a bad stress or stress-memory: exit 2, one line' '
	{ "$KILN" burn --stress lots "$d1" 2>"$TEST_TMP/bad1"; [ $? = 2 ]; } &&
	[ "$(wc -l <"$TEST_TMP/bad1")" = 1 ] &&
	grep_in "bad value for --stress: ${Q}lots${Q}" "$TEST_TMP/bad1" &&
	{ "$KILN" burn --stress-memory 200% "$d1" 2>"$TEST_TMP/bad2"; [ $? = 2 ]; } &&
	[ "$(wc -l <"$TEST_TMP/bad2")" = 1 ]
'

test_done
