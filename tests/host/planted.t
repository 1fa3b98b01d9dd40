#!/bin/sh
# needs: kiln
# Files kiln writes as root never follow a link planted in their place:
# a symbolic link at summary.txt.tmp, fleet.csv.tmp, result.json.tmp or
# checkpoint-b.json (a run folder, a fleet output folder, an --out folder
# that others could write) leaves the link's target as it was, whichever
# command writes there. A results folder others can write is refused by
# kiln burn and said by the commands that write into an existing one.
. "$(dirname "$0")/../lib/tap.sh"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# victim NAME: a file no kiln command may write, and its checksum.
victim () {
	printf 'not kiln'"'"'s: %s\n' "$1" >"$TEST_TMP/$1" &&
	eval "sum_$1=\$(md5sum <\"\$TEST_TMP/$1\")"
}

# intact NAME: the victim still holds what it held.
intact () {
	eval "want=\$sum_$1"
	got=$(md5sum <"$TEST_TMP/$1")
	[ "$got" = "$want" ] || {
		echo "# $TEST_TMP/$1 was written through a link:"
		sed -e 's/^/# /' "$TEST_TMP/$1" | head -5
		return 1
	}
}

test_expect_success 'a run to report on' '
	"$KILN" burn --out "$TEST_TMP/run" --size 4M "$TEST_TMP/r.img" \
		>/dev/null 2>&1 &&
	[ -s "$TEST_TMP/run/result.json" ]
'

test_expect_success 'kiln report: a link at summary.txt.tmp is not followed' '
	victim v1 &&
	ln -s "$TEST_TMP/v1" "$TEST_TMP/run/summary.txt.tmp" &&
	ln -s "$TEST_TMP/v1" "$TEST_TMP/run/report.html.tmp" &&
	"$KILN" report "$TEST_TMP/run" >"$TEST_TMP/o" 2>&1 &&
	intact v1 && [ ! -L "$TEST_TMP/run/summary.txt" ] &&
	grep_in "kiln" "$TEST_TMP/run/summary.txt"
'

test_expect_success 'kiln report: summary.txt itself a link is replaced, not followed' '
	victim v2 && rm -f "$TEST_TMP/run/summary.txt" &&
	ln -s "$TEST_TMP/v2" "$TEST_TMP/run/summary.txt" &&
	"$KILN" report "$TEST_TMP/run" >"$TEST_TMP/o" 2>&1 &&
	intact v2 && [ ! -L "$TEST_TMP/run/summary.txt" ]
'

test_expect_success 'kiln fleet: a link at fleet.csv.tmp is not followed' '
	mkdir -p "$TEST_TMP/lab/m1" && cp -r "$TEST_TMP/run" "$TEST_TMP/lab/m1/" &&
	mkdir "$TEST_TMP/page" && victim v3 &&
	ln -s "$TEST_TMP/v3" "$TEST_TMP/page/fleet.csv.tmp" &&
	ln -s "$TEST_TMP/v3" "$TEST_TMP/page/fleet.html.tmp" &&
	"$KILN" fleet --out "$TEST_TMP/page" "$TEST_TMP/lab" >"$TEST_TMP/o" 2>&1 &&
	intact v3 && [ -s "$TEST_TMP/page/fleet.csv" ] &&
	[ ! -L "$TEST_TMP/page/fleet.csv" ]
'

test_expect_success 'kiln fleet: an output folder others can write is said' '
	mkdir -m 0777 "$TEST_TMP/open" && chmod 0777 "$TEST_TMP/open" &&
	"$KILN" fleet --out "$TEST_TMP/open" "$TEST_TMP/lab" >"$TEST_TMP/o" 2>&1 &&
	grep_in "$TEST_TMP/open is writable by others" "$TEST_TMP/o"
'

test_expect_success 'kiln finish: a link at result.json.tmp is not followed' '
	"$KILN" burn --checkpoint 1 --duration 1h --out "$TEST_TMP/cut" \
		--size 8M "$TEST_TMP/c.img" >/dev/null 2>&1 &
	pid=$! && checkpointed "$TEST_TMP/cut" 2 && kill -9 $pid &&
	{ wait $pid; true; } && victim v4 &&
	ln -s "$TEST_TMP/v4" "$TEST_TMP/cut/result.json.tmp" &&
	ln -s "$TEST_TMP/v4" "$TEST_TMP/cut/summary.txt.tmp" &&
	ln -s "$TEST_TMP/v4" "$TEST_TMP/cut/report.html.tmp" &&
	{ "$KILN" finish "$TEST_TMP/cut" >"$TEST_TMP/o" 2>&1; test $? = 4; } &&
	intact v4 && [ ! -L "$TEST_TMP/cut/result.json" ] &&
	json_get "$TEST_TMP/cut/result.json" "d[\"state\"]" >/dev/null
