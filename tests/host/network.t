#!/bin/sh
# needs: kiln
# Every network port under load for the whole burn (iperf=), with real
# iperf3 servers on 127.0.0.1 and the lo device, found through a sysfs
# tree made here (--sysfs-root: lo with a device, a link, a speed and
# error counters the test can make grow). iperf3 runs bound to lo for as
# long as the disks burn, its figures and counters land in result.json's
# network.ports[], summary.txt and iperf3-lo.json; a counter that grew
# and a rate far below the link WARN the machine, the disks still PASS;
# a server that goes away mid-burn is a run that ended early, started
# again; a server that never answers is one the port never reached, said
# as such; iperf3 never outlives kiln, even one killed with SIGKILL; a bad
# server list is a usage error (exit 2), and no NIC with a link is said.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/servers.sh"

need_root
command -v iperf3 >/dev/null || test_skip_all "needs iperf3 (scripts/deps.list)"
ip addr show dev lo 2>/dev/null | grep -q "inet 127.0.0.1" ||
	test_skip_all "needs 127.0.0.1 on lo"

sys=$TEST_TMP/sys
stats=$sys/class/net/lo/statistics
mkdir -p "$sys/class/net/lo/device" "$stats"
echo 1 >"$sys/class/net/lo/carrier"
echo up >"$sys/class/net/lo/operstate"
echo 00:00:00:00:00:00 >"$sys/class/net/lo/address"
# A link far faster than any loopback: the rate is below iperf-min.
echo 100000000 >"$sys/class/net/lo/speed"
for c in rx_errors tx_errors rx_dropped tx_dropped rx_crc_errors; do
	echo 0 >"$stats/$c"
done

# iperf3_server PORT LOG: a server on 127.0.0.1:PORT, up once it listens.
iperf3_server () {
	iperf3 -s --forceflush -B 127.0.0.1 -p "$1" >"$2" 2>&1 &
	srv=$!
	test_at_exit "kill $srv 2>/dev/null"
	test_wait_for "grep -q \"Server listening\" \"$2\""
}

