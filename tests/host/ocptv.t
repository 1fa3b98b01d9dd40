#!/bin/sh
# needs: kiln ocptv
# ocptv.jsonl held to the OCP Test & Validation schemas themselves (draft
# 2020-12, from ../shared/ocptv beside the project, $refs resolved there)
# by Debian's python3-jsonschema, every line: the runs the unit test makes
# by hand (tests/unit/ocptv.c), then real runs of kiln burn on files it
# creates (passing, damaged between a write and its verify, interrupted by
# SIGINT) once burn.c writes ocptv.jsonl into the run folder.
# OCPTV_SPEC names another copy of the spec's folder (a git worktree
# elsewhere has no ../shared).
top=$(cd "$(dirname "$0")/../.." && pwd)
SCHEMAS="${OCPTV_SPEC:-$top/../shared/ocptv}/output"
if [ ! -f "$SCHEMAS/root.json" ]; then
	printf '1..0 # SKIP no OCP schemas in %s: the OCP Test & Validation spec (ocp-diag-core'"'"'s json_spec, commit 8fae3f5) is read from ../shared/ocptv beside the project; without it run OCPTV_SPEC=SPECDIR make test T=tests/host/ocptv.t, SPECDIR holding output/root.json\n' "$SCHEMAS"
	exit 0
fi
. "$(dirname "$0")/../lib/tap.sh"

# Debian's own first: that is the package scripts/deps.list installs.
PY=""
for py in /usr/bin/python3 python3; do
	if "$py" -c 'from jsonschema import Draft202012Validator' \
		>/dev/null 2>&1; then
		PY=$py
		break
	fi
done
[ -n "$PY" ] || test_skip_all "needs python3-jsonschema (scripts/deps.list)"
UNIT="$TOP/out/tests/ocptv"
[ -x "$UNIT" ] || test_bail "$UNIT is not built: run make check"

check () {
	"$PY" "$TOP/tests/lib/ocptv.py" "$SCHEMAS" "$@"
}

test_expect_success 'the check refuses what the schemas and the spec refuse' '
	s="\"sequenceNumber\"" && t="\"timestamp\":\"2026-01-01T00:00:00Z\"" &&
	{
		printf "{\"schemaVersion\":{\"major\":2,\"minor\":0},%s:0,%s}\n" "$s" "$t"
		printf "{\"testStepArtifact\":{\"testStepId\":\"0\",\"diagnosis\":{\"verdict\":\"w\",\"type\":\"WARN\"}},%s:1,%s}\n" "$s" "$t"
		printf "{\"testStepArtifact\":{\"testStepId\":\"0\",\"measurement\":{\"name\":\"x\",\"value\":1,\"validators\":[{\"type\":\"ABOUT\",\"value\":0}]}},%s:2,%s}\n" "$s" "$t"
		printf "{\"testRunArtifact\":{\"testRunEnd\":{\"status\":\"SKIP\",\"result\":\"FAIL\"}},%s:4,\"timestamp\":\"2026-01-01 00:00\"}\n" "$s"
	} >"$TEST_TMP/bad.jsonl" &&
	! check "$TEST_TMP/bad.jsonl" >"$TEST_TMP/bad.out" &&
	cat "$TEST_TMP/bad.out" &&
	grep_in "bad.jsonl:2: schema: " "$TEST_TMP/bad.out" &&
	grep_in "bad.jsonl:3: schema: " "$TEST_TMP/bad.out" &&
	grep_in "testRunStart must come second" "$TEST_TMP/bad.out" &&
	grep_in "status SKIP with result FAIL: not allowed" "$TEST_TMP/bad.out" &&
	grep_in "sequenceNumber 4, expected 3" "$TEST_TMP/bad.out" &&
	grep_in "not an RFC 3339 date-time" "$TEST_TMP/bad.out"
'

