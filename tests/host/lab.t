#!/bin/sh
# needs: kiln
# A burn handed to a lab's servers as it goes: Debian's nginx serving
# boot/nginx-kiln.conf takes the run folder by PUT, Debian's Pushgateway
# takes the gauges. Every file arrives whole (compared with the run folder
# byte for byte), the gauges say the run is over with its verdict, and
# result.json says where the files went. A server that is down is said
# and recorded and never fails the burn; a bad URL is exit 2, nothing
# touched. Targets are files: no root needed.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"

[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"
[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
command -v python3 >/dev/null 2>&1 || test_skip_all "needs python3"

servers_nginx || test_bail "nginx did not start with boot/nginx-kiln.conf"
servers_pushgateway || test_bail "the Pushgateway did not start"
UP="$NGINX_URL/kiln-results/"

# field FILE EXPR: a Python expression on the document j of a JSON file.
field () {
	python3 -c "import json, sys; j = json.load(open(sys.argv[1]))
print($2)" "$1"
}

# same_tree A B: every file of run folder A is in B with the same bytes,
# but its two checkpoints: on the server those are progress/'s, each
# under a name of its own.
same_tree () {
	n=0
	for f in "$1"/*; do
		case ${f##*/} in checkpoint-*) continue ;; esac
		cmp "$f" "$2/${f##*/}" || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 5 ]
}

# on_server RUN: the run folder RUN's folder on the server, <machine
# id>/<RUN>-<run id>, in $srv.
on_server () {
	srv="$NGINX_ROOT/$(field "$TEST_TMP/$1/result.json" "j[\"machine_id\"]")/$1-$(field "$TEST_TMP/$1/result.json" "j[\"run_id\"]")"
}

test_expect_success 'the run folder arrives whole under <machine id>/<run folder>/' '
	{ "$KILN" burn --size 8M --passes 2 --checkpoint 1 --interval 1 \
		--upload "$UP" --metrics "$GW/" --out "$TEST_TMP/run1" \
		"$TEST_TMP/a.img" "$TEST_TMP/b.img" >"$TEST_TMP/o1" 2>&1
	  test $? = 0; } &&
	machine=$(field "$TEST_TMP/run1/result.json" "j[\"machine_id\"]") &&
	[ -n "$machine" ] && on_server run1 && rid=${srv##*-} &&
	same_tree "$TEST_TMP/run1" "$srv" &&
	grep_in "kiln: results go to $UP$machine/run1-$rid/ as the run goes" \
		"$TEST_TMP/o1" &&
	grep_in "kiln: every file is at $UP$machine/run1-$rid/" "$TEST_TMP/o1" &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"upload\"][\"not_arrived\"]")" = "[]" ] &&
	[ -e "$srv/samples.csv" ] && [ -e "$srv/ocptv.jsonl" ] &&
	! grep -q "HTTP 412" "$TEST_TMP/o1"
'

test_expect_success 'the Pushgateway holds the run over, its verdict and each disk' '
	gw_fetch m1 &&
	gw_sample m1 kiln_run_state 1 job=kiln "machine=$machine" &&
	gw_sample m1 kiln_run_verdict 0 job=kiln "machine=$machine" &&
	gw_sample m1 kiln_disk_verdict 0 "machine=$machine" disk=a.img &&
	gw_sample m1 kiln_disk_written_bytes 16777216 "machine=$machine" \
		disk=b.img &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"metrics\"][\"failures\"]")" = 0 ] &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"metrics\"][\"pushes\"] >= 1")" = True ]
'

