#!/bin/sh
# needs: kiln httpput
# kiln's HTTP client and uploader against the real thing: Debian's nginx
# serving boot/nginx-kiln.conf as a lab would, a Pushgateway when there is
# one, and small servers a lab should not have (tests/lib/httpfake.py)
# that never answer, hang up, answer 500 or stop reading halfway. Every
# run of the client is bounded by timeout(1); nothing else is timed.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"

[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"
command -v python3 >/dev/null 2>&1 || test_skip_all "needs python3"
PUT="$TOP/out/tests/httpput"
[ -x "$PUT" ] || test_bail "$PUT is not built: run make check"

# wait_for TEXT FILE: until FILE holds TEXT (a state; the bound, 300 s
# as test_wait_for's, only keeps a broken run from holding the suite).
wait_for () {
	i=0
	while [ "$i" -lt 3000 ]; do
		grep -qF -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# put ARGS...: the client, bounded, its output in $out, its exit in $code.
out="$TEST_TMP/out"
put () {
	timeout 60 "$PUT" "$@" >"$out" 2>&1
	code=$?
	cat "$out"
}

servers_nginx || test_bail "nginx did not start with boot/nginx-kiln.conf"
BASE=$NGINX_URL
port=$nginx_port
SRV="$TEST_TMP/srv/kiln"

fake_pids=""
for mode in silent close 500 half early201 early413 dav409 landed; do
	python3 "$TOP/tests/lib/httpfake.py" "$mode" "$TEST_TMP/$mode.port" \
		"$TEST_TMP/dav" &
	fake_pids="$fake_pids $!"
done
test_at_exit 'kill $fake_pids'
for mode in silent close 500 half early201 early413 dav409 landed; do
	wait_for "" "$TEST_TMP/$mode.port" || test_bail "httpfake $mode did not start"
done
fake () {
	echo "http://127.0.0.1:$(cat "$TEST_TMP/$1.port")"
}

cd "$TEST_TMP" || test_bail "cannot cd to $TEST_TMP"
printf 'kiln 0.1 PASS\n' >summary.txt
: >empty
dd if=/dev/urandom of=random.bin bs=1M count=5 2>/dev/null
dd if=/dev/zero of=big.bin bs=1M count=32 2>/dev/null
RES="$SRV/kiln-results"

test_expect_success 'PUT: files arrive whole, an empty one too, and are never replaced' '
	put "$BASE/kiln-results/one/summary.txt" summary.txt &&
	[ "$code" = 0 ] && grep_in "status 201: ok" "$out" &&
	cmp summary.txt "$RES/one/summary.txt" &&
	put "$BASE/kiln-results/one/random.bin" random.bin &&
	[ "$code" = 0 ] && cmp random.bin "$RES/one/random.bin" &&
	put "$BASE/kiln-results/one/empty" empty &&
	[ "$code" = 0 ] && [ -f "$RES/one/empty" ] && [ ! -s "$RES/one/empty" ] &&
	put "$BASE/kiln-results/one/summary.txt" random.bin &&
	[ "$code" = 1 ] && grep_in "status 412: HTTP 412 Precondition Failed" "$out" &&
	cmp summary.txt "$RES/one/summary.txt" &&
	put "$BASE/kiln-results/one/empty" random.bin &&
	[ "$code" = 1 ] && [ ! -s "$RES/one/empty" ]
'

test_expect_success 'the plain server: any client'"'"'s PUT onto a name there is 412, the file kept; GET reads it' '
	curl -s -o /dev/null -w "%{http_code}\n" -T random.bin \
		"$BASE/kiln-results/one/summary.txt" >"$out" &&
	grep_in 412 "$out" && cmp summary.txt "$RES/one/summary.txt" &&
	curl -s -o /dev/null -w "%{http_code}\n" -T random.bin \
		"$BASE/kiln-results/one/" >"$out" &&
	! grep -q "^20" "$out" &&
	curl -s -o got.txt "$BASE/kiln-results/one/summary.txt" &&
	cmp summary.txt got.txt &&
	curl -s "$BASE/kiln-results/one/" | grep -q "summary.txt" &&
	curl -s -o /dev/null -w "%{http_code}\n" -X DELETE \
		"$BASE/kiln-results/one/summary.txt" >"$out" &&
	! grep -q "^20" "$out" && cmp summary.txt "$RES/one/summary.txt"
'

test_expect_success 'the uploader: a retry whose first try landed (the same bytes there) has arrived' '
	put "$BASE/kiln-results/SN-5/RUN/summary.txt" summary.txt &&
	put "$BASE/kiln-results/SN-5/RUN/samples.csv" random.bin &&
	put -u "$BASE/kiln-results/" SN-5 RUN summary.txt=summary.txt \
		"samples.csv@random.bin" &&
	[ "$code" = 0 ] && grep_in "flush: done, 0 lost" "$out" &&
	grep_in "summary.txt to $BASE/kiln-results/SN-5/RUN/: there already with the same bytes (a try that landed)" "$out" &&
	cmp summary.txt "$RES/SN-5/RUN/summary.txt"
'

test_expect_success 'the uploader: a try that landed but whose answer was lost: its retry is 412, read back, arrived' '
	put -u "$(fake landed)/k/" M R summary.txt=summary.txt \
		"samples.csv@random.bin" &&
	[ "$code" = 0 ] && grep_in "flush: done, 0 lost" "$out" &&
	grep_in "summary.txt to $(fake landed)/k/M/R/: connection closed with no answer, retrying in" "$out" &&
	grep_in "summary.txt to $(fake landed)/k/M/R/: there already with the same bytes (a try that landed)" "$out" &&
	grep_in "samples.csv to $(fake landed)/k/M/R/: there already with the same bytes (a try that landed)" "$out" &&
	[ "$(grep -c "stored /k/M/R/summary.txt" "$TEST_TMP/dav/landed.log")" = 1 ]
'

test_expect_success 'the uploader: another file at the name is a collision, said, never replaced, not retried' '
	put "$BASE/kiln-results/SN-6/RUN/result.json" random.bin &&
	put "$BASE/kiln-results/SN-6/RUN/samples.csv" summary.txt &&
	put -u -w 5000 -f 500 "$BASE/kiln-results/" SN-6 RUN result.json=summary.txt \
		"samples.csv@random.bin" ok.txt=summary.txt &&
	[ "$code" = 1 ] &&
	grep_in "upload: result.json to $BASE/kiln-results/SN-6/RUN/: another file of that name is there (HTTP 412): not replaced; this one is kept where it was written" "$out" &&
	grep_in "lost result.json: another file of that name is there (HTTP 412)" "$out" &&
	grep_in "lost samples.csv: another file of that name is there (HTTP 412)" "$out" &&
	! grep -q "lost ok.txt" "$out" &&
	! grep -q "result.json.*retrying" "$out" &&
	cmp random.bin "$RES/SN-6/RUN/result.json" &&
	cmp summary.txt "$RES/SN-6/RUN/samples.csv" &&
	cmp summary.txt "$RES/SN-6/RUN/ok.txt" &&
	[ "$(grep -c "PUT /kiln-results/SN-6/RUN/result.json " "$NGX/access.log")" = 2 ]
'

test_expect_success 'the uploader: PATH/<machine id>/<run folder>/, subfolders made, names encoded' '
	put -u "$BASE/kiln-results/" SN-7 20260101T000000Z-00ab \
		summary.txt=summary.txt "samples.csv@random.bin" \
		"smart/sda before.txt=summary.txt" empty.txt=empty &&
	[ "$code" = 0 ] && grep_in "flush: done, 0 lost" "$out" &&
	grep_in "summary.txt to $BASE/kiln-results/SN-7/20260101T000000Z-00ab/: arrived (HTTP 201)" "$out" &&
	run="$RES/SN-7/20260101T000000Z-00ab" &&
	cmp summary.txt "$run/summary.txt" &&
	cmp random.bin "$run/samples.csv" &&
	cmp summary.txt "$run/smart/sda before.txt" &&
	[ -f "$run/empty.txt" ] && [ ! -s "$run/empty.txt" ] &&
	grep -q "PUT /kiln-results/SN-7/20260101T000000Z-00ab/smart/sda%20before.txt " \
		"$NGX/access.log"
'

test_expect_success 'a read-only location: HTTP 403 Forbidden, said, retried, recorded as lost' '
	put "$BASE/elsewhere/x.txt" summary.txt &&
	[ "$code" = 1 ] && grep_in "status 403: HTTP 403 Forbidden" "$out" &&
	[ ! -e "$SRV/elsewhere/x.txt" ] &&
	put -u -w 2500 -f 500 "$BASE/elsewhere/" SN-7 RUN a.txt=summary.txt &&
	[ "$code" = 1 ] &&
	grep_in "upload: a.txt to $BASE/elsewhere/SN-7/RUN/: HTTP 403 Forbidden, retrying in 1 s" "$out" &&
	grep_in "HTTP 403 Forbidden, retrying in 2 s" "$out" &&
	grep_in "lost a.txt: HTTP 403 Forbidden" "$out" &&
	grep_in "flush: Connection timed out, 1 lost" "$out"
'

test_expect_success 'a 500, with the reason the server gave, retried and recorded as lost' '
	put "$(fake 500)/x" summary.txt &&
	[ "$code" = 1 ] &&
	grep_in "status 500: HTTP 500 Internal Server Error: disk full" "$out" &&
	put -u -w 2500 -f 500 "$(fake 500)/k" M R summary.txt=summary.txt &&
	[ "$code" = 1 ] &&
	grep_in "summary.txt to $(fake 500)/k/M/R/: HTTP 500 Internal Server Error: disk full, retrying in 1 s" "$out" &&
	grep_in "lost summary.txt: HTTP 500 Internal Server Error: disk full" "$out"
'

test_expect_success 'a server that accepts and never answers holds a request for its timeout only' '
	put -t 1500 "$(fake silent)/x" summary.txt &&
	[ "$code" = 1 ] && grep_in "status 0: no answer in 1.5 s" "$out"
'

test_expect_success 'kiln burn to a server that never answers: the end waits 30 s in all' '
	{ timeout 50 "$KILN" burn --upload "$(fake silent)/up/" --out "$TEST_TMP/sil" \
		--size 4M "$TEST_TMP/sil.img" >"$TEST_TMP/sil.out" 2>&1; test $? = 0; } &&
	grep_in "waiting for $(fake silent)/up/" "$TEST_TMP/sil.out" &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"lab\"][\"upload\"][\"not_arrived\"], d[\"lab\"]" "$TEST_TMP/sil/result.json"
'

test_expect_success 'a server that stops reading halfway through a body: the send gives up in time' '
	put -t 2000 "$(fake half)/x" big.bin &&
	[ "$code" = 1 ] &&
	grep_in "status 0: timed out after 2 s sending: " "$out" &&
	grep_in " of 33554432 body bytes sent" "$out"
'

test_expect_success 'a 201 that comes before the body went: not arrived, said, retried, lost' '
	put "$(fake early201)/x" big.bin &&
	[ "$code" = 1 ] &&
	grep_in "status 201: HTTP 201 Created came after only " "$out" &&
	grep_in " of 33554432 body bytes were sent: not taken as arrived" "$out" &&
	put -u -w 2500 -f 500 "$(fake early201)/k" M R "checkpoint-a.json@big.bin" &&
	[ "$code" = 1 ] &&
	! grep -qF "arrived (HTTP" "$out" &&
	grep_in "checkpoint-a.json to $(fake early201)/k/M/R/: HTTP 201 Created came after only " "$out" &&
	grep_in "body bytes were sent: not taken as arrived, retrying in 1 s" "$out" &&
	grep_in "lost checkpoint-a.json: HTTP 201 Created came after only " "$out"
'

test_expect_success 'a 413 before the body went: a failed upload, said with its status' '
	put "$(fake early413)/x" big.bin &&
	[ "$code" = 1 ] &&
	grep_in "status 413: HTTP 413 Request Entity Too Large" "$out" &&
	put -u -w 2500 -f 500 "$(fake early413)/k" M R "checkpoint-a.json@big.bin" &&
	[ "$code" = 1 ] &&
	grep_in "checkpoint-a.json to $(fake early413)/k/M/R/: HTTP 413 Request Entity Too Large" "$out" &&
	grep_in "lost checkpoint-a.json: HTTP 413 Request Entity Too Large" "$out"
'

test_expect_success 'a server that hangs up at once: said' '
	put "$(fake close)/x" summary.txt &&
	[ "$code" = 1 ] && grep_in "status 0: connection closed with no answer" "$out"
'

test_expect_success 'connection refused: said' '
	put "http://127.0.0.1:$(free_port)/x" summary.txt &&
	[ "$code" = 1 ] && grep_in "status 0: connection refused" "$out"
'

test_expect_success 'a name from /etc/hosts (localhost) is resolved' '
	put "http://localhost:$port/kiln-results/localhost.txt" summary.txt &&
	[ "$code" = 0 ] && cmp summary.txt "$RES/localhost.txt"
'

test_expect_success 'an https:// URL to a plain HTTP server: a TLS failure, said' '
	put "https://127.0.0.1:$port/kiln-results/tls.txt" summary.txt &&
	[ "$code" = 1 ] && grep_in "status 0: TLS with 127.0.0.1 failed" "$out" &&
	[ ! -e "$RES/tls.txt" ]
'

test_expect_success 'the queue delivers once the server is back; a newer version goes instead of the older' '
	stop_nginx &&
	printf "{\"seq\": 1}\n" >cp1 && printf "{\"seq\": 2}\n" >cp2 &&
	{ timeout 60 "$PUT" -u -w 30000 -f 5000 "$BASE/kiln-results/" SN-8 RUN \
		checkpoint.json=cp1 summary.txt=summary.txt \
		checkpoint.json=cp2 >back.out 2>&1 & } &&
	upid=$! &&
	wait_for "connection refused, retrying in" back.out &&
	start_nginx &&
	{ wait "$upid"; code=$?; cat back.out; [ "$code" = 0 ]; } &&
	grep_in "arrived after " back.out &&
	grep_in "flush: done, 0 lost" back.out &&
	cmp cp2 "$RES/SN-8/RUN/checkpoint.json" &&
	cmp summary.txt "$RES/SN-8/RUN/summary.txt" &&
	[ "$(grep -c "PUT /kiln-results/SN-8/RUN/checkpoint.json " \
		"$NGX/access.log")" = 1 ]
'

test_expect_success 'a server that wants each folder made first (409): made with MKCOL' '
	mkdir -p "$TEST_TMP/dav/up" &&
	put -u "$(fake dav409)/up/" SN-9 RUN "smart/sda.txt=random.bin" \
		summary.txt=summary.txt &&
	[ "$code" = 0 ] &&
	cmp random.bin "$TEST_TMP/dav/up/SN-9/RUN/smart/sda.txt" &&
	cmp summary.txt "$TEST_TMP/dav/up/SN-9/RUN/summary.txt" &&
	put -u -w 500 -f 500 "$(fake dav409)/nowhere/" SN-9 RUN x=summary.txt &&
	[ "$code" = 1 ] && grep_in "lost x: HTTP 409 Conflict: no parent collection" "$out"
'

if command -v prometheus-pushgateway >/dev/null 2>&1; then
	pg="http://127.0.0.1:$(free_port)"
	prometheus-pushgateway --web.listen-address="${pg#http://}" \
		--persistence.file="" >"$TEST_TMP/pushgateway.log" 2>&1 &
	test_at_exit "kill $!"
	test_expect_success 'metrics: a Pushgateway takes a push, and says what it refuses' '
		wait_http "$pg/metrics" &&
		printf "kiln_disk_bytes{disk=\"sda\"} 42\n" >m.txt &&
		put -T "text/plain; version=0.0.4" \
			"$pg/metrics/job/kiln/instance/SN-7" m.txt &&
		[ "$code" = 0 ] &&
		python3 -c "import urllib.request, sys
t = urllib.request.urlopen(sys.argv[1]).read().decode()
sys.exit(0 if \"kiln_disk_bytes{disk=\\\"sda\\\",instance=\\\"SN-7\\\",job=\\\"kiln\\\"} 42\" in t else 1)" \
			"$pg/metrics" &&
		printf "not a metric\n" >bad.txt &&
		put -T "text/plain; version=0.0.4" \
			"$pg/metrics/job/kiln/instance/SN-7" bad.txt &&
		[ "$code" = 1 ] && grep_in "status 400: HTTP 400 Bad Request: " "$out"
	'
else
	test_skip "no prometheus-pushgateway"
fi

test_done
