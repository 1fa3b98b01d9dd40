#!/bin/sh
# needs: kiln lyingdisk
# A dead filesystem under another loop device stalls nothing kiln tests.
# A loop device over a file on a FUSE mount (tests/lib/lyingdisk.c) whose
# daemon is stopped (SIGSTOP, as a dead NFS server) or answers nothing,
# stat included ("hang all"), with the mount under /dev/shm, /tmp and
# /var/tmp: a burn of a new file PASSes, a probe of a healthy loop device
# exits 0, and discover stalls no disk but that one; among many loop
# devices too. kiln once took every
# backing path under /dev/ (so /dev/shm too) for a device node and
# stat'ed it unbounded, so a dead disk under /dev/shm stalled them all.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# ends CMD...: runs CMD and waits (60 s at most, a bound on what would
# otherwise be for ever) until it has exited; its status is in $rc.
ends () {
	rm -f "$TEST_TMP/rc"
	{ "$@"; echo $? >"$TEST_TMP/rc"; } &
	ends_n=0
	while [ ! -s "$TEST_TMP/rc" ] && [ $ends_n -lt 600 ]; do
		sleep 0.1
		ends_n=$((ends_n + 1))
	done
	if [ ! -s "$TEST_TMP/rc" ]; then
		echo "did not exit while the disk hung: $*"
		dead_resume
		wait
		return 1
	fi
	wait
	rc=$(cat "$TEST_TMP/rc")
}

verdicts () {
	json_get "$1/result.json" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])"
}

# dead HOW: the lying disk $x stops answering: its daemon stopped, or
# "hang all". dead_resume undoes it (its daemon must go on before its ctl
# answers).
dead () {
	dead_how=$1
	case $1 in
	stop) kill -STOP "$(cat "$(lying_mnt "$x").pid")" ;;
	hang) lying "$x" hang all ;;
	esac
}

dead_resume () {
	kill -CONT "$(cat "$(lying_mnt "$x").pid")"
	lying "$x" resume
}

# The checks with $x dead: a file burnt, a healthy disk probed (each
# under the burn's shortest deadline), and with "discover", discover
# stalling no other disk. discover classes every disk of the machine at
# once, other jobs' loop devices too: its deadline is one no live disk
# needs on a loaded machine, and the dead one still never meets.
dead_checks () {
	ends "$KILN" burn --size 8M --deadline 3 --out "$TEST_TMP/f" \
		"$TEST_TMP/new.img" >"$TEST_TMP/f.out" 2>&1 &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/f.out"; false; }; } &&
	test_eq "$(verdicts "$TEST_TMP/f")" PASS "verdict" &&
	grep_in "$X does not answer" "$TEST_TMP/f.out" &&
	! grep_in "stalled" "$TEST_TMP/f.out" &&
	ends "$KILN" probe --deadline 3 "$ok" >"$TEST_TMP/p.out" 2>&1 &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/p.out"; false; }; } &&
	grep_in "$ok: blank" "$TEST_TMP/p.out" &&
	{ [ "$1" != discover ] || dead_discover; }
}

# live: the disks a discover classes in time before $x dies (another
# job's dead disk is none of them).
live () {
	"$KILN" discover --json --deadline 10 >"$TEST_TMP/live.json" 2>/dev/null
	json_get "$TEST_TMP/live.json" "\" \".join(x[\"name\"] for x in d[\"disks\"] if \"stalled\" not in json.dumps(x))" >"$TEST_TMP/live"
}

dead_discover () {
	ends "$KILN" discover --json --deadline 10 >"$TEST_TMP/d.out" 2>"$TEST_TMP/d.err" &&
	{ [ "$rc" = 0 ] || { cat "$TEST_TMP/d.out" "$TEST_TMP/d.err"; false; }; } &&
	json_get "$TEST_TMP/d.out" "\" \".join(x[\"name\"] for x in d[\"disks\"] if \"stalled\" in json.dumps(x) and x[\"name\"] in open(\"$TEST_TMP/live\").read().split())" >"$TEST_TMP/d.stalled" &&
	{ [ ! -s "$TEST_TMP/d.stalled" ] || [ "$(cat "$TEST_TMP/d.stalled")" = "$X" ] ||
		{ echo "stalled: $(cat "$TEST_TMP/d.stalled")"; false; }; }
}

make_loop ok 32M

for dir in /dev/shm /tmp /var/tmp; do
	for how in stop hang; do
		test_expect_success "a dead disk ($how) under $dir elsewhere: a file PASSes, a probe and discover stall nothing else" '
			make_lying x 32M "$dir" && X=$(basename "$x") &&
			test_at_exit "kill -CONT $(cat "$(lying_mnt "$x").pid")" &&
			rm -rf "$TEST_TMP/f" "$TEST_TMP/new.img" && live &&
			dead "$how" &&
			{ dead_checks discover; r=$?; dead_resume; return $r; }
		'
	done
done

# Many loop devices, one of them dead: every one of the others is still
# looked at, and the dead one costs one wait, not one each.
test_expect_success 'a dead disk under /dev/shm among many loop devices: a file PASSes, a probe answers' '
	i=0 && while [ $i -lt 24 ]; do
		make_loop "many$i" 1M || return 1
		i=$((i + 1))
	done &&
	make_lying x 32M /dev/shm && X=$(basename "$x") &&
	test_at_exit "kill -CONT $(cat "$(lying_mnt "$x").pid")" &&
	rm -rf "$TEST_TMP/f" "$TEST_TMP/new.img" &&
	dead stop &&
	{ dead_checks; r=$?; dead_resume; return $r; }
'

test_done
