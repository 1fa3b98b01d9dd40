#!/bin/sh
# needs: kiln lyingdisk
# A file target on a filesystem that stops answering mid-burn (the lying
# disk's FUSE file itself, mounted under /tmp and under /dev/shm, as an
# NFS mount whose server died): kiln FAILs it as stalled within the
# deadline, then still ends, its result.json written, whether the
# filesystem stops answering everything, stat included ("hang all"), or
# its daemon is stopped (SIGSTOP). Every call after the burn that could
# reach the dead file is bounded. A file whose filesystem is dead before
# kiln starts (under /var/tmp, and named through a link in /tmp) FAILs
# as stalled before the burn, and a healthy file beside it PASSes. The
# daemon is woken and resumed in the cleanups whatever happens.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# ended N: waits (120 s at most: the deadline is 3 s) for the kiln of N
# to end, its exit in $rc, then wakes the filesystem of $m (daemon pid in
# $pidf) whatever kiln did; fails when kiln did not end.
ended () {
	n=0
	while [ ! -s "$TEST_TMP/rc$1" ] && [ $n -lt 1200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	rc=$(cat "$TEST_TMP/rc$1" 2>/dev/null)
	kill -CONT "$(cat "$pidf")"
	printf 'resume\n' >"$m/ctl"
	wait
	[ -n "$rc" ] || { echo "kiln did not end with its file's filesystem dead:"; tail -5 "$TEST_TMP/o$1"; return 1; }
}

# burn_dies N DIR HOW: burns the lying disk's file on a new mount in DIR,
# kills its filesystem HOW (hang or stop) once the burn is under way, and
# waits for kiln to end (ended).
burn_dies () {
	mount_lying m 64M "$2" || return 1
	pidf="$m.pid"
	{ "$KILN" burn --destroy-data --passes 1000 --max-writes 0 \
		--deadline 3 --checkpoint 1 --out "$TEST_TMP/r$1" "$m/disk" \
		>"$TEST_TMP/o$1" 2>&1; echo $? >"$TEST_TMP/rc$1"; } &
	under_way "$TEST_TMP/r$1" 1 || return 1
	case $3 in
	hang) printf 'hang all\n' >"$m/ctl" ;;
	stop) kill -STOP "$(cat "$pidf")" ;;
	esac
	ended "$1"
}

# failed N: exit 1, result.json written, the file FAILed as stalled.
failed () {
	test_eq "$rc" 1 "the exit" || { tail -20 "$TEST_TMP/o$1"; return 1; }
	[ -s "$TEST_TMP/r$1/result.json" ] || { echo "no result.json"; ls "$TEST_TMP/r$1"; return 1; }
	test_eq "$(json_get "$TEST_TMP/r$1/result.json" "d[\"targets\"][0][\"verdict\"]")" FAIL "the verdict" &&
	grep_in "stalled" "$TEST_TMP/r$1/summary.txt"
}

test_expect_success 'under /tmp, hang all mid-burn: FAIL, result.json, kiln ends' '
	burn_dies 1 "$TEST_TMP" hang && failed 1
'
test_expect_success 'under /dev/shm, hang all mid-burn: FAIL, result.json, kiln ends' '
	burn_dies 2 /dev/shm hang && failed 2
'
test_expect_success 'under /tmp, its daemon stopped mid-burn: FAIL, result.json, kiln ends' '
	burn_dies 3 "$TEST_TMP" stop && failed 3
'
test_expect_success 'under /dev/shm, its daemon stopped mid-burn: FAIL, result.json, kiln ends' '
	burn_dies 4 /dev/shm stop && failed 4
'
# dead_before N DIR HOW NAME: the lying disk's file on a new mount in
# DIR, its filesystem killed HOW before kiln starts, burnt beside a
# healthy file, named as NAME says (file, or link: a symlink in
# $TEST_TMP); waits for kiln to end (ended): exit 1, that file FAILed as
# stalled, the other PASSed.
dead_before () {
	mount_lying m 64M "$2" || return 1
	pidf="$m.pid"
	truncate -s 64M "$TEST_TMP/ok$1.img" || return 1
	t="$m/disk"
	if [ "$4" = link ]; then
		ln -s "$m/disk" "$TEST_TMP/link$1" && t="$TEST_TMP/link$1"
	fi
	case $3 in
	hang) printf 'hang all\n' >"$m/ctl" ;;
	stop) kill -STOP "$(cat "$pidf")" ;;
	esac
	{ "$KILN" burn --destroy-data --deadline 3 \
		--out "$TEST_TMP/r$1" "$t" "$TEST_TMP/ok$1.img" \
		>"$TEST_TMP/o$1" 2>&1; echo $? >"$TEST_TMP/rc$1"; } &
	ended "$1" || return 1
	test_eq "$rc" 1 "the exit" || { tail -20 "$TEST_TMP/o$1"; return 1; }
	test_eq "$(json_get "$TEST_TMP/r$1/result.json" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" "FAIL PASS" "the verdicts" &&
	grep_in "stalled" "$TEST_TMP/r$1/summary.txt"
}

test_expect_success 'under /var/tmp, dead before kiln starts: that file FAILs, the other PASSes' '
	dead_before 5 /var/tmp hang file
'
test_expect_success 'its daemon stopped before kiln starts, named through a link: the same' '
	dead_before 6 /dev/shm stop link
'
test_done
