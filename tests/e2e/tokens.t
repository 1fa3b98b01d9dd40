#!/bin/sh
# slow: a QEMU boot. The image's own token claim (issue 38) against a lab
# server rendered and started by scripts/labserver.sh (start --tls: nginx's
# TLS site, fcgiwrap running boot/kiln-claim) on loopback, which the guest
# reaches through QEMU's user-mode network (10.0.2.2): its entry's keys
# carry no credential, the init claims the machine's one-time token over
# https with the lab's CA from the stick, kiln run uploads with it as the
# machine's password, and the token is printed nowhere; the claim is then
# spent, so the next claim of that machine is refused.
. "$(dirname "$0")/../lib/e2e.sh"

LS="$TOP/scripts/labserver.sh"
for t in nginx fcgiwrap prometheus-pushgateway openssl; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		[ -x "/usr/bin/$t" ] || test_skip_all "needs $t (scripts/deps.list)"
done
. "$TOP/scripts/labservers.sh"

D="$TEST_TMP/lab"
port=$(free_port)
printf '52:54:00:12:34:56 SN-TOK-A\n' >"$TEST_TMP/machines"
"$LS" render --server "https://10.0.2.2:$port" "$TEST_TMP/machines" "$D" \
	>"$TEST_TMP/render.out" 2>&1 ||
	test_bail "render: $(tail -n 1 "$TEST_TMP/render.out")"
test_at_exit '"$LS" stop "$D" >/dev/null 2>&1'
LABSERVER_PORT=$port "$LS" start --tls "$D" >"$TEST_TMP/start.out" 2>&1 ||
	test_bail "start --tls: $(tail -n 1 "$TEST_TMP/start.out")"

test_expect_success 'the image claims its token at boot and uploads with it; the token printed nowhere' '
	entry=$(sed -n "s/^	APPEND //p" "$D/tftp/pxelinux.cfg/01-52-54-00-12-34-56") &&
	keys=$(printf "%s\n" $entry | grep "^kiln\\.") &&
	! printf "%s\n" "$keys" | grep -q "@" &&
	lab_init "$TEST_TMP/a" && lab_disk ahci one 24 SN-TOK-A-ONE &&
	lab_stick "ca=lab-ca.pem" &&
	MTOOLS_SKIP_CHECK=1 mcopy -i "$lab_dir/stick.img@@1M" \
		"$D/pki/lab-ca.pem" ::lab-ca.pem &&
	boot a "$(echo $keys) kiln.span=4M" &&
	grep_in "kiln-init: token: claimed for SN-TOK-A at https://10.0.2.2:$port/claim/" \
		"$TEST_TMP/a.log" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/a.log" &&
	dir=$(ls -d "$D/srv/kiln/kiln-results/SN-TOK-A"/*/) &&
	[ -s "${dir}result.json" ] &&
	[ -s "$D/state/users/SN-TOK-A" ] && [ ! -e "$D/state/armed/SN-TOK-A" ] &&
	! grep -a -rEq "SN-TOK-A:[0-9a-f]{48}" "$TEST_TMP/a.log" \
		"$TEST_TMP/a.results" "$dir" &&
	[ ! -s "$D/state/refused" ]
'

test_expect_success 'the token is spent: a claim of the machine now is refused and shown' '
	[ "$(curl -s -o /dev/null -w "%{http_code}" --cacert "$D/pki/lab-ca.pem" \
		-X POST "https://127.0.0.1:$port/claim/SN-TOK-A")" = 409 ] &&
	grep -q "SN-TOK-A from 127.0.0.1: claim REFUSED" "$D/state/refused"
'

e2e_done
