#!/bin/sh
# needs: kiln
# scripts/labserver.sh, the lab server in one command: from a machines
# file of 3 machines, each machine's pxelinux, GRUB and iPXE entry with
# its kernel arguments, its lab settings and expect file served by its
# id, each machine armed for a one-time token (none on an entry), the
# lab CA and server certificate made once, dnsmasq's config passing
# dnsmasq --test and the systemd units passing systemd-analyze verify;
# install --root (with and without --tls) putting them, nginx's site,
# kiln-dnsmasq.service and the drop-ins for Debian's nginx and Pushgateway
# under a folder, held to systemd-analyze verify and nginx -t, and
# refusing without --root where systemd does not run the machine (never
# started); a rerun with one line
# changed writes only that machine's files and says so; a bad line is
# exit 2 naming its line, nothing written; started on loopback ports as
# this user, it takes a kiln burn's upload and renders the fleet page.
. "$(dirname "$0")/../lib/tap.sh"

LS="$TOP/scripts/labserver.sh"
command -v openssl >/dev/null 2>&1 || test_skip_all "needs openssl (scripts/deps.list)"

D="$TEST_TMP/lab"
mkdir -p "$TEST_TMP/m"
printf 'disks=8\n' >"$TEST_TMP/m/golden.expect"
cat >"$TEST_TMP/m/machines" <<'EOF'
# the lab's machines: MAC NAME [KEY=VALUE]... [expect=FILE]
52:54:00:12:34:56 SN-0001 profile=smoke after=poweroff

52-54-00-AB-CD-EF SN-0002 expect=golden.expect	# an expect file beside
52:54:00:00:00:03 SN-0003 mode=read
EOF
SERVER=http://10.0.2.2:8080
render () {
	"$LS" render --server "$SERVER" --metrics http://10.0.2.2:9091/ \
		"$@" >"$TEST_TMP/render.out" 2>&1
}

