# tap.sh: TAP for kiln's shell tests, in the shape of git's test-lib:
#
#	. "$(dirname "$0")/../lib/tap.sh"
#	test_expect_success 'what the behaviour is' '
#		commands that must all succeed
#	'
#	test_done
#
# The commands run in this shell (so setup can set variables), chained with
# && as in git's tests: the test passes when the chain does. Their output is
# kept in a log that is shown, commented, when they fail.

# A test runs in its TEST_TMP, so what a command leaves in its working
# folder (kiln burn's ./kiln-results without --out) never lands in the
# tree. Run again by its absolute path first: the libraries it sources
# after this one are found from $0.
case $0 in
/*) ;;
*) exec /bin/sh "$PWD/$0" "$@" ;;
esac

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# KILN_UNDER_TEST runs the tests against another build of the tester (the
# ThreadSanitizer one: tests/host/tsan.t).
KILN="${KILN_UNDER_TEST:-$TOP/out/kiln}"
test_count=0
test_failed=0
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/kiln-test.XXXXXX")
test_log="$TEST_TMP/.log"
cd "$TEST_TMP" || exit 1
test_cleanups=""

say () {
	printf '# %s\n' "$*"
}

# Runs at exit, last registered first.
test_at_exit () {
	test_cleanups="$1
$test_cleanups"
}

test_run_cleanups () {
	printf '%s\n' "$test_cleanups" | while IFS= read -r c; do
		[ -n "$c" ] && eval "$c" >/dev/null 2>&1
	done
	rm -rf "$TEST_TMP"
}
trap 'test_run_cleanups' EXIT
trap 'exit 130' INT TERM

# A function of its own, so "return 1" in a test's loop ends that test only.
test_eval_ () {
	eval "$1"
}

test_expect_success () {
	test_count=$((test_count + 1))
	if test_eval_ "$2" >"$test_log" 2>&1; then
		printf 'ok %d - %s\n' "$test_count" "$1"
	else
		printf 'not ok %d - %s\n' "$test_count" "$1"
		sed -e 's/^/#   /' "$test_log"
		test_failed=$((test_failed + 1))
	fi
}

test_skip () {
	test_count=$((test_count + 1))
	printf 'ok %d # SKIP %s\n' "$test_count" "$1"
}

test_skip_all () {
	printf '1..0 # SKIP %s\n' "$*"
	exit 0
}

test_bail () {
	printf 'Bail out! %s\n' "$*"
	exit 1
}

test_done () {
	printf '1..%d\n' "$test_count"
	[ "$test_failed" -eq 0 ]
}

# Fails with a message unless the file contains the fixed string.
grep_in () {
	grep -qF -- "$1" "$2" || {
		echo "expected '$1' in $2:"
		cat "$2"
		return 1
	}
}

[ -x "$KILN" ] || test_bail "$KILN is not built: run make check"
