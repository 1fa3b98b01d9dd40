#!/bin/sh
# needs: kiln
# Every command reads its options with the one parser and the one key
# table: kiln CMD --help is that command's own usage, listing every key it
# takes; kiln settings lists every key with its default and help; the
# grammar is DESIGN.md's (flag words, no prefixes, a value named when
# missing); keys the init reads (net) stop no run.
. "$(dirname "$0")/../lib/tap.sh"

test_expect_success 'each command --help is its own usage' '
	for c in burn discover probe run settings; do
		"$KILN" $c --help >"$TEST_TMP/$c.help" || return 1
		grep_in "usage: kiln $c " "$TEST_TMP/$c.help" || return 1
	done &&
	grep_in "  --countdown VALUE" "$TEST_TMP/run.help" &&
	! grep -q -- "--countdown" "$TEST_TMP/burn.help" &&
	grep_in "  --size VALUE" "$TEST_TMP/burn.help" &&
	! grep -q -- "--size" "$TEST_TMP/run.help" &&
	grep_in "  --sysfs-root VALUE" "$TEST_TMP/discover.help" &&
	grep_in "  --json" "$TEST_TMP/probe.help"
'

test_expect_success 'every key kiln settings lists is in a usage, with its help' '
	"$KILN" settings >"$TEST_TMP/all" &&
	grep -v "^ " "$TEST_TMP/all" | cut -d" " -f1 >"$TEST_TMP/keys" &&
	[ "$(wc -l <"$TEST_TMP/keys")" -ge 27 ] &&
	while read -r k; do
		cat "$TEST_TMP/run.help" "$TEST_TMP/burn.help" |
			grep -q -- "^  --$k\( VALUE\)\?$" ||
			{ echo "--$k is in no usage"; return 1; }
	done <"$TEST_TMP/keys"
'

test_expect_success 'kiln settings: each key with its value, source, default and help' '
	grep -q "^passes  *1  *default$" "$TEST_TMP/all" &&
	grep_in "passes to make; each writes a new pass number" "$TEST_TMP/all" &&
	grep_in "default 2 on flash" "$TEST_TMP/all"
'

test_expect_success 'discover --json=0 is the tree, --json=1 the document' '
	"$KILN" discover --json=0 >"$TEST_TMP/tree" &&
	grep_in "kiln discover:" "$TEST_TMP/tree" &&
	"$KILN" discover --json=yes >"$TEST_TMP/inv.json" &&
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TEST_TMP/inv.json"
'

