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

# same_tree A B: every file of run folder A is in B with the same bytes.
same_tree () {
	n=0
	for f in "$1"/*; do
		cmp "$f" "$2/${f##*/}" || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
}

test_expect_success 'the run folder arrives whole under <machine id>/<run folder>/' '
	{ "$KILN" burn --size 8M --passes 2 --checkpoint 1 --interval 1 \
		--upload "$UP" --metrics "$GW/" --out "$TEST_TMP/run1" \
		"$TEST_TMP/a.img" "$TEST_TMP/b.img" >"$TEST_TMP/o1" 2>&1
	  test $? = 0; } &&
	machine=$(field "$TEST_TMP/run1/result.json" "j[\"machine_id\"]") &&
	[ -n "$machine" ] &&
	same_tree "$TEST_TMP/run1" "$NGINX_ROOT/$machine/run1" &&
	grep_in "kiln: results go to $UP$machine/run1/ as the run goes" \
		"$TEST_TMP/o1" &&
	grep_in "kiln: every file is at $UP$machine/run1/" "$TEST_TMP/o1" &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"upload\"][\"not_arrived\"]")" = "[]" ] &&
	[ -e "$NGINX_ROOT/$machine/run1/samples.csv" ] &&
	[ -e "$NGINX_ROOT/$machine/run1/ocptv.jsonl" ]
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
	same_tree "$TEST_TMP/run2" "$NGINX_ROOT/$machine/run2" &&
	gw_fetch m2 &&
	gw_sample m2 kiln_run_verdict 2 job=kiln "machine=$machine" &&
	gw_sample m2 kiln_disk_verdict 2 "machine=$machine" disk=a.img &&
	gw_sample m2 kiln_disk_verdict 0 "machine=$machine" disk=b.img
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
