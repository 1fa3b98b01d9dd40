#!/bin/sh
# check.sh PROVE_ARGS...: make check's runner: prove over the files given,
# each under runone.sh's timeout, then the whole run's time and its ten
# slowest files, so a suite that grows slow says where.
#
# Files run KILN_TEST_JOBS at a time (default 2, the development machine's
# cores): they share nothing. Each has its own TEST_TMP (mktemp), its
# images in /dev/shm are named by its pid, its loop devices come from
# losetup -f (the kernel hands each a free one; losetup tries again when
# another took it first), its servers bind port 0 and QEMU's guests reach
# them through user networking of their own, and no test holds or
# detaches a device it did not make (kiln discover opens each for a
# moment, which kiln's "in use" check, looking twice a second apart,
# forgives as it does udev's). Every test waits for events, never
# for a guessed time, so a busier machine makes it slower, not wrong.
# KILN_TEST_JOBS=1 runs them one by one. A failing test's output (the
# comments tap.sh prints under it) is shown, so a failure says why.
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp "${TMPDIR:-/tmp}/kiln-check.XXXXXX")
trap 'rm -f "$log" "$log.rc"' EXIT
start=$(date +%s)
{
	prove --timer --failures --comments -j "${KILN_TEST_JOBS:-2}" \
		-e "sh $top/tests/lib/runone.sh" "$@"
	echo $? >"$log.rc"
} 2>&1 | tee "$log"
rc=$(cat "$log.rc" 2>/dev/null || echo 1)
echo "check: $(( $(date +%s) - start )) s in all; the slowest files:"
sed -n 's/^\[[0-9:]*\] \([^ ]*\) \.* .* \([0-9][0-9]*\) ms .*/\2 \1/p' "$log" |
	sort -rn | head -n 10 |
	awk '{ printf "  %7.1f s  %s\n", $1 / 1000, $2 }'
exit "$rc"
