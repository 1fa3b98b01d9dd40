#!/bin/sh
# needs: kiln
# kiln run's settings from the lab server (lab=URL), against Debian's real
# nginx on a free port of 127.0.0.1: the machine's own file
# (LAB/config/<machine id>.cfg), else default.cfg, read after kiln.cfg and
# before the kernel command line (which still wins), each key's source
# said; its bad lines are bad settings naming the URL and the line (exit
# 2, NOT STARTED on the stick); keys the init reads before kiln starts
# (settle, net) and lab itself cannot come from there; a server that does
# not answer is said and the run goes on (lab-config=optional), or is NOT
# STARTED, exit 3 (required). No disk is touched: every run here stops at
# its settings or matches no disk (include=NOSUCHDISK*).
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"

[ "$(id -u)" = 0 ] || test_skip_all "kiln run reads /dev/kmsg and every disk: needs root"
[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"

servers_nginx || test_bail "nginx did not start"
# The upload root is what nginx serves: the lab's config/ goes there.
CFG="$NGINX_ROOT/config"
mkdir -p "$CFG" "$TEST_TMP/stick"
LAB="$NGINX_URL/kiln-results/"
KILN_RUN="$KILN run --results $TEST_TMP/stick"

# run NAME CMDLINE: kiln run with that kernel command line, bounded; its
# output in NAME.out, its exit in NAME.rc.
run () {
	printf '%s\n' "$2" >"$TEST_TMP/$1.cmdline"
	timeout 300 $KILN_RUN --cmdline "$TEST_TMP/$1.cmdline" \
		>"$TEST_TMP/$1.out" 2>&1
	echo $? >"$TEST_TMP/$1.rc"
}

test_expect_success 'setup: the lab serves files under its upload root' '
	printf "x\n" >"$NGINX_ROOT/probe" &&
	python3 -c "import urllib.request,sys; sys.exit(urllib.request.urlopen(sys.argv[1]).read() != b\"x\n\")" \
		"$NGINX_URL/kiln-results/probe"
'

test_expect_success 'the machine'"'"'s own file: read after kiln.cfg, before the command line' '
	printf "countdown=9\nmax-detail=5\n" >"$TEST_TMP/stick/kiln.cfg" &&
	printf "# the lab\nmode=read\ncountdown=7\nmax-detail=6\nuplod=http://x/\n" >"$CFG/LABM1.cfg" &&
	printf "mode=read\n" >"$CFG/default.cfg" &&
	run own "kiln.lab=$LAB kiln.machine-id=LABM1 kiln.stress=off kiln.countdown=0" &&
	test_eq "$(cat "$TEST_TMP/own.rc")" 2 "exit" &&
	grep_in "settings from the lab server: ${LAB}config/LABM1.cfg" "$TEST_TMP/own.out" &&
	grep -Eq "^  mode +read +lab server\$" "$TEST_TMP/own.out" &&
	grep -Eq "^  countdown +0 +kernel command line\$" "$TEST_TMP/own.out" &&
	grep -Eq "^  max-detail +6 +lab server\$" "$TEST_TMP/own.out" &&
	grep_in "bad setting: ${LAB}config/LABM1.cfg line 5: unknown setting '"'"'uplod'"'"'" "$TEST_TMP/own.out" &&
	summary=$(find "$TEST_TMP/stick" -name summary.txt -newer "$TEST_TMP/own.cmdline") &&
	grep_in "NOT STARTED: bad settings" "$summary" &&
	grep_in "LABM1.cfg line 5" "$summary"
'

test_expect_success 'no file of its own: default.cfg; settle and lab cannot come from it' '
	rm -f "$TEST_TMP/stick/kiln.cfg" &&
	printf "mode=read\nsettle=30\nlab=http://elsewhere/\n" >"$CFG/default.cfg" &&
	run dflt "kiln.lab=$LAB kiln.machine-id=LABM2 kiln.stress=off kiln.countdown=0" &&
	test_eq "$(cat "$TEST_TMP/dflt.rc")" 2 "exit" &&
	grep_in "settings from the lab server: ${LAB}config/default.cfg" "$TEST_TMP/dflt.out" &&
	grep_in "default.cfg line 2: '"'"'settle'"'"' cannot come from the lab server (the init reads it before kiln starts)" "$TEST_TMP/dflt.out" &&
	grep_in "default.cfg line 3: '"'"'lab'"'"' cannot come from the lab server" "$TEST_TMP/dflt.out"
'

test_expect_success 'neither there: said, and the run goes on with the stick'"'"'s settings' '
	rm -f "$CFG/default.cfg" &&
	run none "kiln.lab=$LAB kiln.machine-id=LABM3 kiln.stress=off kiln.countdown=0 kiln.include=NOSUCHDISK*" &&
	grep_in "lab server $LAB has no settings for this machine" "$TEST_TMP/none.out" &&
	grep_in "nothing to test" "$TEST_TMP/none.out" &&
	test_eq "$(cat "$TEST_TMP/none.rc")" 1 "exit (nothing tested)"
'

test_expect_success 'a server that does not answer, lab-config=optional: said, the run goes on' '
	port=$(free_port) &&
	run down "kiln.lab=http://127.0.0.1:$port/ kiln.machine-id=LABM4 kiln.stress=off kiln.countdown=0 kiln.include=NOSUCHDISK*" &&
	grep_in "lab server: cannot fetch http://127.0.0.1:$port/config/LABM4.cfg" "$TEST_TMP/down.out" &&
	grep_in "nothing to test" "$TEST_TMP/down.out" &&
	test_eq "$(cat "$TEST_TMP/down.rc")" 1 "exit (nothing tested)" &&
	run=$(find "$TEST_TMP/stick" -name result.json -newer "$TEST_TMP/down.cmdline" | head -n 1) &&
	grep -q "lab server: cannot fetch" "$run"
'

test_expect_success 'lab-config=required and no answer: NOT STARTED on the stick, exit 3' '
	port=$(free_port) &&
	run req "kiln.lab=http://127.0.0.1:$port/ kiln.lab-config=required kiln.machine-id=LABM5 kiln.stress=off kiln.countdown=0" &&
	test_eq "$(cat "$TEST_TMP/req.rc")" 3 "exit" &&
	grep_in "not starting: lab-config=required" "$TEST_TMP/req.out" &&
	summary=$(find "$TEST_TMP/stick/kiln-results/LABM5" -name summary.txt) &&
	grep_in "NOT STARTED: lab server: cannot fetch http://127.0.0.1:$port/config/LABM5.cfg" "$summary"
'

test_expect_success 'the lab'"'"'s expect file for this machine: its differences FAIL the machine' '
	rm -f "$CFG"/*.cfg &&
	printf "memory=9999G\n" >"$CFG/LABM6.expect" &&
	printf "memory=1G\n" >"$CFG/default.expect" &&
	run exp "kiln.lab=$LAB kiln.machine-id=LABM6 kiln.stress=off kiln.countdown=0 kiln.include=NOSUCHDISK*" &&
	grep_in "the expected machine from the lab server: ${LAB}config/LABM6.expect" "$TEST_TMP/exp.out" &&
	grep_in "machine FAIL: memory: expected 9999 GiB, found" "$TEST_TMP/exp.out" &&
	run=$(find "$TEST_TMP/stick/kiln-results/LABM6" -name result.json | head -n 1) &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); e=d[\"expect\"]; sys.exit(not (e[\"file\"].endswith(\"config/LABM6.expect\") and \"9999\" in e[\"differences\"][0]))" "$run"
'

test_expect_success 'no expect file of its own: default.expect; one that does not parse is a bad setting' '
	printf "cpus=two\n" >"$CFG/default.expect" &&
	run expd "kiln.lab=$LAB kiln.machine-id=LABM7 kiln.stress=off kiln.countdown=0 kiln.include=NOSUCHDISK*" &&
	test_eq "$(cat "$TEST_TMP/expd.rc")" 2 "exit" &&
	grep_in "bad setting: expect: ${LAB}config/default.expect line 1" "$TEST_TMP/expd.out" &&
	summary=$(find "$TEST_TMP/stick/kiln-results/LABM7" -name summary.txt) &&
	grep_in "NOT STARTED: bad settings" "$summary" &&
	rm -f "$CFG"/*.expect
'

test_expect_success 'a bad lab URL is a bad setting, exit 2' '
	run badurl "kiln.lab=ftp://x/ kiln.stress=off kiln.countdown=0" &&
	test_eq "$(cat "$TEST_TMP/badurl.rc")" 2 "exit" &&
	grep_in "bad setting: bad value for lab:" "$TEST_TMP/badurl.out" &&
	! grep -q "lab server" "$TEST_TMP/badurl.out"
'

test_done
