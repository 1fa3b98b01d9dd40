#!/bin/sh
# needs: kiln
# The live view: kiln burn on a terminal says a status line a second and
# a per-disk table every 10 s unless told otherwise, as vmstat and dstat
# do; into a file (a log, kiln run's serial console) it keeps 10 and 60.
# script(1) gives kiln a terminal. Lines are counted against the run's
# own length, never timed: a run of 13 s says at least 4 lines a second
# apart where one of 10 s apart would say one.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
command -v script >/dev/null 2>&1 || test_skip_all "needs script (util-linux)"

# on_tty OUT CMD...: CMD with a terminal for its output, said into OUT.
on_tty () {
	tty_out=$1
	shift
	tty_cmd=
	for a in "$@"; do
		tty_cmd="$tty_cmd '$a'"
	done
	script -qec "$tty_cmd" /dev/null >"$tty_out" 2>&1
}

# The status lines while the burn runs (its last, "done", is not one).
running () {
	tr -d '\r' <"$1" | grep -c -E "^[0-9:]+ pass [0-9-]+ "
}

tables () {
	tr -d '\r' <"$1" | grep -c " per disk: "
}

test_expect_success 'on a terminal: a status line a second, a table every 10 s' '
	make_loop l1 64M &&
	on_tty "$TEST_TMP/tty.out" "$KILN" burn --destroy-data --duration 13s \
		--max-writes 0 --out "$TEST_TMP/tty" "$l1" &&
	tr -d "\r" <"$TEST_TMP/tty.out" | grep -E "^[0-9:]+ (pass|done) " &&
	n=$(running "$TEST_TMP/tty.out") && say "status lines: $n" &&
	[ "$n" -ge 4 ] &&
	[ "$(tables "$TEST_TMP/tty.out")" -ge 1 ]
'

test_expect_success 'into a file: 10 and 60 as before, no line before the end' '
	"$KILN" burn --destroy-data --duration 3s --max-writes 0 \
		--out "$TEST_TMP/file" "$l1" >"$TEST_TMP/file.out" 2>&1 &&
	test_eq "$(running "$TEST_TMP/file.out")" 0 &&
	test_eq "$(tables "$TEST_TMP/file.out")" 0 &&
	grep -q -E "^[0-9:]+ done 1/1 " "$TEST_TMP/file.out"
'

test_expect_success 'on a terminal, intervals given are kept' '
	on_tty "$TEST_TMP/given.out" "$KILN" burn --destroy-data --duration 3s \
		--max-writes 0 --interval 10 --table-interval 60 \
		--out "$TEST_TMP/given" "$l1" &&
	test_eq "$(running "$TEST_TMP/given.out")" 0 &&
	test_eq "$(tables "$TEST_TMP/given.out")" 0
'

test_expect_success 'kiln run (kiln settings says its values) keeps 10 and 60 on a terminal' '
	on_tty "$TEST_TMP/run.out" "$KILN" settings --cmdline /dev/null \
		--config /dev/null --get interval &&
	test_eq "$(tr -d "\r" <"$TEST_TMP/run.out")" 10 &&
	on_tty "$TEST_TMP/run.out" "$KILN" settings --cmdline /dev/null \
		--config /dev/null --get table-interval &&
	test_eq "$(tr -d "\r" <"$TEST_TMP/run.out")" 60
'

test_expect_success 'many targets with long names: every line of the live view within 80 columns' '
	set -- &&
	for i in 1 2 3 4 5 6 7 8; do
		f=/var/tmp/kiln-live-$$-a-target-with-a-rather-long-name-$i &&
		test_at_exit "rm -f $f" &&
		set -- "$@" "$f" || return 1
	done &&
	"$KILN" burn --destroy-data --size 8M --duration 3s --max-writes 0 \
		--interval 1 --table-interval 1 --out "$TEST_TMP/many" "$@" \
		>"$TEST_TMP/many.out" 2>&1 &&
	grep -E "^[0-9:]+ pass [0-9-]+ write [0-9]+ read [0-9]+ MB/s " \
		"$TEST_TMP/many.out" &&
	sed -n "/ per disk: /,/^$/p" "$TEST_TMP/many.out" &&
	sed -n "/^[0-9:]* pass /,/^[0-9:]* done /p" "$TEST_TMP/many.out" \
		>"$TEST_TMP/live" &&
	test_eq "$(awk "length > 80" "$TEST_TMP/live")" "" &&
	grep -q -E "^ +[ *]~[^ ]*name-1 +[0-9]+ +[0-9]+ +[0-9]+% " "$TEST_TMP/live" &&
	! grep -E "slowest [^ ]+ [0-9]+(  |$)" "$TEST_TMP/live"
'

test_expect_success 'kiln burn --help and kiln.cfg(5) say the terminal default' '
	"$KILN" burn --help | tr -s "\n " "  " >"$TEST_TMP/help" &&
	grep_in "lines; default 10 (1 on a terminal)" "$TEST_TMP/help" &&
	grep_in "none; default 60 (10 on a terminal)" "$TEST_TMP/help" &&
	tr -s "\n " "  " <"$TOP/docs/kiln.cfg.5" >"$TEST_TMP/cfg5" &&
	grep_in "default: 10 (kiln burn on a terminal: 1)" "$TEST_TMP/cfg5" &&
	grep_in "default: 60 (kiln burn on a terminal: 10)" "$TEST_TMP/cfg5"
'

test_done
