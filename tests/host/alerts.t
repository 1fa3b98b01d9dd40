#!/bin/sh
# needs: kiln
# The lab's Prometheus side: boot/kiln-alerts.yml passes promtool's check
# and its unit tests (tests/fixtures/alerts: a machine that FAILed, one
# that stopped pushing mid-run and not one whose run ended, a disk over
# its limit and not its cool neighbour); boot/pushgateway-prune.sh against
# Debian's real Pushgateway deletes kiln's groups last pushed before a
# time and keeps the rest (newer ones, other jobs), says what it deletes,
# refuses bad usage (exit 2) and says a gateway that does not answer
# (exit 3).
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"

command -v promtool >/dev/null 2>&1 || test_skip_all "needs promtool (prometheus, scripts/deps.list)"
[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
command -v curl >/dev/null 2>&1 || test_skip_all "needs curl"
PRUNE="$TOP/boot/pushgateway-prune.sh"

test_expect_success 'promtool check rules: the alert rules are valid' '
	promtool check rules "$TOP/boot/kiln-alerts.yml" >"$TEST_TMP/check" 2>&1 ||
		{ cat "$TEST_TMP/check"; false; }
'

test_expect_success 'promtool test rules: each alert fires when, and only where, it should' '
	(cd "$TOP/tests/fixtures/alerts" && promtool test rules kiln-alerts.test.yml) \
		>"$TEST_TMP/test" 2>&1 || { cat "$TEST_TMP/test"; false; }
'

servers_pushgateway || test_bail "the Pushgateway did not start"

# push JOB MACHINE: a group as kiln pushes one (PUT replaces it whole).
push () {
	printf '# TYPE kiln_run_state gauge\nkiln_run_state 1\n' |
		curl -fsS -X PUT --data-binary @- "$GW/metrics/job/$1/machine/$2"
}

# groups: the job/machine of every group the gateway has, sorted.
groups () {
	curl -fsS "$GW/metrics" |
		sed -n 's/^push_time_seconds{.*job="\([^"]*\)",machine="\([^"]*\)".*/\1\/\2/p' |
		sort | tr "\n" " "
}

test_expect_success 'setup: two old kiln machines and another job, then a time, then a new one' '
	push kiln SN-OLD && push kiln SN.OLD.2 && push other SN-OLD &&
	sleep 1 && cut=$(date +%s) && sleep 1 &&
	push kiln SN-NEW &&
	test_eq "$(groups)" "kiln/SN-NEW kiln/SN-OLD kiln/SN.OLD.2 other/SN-OLD " "groups"
'

test_expect_success '--dry-run says what it would delete and deletes nothing' '
	sh "$PRUNE" --dry-run --before "$cut" "$GW" >"$TEST_TMP/dry" &&
	grep -q "^would delete SN-OLD (last push 20" "$TEST_TMP/dry" &&
	grep -q "^would delete SN.OLD.2 " "$TEST_TMP/dry" &&
	test_eq "$(wc -l <"$TEST_TMP/dry")" 2 "lines" &&
	test_eq "$(groups)" "kiln/SN-NEW kiln/SN-OLD kiln/SN.OLD.2 other/SN-OLD " "groups"
'

test_expect_success 'kiln groups pushed before the time go; newer ones and other jobs stay' '
	sh "$PRUNE" --before "$cut" "$GW" >"$TEST_TMP/pruned" &&
	grep -q "^deleted SN-OLD (last push 20" "$TEST_TMP/pruned" &&
	grep -q "^deleted SN.OLD.2 " "$TEST_TMP/pruned" &&
	test_eq "$(groups)" "kiln/SN-NEW other/SN-OLD " "groups" &&
	sh "$PRUNE" --before "$cut" "$GW" >"$TEST_TMP/again" &&
	test_eq "$(cat "$TEST_TMP/again")" "" "a second prune"
'

test_expect_success '--days: the default cut keeps what was pushed today' '
	sh "$PRUNE" --days 1 "$GW" >"$TEST_TMP/days" &&
	test_eq "$(groups)" "kiln/SN-NEW other/SN-OLD " "groups"
'

test_expect_success 'bad usage: exit 2 with a line that says why' '
	{ sh "$PRUNE" --days soon "$GW" 2>"$TEST_TMP/e1"; test $? = 2; } &&
	grep -q "not a whole number of days" "$TEST_TMP/e1" &&
	{ sh "$PRUNE" 2>"$TEST_TMP/e2"; test $? = 2; } &&
	grep -q "no Pushgateway URL" "$TEST_TMP/e2"
'

test_expect_success 'a gateway that does not answer: exit 3, said' '
	port=$(free_port) &&
	{ sh "$PRUNE" "http://127.0.0.1:$port" 2>"$TEST_TMP/e3"; test $? = 3; } &&
	grep -q "did not answer" "$TEST_TMP/e3"
'

test_done
