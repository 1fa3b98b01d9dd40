#!/bin/sh
# needs: kiln
# No machine can read another machine's secret (issue 38): a lab of two
# machines rendered by scripts/labserver.sh and started on loopback
# (nginx's TLS site, fcgiwrap running boot/kiln-claim, a Pushgateway),
# machine A the real one and machine B the other client on the lab
# network. B fetches every file TFTP serves and every path HTTP answers
# and finds none of A's secrets; B claims A's token after A did (refused,
# shown on the server and the fleet page) and before (A's own claim is
# then refused and shown); B tries to write into A's folder and to push
# A's gauges (refused, nothing changed); of many claims at once one
# wins. A's token, claimed at boot, carries A's kiln burn upload.
[ "$(id -u)" = 0 ] || {
	echo "1..0 # SKIP the lab server's nginx and fcgiwrap run as the test's user: needs root"
	exit 0
}
. "$(dirname "$0")/../lib/tap.sh"

LS="$TOP/scripts/labserver.sh"
for t in nginx fcgiwrap prometheus-pushgateway openssl curl; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		[ -x "/usr/bin/$t" ] || test_skip_all "needs $t (scripts/deps.list)"
done

D="$TEST_TMP/lab"
cat >"$TEST_TMP/machines" <<'EOF'
52:54:00:0a:0a:0a SN-A profile=smoke after=poweroff
52:54:00:0b:0b:0b SN-B
EOF
"$LS" render --server https://127.0.0.1:8443 "$TEST_TMP/machines" "$D" \
	>"$TEST_TMP/render.out" 2>&1 ||
	test_bail "render: $(tail -n 1 "$TEST_TMP/render.out")"
test_at_exit '"$LS" stop "$D" >/dev/null 2>&1'
"$LS" start --tls "$D" >"$TEST_TMP/start.out" 2>&1 ||
	test_bail "start --tls: $(tail -n 1 "$TEST_TMP/start.out")"
. "$D/run/ports"
URL="https://127.0.0.1:$port"

# req OUT ARGS...: curl as a client of the lab, trusting its CA (as the
# image does); the body in OUT, the status on stdout.
req () {
	o=$1
	shift
	curl -s --cacert "$D/pki/lab-ca.pem" -o "$o" -w '%{http_code}' "$@"
}

# claim NAME: the status, the answer in $TEST_TMP/claim.NAME.
claim () {
	req "$TEST_TMP/claim.$1" -X POST "$URL/claim/$1"
}

# tree: every file under A's folder and its bytes, to tell "nothing changed".
tree () {
	(cd "$D/srv/kiln/kiln-results" && find . -type f -exec sha256sum {} + |
		LC_ALL=C sort)
}

test_expect_success 'no entry TFTP serves holds a credential, each says where to claim; each machine is armed' '
	grep -qx "tftp-root=$D/tftp" "$D/etc/dnsmasq.conf" &&
	[ "$(find "$D/tftp" -type f | wc -l)" = 6 ] &&
	! grep -rqiE "password|token|auth|@|secret" "$D/tftp" &&
	grep -q " kiln.claim=https://127.0.0.1:8443/claim/\$" \
		"$D/tftp/pxelinux.cfg/01-52-54-00-0a-0a-0a" &&
	[ -f "$D/state/armed/SN-A" ] && [ -f "$D/state/armed/SN-B" ] &&
	[ -z "$(ls "$D/state/users")" ]
'

test_expect_success 'A claims its token once, over TLS, with no credential; only its hash is kept' '
	test_eq "$(claim SN-A)" 200 &&
	TOKEN_A=$(cat "$TEST_TMP/claim.SN-A") &&
	[ ${#TOKEN_A} = 48 ] &&
	[ ! -e "$D/state/armed/SN-A" ] &&
	case $(cat "$D/state/users/SN-A") in "SN-A:\$6\$"*) ;; *) false ;; esac &&
	! grep -rqF "$TOKEN_A" "$D" &&
	grep -q " SN-A from 127.0.0.1: claimed\$" "$D/state/claims.log" &&
	test_eq "$(claim SN-B)" 200 && TOKEN_B=$(cat "$TEST_TMP/claim.SN-B") &&
	[ "$TOKEN_A" != "$TOKEN_B" ] &&
	test_eq "$(req /dev/null "$URL/claim/SN-A")" 403
'