test_expect_success 'no prefix matching; a missing value is named' '
	{ "$KILN" discover --protectX /dev/null 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "unknown option '\''--protectX'\''" "$TEST_TMP/e" &&
	{ "$KILN" run --cmdline /dev/null --results >"$TEST_TMP/e" 2>&1
	  test $? = 2; } &&
	grep_in "--results needs a value" "$TEST_TMP/e"
'

test_expect_success 'kiln settings checks every key: bad values exit 2' '
	for bad in "--bs 3k" "--duration 5S" "--duration 1h30" "--duration 1d1d" \
		"--span quick:4k" "--qd 0"; do
		{ "$KILN" settings $bad >/dev/null 2>"$TEST_TMP/e"; test $? = 2; } ||
			{ echo "$bad: not refused"; return 1; }
		grep_in "bad value" "$TEST_TMP/e" || return 1
	done
'

test_expect_success 'kiln.net=1 on the kernel command line is a setting, not an error' '
	printf "quiet kiln.net=1 kiln.countdown=0\n" >"$TEST_TMP/cmdline" &&
	"$KILN" settings --cmdline "$TEST_TMP/cmdline" --get net >"$TEST_TMP/v" &&
	[ "$(cat "$TEST_TMP/v")" = 1 ] &&
	"$KILN" settings --cmdline "$TEST_TMP/cmdline" >/dev/null
'

test_expect_success 'a command line file is read whole; a missing one is an error' '
	{ head -c 9000 /dev/zero | tr "\\0" x; echo " kiln.passes=3"; } \
		>"$TEST_TMP/long" &&
	[ "$("$KILN" settings --cmdline "$TEST_TMP/long" --get passes)" = 3 ] &&
	{ "$KILN" settings --cmdline "$TEST_TMP/none" >/dev/null \
		2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "cannot read $TEST_TMP/none: No such file" "$TEST_TMP/e" &&
	{ head -c 70000 /dev/zero | tr "\\0" x; } >"$TEST_TMP/huge" &&
	{ "$KILN" settings --cmdline "$TEST_TMP/huge" >/dev/null \
		2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "not a kernel command line" "$TEST_TMP/e"
'

test_expect_success 'a FIFO or a folder given as kiln.cfg is an error, never a hang' '
	mkfifo "$TEST_TMP/fifo" &&
	{ timeout 20 "$KILN" settings --config "$TEST_TMP/fifo" \
		--cmdline "$TEST_TMP/fifo" >/dev/null; test $? != 124; } &&
	{ "$KILN" settings --config "$TEST_TMP" --cmdline /dev/null \
		>/dev/null 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "cannot read $TEST_TMP: Is a directory" "$TEST_TMP/e"
'

test_expect_success 'kiln run with a bad setting exits 2 before discovery' '
	printf "bs=3k\n" >"$TEST_TMP/kiln.cfg" &&
	mkdir "$TEST_TMP/stick" &&
	{ "$KILN" run --config "$TEST_TMP/kiln.cfg" --cmdline /dev/null \
		--results "$TEST_TMP/stick" >"$TEST_TMP/o" 2>&1; test $? = 2; } &&
	grep_in "bad setting: bad value for bs: 3k (want" "$TEST_TMP/o" &&
	summary=$(find "$TEST_TMP/stick" -name summary.txt) &&
	grep_in "NOT STARTED: bad settings" "$summary"
'

# The commands kiln help lists: each one is in main.c's table, and its
# start is the table's: --help, an unknown option, too few or too many
# targets. How many targets a command takes is what its usage says: a
# word left once the [optional] parts are gone is a target it needs.
"$KILN" help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' >"$TEST_TMP/commands"

# one_line CODE PATTERN FILE: exit CODE, and FILE one line matching it.
one_line () {
	[ "$code" = "$1" ] || { echo "exit $code, want $1"; cat "$3"; return 1; }
	[ "$(wc -l <"$3")" = 1 ] || { echo "want one line:"; cat "$3"; return 1; }
	grep -q "^kiln: .*$2" "$3" || { echo "want '$2':"; cat "$3"; return 1; }
}

# kiln run says its problems on every console (stdout) and on the stick,
# then stops: one line names the problem there. --mode read: were the
# words taken, nothing would be written.
try () {
	c=$1
	shift
	if [ "$c" = run ]; then
		"$KILN" run --cmdline /dev/null --mode read "$@" \
			>"$TEST_TMP/out" 2>"$TEST_TMP/err"
		code=$?
		[ ! -s "$TEST_TMP/err" ] || { echo "run: stderr:"; cat "$TEST_TMP/err"; return 1; }
		grep "^kiln: bad setting: " "$TEST_TMP/out" >"$TEST_TMP/err"
	else
		"$KILN" "$c" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
		code=$?
	fi
}

test_expect_success 'kiln help lists every command of the table' '
	[ "$(tr "\n" " " <"$TEST_TMP/commands")" = \
	  "burn discover finish fleet locate probe report run settings version " ]
'

test_expect_success 'every command: --help is its usage, exit 0' '
	while read -r c; do
		"$KILN" $c --help >"$TEST_TMP/help" 2>"$TEST_TMP/err" ||
			{ echo "$c --help: exit $?"; return 1; }
		grep -q "^usage: kiln $c\( \|$\)" "$TEST_TMP/help" ||
			{ echo "$c: no usage"; return 1; }
		[ ! -s "$TEST_TMP/err" ] || { echo "$c: stderr"; return 1; }
	done <"$TEST_TMP/commands"
'

test_expect_success 'every command: an unknown option is exit 2, one line' '
	while read -r c; do
		try $c --no-such-option
		one_line 2 "unknown option .--no-such-option. (try kiln $c --help)" \
			"$TEST_TMP/err" || { echo "kiln $c"; return 1; }
	done <"$TEST_TMP/commands"
'

test_expect_success 'every command: too few or too many targets is exit 2, one line' '
	while read -r c; do
		"$KILN" $c --help >"$TEST_TMP/help"
		words=$(sed -n "s/^usage: kiln $c//p" "$TEST_TMP/help" |
			sed "s/\[[^]]*\]\(\.\.\.\)\{0,1\}//g" | tr -d " ")
		if [ -n "$words" ]; then
			try $c
			one_line 2 "no .* given (try kiln $c --help)" \
				"$TEST_TMP/err" || { echo "kiln $c"; return 1; }
		else
			try $c extra-word
			one_line 2 "kiln $c takes no targets: .extra-word." \
				"$TEST_TMP/err" || { echo "kiln $c"; return 1; }
		fi
	done <"$TEST_TMP/commands"
'

test_expect_success 'kiln version: the version, and --version the same' '
	"$KILN" version >"$TEST_TMP/v1" &&
	"$KILN" --version >"$TEST_TMP/v2" &&
	grep -q "^kiln ." "$TEST_TMP/v1" &&
	cmp "$TEST_TMP/v1" "$TEST_TMP/v2"
'

test_done