test_expect_success 'names that differ only in bytes that are not UTF-8 stay two series' '
	ff=$(printf "$TEST_TMP/\\377.img") && fe=$(printf "$TEST_TMP/\\376.img") &&
	{ "$KILN" burn --size 4M --interval 1 --metrics "$GW/" --out "$TEST_TMP/odd" \
		"$ff" "$fe" >"$TEST_TMP/odd.out" 2>&1; test $? = 0; } &&
	[ "$(field "$TEST_TMP/odd/result.json" \
		"j[\"lab\"][\"metrics\"][\"failures\"]")" = 0 ] &&
	gw_fetch m3 &&
	gw_sample m3 kiln_disk_verdict 0 "machine=$machine" "disk=\\\\xff.img" &&
	gw_sample m3 kiln_disk_verdict 0 "machine=$machine" "disk=\\\\xfe.img"
'

test_expect_success 'a failing disk: its verdict at the gateway, its files on the server' '
	printf "x" | dd of="$TEST_TMP/a.img" bs=1 seek=409600 conv=notrunc \
		2>/dev/null &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/run1" \
		--upload "$UP" --metrics "$GW/" --out "$TEST_TMP/run2" \
		"$TEST_TMP/a.img" "$TEST_TMP/b.img" >"$TEST_TMP/o2" 2>&1
	  test $? = 1; } &&
	on_server run2 && same_tree "$TEST_TMP/run2" "$srv" &&
	gw_fetch m2 &&
	gw_sample m2 kiln_run_verdict 2 job=kiln "machine=$machine" &&
	gw_sample m2 kiln_disk_verdict 2 "machine=$machine" disk=a.img &&
	gw_sample m2 kiln_disk_verdict 0 "machine=$machine" disk=b.img
'

test_expect_success 'two runs given the same --out name: two folders on the server, neither replaced' '
	mkdir -p "$TEST_TMP/x" "$TEST_TMP/y" &&
	"$KILN" burn --size 4M --upload "$UP" --out "$TEST_TMP/x/same" \
		"$TEST_TMP/s1.img" >"$TEST_TMP/ox" 2>&1 &&
	"$KILN" burn --size 4M --upload "$UP" --out "$TEST_TMP/y/same" \
		"$TEST_TMP/s2.img" >"$TEST_TMP/oy" 2>&1 &&
	r1=$(field "$TEST_TMP/x/same/result.json" "j[\"run_id\"]") &&
	r2=$(field "$TEST_TMP/y/same/result.json" "j[\"run_id\"]") &&
	[ "$r1" != "$r2" ] &&
	cmp "$TEST_TMP/x/same/result.json" "$NGINX_ROOT/$machine/same-$r1/result.json" &&
	cmp "$TEST_TMP/y/same/result.json" "$NGINX_ROOT/$machine/same-$r2/result.json" &&
	! grep -q "HTTP 412" "$TEST_TMP/ox" "$TEST_TMP/oy" &&
	[ ! -e "$NGINX_ROOT/$machine/same" ]
'