test_expect_success 'A uploads its run with its token; its gauges go through too' '
	timeout 300 "$KILN" burn --size 4M --interval 1 --machine-id SN-A \
		--ca "$D/pki/lab-ca.pem" --out "$TEST_TMP/runA" \
		--upload "https://SN-A:$TOKEN_A@127.0.0.1:$port/kiln-results/" \
		--metrics "https://SN-A:$TOKEN_A@127.0.0.1:$port/pushgateway/" \
		"$TEST_TMP/runA.img" >"$TEST_TMP/runA.out" 2>&1 &&
	ls "$D/srv/kiln/kiln-results/SN-A"/runA-*/result.json &&
	! grep -rqF "$TOKEN_A" "$D/srv" "$TEST_TMP/runA.out" &&
	curl -sf "http://127.0.0.1:$gw_port/metrics" | grep -q "machine=\"SN-A\""
'

# The secrets of A and of the server that B must never be given.
secrets () {
	printf '%s\n' "$TOKEN_A"
	cut -d: -f2 "$D/state/users/SN-A"
	grep -v "^-----" "$D/pki/ca.key" "$D/pki/server.key" | cut -d: -f2 |
		head -n 4
}

# fetch_all BASE AUTH...: B GETs every file under DIR by its path from
# the web root and from DIR itself, the folders (listings), the site's
# own paths and every TFTP-served file's name; each body into got/.
fetch_all () {
	base=$1
	shift
	mkdir -p "$TEST_TMP/got"
	{
		(cd "$D" && find . -type f -o -type d) | sed "s|^\./||"
		(cd "$D/srv/kiln" && find . -type f -o -type d) | sed "s|^\./||"
		printf '%s\n' "" kiln-results/ kiln-results/SN-A/ config/ \
			fleet/ claim/ claim/SN-A pushgateway/metrics \
			pushgateway/api/v1/metrics kiln-results/SN-A/../../state/users/SN-A \
			%2e%2e/state/users/SN-A kiln-results/SN-B/..%2fSN-A/
	} | sort -u >"$TEST_TMP/paths"
	n=0
	while IFS= read -r p; do
		n=$((n + 1))
		req "$TEST_TMP/got/$n" --path-as-is "$@" "$base/$p" >/dev/null
	done <"$TEST_TMP/paths"
	[ "$n" -gt 40 ]
}

# none_given: no secret of A's in anything B was given.
none_given () {
	secrets >"$TEST_TMP/secrets"
	[ "$(wc -l <"$TEST_TMP/secrets")" -ge 4 ] &&
	! grep -rlF -f "$TEST_TMP/secrets" "$TEST_TMP/got" "$D/tftp"
}

test_expect_success 'B fetches every TFTP and HTTPS path, with no credential and with its own token: none of A'"'"'s secrets' '
	rm -rf "$TEST_TMP/got" &&
	fetch_all "$URL" && none_given &&
	rm -rf "$TEST_TMP/got" &&
	fetch_all "$URL" -u "SN-B:$TOKEN_B" && none_given
'

test_expect_success 'B claims A'"'"'s token after A did: refused (409), A'"'"'s token unchanged, shown on the server' '
	hash=$(cat "$D/state/users/SN-A") &&
	test_eq "$(claim SN-A)" 409 &&
	grep -q "^refused: its token was claimed already" "$TEST_TMP/claim.SN-A" &&
	! grep -qF "$TOKEN_A" "$TEST_TMP/claim.SN-A" &&
	test_eq "$(cat "$D/state/users/SN-A")" "$hash" &&
	test_eq "$(req /dev/null -u "SN-A:$TOKEN_A" "$URL/config/SN-A.cfg")" 200 &&
	grep -q "SN-A from 127.0.0.1: claim REFUSED: its token was claimed already" \
		"$D/state/refused" &&
	grep -q "kiln-claim: .* SN-A from 127.0.0.1: claim REFUSED" \
		"$D/run/nginx/error.log" &&
	"$LS" tokens "$D" >"$TEST_TMP/tokens.out" &&
	grep -q "^SN-A: claimed .* from 127.0.0.1\$" "$TEST_TMP/tokens.out" &&
	grep -q "^REFUSED CLAIMS (1)" "$TEST_TMP/tokens.out"
'

