#!/bin/sh
# needs: kiln
# The man pages and the program say one thing: the parts of docs/kiln.1
# and docs/kiln.cfg.5 that kiln's tables make (each command's usage, the
# key table, the safety decision) are what `kiln --man PART` prints now
# (make man splices them in), and both pages are clean to mandoc -T lint
# and render with man -l.
. "$(dirname "$0")/../lib/tap.sh"

command -v mandoc >/dev/null || test_skip_all "needs mandoc (scripts/deps.list)"

# part PAGE PART: the lines between the page's markers of PART.
part () {
	awk -v p="$2" '
	$0 ~ "^\\.\\\\\" END kiln --man " p "$" { on = 0 }
	on { print }
	$0 ~ "^\\.\\\\\" BEGIN kiln --man " p " " { on = 1; n++ }
	END { exit n != 1 }
	' "$TOP/docs/$1"
}

for p in kiln.1:synopsis kiln.1:commands kiln.1:safety kiln.cfg.5:keys; do
	page=${p%%:*}
	name=${p#*:}
	test_expect_success "$page's $name is what kiln --man $name prints (make man)" '
		part "$page" "$name" >"$TEST_TMP/page" &&
		"$KILN" --man "$name" >"$TEST_TMP/kiln" &&
		[ -s "$TEST_TMP/kiln" ] &&
		diff -u "$TEST_TMP/page" "$TEST_TMP/kiln"
	'
done

test_expect_success 'every command kiln help lists has its section and synopsis line' '
	"$KILN" help | sed -n "s/^  \([a-z]*\)  .*/\1/p" >"$TEST_TMP/cmds" &&
	[ "$(wc -l <"$TEST_TMP/cmds")" -ge 9 ] &&
	while read -r c; do
		grep -qx ".SS \"kiln $c\"" "$TOP/docs/kiln.1" &&
		grep -qx ".B kiln $c" "$TOP/docs/kiln.1" ||
		{ echo "no section for kiln $c"; return 1; }
	done <"$TEST_TMP/cmds"
'

test_expect_success 'kiln --man with no part or a wrong one: one line, exit 2' '
	"$KILN" --man >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	test_eq $? 2 &&
	"$KILN" --man bogus >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	test_eq $? 2 &&
	test_eq "$(wc -l <"$TEST_TMP/err")" 1 &&
	grep_in "synopsis, commands, keys or safety" "$TEST_TMP/err" &&
	[ ! -s "$TEST_TMP/out" ]
'

for page in kiln.1 kiln.cfg.5; do
	test_expect_success "mandoc -T lint is clean for docs/$page" '
		mandoc -T lint "$TOP/docs/$page" >"$TEST_TMP/lint" 2>&1
		code=$?
		cat "$TEST_TMP/lint"
		[ $code = 0 ] && [ ! -s "$TEST_TMP/lint" ]
	'
done

test_expect_success 'man -l renders both pages, every section there' '
	if ! command -v man >/dev/null; then
		say "no man(1): rendered with mandoc instead"
		render () { mandoc -T utf8 "$1"; }
	else
		render () { MANWIDTH=80 man -l "$1" 2>/dev/null; }
	fi &&
	render "$TOP/docs/kiln.1" | col -b >"$TEST_TMP/kiln.1.txt" &&
	for h in NAME SYNOPSIS DESCRIPTION COMMANDS MODES SAFETY VERDICTS \
		"EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
		grep -qx "$h" "$TEST_TMP/kiln.1.txt" ||
			{ echo "kiln.1: no $h"; return 1; }
	done &&
	grep_in "kiln burn [OPTIONS] TARGET..." "$TEST_TMP/kiln.1.txt" &&
	render "$TOP/docs/kiln.cfg.5" | col -b >"$TEST_TMP/cfg.txt" &&
	for h in NAME DESCRIPTION KEYS "THE EXPECT FILE" EXAMPLES; do
		grep -qx "$h" "$TEST_TMP/cfg.txt" ||
			{ echo "kiln.cfg.5: no $h"; return 1; }
	done &&
	grep -q "^       destroy-data$" "$TEST_TMP/cfg.txt"
'

test_done
