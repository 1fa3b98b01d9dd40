# The lab's servers a test starts for itself, Debian's own, on free ports
# of 127.0.0.1, stopped when the test ends (source after tap.sh):
#   servers_nginx       nginx serving boot/nginx-kiln.conf as a lab would:
#                       $NGINX_URL, files under $NGINX_ROOT (= the upload
#                       root), start_nginx / stop_nginx to restart it;
#                       NGINX_SITE=boot/nginx-kiln-tls.conf for the TLS
#                       one (its /etc/nginx/kiln/ files are then $NGX's:
#                       servers_pki's certificate, servers_htpasswd's
#                       users; its Pushgateway port $NGINX_GW_PORT)
#   servers_pki IP...   a lab CA ($PKI/ca.pem), a CA of nobody's
#                       ($PKI/other.pem) and a server certificate the lab
#                       CA signs for 127.0.0.1 and each IP, made by openssl
#   servers_htpasswd USER:PASSWORD...  nginx's htpasswd of those users
#                       (and each user's own file, state/users/USER, as
#                       boot/kiln-claim writes a claimed token's)
#   servers_pushgateway a Pushgateway: $GW; gw_fetch NAME writes its
#                       /metrics to $TEST_TMP/NAME, gw_sample reads one
# Each returns non-zero when its server does not come up, with its log on
# stdout as TAP comments.

lab_top=${lab_top:-$TOP}
. "$TOP/scripts/labservers.sh"

servers_pki () {
	PKI="$TEST_TMP/pki"
	mkdir -p "$PKI"
	san="IP:127.0.0.1,DNS:localhost"
	for ip in "$@"; do
		san="$san,IP:$ip"
	done
	(
		cd "$PKI" &&
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
			-subj "/CN=kiln lab CA" -keyout ca.key -out ca.pem &&
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
			-subj "/CN=other CA" -keyout other.key -out other.pem &&
		openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
			-keyout server.key -out server.csr &&
		printf 'subjectAltName=%s\n' "$san" >san.ext &&
		openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key \
			-CAcreateserial -days 2 -extfile san.ext -out server.pem
	) >"$PKI/openssl.log" 2>&1 || {
		sed -e 's/^/# /' "$PKI/openssl.log"
		return 1
	}
}

servers_htpasswd () {
	mkdir -p "$TEST_TMP/nginx/state/users"
	: >"$TEST_TMP/nginx/htpasswd"
	for up in "$@"; do
		printf '%s:%s\n' "${up%%:*}" "$(openssl passwd -apr1 "${up#*:}")" \
			>>"$TEST_TMP/nginx/htpasswd" || return 1
		# The TLS site checks each user's own file, as a claim writes it.
		grep "^${up%%:*}:" "$TEST_TMP/nginx/htpasswd" \
			>"$TEST_TMP/nginx/state/users/${up%%:*}" || return 1
	done
}

# The shipped server block, on a free port and under $TEST_TMP.
servers_nginx () {
	NGX="$TEST_TMP/nginx"
	NGINX_ROOT="$TEST_TMP/srv/kiln/kiln-results"
	nginx_port=$(free_port)
	site=${NGINX_SITE:-boot/nginx-kiln.conf}
	scheme=http
	grep -q 'listen [0-9]* ssl;' "$TOP/$site" && scheme=https
	NGINX_URL="$scheme://127.0.0.1:$nginx_port"
	labservers_nginx_conf "$NGX" "$nginx_port" "$TEST_TMP/srv/kiln" \
		"$site" "${NGINX_GW_PORT:-9091}"
	[ "$scheme" = http ] || cp "$PKI/server.pem" "$PKI/server.key" "$NGX/"
	nginx_pid=""
	test_at_exit '[ -z "$nginx_pid" ] || kill "$nginx_pid"'
	start_nginx || {
		sed -e 's/^/# /' "$NGX/out.log" "$NGX/error.log"
		return 1
	}
}

start_nginx () {
	labservers_nginx "$NGX"
	wait_http "$NGINX_URL/"
}

stop_nginx () {
	[ -n "$nginx_pid" ] || return 0
	kill "$nginx_pid" && wait "$nginx_pid"
	nginx_pid=""
}

servers_pushgateway () {
	pg_port=$(free_port)
	GW="http://127.0.0.1:$pg_port"
	labservers_pushgateway "$pg_port" "$TEST_TMP/pushgateway.log"
	test_at_exit "kill $pg_pid"
	wait_http "$GW/metrics" || {
		sed -e 's/^/# /' "$TEST_TMP/pushgateway.log"
		return 1
	}
}

# gw_fetch NAME: the gateway's /metrics into $TEST_TMP/NAME.
gw_fetch () {
	python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"$GW/metrics" >"$TEST_TMP/$1"
}

# gw_sample NAME METRIC VALUE [LABEL=VALUE]...: whether $TEST_TMP/NAME has
# a sample of METRIC with these labels (values as the format escapes
# them) and this value ("*": any).
gw_sample () {
	file=$1 metric=$2 value=$3
	shift 3
	python3 - "$TEST_TMP/$file" "$metric" "$value" "$@" <<'EOF'
import re, sys
path, metric, value = sys.argv[1:4]
want = dict(a.split("=", 1) for a in sys.argv[4:])
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
for line in open(path, encoding="utf-8"):
    m = line_re.match(line.rstrip("\n"))
    if not m or m.group(1) != metric:
        continue
    labels = dict(label_re.findall(m.group(2) or ""))
    if all(labels.get(k) == v for k, v in want.items()) and \
            (value == "*" or float(m.group(3)) == float(value)):
        sys.exit(0)
print("# no %s %s %s in %s" % (metric, want, value, path))
sys.exit(1)
EOF
}
