#!/bin/sh
# runone.sh FILE [ARGS]: runs one test file under a timeout, as prove's
# interpreter (make check: prove -e 'sh tests/lib/runone.sh'), the way
# liburing's test/runtests.sh does: a file that hangs says "timed out"
# and ends, with everything it started, instead of holding the suite.
# The limit is by area (unit 300 s, host 900 s, e2e 1800 s) unless
# KILN_TEST_TIMEOUT says otherwise.
t=$1
shift
case $t in
*/unit/*) limit=300 ;;
*/host/*) limit=900 ;;
*) limit=1800 ;;
esac
limit=${KILN_TEST_TIMEOUT:-$limit}
# timeout puts the file in a process group of its own and signals it
# whole: kiln, QEMU and the servers a test started end with it.
# A unit test is its C file (tests/unit/NAME.c): make builds it into
# out/tests/NAME with ASan and UBSan, and its TAP goes straight to prove.
case $t in
*/unit/*.c)
	bin="$(cd "$(dirname "$0")/../.." && pwd)/out/tests/$(basename "$t" .c)"
	if [ ! -x "$bin" ]; then
		echo "Bail out! $bin is not built: run make check-unit"
		exit 1
	fi
	set -- "$bin" "$@"
	;;
*) set -- sh "$t" "$@" ;;
esac
timeout -k 20 "$limit" "$@"
rc=$?
# Said on stderr, which prove shows: a Bail out! would stop the suite.
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "$t: timed out after $limit s (KILN_TEST_TIMEOUT)" >&2
fi
exit "$rc"