test_expect_success 'runs made by hand: every line holds to the schemas' '
	mkdir "$TEST_TMP/unit" &&
	"$UNIT" "$TEST_TMP/unit" >"$TEST_TMP/unit.tap" &&
	cd "$TEST_TMP/unit" &&
	ls >"$TEST_TMP/unit.ls" &&
	for f in mixed warned interrupted running nothing broken machine; do
		grep -qx "$f.jsonl" "$TEST_TMP/unit.ls" || return 1
	done &&
	check mixed.jsonl warned.jsonl interrupted.jsonl nothing.jsonl \
		broken.jsonl machine.jsonl --running running.jsonl &&
	cd "$TEST_TMP"
'

# kiln burn DIR ARGS...: a run into the folder DIR; its exit in $code.
burn () {
	dir=$1
	shift
	"$KILN" burn --out "$TEST_TMP/$dir" "$@" >"$TEST_TMP/$dir.out" 2>&1
	code=$?
}

ended () {
	grep_in "\"testRunEnd\":{\"status\":\"$2\",\"result\":\"$3\"}" \
		"$TEST_TMP/$1/ocptv.jsonl"
}

burn pass --size 16M "$TEST_TMP/pass.img"
if [ ! -f "$TEST_TMP/pass/ocptv.jsonl" ]; then
	test_skip "kiln burn does not write ocptv.jsonl yet (see ocptv.h)"
	test_done
	exit
fi

test_expect_success 'a passing burn: COMPLETE, PASS, every line valid' '
	cat "$TEST_TMP/pass.out" && [ "$code" = 0 ] &&
	check "$TEST_TMP/pass/ocptv.jsonl" &&
	ended pass COMPLETE PASS &&
	grep_in "\"verdict\":\"disk-pass\",\"type\":\"PASS\"" \
		"$TEST_TMP/pass/ocptv.jsonl"
'

test_expect_success 'damage between a write and its verify: COMPLETE, FAIL' '
	burn written --mode write --size 16M "$TEST_TMP/bad.img" &&
	[ "$code" = 0 ] &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	id=$("$PY" -c "import json, sys; print(json.load(open(sys.argv[1]))[\"run_id\"])" \
		"$TEST_TMP/written/result.json") &&
	burn verified --mode verify --run-id "$id" "$TEST_TMP/bad.img" &&
	cat "$TEST_TMP/verified.out" && [ "$code" = 1 ] &&
	check "$TEST_TMP/written/ocptv.jsonl" "$TEST_TMP/verified/ocptv.jsonl" &&
	ended verified COMPLETE FAIL &&
	grep_in "\"verdict\":\"disk-fail-bad-units\",\"type\":\"FAIL\"" \
		"$TEST_TMP/verified/ocptv.jsonl" &&
	grep_in "\"name\":\"bad-units\",\"unit\":\"units\",\"hardwareInfoId\":\"1\",\"value\":3," \
		"$TEST_TMP/verified/ocptv.jsonl"
'

test_expect_success 'a burn stopped by SIGINT: SKIP, NOT_APPLICABLE' '
	{ "$KILN" burn --size 16M --passes 100000 --max-writes 0 \
		--out "$TEST_TMP/int" "$TEST_TMP/int.img" \
		>"$TEST_TMP/int.out" 2>&1 & } &&
	pid=$! &&
	under_way "$TEST_TMP/int" 2 && kill -INT "$pid" &&
	{ wait "$pid"; test $? = 4; } &&
	check "$TEST_TMP/int/ocptv.jsonl" &&
	ended int SKIP NOT_APPLICABLE &&
	grep_in "\"verdict\":\"disk-warn-stopped-before-the-end\"" \
		"$TEST_TMP/int/ocptv.jsonl" &&
	grep_in "\"testStepEnd\":{\"status\":\"SKIP\"}" "$TEST_TMP/int/ocptv.jsonl" &&
	grep_in "\"name\":\"write-throughput\",\"unit\":\"MB/s\"" \
		"$TEST_TMP/int/ocptv.jsonl"
'

test_done
