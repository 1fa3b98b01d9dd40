#!/bin/sh
# needs: kiln kiln-tsan
# The host burn tests again, run by the tester built with ThreadSanitizer:
# the workers write what the main thread reads (counters, snapshots, the
# pass list) while checkpoints, the table and stall checks run, and a race
# there is a wrong verdict some day. Each test file is one test here: it
# passes when it passes under TSan and TSan reported nothing.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
tsan="$TOP/out/tests/kiln-tsan"
[ -x "$tsan" ] || test_bail "$tsan is not built: run make check"

for t in burn-clean burn-faults burn-safety end; do
	test_expect_success "$t.t runs clean under ThreadSanitizer" '
		rm -f "$TEST_TMP"/tsan.* &&
		KILN_UNDER_TEST=$tsan \
		TSAN_OPTIONS="log_path=$TEST_TMP/tsan exitcode=66 halt_on_error=1" \
			sh "$TOP/tests/host/$t.t" >"$TEST_TMP/$t.tap" 2>&1;
		code=$?
		if ls "$TEST_TMP"/tsan.* >/dev/null 2>&1; then
			cat "$TEST_TMP"/tsan.*
			return 1
		fi
		[ $code = 0 ] || { cat "$TEST_TMP/$t.tap"; return 1; }
	'
done

test_done
