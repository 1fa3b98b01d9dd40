#!/bin/sh
# needs: kiln
# kiln burn on regular files, for anyone (no root, no loop devices): the
# shipped binary is static; a missing file is created with --size and
# burnt; kiln's own data is written again; an existing foreign file needs
# consent, and consent is never taken from a flag word or a target named
# 0; a mistyped device is never created under /dev; writes draw a fresh
# run id and a verify reads its record; the results folder and its
# figures keep their promises.
. "$(dirname "$0")/../lib/tap.sh"

M=1048576

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

sum_of () {
	md5sum <"$1" | cut -d' ' -f1
}

sha () {
	sha256sum <"$1" | cut -d' ' -f1
}

# refused WHAT ARGS...: kiln exits 2 with one line naming WHAT.
refused () {
	what=$1
	shift
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ $code = 2 ] || { echo "exit $code, want 2"; cat "$TEST_TMP/out" "$TEST_TMP/err"; return 1; }
	grep -q -- "$what" "$TEST_TMP/err" || { echo "want '$what':"; cat "$TEST_TMP/err"; return 1; }
}

# results_in DIR: the run's folder has a result.json that parses.
results_in () {
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1/result.json"
}

# From the cases of burn-clean.t that need no root.

test_expect_success 'out/kiln is one static binary' '
	file "$TOP/out/kiln" >"$TEST_TMP/file" &&
	grep_in "statically linked" "$TEST_TMP/file"
'

test_expect_success 'a missing file is created with --size and burnt in' '
	"$KILN" burn --size 8M "$TEST_TMP/a.img" --out "$TEST_TMP/f" \
		>"$TEST_TMP/f.out" 2>&1 &&
	[ "$(stat -c %s "$TEST_TMP/a.img")" = 8388608 ] &&
	grep_in "kiln burn: PASS, 1 target" "$TEST_TMP/f/summary.txt"
'

test_expect_success 'a file that holds kiln data is written again' '
	"$KILN" burn "$TEST_TMP/a.img" >"$TEST_TMP/f2.out" 2>&1 &&
	grep_in "kiln-data" "$TEST_TMP/f2.out"
'

# From the cases of burn-safety.t that need no root.

