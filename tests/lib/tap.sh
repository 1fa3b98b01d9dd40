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
#
# Options, as git's t/README has them (prove passes them after ::, e.g.
# prove -v tests/host/guard.t :: -v -i, or run the file: sh FILE -v):
#	-v, --verbose	show every test's output, not only a failure's
#	-x, --trace	trace each test's commands (set -x) into its output
#	-i, --immediate	stop at the first test that fails
#	--run=LIST	run only these tests (1,3-5); the rest say "# SKIP"
#			(a test that sets up for a later one must be named too)

# A test runs in its TEST_TMP, so what a command leaves in its working
# folder (kiln burn's ./kiln-results without --out) never lands in the
# tree. Run again by its absolute path first: the libraries it sources
# after this one are found from $0.
case $0 in
/*) ;;
*) exec /bin/sh "$PWD/$0" "$@" ;;
esac

test_verbose=
test_trace=
test_immediate=
test_run=
for test_arg in "$@"; do
	case $test_arg in
	-v | --verbose) test_verbose=1 ;;
	-x | --trace) test_trace=1 ;;
	-i | --immediate) test_immediate=1 ;;
	--run=*) test_run=${test_arg#--run=} ;;
	esac
done

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
	if [ -n "$test_trace" ]; then
		set -x
		eval "$1"
		set +x -- $?
		return "$1"
	fi
	eval "$1"
}

# Whether test N is in --run's list (all are without it).
test_selected_ () {
	[ -z "$test_run" ] && return 0
	printf '%s\n' "$test_run" | tr ',' '\n' | {
		while IFS=- read -r lo hi; do
			[ -n "$lo" ] && [ "$1" -ge "$lo" ] &&
				[ "$1" -le "${hi:-$lo}" ] && exit 1
		done
		exit 0
	}
	[ $? = 1 ]
}

test_expect_success () {
	test_count=$((test_count + 1))
	if ! test_selected_ "$test_count"; then
		printf 'ok %d # SKIP not in --run=%s\n' "$test_count" "$test_run"
		return 0
	fi
	if test_eval_ "$2" >"$test_log" 2>&1; then
		printf 'ok %d - %s\n' "$test_count" "$1"
		[ -z "$test_verbose" ] || sed -e 's/^/#   /' "$test_log"
	else
		printf 'not ok %d - %s\n' "$test_count" "$1"
		sed -e 's/^/#   /' "$test_log"
		test_failed=$((test_failed + 1))
		if [ -n "$test_immediate" ]; then
			printf 'Bail out! test %d failed (-i)\n' "$test_count"
			exit 1
		fi
	fi
}

# test_expect_todo WHY 'what' 'commands': a known breakage, as git's
# test_expect_failure: run like any test, but TAP's "# TODO WHY" (the
# issue that fixes it) keeps its failure from failing the file, and prove
# says when it passes (the fix landed: make it test_expect_success).
test_expect_todo () {
	test_count=$((test_count + 1))
	if ! test_selected_ "$test_count"; then
		printf 'ok %d # SKIP not in --run=%s\n' "$test_count" "$test_run"
		return 0
	fi
	if test_eval_ "$3" >"$test_log" 2>&1; then
		printf 'ok %d - %s # TODO %s\n' "$test_count" "$2" "$1"
		[ -z "$test_verbose" ] || sed -e 's/^/#   /' "$test_log"
	else
		printf 'not ok %d - %s # TODO %s\n' "$test_count" "$2" "$1"
		sed -e 's/^/#   /' "$test_log"
	fi
}

# test_eq ACTUAL EXPECTED [WHAT]: fails, printing both sides, when they
# differ, so a test that fails under load says what it saw.
test_eq () {
	[ "$1" = "$2" ] && return 0
	printf "test_eq: %s'%s', expected '%s'\n" "${3:+$3: }" "$1" "$2"
	return 1
}

# test_wait_for 'CONDITION': polls the shell condition every tenth of a
# second until it holds. The wait is for an event, never a guessed delay;
# its bound (300 s, far above any loaded machine's need) only keeps a test
# whose event never comes from holding the suite, and says what it was.
test_wait_for () {
	test_wait_i=0
	until eval "$1"; do
		test_wait_i=$((test_wait_i + 1))
		if [ $test_wait_i -ge 3000 ]; then
			echo "test_wait_for: 300 s and still not: $1"
			return 1
		fi
		sleep 0.1
	done
}

# burn_rows DIR: the samples a burn into DIR has written (one a second,
# from its loop: the rows of samples.csv past the header).
burn_rows () {
	[ -e "$1/samples.csv" ] || { echo 0; return; }
	echo $(( $(wc -l <"$1/samples.csv") - 1 ))
}

# under_way DIR [ROWS]: waits until the burn into DIR has run ROWS
# seconds (default 1) by its own samples, so a signal or a fault the test
# sends next meets a running burn however slowly the machine started it.
under_way () {
	test_wait_for "[ \$(burn_rows \"$1\") -ge ${2:-1} ]"
}

# checkpointed DIR SEQ: waits until the burn into DIR has written its
# checkpoint number SEQ (the first, 1, is written before the burn; with
# --checkpoint 1 one follows each second of it).
checkpointed () {
	test_wait_for "grep -hoq '\"seq\": \\([$2-9]\\|[1-9][0-9]\\)' \"$1\"/checkpoint-*.json 2>/dev/null"
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
