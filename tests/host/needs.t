#!/bin/sh
# needs: kiln
# A host test builds only what it runs: each file's "# needs:" line names
# the programs it runs (kiln is out/kiln, any other name out/tests/NAME),
# `make test T=FILE` builds those alone, and make check-host builds every
# file's. The line is held to the file: every out/tests/NAME it names,
# and the lying disk when it calls need_lying, so a file that starts
# using a program cannot forget to say so. make is asked with -n, into an
# out/ of the test's own: what it would build on a clean clone.
. "$(dirname "$0")/../lib/tap.sh"

# What a file runs, by the rule above, sorted.
uses () {
	{
		echo kiln
		grep -o 'out/tests/[a-z0-9-]*' "$1" | sed 's|out/tests/||'
		grep -q need_lying "$1" && echo lyingdisk
	} | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# The plan make -n gives for ARGS on a clean out/ (MAKEFLAGS dropped: a
# make test around this file would hand its T= down).
plan () {
	rm -rf "$TEST_TMP/out" &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -n -C "$TOP" OUT="$TEST_TMP/out" "$@" >"$TEST_TMP/plan" 2>&1
}

test_expect_success 'every host test says what it runs, on one "# needs:" line' '
	bad= &&
	for f in "$TOP"/tests/host/*.t; do
		# This file names them all as the words it checks for.
		[ "$(basename "$f")" = needs.t ] && continue
		n=$(grep -c "^# needs: " "$f")
		said=$(sed -n "s/^# needs: //p" "$f" | tr " " "\n" | sort -u |
			tr "\n" " " | sed "s/ $//")
		want=$(uses "$f")
		[ "$n" = 1 ] && [ "$said" = "$want" ] ||
			bad="$bad $(basename "$f") (says \"$said\", runs \"$want\")"
	done &&
	test_eq "$bad" "" "files whose needs line is not what they run"
'

test_expect_success 'make test T=tests/host/init.t builds the tester and no sanitized one' '
	plan test T=tests/host/init.t &&
	grep_in "$TEST_TMP/out/musl/" "$TEST_TMP/plan" &&
	! grep -q "$TEST_TMP/out/tsan/\|kiln-tsan" "$TEST_TMP/plan" &&
	! grep -q "$TEST_TMP/out/host/\|kiln-asan" "$TEST_TMP/plan" ||
	{ grep "tsan\|asan\|/host/" "$TEST_TMP/plan" | head -5; false; }
'

test_expect_success 'a file that names kiln-tsan gets it; check-host gets every file'"'"'s' '
	plan test T=tests/host/tsan.t &&
	grep_in "$TEST_TMP/out/tests/kiln-tsan" "$TEST_TMP/plan" &&
	! grep -q "lyingdisk" "$TEST_TMP/plan" &&
	plan check-host &&
	for p in kiln-asan kiln-tsan lyingdisk httpput metricspush ocptv; do
		grep_in "$TEST_TMP/out/tests/$p" "$TEST_TMP/plan" || return 1
	done
'

test_done
