#!/bin/sh
# needs: kiln lyingdisk
# Ctrl-C twice, or three times, while a burn is ending. The burn is of a
# lying disk that hangs (every request held) once the burn is under way,
# so the first interrupt meets workers that cannot end yet, and the second
# comes (at once, 0.2 s later, or once the first was taken) while kiln is
# still stopping. The second still ends with the record: exit 4,
# result.json (state interrupted), summary.txt and report.html, never a
# shell's 130 and a checkpoint alone. A third ends kiln at once, saying
# that kiln finish DIR completes the record; kiln finish then does.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

make_lying d 64M || test_bail "no lying disk"

# taken PID SIG: no SIG (a number) is pending for PID any more: its
# handler took it (the process's shared pending set, /proc's ShdPnd).
taken () {
	pnd=$(sed -n 's/^ShdPnd:\t*//p' "/proc/$1/status" 2>/dev/null) || return 0
	[ -z "$pnd" ] && return 0
	[ $(( 0x$pnd >> ($2 - 1) & 1 )) = 0 ]
}

# burn N: a long burn of $d into $TEST_TMP/rN in the background ($pid),
# once under way by its own samples made to hang with a request held.
burn () {
	lying "$d" resume && lying "$d" eio clear &&
	rm -rf "$TEST_TMP/r$1" &&
	{ "$KILN" burn --passes 100000 --max-writes 0 --checkpoint 1 \
		--deadline 600 --destroy-data --out "$TEST_TMP/r$1" "$d" \
		>"$TEST_TMP/o$1" 2>"$TEST_TMP/e$1" & } &&
	pid=$! &&
	under_way "$TEST_TMP/r$1" 1 &&
	lying "$d" hang &&
	test_wait_for "[ \"\$(lying_get \"\$d\" pending)\" -ge 1 ]"
}

# ends N: the disk answers again; the burn's exit is in $code.
ends () {
	lying "$d" resume
	wait $pid
	code=$?
}

# recorded N: the run into rN ended with exit 4 and its whole record.
recorded () {
	r="$TEST_TMP/r$1"
	test_eq "$code" 4 "the exit" || { cat "$TEST_TMP/e$1"; return 1; }
	for f in result.json summary.txt report.html; do
		[ -s "$r/$f" ] || { echo "no $f in $r:"; ls "$r"; return 1; }
	done
	test_eq "$(json_get "$r/result.json" "d[\"state\"]")" interrupted "the state" &&
	test_eq "$(json_get "$r/result.json" "d[\"targets\"][0][\"verdict\"] != \"FAIL\"")" True "the disk not FAILed"
}

test_expect_success 'two SIGINTs at once: exit 4 and the whole record' '
	burn 1 && kill -INT $pid && kill -INT $pid &&
	ends && recorded 1
'
test_expect_success 'a second SIGINT 0.2 s after the first: exit 4 and the whole record' '
	burn 2 && kill -INT $pid && sleep 0.2 && kill -INT $pid &&
	ends && recorded 2
'
test_expect_success 'a second SIGINT once the first was taken: exit 4, said, naming kiln finish' '
	burn 3 && kill -INT $pid && test_wait_for "taken $pid 2" &&
	kill -INT $pid && test_wait_for "taken $pid 2" &&
	ends && recorded 3 &&
	grep_in "kiln: interrupted again: stopping already" "$TEST_TMP/e3" &&
	grep_in "kiln finish $TEST_TMP/r3 then completes the record" "$TEST_TMP/e3"
'
test_expect_success 'SIGTERM then SIGINT, SIGHUP then SIGTERM: exit 4 and the record' '
	burn 4 && kill -TERM $pid && test_wait_for "taken $pid 15" &&
	kill -INT $pid && test_wait_for "taken $pid 2" &&
	ends && recorded 4 &&
	burn 5 && kill -HUP $pid && test_wait_for "taken $pid 1" &&
	kill -TERM $pid && test_wait_for "taken $pid 15" &&
	ends && recorded 5
'
test_expect_success 'a third interrupt ends kiln at once (exit 4), naming kiln finish DIR, which completes it' '
	burn 6 && kill -INT $pid && test_wait_for "taken $pid 2" &&
	kill -INT $pid && test_wait_for "taken $pid 2" &&
	kill -INT $pid && { wait $pid; code=$?; } &&
	test_eq "$code" 4 "the exit" &&
	[ ! -e "$TEST_TMP/r6/result.json" ] &&
	grep_in "kiln: interrupted a third time: ended at once; kiln finish $TEST_TMP/r6 completes the record" \
		"$TEST_TMP/e6" &&
	lying "$d" resume && {
		"$KILN" finish "$TEST_TMP/r6" >"$TEST_TMP/f6" 2>&1
		code=$?
	} && recorded 6
'
test_done
