#!/bin/sh
# needs: kiln httpput
# A lab secured: Debian's nginx serving boot/nginx-kiln-tls.conf (TLS with
# a CA and a server certificate made here by openssl, a password per
# machine, each held to its own folder) takes the run folder over https,
# and the Pushgateway behind it the gauges. A wrong password and an
# untrusted CA are said and recorded, and never fail the burn; one
# machine's credential cannot write another's folder, nor read it, and
# a PUT never replaces a file; no credential is in the run folder, on the console or in curl's
# arguments (a curl on PATH that records them: kiln gives it all on
# stdin). Targets are files: no root needed.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/servers.sh"

[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"
[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
CURL=$(command -v curl) || test_skip_all "needs curl (scripts/deps.list)"
command -v openssl >/dev/null 2>&1 || test_skip_all "needs openssl (scripts/deps.list)"
command -v python3 >/dev/null 2>&1 || test_skip_all "needs python3"

# The lab's CA, the server's certificate it signs (for 127.0.0.1), a CA
# of nobody's, which kiln must not trust, and a password per machine.
servers_pki || test_bail "openssl could not make the test's certificates"
servers_pushgateway || test_bail "the Pushgateway did not start"
NGINX_SITE=boot/nginx-kiln-tls.conf
NGINX_GW_PORT=$pg_port
servers_htpasswd M1:pw-M1-right M2:pw-M2-right ||
	test_bail "openssl could not make the htpasswd"
servers_nginx || test_bail "nginx did not start with $NGINX_SITE"
HOST=127.0.0.1:$nginx_port
CA="$PKI/ca.pem"

# A curl on PATH that records its arguments, then is Debian's.
mkdir -p "$TEST_TMP/bin"
cat >"$TEST_TMP/bin/curl" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>"$TEST_TMP/curl-argv.log"
exec "$CURL" "\$@"
EOF
chmod +x "$TEST_TMP/bin/curl"
PATH="$TEST_TMP/bin:$PATH"
export PATH

field () {
	python3 -c "import json, sys; j = json.load(open(sys.argv[1]))
print($2)" "$1"
}

# burn NAME ARGS...: a short burn of one file into run folder NAME, its
# console in $TEST_TMP/NAME.out, its exit in $code.
burn () {
	name=$1
	shift
	timeout 300 "$KILN" burn --size 4M --interval 1 --checkpoint 1 \
		--out "$TEST_TMP/$name" "$@" "$TEST_TMP/$name.img" \
		>"$TEST_TMP/$name.out" 2>&1
	code=$?
}

test_expect_success 'an upload over https with the machine'"'"'s password arrives whole' '
	burn run1 --machine-id M1 --ca "$CA" \
		--upload "https://M1:pw-M1-right@$HOST/kiln-results/" \
		--metrics "https://M1:pw-M1-right@$HOST/pushgateway/" &&
	[ "$code" = 0 ] &&
	rid=$(field "$TEST_TMP/run1/result.json" "j[\"run_id\"]") &&
	grep_in "kiln: every file is at https://$HOST/kiln-results/M1/run1-$rid/" \
		"$TEST_TMP/run1.out" &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"upload\"][\"not_arrived\"]")" = "[]" ] &&
	n=0 && for f in "$TEST_TMP/run1"/*; do
		case ${f##*/} in checkpoint-*) continue ;; esac
		cmp "$f" "$NGINX_ROOT/M1/run1-$rid/${f##*/}" || return 1
		n=$((n + 1))
	done && [ "$n" -ge 5 ] &&
	ls "$NGINX_ROOT/M1/run1-$rid/progress" | grep -q "^checkpoint-[0-9]*\.json\$"
'

