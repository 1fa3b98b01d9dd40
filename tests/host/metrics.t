#!/bin/sh
# needs: kiln httpput metricspush
# kiln's metrics pusher against Debian's real Pushgateway, on a free port
# of 127.0.0.1, driven by tests/lib/metricspush: a run going, then over,
# read back from the gateway's /metrics (the machine's group, each disk's
# labels, PUT replacing the group whole, the verdict at the end); then a
# gateway that refuses, one that never answers (tests/lib/httpfake.py),
# and one that refuses the body, none of which may hold the burn. Every
# run of the pusher is bounded by timeout(1). Then kiln burn itself, as
# root on loop devices: while it runs the gateway's elapsed time moves,
# and at the end each disk's figures are the summary's and result.json's.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"
. "$TOP/tests/lib/host.sh"

[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
command -v python3 >/dev/null 2>&1 || test_skip_all "needs python3"
PUSH="$TOP/out/tests/metricspush"
[ -x "$PUSH" ] || test_bail "$PUSH is not built: run make check"

# push ARGS...: the pusher, bounded, its output in $out, its exit in $code.
out="$TEST_TMP/out"
push () {
	timeout 60 "$PUSH" "$@" >"$out" 2>&1
	code=$?
	cat "$out"
}

# tries_within MS: the last push gave up by itself (exit 1, not the
# 124 of the 60 s net) after at most the tries its MS leaves room for:
# one, then one a pause (1 s) later while time is left. What a loaded
# machine changes is how long each try takes, so it can only make fewer;
# waiting out a dead gateway for ever is the net's 124, and retrying past
# MS is more tries. Its time is printed, never held to a bound.
tries_within () {
	failed=$(sed -n "s/^stats: [0-9]* pushed, \([0-9]*\) failed.*/\1/p" "$out") &&
		echo "the last push: $failed tries in its $1 ms" &&
		[ "$code" = 1 ] && [ -n "$failed" ] && [ "$failed" -ge 1 ] &&
		[ "$failed" -le $(($1 / 1000 + 1)) ]
}

servers_pushgateway || test_bail "the Pushgateway did not start"

test_expect_success 'a run going: every gauge, in the machine group, each disk labelled' '
	push "$GW/" SN-1 running && [ "$code" = 0 ] &&
	grep_in "metrics: pushing to $GW/metrics/job/kiln/machine/SN-1" "$out" &&
	gw_fetch m1 &&
	for g in phase pass state written_bytes read_bytes io_errors \
		bad_units throughput_megabytes_per_second verdict; do
		gw_sample m1 "kiln_disk_$g" "*" job=kiln machine=SN-1 disk=sda &&
		gw_sample m1 "kiln_disk_$g" "*" job=kiln machine=SN-1 disk=sdb ||
			return 1
	done &&
	for g in state verdict elapsed_seconds disks info; do
		gw_sample m1 "kiln_run_$g" "*" job=kiln machine=SN-1 || return 1
	done &&
	gw_sample m1 kiln_disk_phase 1 machine=SN-1 disk=sda \
		"serial=SN \\\"A\\\" \\\\1" "model=KILN\\nDISK" \
		identity=serial:SN-A &&
	gw_sample m1 kiln_disk_temperature_celsius 38 machine=SN-1 disk=sda &&
	! gw_sample m1 kiln_disk_temperature_celsius "*" machine=SN-1 disk=sdb &&
	gw_sample m1 kiln_disk_throughput_megabytes_per_second 151.5 \
		machine=SN-1 disk=sdb serial=SN-B "model=KILN DISK" &&
	gw_sample m1 kiln_run_state 0 machine=SN-1 &&
	gw_sample m1 kiln_run_verdict 0 machine=SN-1 &&
	gw_sample m1 kiln_run_info 1 machine=SN-1 run_id=0000000000c0ffee
'

test_expect_success 'the finished push replaces the group: over, FAIL, no stale gauge' '
	push -t 10000 "$GW/" SN-1 complete && [ "$code" = 0 ] &&
	grep_in "finish: ok" "$out" &&
	gw_fetch m2 &&
	gw_sample m2 kiln_run_state 1 machine=SN-1 &&
	gw_sample m2 kiln_run_verdict 2 machine=SN-1 &&
	gw_sample m2 kiln_disk_verdict 2 machine=SN-1 disk=sdb &&
	gw_sample m2 kiln_disk_bad_units 3 machine=SN-1 disk=sdb &&
	gw_sample m2 kiln_disk_state 1 machine=SN-1 disk=sda &&
	! gw_sample m2 kiln_disk_temperature_celsius "*" machine=SN-1
'

test_expect_success 'another machine is another group; nothing is deleted' '
	push "$GW/" SN-2 running && [ "$code" = 0 ] &&
	gw_fetch m3 &&
	gw_sample m3 kiln_run_state 0 machine=SN-2 &&
	gw_sample m3 kiln_run_state 1 machine=SN-1 &&
	gw_sample m3 kiln_run_verdict 2 machine=SN-1
'

test_expect_success 'a burst of updates: none waits, the newest one is what stays' '
	push -n 200 "$GW/" SN-3 running && [ "$code" = 0 ] &&
	gw_fetch m4 &&
	gw_sample m4 kiln_disk_written_bytes 1200000000 machine=SN-3 disk=sda
'

test_expect_success 'a gateway not there: said, counted, the last push given up in time' '
	dead=$(free_port) &&
	push -t 1500 "http://127.0.0.1:$dead/" SN-4 complete &&
	tries_within 1500 &&
	grep_in "metrics: http://127.0.0.1:$dead/metrics/job/kiln/machine/SN-4: " "$out" &&
	grep_in "connection refused" "$out" &&
	grep -q "^stats: 0 pushed, [1-9][0-9]* failed" "$out"
'

test_expect_success 'a gateway that never answers holds no update, nor the end for long' '
	python3 "$TOP/tests/lib/httpfake.py" silent "$TEST_TMP/silent.port" &
	fake=$! &&
	test_at_exit "kill $fake" &&
	test_wait_for "[ -s \"$TEST_TMP/silent.port\" ]" &&
	push -n 50 -t 2000 "http://127.0.0.1:$(cat "$TEST_TMP/silent.port")/" \
		SN-5 complete &&
	tries_within 2000 &&
	# An update that waited on the silent gateway would wait its 5 s: 50
	# of them are past the 60 s net. None did: each behind the first one
	# in flight replaced the one before it.
	grep -q "^updates: 50, the slowest " "$out" &&
	r=$(sed -n "s/^stats: 0 pushed, [0-9]* failed, \([0-9]*\) replaced.*/\1/p" "$out") &&
	[ -n "$r" ] && [ "$r" -ge 48 ] &&
	grep_in "no answer in" "$out" &&
	grep -q "^finish: " "$out" && ! grep -q "^finish: ok" "$out"
'

test_expect_success 'a push the gateway refuses: said with its reason, not retried' '
	push -t 20000 "$GW/nowhere/" SN-6 complete &&
	[ "$code" = 1 ] &&
	grep_in "metrics: $GW/nowhere/metrics/job/kiln/machine/SN-6: HTTP 404 Not Found" "$out" &&
	grep -q "^stats: 0 pushed, 1 failed" "$out"
'

test_expect_success 'a long refusal (chunked, as Go sends it): its reason, not a chunk size' '
	v=$(printf "v%.0s" $(seq 3000)) &&
	printf "x{a=\"%s\"} 1\nx{a=\"%s\"} 2\n" "$v" "$v" >"$TEST_TMP/dup.prom" &&
	{ timeout 60 "$TOP/out/tests/httpput" "$GW/metrics/job/dup" "$TEST_TMP/dup.prom" \
		>"$out" 2>&1; test $? = 1; } &&
	grep_in "HTTP 400 Bad Request: pushed metrics are invalid or inconsistent" "$out"
'

# gw_value NAME METRIC [LABEL=VALUE]...: the first such sample's value.
gw_value () {
	file=$1 metric=$2
	shift 2
	python3 - "$TEST_TMP/$file" "$metric" "$@" <<'EOF'
import re, sys
path, metric = sys.argv[1:3]
want = dict(a.split("=", 1) for a in sys.argv[3:])
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
for line in open(path, encoding="utf-8"):
    m = line_re.match(line.rstrip("\n"))
    if m and m.group(1) == metric and \
            all(dict(label_re.findall(m.group(2) or "")).get(k) == v
                for k, v in want.items()):
        print(m.group(3))
        sys.exit(0)
sys.exit(1)
EOF
}

# going: whether the gateway says machine $mid's burn runs, 3 s or more in.
going () {
	gw_fetch g1 && gw_sample g1 kiln_run_state 0 machine="$mid" >/dev/null &&
	e=$(gw_value g1 kiln_run_elapsed_seconds machine="$mid") &&
	awk "BEGIN { exit !($e >= 3) }"
}

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
	test_skip "kiln burn's pushes need root (loop devices)"
	test_skip "kiln burn's pushes need root (loop devices)"
	test_done
fi

test_expect_success 'a burn going: the elapsed time each push says moves with it' '
	make_loop b1 64M && make_loop b2 64M &&
	{ "$KILN" burn --destroy-data --metrics "$GW/" --interval 1 \
		--duration 600 --passes 1000000 --checkpoint 3600 \
		--out "$TEST_TMP/going" \
		"$b1" "$b2" >"$TEST_TMP/going.out" 2>&1 & } &&
	burn=$! &&
	test_at_exit "kill $burn 2>/dev/null" &&
	test_wait_for "grep -q \"as machine \" \"$TEST_TMP/going.out\"" &&
	mid=$(sed -n "s/^kiln: metrics to .* as machine //p" "$TEST_TMP/going.out") &&
	# A state waited for, not a time: the run 3 s in, still running;
	# no checkpoint (they set the elapsed time too) before the end.
	test_wait_for going || { cat "$TEST_TMP/going.out"; cat "$TEST_TMP/g1"; false; } &&
	kill -INT "$burn" && { wait "$burn"; [ $? = 4 ]; } &&
	gw_fetch g2 && gw_sample g2 kiln_run_state 2 machine="$mid"
'

test_expect_success 'a burn over: each disk as the summary says it, passes and bytes' '
	make_loop c1 32M && make_loop c2 48M && make_loop c3 64M &&
	"$KILN" burn --destroy-data --metrics "$GW/" --interval 1 \
		--out "$TEST_TMP/done" "$c1" "$c2" "$c3" \
		>"$TEST_TMP/done.out" 2>&1 &&
	gw_fetch g3 && r="$TEST_TMP/done/result.json" &&
	mid=$(json_get "$r" "d[\"machine_id\"]") &&
	for i in 0 1 2; do
		l=$(json_get "$r" "d[\"targets\"][$i][\"label\"]") &&
		for p in write verify; do
			want=$(json_get "$r" "round(d[\"targets\"][$i][\"phases\"][\"$p\"][\"avg_mbps\"], 3)") &&
			got=$(gw_value g3 kiln_disk_${p}_megabytes_per_second \
				machine="$mid" disk="$l") &&
			awk "BEGIN { d = $got - $want; exit !(d < 0.0015 && d > -0.0015) }" &&
			# The table rounds the same figure.
			grep -q "^$l .* $(printf %.0f "$want") " "$TEST_TMP/done/summary.txt" || {
				echo "# $l $p: ${got:-none}, result.json $want"; return 1; }
		done &&
		gw_sample g3 kiln_disk_throughput_megabytes_per_second 0 \
			machine="$mid" disk="$l" &&
		gw_sample g3 kiln_disk_passes_made 1 machine="$mid" disk="$l" ||
			return 1
	done &&
	gw_sample g3 kiln_run_passes_made 1 machine="$mid" &&
	gw_sample g3 kiln_run_written_bytes $((144 * 1048576)) machine="$mid" &&
	gw_sample g3 kiln_run_read_bytes $((144 * 1048576)) machine="$mid"
'

test_done
