# labservers.sh: a lab's servers on free ports of 127.0.0.1, Debian's own
# (nginx serving boot/nginx-kiln.conf, a Pushgateway), for make lab
# LAB_BOOT=pxe (scripts/lab.sh) and the tests (tests/lib/servers.sh).
# Sourced, with lab_top set to the tree; each function says what it sets.
#
#	free_port			a free TCP port of 127.0.0.1
#	wait_http URL			until anything answers HTTP there
#					(any status), at most 10 s
#	labservers_nginx_conf DIR PORT SRV [SITE [GW_PORT]]
#					DIR/nginx.conf: SITE (default
#					boot/nginx-kiln.conf) on 127.0.0.1:PORT,
#					/srv/kiln as SRV, /etc/nginx/kiln as
#					DIR, the Pushgateway it proxies on
#					GW_PORT (9091), /var/lib/kiln (the
#					tokens) as DIR/state, fcgiwrap's
#					socket DIR/fcgiwrap.sock, run as
#					this user
#	labservers_nginx DIR		starts nginx on DIR/nginx.conf in
#					the background: nginx_pid
#	labservers_pushgateway PORT LOG	starts a Pushgateway that keeps
#					nothing on disk: pg_pid

NGINX=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
PG=$(command -v prometheus-pushgateway 2>/dev/null ||
	echo /usr/bin/prometheus-pushgateway)

free_port () {
	python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# http_answers URL: whether anything answers HTTP there (any status).
http_answers () {
	python3 - "$1" <<'HTTP'
import ssl, sys, urllib.request, urllib.error
# Only whether a server is there: its certificate is the caller's business.
ctx = ssl._create_unverified_context()
try:
    urllib.request.urlopen(sys.argv[1], timeout=1, context=ctx)
except urllib.error.HTTPError:
    pass
except Exception:
    sys.exit(1)
HTTP
}

# wait_http URL: until something answers there, at most 10 s.
wait_http () {
	i=0
	while [ "$i" -lt 100 ]; do
		http_answers "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# The shipped server block inside the least nginx.conf that runs as this
# user (one process, no switch to another user, every file of its own).
labservers_nginx_conf () {
	mkdir -p "$1" "$3/kiln-results"
	sed -e "s|listen [0-9]*\( ssl\)*;|listen 127.0.0.1:$2\1;|" \
		-e '/listen \[::\]:[0-9]*/d' \
		-e "s|/srv/kiln|$3|g" \
		-e "s|/etc/nginx/kiln|$1|g" \
		-e "s|127.0.0.1:9091|127.0.0.1:${5:-9091}|g" \
		-e "s|/var/lib/kiln|$1/state|g" \
		-e "s|unix:/run/fcgiwrap.socket|unix:$1/fcgiwrap.sock|g" \
		"$lab_top/${4:-boot/nginx-kiln.conf}" >"$1/kiln.conf"
	cat >"$1/nginx.conf" <<EOF
daemon off;
master_process off;
error_log $1/error.log info;
pid $1/nginx.pid;
events {
	worker_connections 64;
}
http {
	access_log $1/access.log;
	client_body_temp_path $1/body;
	proxy_temp_path $1/proxy;
	fastcgi_temp_path $1/fastcgi;
	uwsgi_temp_path $1/uwsgi;
	scgi_temp_path $1/scgi;
	include $1/kiln.conf;
}
EOF
}

labservers_nginx () {
	"$NGINX" -e "$1/error.log" -p "$1/" -c "$1/nginx.conf" \
		>>"$1/out.log" 2>&1 &
	nginx_pid=$!
}

labservers_pushgateway () {
	"$PG" --web.listen-address="127.0.0.1:$1" --persistence.file="" \
		>"$2" 2>&1 &
	pg_pid=$!
}