# kiln fleet's latest run of a machine is the one that started last, by
# the second, then by folder name: the upload folders here are named by
# the test (run1-, same-, prog-), so a run started in the same second as
# the one before would lose to it by name on a fast machine. The clock is
# let pass into a new second first (a state, not a wait of some length).
test_expect_success 'progress goes under new names each checkpoint; kiln fleet reads the newest' '
	s=$(date +%s) && test_wait_for "[ \$(date +%s) != $s ]" &&
	{ "$KILN" burn --size 8M --duration 1h --checkpoint 1 --interval 1 \
		--upload "$UP" --out "$TEST_TMP/prog" "$TEST_TMP/p.img" \
		>"$TEST_TMP/op" 2>&1 & } &&
	pid=$! && checkpointed "$TEST_TMP/prog" 4 &&
	rid=$(python3 -c "import sys, re
print(re.search(r\"kiln burn: run ([0-9a-f]{16})\", open(sys.argv[1]).read()).group(1))" "$TEST_TMP/op") &&
	p="$NGINX_ROOT/$machine/prog-$rid/progress" &&
	test_wait_for "[ -e \"$p/checkpoint-000004.json\" ]" &&
	test_wait_for "[ -e \"$p/summary-000004.txt\" ]" &&
	kill -9 $pid && { wait $pid; true; } &&
	python3 - "$p" <<-\PY &&
	import os, re, sys
	# A checkpoint still queued when a newer came is sent as the newer
	# (upload.c), so which names arrived depends on how fast the machine is:
	# more than one, and each is whole and says its own number.
	names = [n for n in os.listdir(sys.argv[1]) if re.fullmatch(r"checkpoint-[0-9]{6}\.json", n)]
	assert len(names) >= 2, names
	for n in names:
	    with open(os.path.join(sys.argv[1], n)) as f:
	        head = f.readline()
	    seq = re.match(r"\{\"kiln_checkpoint\": 1, \"seq\": ([0-9]+),", head)
	    assert seq and int(seq.group(1)) == int(n[11:17]), (n, head)
	PY
	! grep -q "HTTP 412" "$TEST_TMP/op" &&
	! grep -q "never arrived" "$TEST_TMP/op" &&
	last=$(ls "$p" | sed -n "s/^checkpoint-0*\([0-9]*\)\.json\$/\1/p" | sort -n | tail -1) &&
	"$KILN" fleet --out "$TEST_TMP/fl" "$NGINX_ROOT" >"$TEST_TMP/ofl" 2>&1 &&
	python3 - "$TEST_TMP/fl/fleet.csv" "prog-$rid" "$last" <<-\PY
	import csv, sys
	rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["folder"].endswith(sys.argv[2])]
	assert rows, "no row of %s in %s: %s" % (sys.argv[2], sys.argv[1], open(sys.argv[1]).read()[:2000])
	assert rows[0]["checkpoint"] == sys.argv[3], (rows[0]["checkpoint"], sys.argv[3])
	PY
'

test_expect_success 'servers that are down: said, recorded, the burn passes' '
	dead="http://127.0.0.1:$(free_port)" &&
	{ timeout 300 "$KILN" burn --size 4M --upload "$dead/kiln-results/" \
		--metrics "$dead/" --out "$TEST_TMP/run3" \
		"$TEST_TMP/c.img" >"$TEST_TMP/o3" 2>&1
	  test $? = 0; } &&
	grep_in "connection refused" "$TEST_TMP/o3" &&
	grep_in "never arrived at $dead/kiln-results/" "$TEST_TMP/o3" &&
	[ "$(field "$TEST_TMP/run3/result.json" \
		"len(j[\"lab\"][\"upload\"][\"not_arrived\"]) > 3")" = True ] &&
	[ "$(field "$TEST_TMP/run3/result.json" \
		"j[\"lab\"][\"metrics\"][\"pushes\"]")" = 0 ] &&
	[ "$(field "$TEST_TMP/run3/result.json" "j[\"verdict\"]")" = PASS ]
'

test_expect_success 'bad lab URLs: exit 2, nothing created' '
	{ "$KILN" burn --size 4M --upload "ftp://lab/kiln-results/" \
		--out "$TEST_TMP/run4" "$TEST_TMP/d.img" 2>"$TEST_TMP/e4"
	  test $? = 2; } &&
	grep_in "'"'"'ftp://'"'"' is not supported" "$TEST_TMP/e4" &&
	{ "$KILN" burn --size 4M --ca "$TEST_TMP/no-such-ca.pem" \
		--upload "https://lab/kiln-results/" \
		--out "$TEST_TMP/run4" "$TEST_TMP/d.img" 2>"$TEST_TMP/e7"
	  test $? = 2; } &&
	grep_in "cannot read ca $TEST_TMP/no-such-ca.pem" "$TEST_TMP/e7" &&
	{ "$KILN" burn --size 4M --upload "$UP" "$TEST_TMP/d.img" \
		2>"$TEST_TMP/e5"; test $? = 2; } &&
	grep_in "give --out DIR too" "$TEST_TMP/e5" &&
	{ "$KILN" burn --size 4M --metrics "http://:9091/" \
		--out "$TEST_TMP/run4" "$TEST_TMP/d.img" 2>"$TEST_TMP/e6"
	  test $? = 2; } &&
	[ ! -e "$TEST_TMP/run4" ] && [ ! -e "$TEST_TMP/d.img" ]
'

test_done