test_expect_success 'metrics over https reach the Pushgateway behind nginx' '
	gw_fetch m1 &&
	gw_sample m1 kiln_run_state 1 job=kiln machine=M1 &&
	gw_sample m1 kiln_run_verdict 0 job=kiln machine=M1 &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"metrics\"][\"failures\"]")" = 0 ] &&
	[ "$(field "$TEST_TMP/run1/result.json" \
		"j[\"lab\"][\"metrics\"][\"pushgateway\"]")" = \
		"https://$HOST/pushgateway/" ]
'

test_expect_success 'no credential in the run folder, its copy, the console or curl'"'"'s argv' '
	! grep -r "pw-M1-right" "$TEST_TMP/run1" "$NGINX_ROOT/M1" \
		"$TEST_TMP/run1.out" &&
	grep_in "\"https://M1:***@$HOST/kiln-results/\"" \
		"$TEST_TMP/run1/result.json" &&
	[ -s "$TEST_TMP/curl-argv.log" ] &&
	! grep -v "^-q -K -\$" "$TEST_TMP/curl-argv.log"
'

test_expect_success 'kiln settings and --get show *** for a password and auth-token' '
	"$KILN" settings --upload "https://M1:pw-M1-right@$HOST/k/" \
		--auth-token tok-sekrit >"$TEST_TMP/settings.out" 2>&1 &&
	"$KILN" settings --upload "https://M1:pw-M1-right@$HOST/k/" \
		--get upload >"$TEST_TMP/get.out" 2>&1 &&
	"$KILN" settings --auth-token tok-sekrit --get auth-token \
		>>"$TEST_TMP/get.out" 2>&1 &&
	! grep -e pw-M1-right -e tok-sekrit "$TEST_TMP/settings.out" \
		"$TEST_TMP/get.out" &&
	grep_in "https://M1:***@$HOST/k/" "$TEST_TMP/get.out" &&
	grep -qx "\*\*\*" "$TEST_TMP/get.out"
'

test_expect_success 'a wrong password: 401 said and in not_arrived, the burn goes on' '
	burn run2 --machine-id M1 --ca "$CA" \
		--upload "https://M1:pw-M1-wrong@$HOST/kiln-results/" &&
	[ "$code" = 0 ] &&
	grep_in "HTTP 401" "$TEST_TMP/run2.out" &&
	[ "$(field "$TEST_TMP/run2/result.json" \
		"len(j[\"lab\"][\"upload\"][\"not_arrived\"]) > 3")" = True ] &&
	[ "$(field "$TEST_TMP/run2/result.json" \
		"\"401\" in j[\"lab\"][\"upload\"][\"not_arrived\"][0][\"why\"]")" = True ] &&
	[ "$(field "$TEST_TMP/run2/result.json" "j[\"verdict\"]")" = PASS ] &&
	! ls -d "$NGINX_ROOT/M1/run2"* 2>/dev/null &&
	! grep -r "pw-M1-wrong" "$TEST_TMP/run2" "$TEST_TMP/run2.out"
'

test_expect_success 'an untrusted certificate: said and in not_arrived, the burn goes on' '
	burn run3 --machine-id M1 --ca "$PKI/other.pem" \
		--upload "https://M1:pw-M1-right@$HOST/kiln-results/" &&
	[ "$code" = 0 ] &&
	grep_in "TLS with 127.0.0.1 failed ($PKI/other.pem)" \
		"$TEST_TMP/run3.out" &&
	grep_in "certificate" "$TEST_TMP/run3.out" &&
	[ "$(field "$TEST_TMP/run3/result.json" \
		"\"TLS\" in j[\"lab\"][\"upload\"][\"not_arrived\"][0][\"why\"]")" = True ] &&
	[ "$(field "$TEST_TMP/run3/result.json" "j[\"verdict\"]")" = PASS ] &&
	! ls -d "$NGINX_ROOT/M1/run3"* 2>/dev/null
'

test_expect_success 'a machine'"'"'s credential cannot PUT into another machine'"'"'s folder' '
	burn run4 --machine-id M2 --ca "$CA" \
		--upload "https://M1:pw-M1-right@$HOST/kiln-results/" &&
	[ "$code" = 0 ] && grep_in "HTTP 403" "$TEST_TMP/run4.out" &&
	[ ! -e "$NGINX_ROOT/M2" ] &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-u M1:pw-M1-right -T "$TEST_TMP/run1/summary.txt" \
		"https://$HOST/kiln-results/M2/x/summary.txt" >"$TEST_TMP/c1" &&
	grep -qx 403 "$TEST_TMP/c1" && [ ! -e "$NGINX_ROOT/M2" ]
'

test_expect_success 'over TLS too a PUT creates and never replaces: 412, the file kept' '
	printf "first\n" >"$TEST_TMP/first" && printf "second\n" >"$TEST_TMP/second" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-u M1:pw-M1-right -T "$TEST_TMP/first" \
		"https://$HOST/kiln-results/M1/t/a.txt" >"$TEST_TMP/c0" &&
	grep -qx 201 "$TEST_TMP/c0" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-u M1:pw-M1-right -T "$TEST_TMP/second" \
		"https://$HOST/kiln-results/M1/t/a.txt" >"$TEST_TMP/c0" &&
	grep -qx 412 "$TEST_TMP/c0" &&
	cmp "$TEST_TMP/first" "$NGINX_ROOT/M1/t/a.txt"
'

test_expect_success 'over TLS a retry that had landed is read back and arrived; another file is a collision' '
	PUT="$TOP/out/tests/httpput" &&
	printf "kiln 0.1 PASS\n" >"$TEST_TMP/sum.txt" &&
	printf "{\"not\": \"mine\"}\n" >"$TEST_TMP/other.json" &&
	"$CURL" -s -o /dev/null --cacert "$CA" -u M1:pw-M1-right \
		-T "$TEST_TMP/sum.txt" "https://$HOST/kiln-results/M1/R/summary.txt" &&
	"$CURL" -s -o /dev/null --cacert "$CA" -u M1:pw-M1-right \
		-T "$TEST_TMP/other.json" "https://$HOST/kiln-results/M1/R/result.json" &&
	{ timeout 60 "$PUT" -u -C "$CA" -w 5000 -f 500 \
		"https://M1:pw-M1-right@$HOST/kiln-results/" M1 R \
		summary.txt=$TEST_TMP/sum.txt "result.json@$TEST_TMP/sum.txt" \
		>"$TEST_TMP/hp.out" 2>&1; test $? = 1; } &&
	grep_in "summary.txt to https://$HOST/kiln-results/M1/R/: there already with the same bytes (a try that landed)" "$TEST_TMP/hp.out" &&
	grep_in "lost result.json: another file of that name is there (HTTP 412)" "$TEST_TMP/hp.out" &&
	! grep -q "lost summary.txt" "$TEST_TMP/hp.out" &&
	cmp "$TEST_TMP/other.json" "$NGINX_ROOT/M1/R/result.json"
'

test_expect_success 'a machine reads back its own files only; no listing, no other'"'"'s' '
	"$CURL" -s -o "$TEST_TMP/got" -w "%{http_code}\n" --cacert "$CA" \
		-u M1:pw-M1-right \
		"https://$HOST/kiln-results/M1/t/a.txt" >"$TEST_TMP/c2" &&
	grep -qx 200 "$TEST_TMP/c2" && cmp "$TEST_TMP/first" "$TEST_TMP/got" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-u M2:pw-M2-right \
		"https://$HOST/kiln-results/M1/t/a.txt" >"$TEST_TMP/c2" &&
	grep -qx 403 "$TEST_TMP/c2" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-u M1:pw-M1-right \
		"https://$HOST/kiln-results/M1/t/" >"$TEST_TMP/c2" &&
	grep -qx -e 403 -e 404 "$TEST_TMP/c2" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		"https://$HOST/kiln-results/M1/t/a.txt" >"$TEST_TMP/c2" &&
	grep -qx -e 401 -e 403 "$TEST_TMP/c2" &&
	"$CURL" -s -o /dev/null -w "%{http_code}\n" --cacert "$CA" \
		-T "$TEST_TMP/run1/summary.txt" \
		"https://$HOST/kiln-results/M1/x/summary.txt" >"$TEST_TMP/c3" &&
	grep -qx -e 401 -e 403 "$TEST_TMP/c3" &&
	[ ! -e "$NGINX_ROOT/M1/x" ]
'

# kiln run reads /dev/kmsg and every disk: root only, the rest does not.
if [ "$(id -u)" = 0 ]; then
test_expect_success 'kiln run: lab settings and expect file over https, ca beside kiln.cfg; kmsg.log masked' '
	mkdir -p "$TEST_TMP/stick" "${NGINX_ROOT%/*}/config" &&
	cp "$CA" "$TEST_TMP/stick/lab-ca.pem" &&
	printf "ca=lab-ca.pem\n" >"$TEST_TMP/stick/kiln.cfg" &&
	printf "max-detail=7\n" >"${NGINX_ROOT%/*}/config/M1.cfg" &&
	printf "disks=99\n" >"${NGINX_ROOT%/*}/config/M1.expect" &&
	echo "kiln tls.t: kiln.upload=https://M1:pw-M1-kmsg@lab/ kiln.auth-token=tok-kmsg-sekrit" \
		>/dev/kmsg &&
	printf "%s\n" "kiln.lab=https://M1:pw-M1-right@$HOST/ kiln.machine-id=M1 kiln.stress=off kiln.countdown=0 kiln.include=NOSUCHDISK*" \
		>"$TEST_TMP/run5.cmdline" &&
	{ timeout 300 "$KILN" run --results "$TEST_TMP/stick" \
		--cmdline "$TEST_TMP/run5.cmdline" >"$TEST_TMP/run5.out" 2>&1
	  test $? = 1; } &&
	grep_in "settings from the lab server: https://$HOST/config/M1.cfg" \
		"$TEST_TMP/run5.out" &&
	grep -Eq "^  max-detail +7 +lab server\$" "$TEST_TMP/run5.out" &&
	grep_in "the expected machine from the lab server: https://$HOST/config/M1.expect" \
		"$TEST_TMP/run5.out" &&
	grep_in "machine FAIL: disks: expected 99" "$TEST_TMP/run5.out" &&
	kmsg=$(find "$TEST_TMP/stick/kiln-results/M1" -name kmsg.log) &&
	[ -n "$kmsg" ] &&
	grep_in "kiln tls.t: kiln.upload=https://M1:***@lab/ kiln.auth-token=***" \
		"$kmsg" &&
	! grep -r -e pw-M1 -e tok-kmsg-sekrit "$TEST_TMP/stick" \
		"$TEST_TMP/run5.out"
'
else
	test_skip "kiln run reads /dev/kmsg and every disk: needs root"
fi

test_done