test_expect_success 'an existing foreign file is refused without --destroy-data' '
	head -c 4194304 /dev/urandom >"$TEST_TMP/foreign" &&
	before=$(sum_of "$TEST_TMP/foreign") &&
	{ "$KILN" burn "$TEST_TMP/foreign" >"$TEST_TMP/o" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "refusing to write $TEST_TMP/foreign" "$TEST_TMP/e" &&
	grep_in "destroy-data" "$TEST_TMP/e" &&
	[ "$(sum_of "$TEST_TMP/foreign")" = "$before" ]
'

test_expect_success '... read without it, and written with it' '
	"$KILN" burn --mode read "$TEST_TMP/foreign" >"$TEST_TMP/o" 2>&1 &&
	[ "$(sum_of "$TEST_TMP/foreign")" = "$before" ] &&
	"$KILN" burn --destroy-data "$TEST_TMP/foreign" >"$TEST_TMP/o" 2>&1 &&
	[ "$(sum_of "$TEST_TMP/foreign")" != "$before" ]
'

# From the cases of consent.t that need no root.

test_expect_success 'a file: --destroy-data 0, no and --json 0 are no consent, no target' '
	head -c 4194304 /dev/urandom >"$TEST_TMP/data.img" &&
	s=$(sha "$TEST_TMP/data.img") && cd "$TEST_TMP" &&
	for words in "--destroy-data 0" "--destroy-data no" "--destroy-data off" \
		"--json 0 --destroy-data false"; do
		refused "refusing to write data.img" burn $words --size 1M data.img ||
			return 1
		[ ! -e 0 ] && [ ! -e no ] && [ ! -e off ] && [ ! -e false ] || return 1
	done &&
	cd "$TEST_TMP" && [ "$(sha "$TEST_TMP/data.img")" = "$s" ]
'

test_expect_success 'a mistyped device is never created under /dev' '
	refused "no such device (kiln never creates a file under /dev)" \
		burn --size 1M /dev/kiln-no-such-disk &&
	[ ! -e /dev/kiln-no-such-disk ]
'

# From the cases of evidence.t that need no root.

test_expect_success 'a writing run refuses a given run id (exit 2)' '
	for mode in write-verify write; do
		{ "$KILN" burn --mode $mode --run-id 6b696c6e --size 1M \
			"$TEST_TMP/r.img" 2>"$TEST_TMP/e"; test $? = 2; } || return 1
		grep_in "run-id is only for mode verify" "$TEST_TMP/e" || return 1
	done &&
	[ ! -e "$TEST_TMP/r.img" ]
'

test_expect_success 'two writes of one file never share a run id' '
	"$KILN" burn --mode write --size 4M --json "$TEST_TMP/f.img" \
		>"$TEST_TMP/a.json" 2>/dev/null &&
	"$KILN" burn --mode write --json "$TEST_TMP/f.img" >"$TEST_TMP/b.json" \
		2>/dev/null &&
	[ "$(json_get "$TEST_TMP/a.json" "d[\"run_id\"]")" != \
	  "$(json_get "$TEST_TMP/b.json" "d[\"run_id\"]")" ]
'

test_expect_success 'verify --from a file run: PASS, and it says which pass' '
	"$KILN" burn --mode write --passes 3 --out "$TEST_TMP/w" "$TEST_TMP/f.img" \
		>/dev/null 2>&1 &&
	"$KILN" burn --mode verify --from "$TEST_TMP/w" --out "$TEST_TMP/v" \
		>"$TEST_TMP/v.out" 2>&1 &&
	grep_in "pass 3 of run $(json_get "$TEST_TMP/w/result.json" "d[\"run_id\"]") from $TEST_TMP/w" \
		"$TEST_TMP/v.out" &&
	[ "$(json_get "$TEST_TMP/v/result.json" "d[\"targets\"][0][\"verified_pass\"]")" = 3 ] &&
	[ "$(json_get "$TEST_TMP/v/result.json" "d[\"verdict\"]")" = PASS ]
'

test_expect_success 'verify --from with --run-id, or from another mode, is refused' '
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" --run-id 12 \
		2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "not both" "$TEST_TMP/e" &&
	{ "$KILN" burn --from "$TEST_TMP/w" "$TEST_TMP/f.img" 2>"$TEST_TMP/e"
	  test $? = 2; } &&
	grep_in "--from is for --mode verify" "$TEST_TMP/e" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/nowhere" 2>"$TEST_TMP/e"
	  test $? = 2; } &&
	grep_in "cannot read the run record" "$TEST_TMP/e"
'

test_expect_success 'a target that is not in the record is refused' '
	"$KILN" burn --size 4M "$TEST_TMP/other.img" >/dev/null 2>&1 &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w" "$TEST_TMP/other.img" \
		2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "is not in the run record of $TEST_TMP/w" "$TEST_TMP/e"
'

test_expect_success 'verify without a record says what it cannot see' '
	id=$(json_get "$TEST_TMP/w/result.json" "d[\"run_id\"]") &&
	{ "$KILN" burn --mode verify --run-id "$id" "$TEST_TMP/f.img" \
		>"$TEST_TMP/o" 2>&1; test $? = 0; } &&
	grep_in "verified without the run record (--from RUN_DIR): a shrunk disk or a lost pass cannot be seen" \
		"$TEST_TMP/o"
'

# From the cases of results.t that need no root.

test_expect_success 'an --out that holds files is refused (exit 2), nothing written' '
	"$KILN" burn --size 4M --out "$TEST_TMP/used" "$TEST_TMP/u.img" >/dev/null 2>&1 &&
	s=$(md5sum <"$TEST_TMP/u.img") &&
	{ "$KILN" burn --out "$TEST_TMP/used" "$TEST_TMP/u.img" 2>"$TEST_TMP/e"
	  test $? = 2; } &&
	grep_in "is not empty" "$TEST_TMP/e" &&
	[ "$(md5sum <"$TEST_TMP/u.img")" = "$s" ] &&
	mkdir "$TEST_TMP/empty" &&
	"$KILN" burn --out "$TEST_TMP/empty" "$TEST_TMP/u.img" >/dev/null 2>&1 &&
	results_in "$TEST_TMP/empty"
'

test_expect_success 'two files with one name keep their bad units apart' '
	mkdir -p "$TEST_TMP/a" "$TEST_TMP/b" &&
	"$KILN" burn --mode write --size 4M --out "$TEST_TMP/w2n" \
		"$TEST_TMP/a/disk.img" "$TEST_TMP/b/disk.img" >/dev/null 2>&1 &&
	for d in a b; do
		python3 "$TOP/tests/lib/poke.py" "$TEST_TMP/$d/disk.img" flip 5000 1 ||
			return 1
	done &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w2n" --out "$TEST_TMP/v2n" \
		>/dev/null 2>&1; test $? = 1; } &&
	[ -e "$TEST_TMP/v2n/bad-unit-disk.img-4096.read" ] &&
	[ -e "$TEST_TMP/v2n/bad-unit-disk.img-2-4096.read" ] &&
	grep_in "disk.img-2" "$TEST_TMP/v2n/summary.txt"
'

test_expect_success 'long names are not cut in the table' '
	"$KILN" burn --size 4M --out "$TEST_TMP/n" "$TEST_TMP/burn-slot-01.img" \
		"$TEST_TMP/burn-slot-02.img" >/dev/null 2>&1 &&
	grep -q "^burn-slot-01.img$" "$TEST_TMP/n/summary.txt" &&
	grep -q "^burn-slot-02.img$" "$TEST_TMP/n/summary.txt"
'

test_expect_success 'SIGHUP ends a run like SIGTERM: results written, exit 4' '
	{ "$KILN" burn --size 256M --passes 1000 --max-writes 0 --out "$TEST_TMP/hup" \
		"$TEST_TMP/hup.img" >/dev/null 2>&1 & } &&
	pid=$! && under_way "$TEST_TMP/hup" && kill -HUP $pid && { wait $pid; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/hup/result.json" "d[\"state\"]")" = interrupted ]
'

test_expect_success 'a closed stdout ends a run like SIGTERM: results written, exit 4' '
	mkfifo "$TEST_TMP/pipe" &&
	{ "$KILN" burn --interval 1 --size 256M --passes 1000 --max-writes 0 \
		--out "$TEST_TMP/pipe.out" "$TEST_TMP/p.img" >"$TEST_TMP/pipe" \
		2>/dev/null & } &&
	pid=$! && head -n 2 <"$TEST_TMP/pipe" >/dev/null &&
	{ wait $pid; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/pipe.out/result.json" "d[\"state\"]")" = interrupted ]
'

test_expect_success 'an interrupted run: its last line says stopped, figures hold' '
	{ "$KILN" burn --interval 1 --size 256M --passes 1000 --max-writes 0 \
		--out "$TEST_TMP/i" "$TEST_TMP/i.img" >"$TEST_TMP/i.out" 2>&1 & } &&
	pid=$! && under_way "$TEST_TMP/i" 4 && kill -INT $pid && { wait $pid; test $? = 4; } &&
	grep " stopped 1/1 " "$TEST_TMP/i.out" && ! grep -q " done 1/1 " "$TEST_TMP/i.out" &&
	python3 - "$TEST_TMP/i/result.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	for t in d["targets"]:
	    for name, p in t["phases"].items():
	        if p["min_mbps"] is not None:
	            assert p["min_mbps"] <= p["avg_mbps"] <= p["max_mbps"], (name, p)
	PY
'

test_expect_success 'samples.csv: never two rows of one target at one time' '
	s="$TEST_TMP/i/samples.csv" &&
	[ "$(tail -n +2 "$s" | cut -d, -f1,2 | sort | uniq -d | wc -l)" = 0 ] &&
	[ "$(tail -n +2 "$s" | wc -l)" -ge 3 ]
'

test_expect_success 'checkpoints keep to their period' '
	python3 - "$TEST_TMP/i" <<-\PY
	import glob, json, sys
	seqs = [json.load(open(f))["seq"] for f in glob.glob(sys.argv[1] + "/checkpoint-*.json")]
	assert max(seqs) >= 2, seqs
	PY
'

test_expect_success 'a quick span too small for three pieces is refused' '
	{ "$KILN" burn --span quick:4k "$TEST_TMP/i.img" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "three pieces" "$TEST_TMP/e"
'

# odd_names RESULT DIR: result.json is UTF-8 JSON, and names its two
# targets as other readers see them: DIR/\xff.img (the byte 0xff, escaped
# as the text \xff) and DIR/ÿ.img (U+00FF, as it is).
cat >"$TEST_TMP/odd_names.py" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
paths = sorted(t["path"] for t in d["targets"])
want = sorted([sys.argv[2] + "/\\xff.img", sys.argv[2] + "/\u00ff.img"])
assert paths == want, (paths, want)
ids = [t["identity"] for t in d["targets"]]
assert any(i.endswith("/\\xff.img") for i in ids), ids
assert any(i.endswith("/\u00ff.img") for i in ids), ids
PY

test_expect_success 'a name with a byte that is not UTF-8: \xNN in result.json, found again' '
	mkdir "$TEST_TMP/odd" &&
	odd="$TEST_TMP/odd/$(printf "\377").img" &&
	utf="$TEST_TMP/odd/$(printf "\303\277").img" &&
	"$KILN" burn --mode write --size 4M --out "$TEST_TMP/ow" "$odd" "$utf" \
		>"$TEST_TMP/ow.out" 2>&1 &&
	python3 "$TEST_TMP/odd_names.py" "$TEST_TMP/ow/result.json" "$TEST_TMP/odd" &&
	"$KILN" burn --mode verify --from "$TEST_TMP/ow" --out "$TEST_TMP/ov" \
		>"$TEST_TMP/ov.out" 2>&1 &&
	python3 "$TEST_TMP/odd_names.py" "$TEST_TMP/ov/result.json" "$TEST_TMP/odd" &&
	[ "$(json_get "$TEST_TMP/ov/result.json" "d[\"verdict\"]")" = PASS ] &&
	"$KILN" burn --mode verify --from "$TEST_TMP/ow" --out "$TEST_TMP/ov1" \
		"$odd" >"$TEST_TMP/ov1.out" 2>&1 &&
	[ "$(json_get "$TEST_TMP/ov1/result.json" "d[\"verdict\"]")" = PASS ]
'

test_done
