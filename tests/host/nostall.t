#!/bin/sh
# needs: kiln lyingdisk
# No device kiln is not testing can stall a target, and kiln exits
# whatever a dead disk does. A loop device over a lying disk
# (tests/lib/lyingdisk.c) that stops answering, stat included ("hang all",
# as a dead NFS server does), elsewhere on the machine: a burn of a file,
# a probe of a healthy loop device and discover say that device does not
# answer and fail nothing. A disk that stops answering while it is opened
# and classed, at its flush, or at the re-read of a bad unit: kiln FAILs
# it, writes its results and exits, with the disk still hung.
#
# While a disk here hangs, a kiln elsewhere on the machine built before
# this fix stalls too: each hang is kept as short as the test allows.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# ends DISK CMD...: runs CMD and waits (300 s at most, a bound on what
# would otherwise be for ever) until it has exited; its status is in $rc.
# A kiln held by a thread in the disk's sleep never exits: then DISK is
# resumed so that the test can end, and this fails.
ends () {
	ends_d=$1
	shift
	rm -f "$TEST_TMP/rc"
	{ "$@"; echo $? >"$TEST_TMP/rc"; } &
	ends_n=0
	# The bound only tells a hang (forever) from an end: 300 s, as
	# test_wait_for's, far above what a loaded machine needs.
	while [ ! -s "$TEST_TMP/rc" ] && [ $ends_n -lt 3000 ]; do
		sleep 0.1
		ends_n=$((ends_n + 1))
	done
	if [ ! -s "$TEST_TMP/rc" ]; then
		echo "did not exit while the disk hung: $*"
		lying "$ends_d" resume
		wait
		return 1
	fi
	wait
	rc=$(cat "$TEST_TMP/rc")
}

verdicts () {
	json_get "$1/result.json" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])"
}

make_lying x 32M && make_loop ok 32M
X=$(basename "$x")

test_expect_success 'a hung loop device elsewhere: a file is burnt, PASS, and the note names it' '
	lying "$x" hang all &&
	ends "$x" "$KILN" burn --size 8M --deadline 3 --out "$TEST_TMP/f" \
		"$TEST_TMP/new.img" >"$TEST_TMP/f.out" 2>&1 &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/f.out"; false; }; } &&
	[ "$(verdicts "$TEST_TMP/f")" = PASS ] &&
	grep_in "$X does not answer" "$TEST_TMP/f.out" &&
	! grep_in "stalled" "$TEST_TMP/f.out"
'

test_expect_success 'a hung loop device elsewhere: kiln probe of a healthy one classes it' '
	lying "$x" hang all &&
	ends "$x" "$KILN" probe --deadline 10 "$ok" >"$TEST_TMP/p.out" 2>&1 &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/p.out"; false; }; } &&
	grep_in "$ok: blank" "$TEST_TMP/p.out" &&
	grep_in "$X does not answer" "$TEST_TMP/p.out"
'

# kiln discover lists loop devices: the hung one is itself a disk that
# does not answer, and may say so; no other disk stalls for it.
# The machine's other disks are not this test's: on a busy or shared
# machine another's may be slow or hung itself. What holds is that the
# hung one stalls none of ours: $ok, classed beside it, is not stalled.
test_expect_success 'a hung loop device elsewhere: kiln discover stalls no disk' '
	lying "$x" hang all &&
	ends "$x" "$KILN" discover --json --deadline 10 >"$TEST_TMP/d.out" 2>"$TEST_TMP/d.err" &&
	lying "$x" resume &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/d.out" "$TEST_TMP/d.err"; false; }; } &&
	json_get "$TEST_TMP/d.out" "\" \".join(x[\"name\"] for x in d[\"disks\"] if \"stalled\" in json.dumps(x))" >"$TEST_TMP/d.stalled" &&
	echo "stalled: $(cat "$TEST_TMP/d.stalled")" &&
	test_eq "$(json_get "$TEST_TMP/d.out" "[x[\"name\"] for x in d[\"disks\"] if x[\"name\"] == \"$(basename "$ok")\"]")" \
		"['"'"'$(basename "$ok")'"'"']" "$ok discovered" &&
	! grep -qw "$(basename "$ok")" "$TEST_TMP/d.stalled"
'

test_expect_success 'a disk that hangs while it is opened and classed: FAIL, results, and kiln exits' '
	make_lying h 32M &&
	"$KILN" burn --mode write "$h" >/dev/null 2>&1 &&
	lying "$h" hang &&
	ends "$h" "$KILN" burn --deadline 3 --out "$TEST_TMP/h" "$h" "$ok" \
		>"$TEST_TMP/h.out" 2>&1 &&
	[ "$(lying_get "$h" hang)" = on ] &&
	lying "$h" resume &&
	{ [ "$rc" = 1 ] || { cat "$TEST_TMP/h.out"; false; }; } &&
	[ "$(verdicts "$TEST_TMP/h")" = "FAIL PASS" ] &&
	grep_in "stalled: no answer in 3 s while it was opened" "$TEST_TMP/h/summary.txt" &&
	test_eq "$(json_get "$TEST_TMP/h/result.json" "d[\"targets\"][0][\"name\"]")" \
		"${h##*/}" "the stalled target'"'"'s name"
'

test_expect_success 'a disk that hangs at its flush: FAIL, results, and kiln exits' '
	make_lying fl 32M &&
	lying "$fl" hang at-flush &&
	ends "$fl" "$KILN" burn --deadline 3 \
		--out "$TEST_TMP/fl" "$fl" >"$TEST_TMP/fl.out" 2>&1 &&
	[ "$(lying_get "$fl" hang)" = on ] &&
	lying "$fl" resume &&
	{ [ "$rc" = 1 ] || { cat "$TEST_TMP/fl.out"; false; }; } &&
	[ "$(verdicts "$TEST_TMP/fl")" = FAIL ] &&
	grep_in "stalled" "$TEST_TMP/fl/summary.txt" &&
	[ -s "$TEST_TMP/fl/summary.txt" ]
'

test_expect_success 'a disk that hangs at the re-read of a bad unit: FAIL, results, and kiln exits' '
	make_lying rr 32M &&
	"$KILN" burn --mode write "$rr" >/dev/null 2>&1 &&
	lying "$rr" drop on && lying "$rr" hang at-read 4096 &&
	ends "$rr" "$KILN" burn --deadline 3 --out "$TEST_TMP/rr" "$rr" \
		>"$TEST_TMP/rr.out" 2>&1 &&
	[ "$(lying_get "$rr" hang)" = on ] &&
	lying "$rr" resume &&
	{ [ "$rc" = 1 ] || { cat "$TEST_TMP/rr.out"; false; }; } &&
	[ "$(verdicts "$TEST_TMP/rr")" = FAIL ] &&
	grep_in "stalled" "$TEST_TMP/rr/summary.txt"
'

test_done