'

test_expect_success 'kiln burn: a link planted at checkpoint-b.json is not followed' '
	"$KILN" burn --checkpoint 1 --duration 1h --out "$TEST_TMP/b" \
		--size 8M "$TEST_TMP/b.img" >/dev/null 2>&1 &
	pid=$! && checkpointed "$TEST_TMP/b" 1 && victim v5 &&
	rm -f "$TEST_TMP/b/checkpoint-b.json" &&
	ln -s "$TEST_TMP/v5" "$TEST_TMP/b/checkpoint-b.json" &&
	ln -s "$TEST_TMP/v5" "$TEST_TMP/b/result.json.tmp" &&
	checkpointed "$TEST_TMP/b" 4 && kill -INT $pid && { wait $pid; true; } &&
	intact v5 && [ ! -L "$TEST_TMP/b/checkpoint-b.json" ] &&
	[ -s "$TEST_TMP/b/result.json" ] && [ ! -L "$TEST_TMP/b/result.json" ]
'

test_expect_success 'kiln burn: an --out folder others can write is refused, exit 2' '
	mkdir "$TEST_TMP/w" && chmod 0777 "$TEST_TMP/w" &&
	{ "$KILN" burn --out "$TEST_TMP/w" --size 4M "$TEST_TMP/w.img" \
		>"$TEST_TMP/o" 2>&1; test $? = 2; } &&
	grep_in "$TEST_TMP/w is writable by others" "$TEST_TMP/o" &&
	[ -z "$(ls -A "$TEST_TMP/w")" ] && [ ! -e "$TEST_TMP/w.img" ]
'

test_expect_success 'kiln discover --expect-out a link: refused, exit 2, its target unchanged' '
	mkdir -p "$TEST_TMP/sys" && victim v6 &&
	ln -s "$TEST_TMP/v6" "$TEST_TMP/expect.cfg" &&
	{ "$KILN" discover --sysfs-root "$TEST_TMP/sys" \
		--expect-out "$TEST_TMP/expect.cfg" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	grep_in "a symbolic link: nothing written" "$TEST_TMP/o" && intact v6
'

test_expect_success 'kiln report and kiln finish say a run folder others can write' '
	chmod 0777 "$TEST_TMP/run" &&
	"$KILN" report "$TEST_TMP/run" >"$TEST_TMP/o" 2>&1 &&
	grep_in "$TEST_TMP/run is writable by others" "$TEST_TMP/o" &&
	chmod 0755 "$TEST_TMP/run" &&
	"$KILN" report "$TEST_TMP/run" >"$TEST_TMP/o" 2>&1 &&
	! grep -q "writable by others" "$TEST_TMP/o" &&
	"$KILN" burn --checkpoint 1 --duration 1h --out "$TEST_TMP/cut2" \
		--size 8M "$TEST_TMP/c2.img" >/dev/null 2>&1 &
	pid=$! && checkpointed "$TEST_TMP/cut2" 2 && kill -9 $pid &&
	{ wait $pid; true; } && chmod 0777 "$TEST_TMP/cut2" &&
	{ "$KILN" finish "$TEST_TMP/cut2" >"$TEST_TMP/o" 2>&1; test $? = 4; } &&
	grep_in "$TEST_TMP/cut2 is writable by others" "$TEST_TMP/o"
'

test_expect_success 'in /dev/shm and /var/tmp too: links at every temporary, a chain of them' '
	for base in /dev/shm /var/tmp; do
		w=$(mktemp -d "$base/kiln-planted-results-XXXXXX") &&
		test_at_exit "rm -rf '"'"'$w'"'"'" &&
		cp -r "$TEST_TMP/run" "$w/run" && rm -f "$w/run/"*.tmp &&
		printf "victim\n" >"$w/victim" &&
		ln -s "$w/victim" "$w/hop" &&
		ln -s "$w/hop" "$w/run/summary.txt.tmp" &&
		ln -s "$w/hop" "$w/run/report.html.tmp" &&
		ln -s "$w/hop" "$w/run/result.json.tmp" &&
		"$KILN" report "$w/run" >"$TEST_TMP/o" 2>&1 &&
		mkdir "$w/page" && ln -s "$w/hop" "$w/page/fleet.csv.tmp" &&
		ln -s "$w/hop" "$w/page/fleet.html.tmp" &&
		"$KILN" fleet --out "$w/page" "$w/run" >"$TEST_TMP/o" 2>&1 &&
		[ "$(cat "$w/victim")" = victim ] &&
		[ -s "$w/page/fleet.csv" ] && [ ! -L "$w/page/fleet.csv" ] || return 1
	done
'

test_done