test_expect_success 'three machines: a pxelinux, GRUB and iPXE entry each, with its kernel arguments' '
	render "$TEST_TMP/m/machines" "$D" &&
	lab=" kiln.upload=$SERVER/kiln-results/ kiln.lab=$SERVER/ kiln.metrics=http://10.0.2.2:9091/" &&
	for m in 52-54-00-12-34-56:SN-0001:" kiln.after=poweroff" \
		52-54-00-ab-cd-ef:SN-0002: 52-54-00-00-00-03:SN-0003:; do
		mac=${m%%:*} rest=${m#*:} && name=${rest%%:*} && extra=${rest#*:} &&
		want="console=tty0 console=ttyS0,115200n8 quiet kiln.machine-id=$name$extra$lab" &&
		grep -qxF "	APPEND $want" "$D/tftp/pxelinux.cfg/01-$mac" &&
		grep -qxF "	linux /kiln/vmlinuz $want BOOTIF=01-\$net_default_mac" \
			"$D/tftp/grub/grub.cfg-01-$mac" &&
		grep -qxF "kernel kiln/vmlinuz $want BOOTIF=01-\${netX/mac:hexhyp}" \
			"$D/tftp/kiln.ipxe-01-$mac" || { echo "# $name"; return 1; }
	done &&
	[ "$(ls "$D/tftp/pxelinux.cfg" | wc -l)" = 3 ] &&
	[ "$(ls "$D/tftp/grub" | wc -l)" = 3 ]
'

test_expect_success 'lab settings and the expect file by machine id; each machine armed for a token, none on an entry' '
	[ "$(grep -v "^#" "$D/srv/kiln/config/SN-0001.cfg")" = profile=smoke ] &&
	[ "$(grep -v "^#" "$D/srv/kiln/config/SN-0003.cfg")" = mode=read ] &&
	[ ! -e "$D/srv/kiln/config/SN-0002.cfg" ] &&
	cmp "$TEST_TMP/m/golden.expect" "$D/srv/kiln/config/SN-0002.expect" &&
	[ "$(ls "$D/state/armed" | tr "\n" " ")" = "SN-0001 SN-0002 SN-0003 " ] &&
	[ -z "$(ls "$D/state/users")" ] &&
	[ "$(stat -c %a "$D/state")" = 700 ] &&
	! grep -rqi "password\|token" "$D/tftp"
'

test_expect_success 'the lab CA and the server certificate, made once, and how to build the image' '
	grep -qF "make image LAB_CA=$D/pki/lab-ca.pem" "$TEST_TMP/render.out" &&
	openssl verify -CAfile "$D/pki/lab-ca.pem" "$D/pki/server.pem" &&
	openssl x509 -in "$D/pki/server.pem" -noout -ext subjectAltName |
		grep -q "IP Address:10.0.2.2" &&
	cp "$D/pki/lab-ca.pem" "$TEST_TMP/ca-before"
'

test_expect_success 'dnsmasq: TFTP and proxy-DHCP from the lab folder, held to dnsmasq --test' '
	if ! command -v dnsmasq >/dev/null 2>&1; then
		echo "# SKIP needs dnsmasq (scripts/deps.list)"; return 0
	fi
	grep -qx "tftp-root=$D/tftp" "$D/etc/dnsmasq.conf" &&
	grep -qx "dhcp-range=192.168.50.0,proxy" "$D/etc/dnsmasq.conf" &&
	dnsmasq --test -C "$D/etc/dnsmasq.conf"
'

test_expect_success 'the systemd units: the fleet page on a timer and a path, the prune daily' '
	for u in kiln-fleet.service kiln-fleet.timer kiln-fleet.path \
		kiln-pushgateway-prune.service kiln-pushgateway-prune.timer; do
		[ -s "$D/systemd/$u" ] || return 1
	done &&
	grep -qx "ExecStart=$TOP/scripts/labserver.sh fleet $D" "$D/systemd/kiln-fleet.service" &&
	if command -v systemd-analyze >/dev/null 2>&1; then
		(cd "$D/systemd" && systemd-analyze verify --man=no \
			kiln-fleet.service kiln-fleet.timer kiln-fleet.path \
			kiln-pushgateway-prune.service kiln-pushgateway-prune.timer) \
			>"$TEST_TMP/verify" 2>&1 ||
		{ sed -e "s/^/# /" "$TEST_TMP/verify"; return 1; }
	fi
'

# verify ROOT UNIT...: systemd-analyze verify of the units under ROOT's
# /etc/systemd/system with their drop-ins (Debian's own units, nginx's
# and the Pushgateway's, from the system's folders), a word of it a
# failure, said.
verify () {
	vroot=$1
	shift
	command -v systemd-analyze >/dev/null 2>&1 || {
		echo "# systemd-analyze missing: the units not verified"; return 0
	}
	(cd "$vroot/etc/systemd/system" &&
		SYSTEMD_UNIT_PATH="$PWD:" systemd-analyze verify --man=no "$@") \
		>"$TEST_TMP/verify" 2>&1 && [ ! -s "$TEST_TMP/verify" ] ||
	{ sed -e "s/^/# /" "$TEST_TMP/verify"; return 1; }
}

# nginx_t ROOT: nginx -t on the site install put under ROOT, in the
# least http block.
nginx_t () {
	command -v nginx >/dev/null 2>&1 || {
		echo "# nginx missing: the site not held to nginx -t"; return 0
	}
	n="$TEST_TMP/nginx-t" && mkdir -p "$n" &&
	cat >"$n/nginx.conf" <<-EOF &&
	error_log $n/error.log;
	pid $n/nginx.pid;
	events {
	}
	http {
		client_body_temp_path $n/body;
		proxy_temp_path $n/proxy;
		include $1/etc/nginx/conf.d/*.conf;
	}
	EOF
	nginx -q -t -p "$n/" -e "$n/error.log" -c "$n/nginx.conf" \
		>"$n/out" 2>&1 || { sed -e "s/^/# /" "$n/out"; return 1; }
}

test_expect_success 'the fleet page'"'"'s path unit: the results and each machine'"'"'s folder' '
	test_eq "$(grep "^PathChanged=" "$D/systemd/kiln-fleet.path" | tr "\n" " ")" \
		"PathChanged=$D/srv/kiln/kiln-results PathChanged=$D/srv/kiln/kiln-results/SN-0001 PathChanged=$D/srv/kiln/kiln-results/SN-0002 PathChanged=$D/srv/kiln/kiln-results/SN-0003 "
'

UNITS="kiln-fleet.service kiln-fleet.path kiln-fleet.timer kiln-pushgateway-prune.service kiln-pushgateway-prune.timer kiln-dnsmasq.service"
# The drop-ins with Debian's units they change, where those are installed.
for u in nginx.service prometheus-pushgateway.service; do
	if [ -f "/lib/systemd/system/$u" ] || [ -f "/usr/lib/systemd/system/$u" ]; then
		UNITS="$UNITS $u"
	else
		echo "# no $u here: its drop-in not verified"
	fi
done
test_expect_success 'install --root: the units, drop-ins and nginx site, held to systemd-analyze verify and nginx -t' '
	R="$TEST_TMP/root" &&
	"$LS" install --root "$R" "$D" >"$TEST_TMP/install.out" 2>&1 &&
	grep -qx "install: rendered under $R, nothing started" "$TEST_TMP/install.out" &&
	sd="$R/etc/systemd/system" &&
	for u in kiln-fleet.service kiln-fleet.timer kiln-fleet.path \
		kiln-pushgateway-prune.service kiln-pushgateway-prune.timer; do
		cmp "$D/systemd/$u" "$sd/$u" || return 1
	done &&
	grep -qx "ExecStart=/usr/sbin/dnsmasq -k --pid-file -C $D/etc/dnsmasq.conf" \
		"$sd/kiln-dnsmasq.service" &&
	grep -qx "ExecStart=/usr/bin/prometheus-pushgateway --web.listen-address=:9091" \
		"$sd/prometheus-pushgateway.service.d/kiln.conf" &&
	grep -qx "RequiresMountsFor=$D/srv/kiln" "$sd/nginx.service.d/kiln.conf" &&
	grep -q "root $D/srv/kiln;" "$R/etc/nginx/conf.d/kiln.conf" &&
	! grep -q " /srv/kiln" "$R/etc/nginx/conf.d/kiln.conf" &&
	[ -d "$D/srv/kiln-tmp" ] && [ -d "$D/srv/kiln/kiln-results" ] &&
	verify "$R" $UNITS &&
	nginx_t "$R" &&
	# Nothing of the real system touched.
	[ ! -e /etc/systemd/system/kiln-fleet.path ] &&
	[ ! -e /etc/nginx/conf.d/kiln.conf ]
'

test_expect_success 'install --tls --root: the TLS site in its place, the Pushgateway on loopback only' '
	R="$TEST_TMP/root" &&
	"$LS" install --tls --root "$R" "$D" >"$TEST_TMP/install.out" 2>&1 &&
	[ ! -e "$R/etc/nginx/conf.d/kiln.conf" ] &&
	grep -q "ssl_certificate $D/pki/server.pem;" "$R/etc/nginx/conf.d/kiln-tls.conf" &&
	grep -q "auth_basic_user_file $D/state/users/\$kiln_user;" "$R/etc/nginx/conf.d/kiln-tls.conf" &&
	! grep -v "^[[:space:]]*#" "$R/etc/nginx/conf.d/kiln-tls.conf" | grep -q "/etc/nginx/kiln" &&
	grep -q "SCRIPT_FILENAME $D/etc/kiln-claim;" "$R/etc/nginx/conf.d/kiln-tls.conf" &&
	[ -x "$D/etc/kiln-claim" ] && cmp "$TOP/boot/kiln-claim" "$D/etc/kiln-claim" &&
	grep -qx "ExecStart=/usr/bin/prometheus-pushgateway --web.listen-address=127.0.0.1:9091" \
		"$R/etc/systemd/system/prometheus-pushgateway.service.d/kiln.conf" &&
	verify "$R" $UNITS &&
	nginx_t "$R"
'

test_expect_success 'install of no rendered lab: exit 2, nothing written' '
	mkdir -p "$TEST_TMP/empty" &&
	{ "$LS" install --root "$TEST_TMP/root2" "$TEST_TMP/empty" 2>"$TEST_TMP/i.err"; test $? = 2; } &&
	grep -q "no rendered lab" "$TEST_TMP/i.err" &&
	[ ! -e "$TEST_TMP/root2" ]
'

# Without --root, install changes the machine: only where it will refuse.
if [ -d /run/systemd/system ]; then
	test_skip "install without --root: systemd runs this machine, and install would set its lab up (the units are verified above)"
elif [ "$(id -u)" != 0 ]; then
	test_expect_success 'install without --root as a user: exit 1, said, nothing written' '
		{ "$LS" install "$D" 2>"$TEST_TMP/i.err"; test $? = 1; } &&
		grep -q "run it as root" "$TEST_TMP/i.err"
	'
else
	test_expect_success 'install without --root, systemd not running this machine (PID 1 is not systemd): exit 1, said, nothing written' '
		{ "$LS" install "$D" 2>"$TEST_TMP/i.err"; test $? = 1; } &&
		grep -q "systemd does not run this machine" "$TEST_TMP/i.err" &&
		[ ! -e /etc/systemd/system/kiln-fleet.path ]
	'
fi

test_expect_success 'run again unchanged: nothing written, and said' '
	render "$TEST_TMP/m/machines" "$D" &&
	! grep -q "^\(added\|changed\|removed\):" "$TEST_TMP/render.out" &&
	grep -qx "unchanged: 18 files" "$TEST_TMP/render.out" &&
	grep -q "^pki: kept " "$TEST_TMP/render.out" &&
	cmp "$TEST_TMP/ca-before" "$D/pki/lab-ca.pem"
'

test_expect_success 'one line changed: only that machine'"'"'s files, each said' '
	sed -i "s/^52:54:00:00:00:03 SN-0003 mode=read\$/52:54:00:00:00:03 SN-0003 mode=read settle=20/" \
		"$TEST_TMP/m/machines" &&
	render "$TEST_TMP/m/machines" "$D" &&
	grep "^\(added\|changed\|removed\):" "$TEST_TMP/render.out" >"$TEST_TMP/said" &&
	test_eq "$(cat "$TEST_TMP/said" | tr "\n" " ")" \
		"changed: tftp/grub/grub.cfg-01-52-54-00-00-00-03 changed: tftp/kiln.ipxe-01-52-54-00-00-00-03 changed: tftp/pxelinux.cfg/01-52-54-00-00-00-03 " &&
	grep -qx "unchanged: 15 files" "$TEST_TMP/render.out" &&
	grep -q "kiln.machine-id=SN-0003 kiln.settle=20 " "$D/tftp/pxelinux.cfg/01-52-54-00-00-00-03"
'

test_expect_success 'a machine gone: its files removed, and said' '
	sed -i "/SN-0002/d" "$TEST_TMP/m/machines" &&
	render "$TEST_TMP/m/machines" "$D" &&
	grep -qx "removed: tftp/pxelinux.cfg/01-52-54-00-ab-cd-ef" "$TEST_TMP/render.out" &&
	grep -qx "removed: srv/kiln/config/SN-0002.expect" "$TEST_TMP/render.out" &&
	[ ! -e "$D/tftp/grub/grub.cfg-01-52-54-00-ab-cd-ef" ] &&
	[ ! -e "$D/state/armed/SN-0002" ]
'

# bad LINE...: a machines file of those lines is exit 2 with one line
# naming the file and line AT, and nothing written.
bad () {
	at=$1
	shift
	printf '%s\n' "$@" >"$TEST_TMP/bad"
	"$LS" render --server "$SERVER" "$TEST_TMP/bad" "$TEST_TMP/badlab" \
		>"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"
	code=$?
	[ "$code" = 2 ] && [ ! -s "$TEST_TMP/bad.out" ] &&
	[ "$(wc -l <"$TEST_TMP/bad.err")" = 1 ] &&
	grep -q "^labserver: $TEST_TMP/bad:$at: " "$TEST_TMP/bad.err" &&
	[ ! -e "$TEST_TMP/badlab" ] || {
		echo "# exit $code: $(cat "$TEST_TMP/bad.err")"
		return 1
	}
}

test_expect_success 'a bad line: exit 2, one line naming its line number, nothing written' '
	bad 2 "52:54:00:12:34:56 A" "zz:54:00:12:34:57 B" &&
	grep -q "not a MAC" "$TEST_TMP/bad.err" &&
	bad 3 "# c" "" "52:54:00:12:34:56 A profile=nope" &&
	grep -q "profile" "$TEST_TMP/bad.err" &&
	bad 2 "52:54:00:12:34:56 A" "52-54-00-12-34-56 B" &&
	grep -q "earlier line" "$TEST_TMP/bad.err" &&
	bad 2 "52:54:00:12:34:56 A" "52:54:00:12:34:57 A" &&
	bad 1 "52:54:00:12:34:56" &&
	bad 1 "52:54:00:12:34:56 A/B" &&
	bad 1 "52:54:00:12:34:56 A expect=missing.expect" &&
	bad 1 "52:54:00:12:34:56 A profile=smoke\$x" &&
	bad 1 "52:54:00:12:34:56 A notakey=1"
'

NGINX=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
PG=$(command -v prometheus-pushgateway 2>/dev/null || echo /usr/bin/prometheus-pushgateway)
if [ -x "$NGINX" ] && [ -x "$PG" ]; then
	test_at_exit '"$LS" stop "$D" >/dev/null 2>&1'
	test_expect_success 'started on loopback as this user: nginx and the Pushgateway answer' '
		"$LS" start "$D" >"$TEST_TMP/start.out" 2>&1 &&
		. "$D/run/ports" &&
		grep -q "uploads to http://127.0.0.1:$port/kiln-results/" "$TEST_TMP/start.out" &&
		curl -sf "http://127.0.0.1:$gw_port/metrics" >/dev/null &&
		curl -sf "http://127.0.0.1:$port/config/SN-0001.cfg" |
			grep -qx profile=smoke &&
		! "$LS" start "$D" 2>"$TEST_TMP/again.err" &&
		grep -q "already started" "$TEST_TMP/again.err"
	'

	test_expect_success 'a kiln burn uploads to it and the fleet page shows the machine' '
		timeout 300 "$KILN" burn --size 4M --interval 1 --machine-id SN-0001 \
			--out "$TEST_TMP/run1" \
			--upload "http://127.0.0.1:$port/kiln-results/" \
			--metrics "http://127.0.0.1:$gw_port/" \
			"$TEST_TMP/run1.img" >"$TEST_TMP/run1.out" 2>&1 &&
		ls "$D/srv/kiln/kiln-results/SN-0001"/run1-*/result.json &&
		"$LS" fleet "$D" &&
		curl -sf "http://127.0.0.1:$port/fleet/fleet.html" >"$TEST_TMP/fleet.html" &&
		grep -q "SN-0001" "$TEST_TMP/fleet.html" &&
		curl -sf "http://127.0.0.1:$gw_port/metrics" | grep -q "machine=\"SN-0001\""
	'

	test_expect_success 'stop: both servers gone' '
		ngx=$(cat "$D/run/nginx.pid") && pg=$(cat "$D/run/pushgateway.pid") &&
		"$LS" stop "$D" >/dev/null &&
		! kill -0 "$ngx" 2>/dev/null && ! kill -0 "$pg" 2>/dev/null &&
		! curl -s "http://127.0.0.1:$port/" >/dev/null
	'
	test_expect_success 'start --tls: the machine'"'"'s own claimed token and the lab CA, the Pushgateway behind TLS' '
		"$LS" start --tls "$D" >"$TEST_TMP/tls.out" 2>&1 &&
		. "$D/run/ports" &&
		pw=$(curl -sf --cacert "$D/pki/lab-ca.pem" -X POST \
			"https://127.0.0.1:$port/claim/SN-0003") && [ ${#pw} = 48 ] &&
		! grep -qF "$pw" "$TEST_TMP/tls.out" &&
		curl -sf --cacert "$D/pki/lab-ca.pem" -u "SN-0003:$pw" \
			"https://127.0.0.1:$port/config/SN-0003.cfg" | grep -qx mode=read &&
		[ "$(curl -s -o /dev/null -w "%{http_code}" --cacert "$D/pki/lab-ca.pem" \
			-u "SN-0003:wrong" "https://127.0.0.1:$port/config/SN-0003.cfg")" = 401 ] &&
		timeout 300 "$KILN" burn --size 4M --interval 1 --machine-id SN-0003 \
			--ca "$D/pki/lab-ca.pem" --out "$TEST_TMP/run3" \
			--upload "https://SN-0003:$pw@127.0.0.1:$port/kiln-results/" \
			--metrics "https://SN-0003:$pw@127.0.0.1:$port/pushgateway/" \
			"$TEST_TMP/run3.img" >"$TEST_TMP/run3.out" 2>&1 &&
		ls "$D/srv/kiln/kiln-results/SN-0003"/run3-*/result.json &&
		curl -sf "http://127.0.0.1:$gw_port/metrics" | grep -q "machine=\"SN-0003\"" &&
		"$LS" stop "$D" >/dev/null
	'
else
	test_skip 'the loopback lab' "needs nginx and prometheus-pushgateway (scripts/deps.list)"
fi

test_done