test_expect_success 'B claims A'"'"'s token first: the real A'"'"'s claim is refused and shown' '
	"$LS" arm "$D" SN-A >"$TEST_TMP/arm.out" &&
	grep -qx "tokens: armed SN-A (its next claim gets a fresh token)" "$TEST_TMP/arm.out" &&
	test_eq "$(claim SN-A)" 200 && STOLEN=$(cat "$TEST_TMP/claim.SN-A") &&
	test_eq "$(req /dev/null -u "SN-A:$TOKEN_A" "$URL/config/SN-A.cfg")" 401 &&
	test_eq "$(claim SN-A)" 409 &&
	[ "$(grep -c "SN-A from 127.0.0.1: claim REFUSED" "$D/state/refused")" = 2 ] &&
	"$LS" tokens "$D" | grep -q "^REFUSED CLAIMS (2)" &&
	"$LS" arm "$D" SN-A >/dev/null && test_eq "$(claim SN-A)" 200 &&
	TOKEN_A=$(cat "$TEST_TMP/claim.SN-A") && [ "$TOKEN_A" != "$STOLEN" ] &&
	test_eq "$(req /dev/null -u "SN-A:$STOLEN" "$URL/config/SN-A.cfg")" 401 &&
	! "$LS" arm "$D" SN-C 2>"$TEST_TMP/arm.err" &&
	grep -q "SN-C: not a machine of" "$TEST_TMP/arm.err"
'

test_expect_success 'the fleet page shows the refused claims' '
	"$LS" fleet "$D" &&
	grep -q "refused token claim" "$D/srv/kiln/fleet/fleet.html" &&
	grep -q "SN-A from 127.0.0.1: claim REFUSED" "$D/srv/kiln/fleet/fleet.html"
'

test_expect_success 'B writes into A'"'"'s folder and pushes A'"'"'s gauges: refused, nothing changed' '
	tree >"$TEST_TMP/before" &&
	run=$(basename "$D/srv/kiln/kiln-results/SN-A"/runA-*) &&
	printf "forged\n" >"$TEST_TMP/forged" &&
	for u in "SN-A/$run/result.json" "SN-A/$run/new.txt" "SN-A/other/x" \
		"SN-B/../SN-A/x" "SN-B%2f..%2fSN-A/x" "SN-A%2fx" "SN-B/%2e%2e/SN-A/x"; do
		for who in "SN-B:$TOKEN_B" "SN-A:$TOKEN_B" "SN-A:" "SN-A:$STOLEN" ""; do
			s=$(req /dev/null --path-as-is ${who:+-u "$who"} -T "$TEST_TMP/forged" \
				"$URL/kiln-results/$u") &&
			# 412: a name that is there, told before the
			# credential is checked (nginx'"'"'s rewrite phase).
			case $s in
			401 | 403 | 404 | 409 | 412) ;;
			*) echo "# $who $u: $s"; return 1 ;;
			esac || return 1
		done
	done &&
	tree >"$TEST_TMP/after" && cmp "$TEST_TMP/before" "$TEST_TMP/after" &&
	! grep -rqF forged "$D/srv/kiln/kiln-results" &&
	test_eq "$(req /dev/null -u "SN-B:$TOKEN_B" -X PUT --data-binary @"$TEST_TMP/forged" \
		"$URL/pushgateway/metrics/job/kiln/machine/SN-A")" 403 &&
	test_eq "$(req /dev/null -u "SN-B:$TOKEN_B" -T "$TEST_TMP/forged" \
		"$URL/kiln-results/SN-B/r1/x.txt")" 201
'

test_expect_success 'of many claims at once, one wins; every other is refused and shown' '
	"$LS" arm "$D" SN-B >/dev/null &&
	: >"$D/state/refused" &&
	pids="" &&
	for i in 1 2 3 4 5 6 7 8; do
		req "$TEST_TMP/race.$i" -X POST "$URL/claim/SN-B" >"$TEST_TMP/race.$i.code" &
		pids="$pids $!"
	done &&
	wait $pids &&
	test_eq "$(grep -lx 200 "$TEST_TMP"/race.*.code | wc -l)" 1 &&
	test_eq "$(grep -lx 409 "$TEST_TMP"/race.*.code | wc -l)" 7 &&
	test_eq "$(wc -l <"$D/state/refused")" 7
'

test_expect_success 'the plain HTTP site over the same folder: B fetches every path, none of A'"'"'s secrets' '
	"$LS" stop "$D" >/dev/null &&
	"$LS" start "$D" >"$TEST_TMP/start-http.out" 2>&1 &&
	. "$D/run/ports" &&
	test_eq "$(req /dev/null "http://127.0.0.1:$port/kiln-results/SN-A/")" 200 &&
	rm -rf "$TEST_TMP/got" &&
	fetch_all "http://127.0.0.1:$port" && none_given &&
	test_eq "$(req /dev/null -X POST "http://127.0.0.1:$port/claim/SN-B")" 403
'

test_done