# clients PORT: the pids of iperf3 clients to 127.0.0.1 PORT.
clients () {
	for c in /proc/[0-9]*/cmdline; do
		tr "\0" " " 2>/dev/null <"$c" | grep -q "^/usr/bin/iperf3 -c 127.0.0.1 -p $1 " &&
			{ p=${c#/proc/}; echo "${p%/cmdline}"; }
	done
	return 0
}

port() {
	json_get "$run/result.json" "d[\"network\"][\"ports\"][0]$1"
}

make_loop d1 64M || test_bail "cannot make loop devices"

test_expect_success 'iperf3 on lo for the whole burn, its counters watched' '
	p1=$(free_port) && iperf3_server "$p1" "$TEST_TMP/s1.log" &&
	{ "$KILN" burn --destroy-data --duration 20s --max-writes 0 \
		--iperf "127.0.0.1:$p1" --sysfs-root "$sys" \
		--out "$TEST_TMP/one" "$d1" >"$TEST_TMP/one.out" 2>&1 & } &&
	kpid=$! &&
	test_wait_for "[ -n \"\$(clients $p1)\" ] || ! kill -0 $kpid" &&
	test_wait_for "grep -q \"connected to\" \"$TEST_TMP/s1.log\" || ! kill -0 $kpid" &&
	echo 2 >"$stats/rx_crc_errors" && echo 7 >"$stats/rx_dropped" &&
	in_burn=yes && { ! grep -q " done 1/1 " "$TEST_TMP/one.out" || in_burn=no; } &&
	wait "$kpid"; rc=$?; cat "$TEST_TMP/one.out"; run="$TEST_TMP/one" &&
	[ "$rc" = 0 ] &&
	grep_in "kiln: iperf3 on lo to 127.0.0.1 port $p1 for the whole burn" \
		"$TEST_TMP/one.out" &&
	[ -z "$(clients "$p1")" ]
'

# What holds on a busy machine too: iperf3 runs below the disks in
# priority, so a loaded machine may start it late, or not get it to its
# server before the burn ends. Its figures are then fewer (none at all:
# the port says how far it got, never a port with no reason), and the
# counters written once the burn's last status line was out came after
# kiln's last reading of them. A rate is not asserted above 0: iperf3
# stopped inside its first 10 s interval was seen to say 0 bytes sent
# in it (tests/unit/iperf.c, test_stopped).
test_expect_success '... its port in result.json: server, rate, seconds, counters' '
	json_get "$run/result.json" "json.dumps(d[\"network\"][\"ports\"], indent=1)" &&
	test_eq "$(port "[\"name\"]")" lo name &&
	test_eq "$(port "[\"server\"]")" 127.0.0.1 server &&
	test_eq "$(port "[\"port\"]")" "$p1" port &&
	test_eq "$(port "[\"speed_mbps\"]")" 100000000 speed_mbps &&
	test_eq "$(port "[\"runs\"]")" 1 runs &&
	test_eq "$(port "[\"restarts\"]")" 0 restarts &&
	test_eq "$(port "[\"burn_seconds\"] > 0")" True "burn_seconds > 0" &&
	test_eq "$(port "[\"seconds\"] <= d[\"network\"][\"ports\"][0][\"burn_seconds\"] + 10")" True \
		"seconds <= burn_seconds + the 10 s it may take to stop" &&
	if [ "$(port "[\"seconds\"] > 0")" = True ]; then
		say "iperf3 ran $(port "[\"seconds\"]") s of the burn'\''s $(port "[\"burn_seconds\"]")" &&
		test_eq "$(port "[\"mean_mbps\"] >= 0")" True "mean_mbps >= 0" &&
		test_eq "$(port "[\"error\"]")" None error
	else
		say "iperf3 never ran on this busy machine: $(port "[\"error\"]")" &&
		port "[\"error\"]" | grep -Eq "^(never reached its server: |reached its server, but )" &&
		test_eq "$(port "[\"mean_mbps\"]")" None mean_mbps
	fi &&
	if [ "$in_burn" = yes ]; then
		test_eq "$(port "[\"counters\"][\"growth\"][\"rx_crc_errors\"]")" 2 rx_crc_errors &&
		test_eq "$(port "[\"counters\"][\"growth\"][\"rx_dropped\"]")" 7 rx_dropped
	else
		say "the burn had ended when the counters grew" &&
		test_eq "$(port "[\"counters\"][\"growth\"][\"rx_dropped\"]")" 0 rx_dropped
	fi &&
	test_eq "$(port "[\"counters\"][\"growth\"][\"tx_errors\"]")" 0 tx_errors &&
	test_eq "$(port "[\"lldp\"][\"not_heard\"] is not None")" True "lldp not_heard"
'

test_expect_success '... a counter grown and a rate below iperf-min WARN the machine' '
	test_eq "$(port "[\"verdict\"]")" WARN verdict &&
	why=$(port "[\"why\"]") && echo "$why" &&
	if [ "$(port "[\"seconds\"] > 0")" = True ]; then
		echo "$why" | grep -q "below iperf-min 50% of its 100000000 Mbit/s link"
	else
		echo "$why" | grep -q "^iperf3 to 127.0.0.1:$p1 never ran: "
	fi &&
	if [ "$in_burn" = yes ]; then
		echo "$why" | grep -q "error counters grew during the burn: rx_dropped +7, rx_crc_errors +2"
	fi &&
	test_eq "$(json_get "$run/result.json" "d[\"machine\"][\"verdict\"]")" WARN "machine verdict" &&
	test_eq "$(json_get "$run/result.json" "d[\"targets\"][0][\"verdict\"]")" PASS "disk verdict" &&
	grep_in "network port lo: " "$run/summary.txt" &&
	grep_in "network lo (100000000 Mbit/s) to 127.0.0.1:$p1: " "$run/summary.txt" &&
	grep_in "Network ports under load" "$run/report.html"
'

test_expect_success '... iperf3s own JSON kept, every interval in it' '
	if [ "$(port "[\"seconds\"] > 0")" = True ]; then
		test_eq "$(json_get "$run/iperf3-lo.json" "len(d[\"intervals\"]) >= 1")" True "intervals" &&
		secs=$(port "[\"seconds\"]") &&
		test_eq "$(json_get "$run/iperf3-lo.json" "abs(sum(i[\"sum\"][\"seconds\"] for i in d[\"intervals\"]) - $secs) < 0.01")" \
			True "the intervals'\'' seconds, the port'\''s $secs" &&
		test_eq "$(json_get "$run/iperf3-lo.json" "d[\"error\"]")" "interrupt - the client has terminated" error
	else
		say "iperf3 never ran: no intervals to keep"
	fi
'

test_expect_success 'a server that never answers: the port never reached it, said so' '
	q=$(free_port) &&
	{ python3 -c "import socket, sys, time; s = socket.socket(); s.bind((\"127.0.0.1\", int(sys.argv[1]))); s.listen(8); print(\"listening\", flush=True); time.sleep(600)" \
		"$q" >"$TEST_TMP/silent.log" 2>&1 & } &&
	silent=$! && test_at_exit "kill $silent" &&
	test_wait_for "grep -q listening \"$TEST_TMP/silent.log\"" &&
	"$KILN" burn --destroy-data --duration 3s --max-writes 0 \
		--iperf "127.0.0.1:$q" --sysfs-root "$sys" \
		--out "$TEST_TMP/silent" "$d1" >"$TEST_TMP/silent.out" 2>&1; rc=$?;
	cat "$TEST_TMP/silent.out"; run="$TEST_TMP/silent" && test_eq "$rc" 0 "exit" &&
	test_eq "$(port "[\"seconds\"] == 0")" True "seconds == 0" &&
	test_eq "$(port "[\"mean_mbps\"]")" None mean_mbps &&
	port "[\"error\"]" | grep -q "^never reached its server: " &&
	test_eq "$(port "[\"verdict\"]")" WARN verdict &&
	port "[\"why\"]" | grep -q "^iperf3 to 127.0.0.1:$q never ran: never reached its server: " &&
	grep_in "network lo (100000000 Mbit/s) to 127.0.0.1:$q: iperf3 never ran (never reached its server: " \
		"$run/summary.txt" &&
	kill "$silent"
'

test_expect_success 'a server that goes mid-burn: the run ends early and starts again' '
	for c in rx_crc_errors rx_dropped; do echo 0 >"$stats/$c"; done &&
	p2=$(free_port) && iperf3_server "$p2" "$TEST_TMP/s2.log" &&
	{ "$KILN" burn --destroy-data --duration 600s --max-writes 0 \
		--iperf "127.0.0.1:$p2" --iperf-min 0 --sysfs-root "$sys" \
		--out "$TEST_TMP/two" "$d1" >"$TEST_TMP/two.out" 2>&1 & } &&
	kpid=$! && test_at_exit "kill -INT $kpid 2>/dev/null" &&
	test_wait_for "grep -q \"connected to\" \"$TEST_TMP/s2.log\"" &&
	kill "$srv" && wait "$srv" 2>/dev/null;
	iperf3_server "$p2" "$TEST_TMP/s2b.log" &&
	# The run started again has reached its server (a state, however
	# late a busy machine runs iperf3): then the burn is stopped.
	test_wait_for "grep -q \"connected to\" \"$TEST_TMP/s2b.log\"" &&
	kill -INT "$kpid" &&
	wait "$kpid"; rc=$?; cat "$TEST_TMP/two.out"; run="$TEST_TMP/two" &&
	test_eq "$rc" 4 "exit (stopped)" &&
	test_eq "$(port "[\"runs\"]")" 2 runs && test_eq "$(port "[\"restarts\"]")" 1 restarts &&
	test_eq "$(port "[\"verdict\"]")" WARN verdict &&
	port "[\"why\"]" | grep -q "^iperf3 ended early 1 time (the last: "
'

test_expect_success 'kiln killed with SIGKILL: its iperf3 goes with it' '
	p3=$(free_port) && iperf3_server "$p3" "$TEST_TMP/s3.log" &&
	{ "$KILN" burn --destroy-data --duration 60s --max-writes 0 \
		--iperf "127.0.0.1:$p3" --sysfs-root "$sys" \
		--out "$TEST_TMP/three" "$d1" >"$TEST_TMP/three.out" 2>&1 & } &&
	kpid=$! &&
	test_wait_for "[ -n \"\$(clients $p3)\" ] || ! kill -0 $kpid" &&
	[ -n "$(clients "$p3")" ] &&
	kill -9 "$kpid" && { wait "$kpid"; true; } &&
	test_wait_for "[ -z \"\$(clients $p3)\" ]"
'

test_expect_success 'a bad server list: a usage error in one line, nothing touched' '
	before=$(sum_of "$d1") &&
	{ "$KILN" burn --destroy-data --iperf "a,,b" --out "$TEST_TMP/bad" \
		"$d1" >"$TEST_TMP/bad.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/bad.out" && [ "$rc" = 2 ] &&
	grep -qx "kiln: bad value for --iperf: '\''a,,b'\'' ('\'''\'' is not HOST or HOST:PORT)" \
		"$TEST_TMP/bad.out" &&
	[ "$(sum_of "$d1")" = "$before" ]
'

test_expect_success 'no NIC with a link: said, the burn goes on' '
	echo 0 >"$sys/class/net/lo/carrier" &&
	"$KILN" burn --destroy-data --duration 3s --max-writes 0 \
		--iperf 127.0.0.1 --sysfs-root "$sys" --out "$TEST_TMP/none" \
		"$d1" >"$TEST_TMP/none.out" 2>&1; rc=$?;
	echo 1 >"$sys/class/net/lo/carrier";
	cat "$TEST_TMP/none.out" && [ "$rc" = 0 ] &&
	grep_in "iperf: no NIC with a link and an address: no network load" \
		"$TEST_TMP/none/summary.txt" &&
	[ "$(json_get "$TEST_TMP/none/result.json" "d[\"network\"][\"ports\"]")" = "[]" ]
'

test_done
