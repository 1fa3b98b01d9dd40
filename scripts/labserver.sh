#!/bin/sh
# labserver.sh: a kiln lab server from one machines file, Debian's
# packages only (nginx, prometheus-pushgateway, dnsmasq, openssl).
#
#   labserver.sh render --server URL [--metrics URL] MACHINES DIR
#	every machine's boot entry (pxelinux, GRUB, iPXE) under DIR/tftp/,
#	its lab settings and expect file under DIR/srv/kiln/config/,
#	the lab CA and the server's certificate (made once, when DIR/pki has
#	none), dnsmasq's TFTP and proxy-DHCP config and the systemd units;
#	again with a changed file, only what changed is written, and each
#	file is said (added, changed, removed, unchanged). A machine new to
#	the file is armed: its first token claim is honoured. No entry
#	carries a credential (TFTP serves them to anyone)
#   labserver.sh arm DIR NAME... | --all	arms each machine again: its
#	next claim gets a fresh token (boot/kiln-claim; DIR/state/)
#   labserver.sh tokens DIR	each machine's token: armed, or claimed
#	when and from where; then every refused claim
#   labserver.sh start [--tls] DIR	nginx and a Pushgateway as this user on
#	free ports of 127.0.0.1, no systemd (the tests, make lab
#	LAB_BOOT=pxe); --tls: boot/nginx-kiln-tls.conf with DIR's
#	certificate and tokens, the claim (fcgiwrap running
#	boot/kiln-claim) and the Pushgateway behind it
#   labserver.sh fleet DIR	the fleet page, DIR/srv/kiln/fleet/
#   labserver.sh stop DIR	stops what start started
#   labserver.sh install [--tls] [--root ROOT] DIR	as root on a machine
#	systemd runs: the kiln-* units, nginx's site (--tls: the TLS one)
#	on DIR's folders, kiln-dnsmasq.service on DIR's dnsmasq.conf and a
#	drop-in for Debian's Pushgateway, enabled and started (--tls:
#	Debian's fcgiwrap.socket for the token claim, DIR/state www-data's
#	own, the claim copied to DIR/etc/kiln-claim); --root ROOT:
#	only the files, under ROOT (the tests), nothing started
#
# The machines file: one machine a line, MAC NAME [KEY=VALUE]...
# [expect=FILE]; # starts a comment, blank lines are skipped. NAME is
# the machine's id (kiln.machine-id on its entry: the lab settings and
# the results are found by it). Exit 0 done, 1 a server did not start or
# a tool failed, 2 bad usage or a bad line (one line saying which).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2034 # scripts/labservers.sh reads it
lab_top=$top
KILN=${KILN:-$top/out/kiln}
me=labserver

die () {
	echo "$me: $*" >&2
	exit 2
}

fail () {
	echo "$me: $*" >&2
	exit 1
}

usage () {
	die "usage: labserver.sh render --server URL [--metrics URL] MACHINES DIR | arm DIR NAME...|--all | tokens DIR | start [--tls] DIR | fleet DIR | stop DIR | install [--tls] [--root ROOT] DIR"
}

# Keys the init reads before kiln starts, and those that say where the
# lab is: they cannot come from the lab server, so they go on the entry.
entry_key () {
	case $1 in
	settle | net | after | lab | lab-config | machine-id | upload | metrics | claim) return 0 ;;
	esac
	return 1
}

# check_url WHAT URL: http(s)://HOST..., no character a menu would read.
check_url () {
	case $2 in
	http://?* | https://?*) ;;
	*) die "$1 $2: not an http:// or https:// URL" ;;
	esac
	case $2 in
	*[!A-Za-z0-9._:/=,@%+~?-]*) die "$1 $2: only letters, digits and ._:/=,@%+~?- can go on a boot entry" ;;
	esac
}

# parse MACHINES NEW: each line checked, then NEW/lines: "mac name args"
# one a line, NEW/cfg/NAME and NEW/expect/NAME.
parse () {
	file=$1 new=$2 n=0
	mkdir -p "$new/cfg" "$new/expect"
	: >"$new/lines"
	mdir=$(dirname "$file")
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		set -f
		# shellcheck disable=SC2086
		set -- $line
		set +f
		[ "$#" -gt 0 ] || continue
		at="$file:$n"
		[ "$#" -ge 2 ] || die "$at: a MAC and a name, then KEY=VALUE..., not \"$*\""
		mac=$(printf '%s' "$1" | tr 'A-F-' 'a-f:')
		case $mac in
		[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]) ;;
		*) die "$at: $1: not a MAC (six hex bytes, : or - between)" ;;
		esac
		name=$2
		case $name in
		"" | .* | *[!A-Za-z0-9._-]*) die "$at: $name: a name is letters, digits and ._- (not first .)" ;;
		esac
		[ -z "$(awk -v m="$mac" '$1 == m' "$new/lines")" ] ||
			die "$at: $1: that MAC is on an earlier line"
		[ -z "$(awk -v n="$name" '$2 == n' "$new/lines")" ] ||
			die "$at: $name: that name is on an earlier line"
		shift 2
		args="kiln.machine-id=$name"
		: >"$new/cfg/$name"
		for w in "$@"; do
			case $w in
			?*=*) ;;
			*) die "$at: $w: not KEY=VALUE" ;;
			esac
			key=${w%%=*}
			key=${key#kiln.}
			val=${w#*=}
			case $w in
			*[!A-Za-z0-9._:/=,@%+~?-]*)
				die "$at: $w: only letters, digits and ._:/=,@%+~?- go in a setting" ;;
			esac
			if [ "$key" = expect ]; then
				case $val in
				/*) ef=$val ;;
				*) ef=$mdir/$val ;;
				esac
				[ -f "$ef" ] && [ -r "$ef" ] || die "$at: expect=$val: no such file to read"
				cp "$ef" "$new/expect/$name"
			elif entry_key "$key"; then
				args="$args kiln.$key=$val"
			else
				printf '%s=%s\n' "$key" "$val" >>"$new/cfg/$name"
			fi
		done
		# Every key held to kiln's own table, as kiln run will.
		printf '%s\n' "$args" >"$new/cmdline"
		"$KILN" settings --cmdline "$new/cmdline" --config "$new/cfg/$name" \
			>/dev/null 2>"$new/err" ||
			die "$at: $(sed -e 's/^kiln: //' -e 's/kiln.cfg line [0-9]*: //' -e 's/kernel command line: //' "$new/err" | head -n 1)"
		printf '%s %s %s\n' "$mac" "$name" "$args" >>"$new/lines"
	done <"$file"
	[ "$n" -gt 0 ] || true
}

base_args="console=tty0 console=ttyS0,115200n8 quiet"

# render_entries NEW: NEW/out/ holds every rendered file, as under DIR.
render_entries () {
	new=$1 out=$1/out
	mkdir -p "$out/tftp/pxelinux.cfg" "$out/tftp/grub" \
		"$out/srv/kiln/config" "$out/etc"
	while read -r mac name args; do
		dashes=$(printf '%s' "$mac" | tr ':' '-')
		all="$base_args $args$lab_args"
		head="kiln: $name ($mac), rendered by scripts/labserver.sh: edit the machines file, not this"
		cat >"$out/tftp/pxelinux.cfg/01-$dashes" <<EOF
# $head
SERIAL 0 115200
DEFAULT kiln
SYSAPPEND 2
LABEL kiln
	KERNEL /kiln/vmlinuz
	INITRD /kiln/initrd.gz
	APPEND $all
EOF
		cat >"$out/tftp/grub/grub.cfg-01-$dashes" <<EOF
# $head
serial --unit=0 --speed=115200
terminal_input console serial
terminal_output console serial
set timeout=5
set default=0
menuentry 'kiln $name' {
	linux /kiln/vmlinuz $all BOOTIF=01-\$net_default_mac
	initrd /kiln/initrd.gz
}
EOF
		cat >"$out/tftp/kiln.ipxe-01-$dashes" <<EOF
#!ipxe
# $head
kernel kiln/vmlinuz $all BOOTIF=01-\${netX/mac:hexhyp}
initrd kiln/initrd.gz
boot
EOF
		if [ -s "$new/cfg/$name" ]; then
			{
				echo "# kiln: $name's lab settings, rendered by scripts/labserver.sh"
				cat "$new/cfg/$name"
			} >"$out/srv/kiln/config/$name.cfg"
		fi
		[ ! -f "$new/expect/$name" ] ||
			cp "$new/expect/$name" "$out/srv/kiln/config/$name.expect"
	done <"$new/lines"
}

# render_server NEW DIR: dnsmasq's config and the systemd units.
render_server () {
	out=$1/out dir=$2
	cat >"$out/etc/dnsmasq.conf" <<EOF
# kiln: dnsmasq as TFTP and proxy-DHCP beside the lab's DHCP server,
# rendered by scripts/labserver.sh (boot/dnsmasq-proxy.conf with this
# lab's TFTP root). Set the interface and the subnet of the lab network.
port=0
interface=eth1
bind-interfaces
dhcp-range=192.168.50.0,proxy
enable-tftp
tftp-root=$dir/tftp
dhcp-userclass=set:ipxe,iPXE
pxe-service=tag:!ipxe,x86PC,"kiln (BIOS)",pxelinux
pxe-service=tag:!ipxe,X86-64_EFI,"kiln (UEFI)",bootx64.efi
pxe-service=tag:ipxe,x86PC,"kiln (iPXE)",kiln.ipxe
EOF
	mkdir -p "$out/systemd"
	cat >"$out/systemd/kiln-fleet.service" <<EOF
[Unit]
Description=kiln: the fleet page of the lab's uploads

[Service]
Type=oneshot
ExecStart=$top/scripts/labserver.sh fleet $dir
EOF
	fleet_path "$1" "$dir"
	cat >"$out/systemd/kiln-fleet.timer" <<EOF
[Unit]
Description=kiln: the fleet page every minute (uploads land deep in folders)

[Timer]
OnBootSec=1min
OnUnitActiveSec=1min
Unit=kiln-fleet.service

[Install]
WantedBy=timers.target
EOF
	cat >"$out/systemd/kiln-pushgateway-prune.service" <<EOF
[Unit]
Description=kiln: drop the Pushgateway's machines older than 14 days

[Service]
Type=oneshot
ExecStart=/bin/sh $top/boot/pushgateway-prune.sh --days 14 http://127.0.0.1:9091
EOF
	cat >"$out/systemd/kiln-pushgateway-prune.timer" <<EOF
[Unit]
Description=kiln: the Pushgateway's prune, daily

[Timer]
OnCalendar=daily
Persistent=true

[Install]
WantedBy=timers.target
EOF
}

# fleet_path NEW DIR: kiln-fleet.path, the fleet page again as soon as
# a machine's folder appears or a run's folder appears in a machine's
# (inotify watches a folder, not a tree: the files a run uploads into
# its own folder are the timer's, within a minute).
fleet_path () {
	{
		cat <<EOF
[Unit]
Description=kiln: the fleet page again when a machine's or a run's folder appears

[Path]
PathChanged=$2/srv/kiln/kiln-results
EOF
		while read -r _ name _; do
			echo "PathChanged=$2/srv/kiln/kiln-results/$name"
		done <"$1/lines"
		cat <<EOF
Unit=kiln-fleet.service

[Install]
WantedBy=multi-user.target
EOF
	} >"$1/out/systemd/kiln-fleet.path"
}

# pki DIR HOST: the lab CA and the server's certificate, made once.
pki () {
	p=$1/pki host=$2
	if [ -s "$p/lab-ca.pem" ] && [ -s "$p/server.pem" ] && [ -s "$p/server.key" ]; then
		echo "pki: kept $p/lab-ca.pem"
		return 0
	fi
	mkdir -p "$p"
	case $host in
	*[!0-9.]*) san="DNS:$host" ;;
	*) san="IP:$host" ;;
	esac
	(
		cd "$p" && umask 077 &&
		openssl req -x509 -newkey rsa:3072 -nodes -days 3650 \
			-subj "/CN=kiln lab CA" -keyout ca.key -out lab-ca.pem &&
		openssl req -newkey rsa:3072 -nodes -subj "/CN=$host" \
			-keyout server.key -out server.csr &&
		printf 'subjectAltName=%s,IP:127.0.0.1\n' "$san" >san.ext &&
		openssl x509 -req -in server.csr -CA lab-ca.pem -CAkey ca.key \
			-CAcreateserial -days 825 -extfile san.ext -out server.pem &&
		chmod 644 lab-ca.pem server.pem
	) >"$1/openssl.log" 2>&1 || fail "openssl: $(tail -n 1 "$1/openssl.log")"
	echo "pki: made $p/lab-ca.pem (keep ca.key offline) and server.pem for $host; build the image with it: make image LAB_CA=$p/lab-ca.pem"
}

# install NEW DIR: each rendered file into DIR when it differs, the ones
# rendered last time and not now removed (DIR/.rendered lists them).
install_rendered () {
	new=$1 dir=$2 same=0
	(cd "$new/out" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$new/list"
	touch "$dir/.rendered"
	while IFS= read -r f; do
		if [ -f "$dir/$f" ] && cmp -s "$new/out/$f" "$dir/$f"; then
			same=$((same + 1))
			continue
		fi
		what=changed
		[ -f "$dir/$f" ] || what=added
		mkdir -p "$(dirname "$dir/$f")"
		cp "$new/out/$f" "$dir/$f.new" && mv "$dir/$f.new" "$dir/$f"
		echo "$what: $f"
	done <"$new/list"
	LC_ALL=C sort "$dir/.rendered" | LC_ALL=C comm -23 - "$new/list" |
	while IFS= read -r f; do
		rm -f "$dir/$f"
		echo "removed: $f"
	done
	cp "$new/list" "$dir/.rendered"
	echo "unchanged: $same files"
}

render () {
	server="" metrics=""
	while [ "$#" -gt 0 ]; do
		case $1 in
		--server) [ "$#" -ge 2 ] || usage; server=$2; shift 2 ;;
		--server=*) server=${1#*=}; shift ;;
		--metrics) [ "$#" -ge 2 ] || usage; metrics=$2; shift 2 ;;
		--metrics=*) metrics=${1#*=}; shift ;;
		-*) usage ;;
		*) break ;;
		esac
	done
	[ "$#" -eq 2 ] || usage
	[ -n "$server" ] || die "render needs --server URL, the lab server as the machines reach it"
	machines=$1
	[ -f "$machines" ] && [ -r "$machines" ] || die "$machines: no machines file to read"
	[ -x "$KILN" ] || die "$KILN: not built (make)"
	server=${server%/}
	check_url --server "$server/"
	# The settings beside the uploads, not among them (a machine named
	# config): both nginx sites serve /config/ from /srv/kiln/config.
	lab_args=" kiln.upload=$server/kiln-results/ kiln.lab=$server/"
	# A lab over TLS takes each machine's one-time token: the image
	# claims it at boot (issue 38); never a token over plain http.
	case $server in
	https://*) lab_args="$lab_args kiln.claim=$server/claim/" ;;
	esac
	if [ -n "$metrics" ]; then
		check_url --metrics "$metrics"
		lab_args="$lab_args kiln.metrics=$metrics"
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/labserver.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# A bad line leaves DIR as it was.
	parse "$machines" "$tmp"
	mkdir -p "$2"
	dir=$(cd "$2" && pwd)
	render_entries "$tmp"
	render_server "$tmp" "$dir"
	mkdir -p "$dir/tftp"
	install_rendered "$tmp" "$dir"
	tokens_render "$dir" "$tmp/lines"
	cp "$tmp/lines" "$dir/state/machines"
	host=${server#*://}
	host=${host#*@}
	host=${host%%/*}
	host=${host%:*}
	pki "$dir" "$host"
	if command -v dnsmasq >/dev/null 2>&1; then
		dnsmasq --test -C "$dir/etc/dnsmasq.conf" >"$tmp/dnsmasq" 2>&1 ||
			fail "dnsmasq --test: $(tail -n 1 "$tmp/dnsmasq")"
	fi
	echo "render: $(wc -l <"$tmp/lines") machines; copy the image's out/pxe/ into $dir/tftp/"
}

start () {
	site=boot/nginx-kiln.conf scheme=http
	if [ "${1:-}" = --tls ]; then
		site=boot/nginx-kiln-tls.conf scheme=https
		shift
	fi
	[ "$#" -eq 1 ] || usage
	[ -d "$1" ] || die "$1: not a folder (labserver.sh render first)"
	dir=$(cd "$1" && pwd)
	. "$top/scripts/labservers.sh"
	run=$dir/run
	mkdir -p "$run" "$dir/srv/kiln/kiln-results" "$dir/srv/kiln/fleet"
	for p in "$run"/*.pid; do
		[ -f "$p" ] || continue
		kill -0 "$(cat "$p")" 2>/dev/null &&
			die "$dir: already started (labserver.sh stop $dir)"
	done
	port=${LABSERVER_PORT:-$(free_port)}
	gw=${LABSERVER_GW_PORT:-$(free_port)}
	labservers_nginx_conf "$run/nginx" "$port" "$dir/srv/kiln" "$site" "$gw"
	if [ "$scheme" = https ]; then
		for f in pki/server.pem pki/server.key; do
			[ -s "$dir/$f" ] || die "$dir/$f: none (labserver.sh render first)"
		done
		(umask 077 && cp "$dir/pki/server.pem" "$dir/pki/server.key" \
			"$run/nginx/")
		tokens_start "$dir" "$run"
	fi
	labservers_nginx "$run/nginx"
	# shellcheck disable=SC2154 # nginx_pid and pg_pid: labservers.sh's
	echo "$nginx_pid" >"$run/nginx.pid"
	labservers_pushgateway "$gw" "$run/pushgateway.log"
	# shellcheck disable=SC2154
	echo "$pg_pid" >"$run/pushgateway.pid"
	printf 'port=%s\ngw_port=%s\n' "$port" "$gw" >"$run/ports"
	wait_http "$scheme://127.0.0.1:$port/" ||
		fail "nginx did not start (see $run/nginx/error.log)"
	wait_http "http://127.0.0.1:$gw/metrics" ||
		fail "the Pushgateway did not start (see $run/pushgateway.log)"
	fleet "$dir"
	if [ "$scheme" = https ]; then
		# The TLS site serves machines only: the page stays on the server.
		echo "start: token claims at https://127.0.0.1:$port/claim/MACHINE (POST), uploads to https://MACHINE:TOKEN@127.0.0.1:$port/kiln-results/ (the lab CA $dir/pki/lab-ca.pem), gauges at https://127.0.0.1:$port/pushgateway/ and http://127.0.0.1:$gw/metrics, the fleet page in $dir/srv/kiln/fleet/fleet.html (labserver.sh fleet $dir renders it again; labserver.sh stop $dir stops)"
		return 0
	fi
	echo "start: uploads to http://127.0.0.1:$port/kiln-results/, gauges at http://127.0.0.1:$gw/metrics, the fleet page at http://127.0.0.1:$port/fleet/fleet.html (labserver.sh fleet $dir renders it again; labserver.sh stop $dir stops)"
}

# install_units ROOT DIR TLS: under ROOT, what systemd runs the lab
# from DIR with. The kiln-* units render wrote; nginx's site
# (boot/nginx-kiln[-tls].conf on DIR's folders, certificate and htpasswd)
# for Debian's nginx.service, with a drop-in that waits for DIR's mount;
# kiln-dnsmasq.service, dnsmasq on DIR's config only (Debian's own
# dnsmasq.service, a DNS server maybe in use, is left alone); a drop-in
# that starts Debian's prometheus-pushgateway.service on 127.0.0.1 only
# behind TLS, on every address without. Only files: nothing started.
install_units () {
	root=$1 dir=$2 tls=$3
	sd=$root/etc/systemd/system
	mkdir -p "$sd/nginx.service.d" "$sd/prometheus-pushgateway.service.d" \
		"$root/etc/nginx/conf.d"
	for u in "$dir"/systemd/kiln-*; do
		[ -f "$u" ] || continue
		cp "$u" "$sd/${u##*/}.new" && mv "$sd/${u##*/}.new" "$sd/${u##*/}"
		echo "install: $sd/${u##*/}"
	done
	site=nginx-kiln.conf listen=:9091 other=kiln-tls.conf
	if [ "$tls" = 1 ]; then
		site=nginx-kiln-tls.conf listen=127.0.0.1:9091 other=kiln.conf
	fi
	conf=$root/etc/nginx/conf.d/${site#nginx-}
	sed -e "s|/srv/kiln|$dir/srv/kiln|g" \
		-e "s|/etc/nginx/kiln/server|$dir/pki/server|g" \
		-e "s|/etc/nginx/kiln/htpasswd|$dir/etc/htpasswd|g" \
		-e "s|/var/lib/kiln|$dir/state|g" \
		-e "s|/etc/nginx/kiln/kiln-claim|$dir/etc/kiln-claim|g" \
		"$top/boot/$site" >"$conf.new"
	mv "$conf.new" "$conf"
	# The claim where nginx's fcgiwrap (www-data) can read it: the
	# checkout may sit under /root.
	if [ "$tls" = 1 ]; then
		mkdir -p "$dir/etc"
		cp "$top/boot/kiln-claim" "$dir/etc/kiln-claim.new" &&
		chmod 755 "$dir/etc/kiln-claim.new" &&
		mv "$dir/etc/kiln-claim.new" "$dir/etc/kiln-claim"
		echo "install: $dir/etc/kiln-claim"
	fi
	# One site at a time: both serve the same folders.
	rm -f "$root/etc/nginx/conf.d/$other"
	echo "install: $conf"
	cat >"$sd/nginx.service.d/kiln.conf" <<EOF
# kiln: rendered by scripts/labserver.sh install; nginx serves $dir/srv/kiln
[Unit]
RequiresMountsFor=$dir/srv/kiln
EOF
	echo "install: $sd/nginx.service.d/kiln.conf"
	cat >"$sd/kiln-dnsmasq.service" <<EOF
[Unit]
Description=kiln: TFTP and proxy-DHCP for the lab's machines ($dir/etc/dnsmasq.conf)
Wants=network-online.target
After=network-online.target
RequiresMountsFor=$dir/tftp

[Service]
ExecStartPre=/usr/sbin/dnsmasq --test -C $dir/etc/dnsmasq.conf
ExecStart=/usr/sbin/dnsmasq -k --pid-file -C $dir/etc/dnsmasq.conf
Restart=on-failure

[Install]
WantedBy=multi-user.target
EOF
	echo "install: $sd/kiln-dnsmasq.service"
	# ARGS of /etc/default/prometheus-pushgateway are replaced: a
	# second --web.listen-address there would stop it starting.
	cat >"$sd/prometheus-pushgateway.service.d/kiln.conf" <<EOF
# kiln: rendered by scripts/labserver.sh install
[Unit]
Wants=kiln-pushgateway-prune.timer

[Service]
ExecStart=
ExecStart=/usr/bin/prometheus-pushgateway --web.listen-address=$listen
EOF
	echo "install: $sd/prometheus-pushgateway.service.d/kiln.conf"
}

# install [--tls] [--root ROOT] DIR: install_units, then, with no --root,
# as root on a machine systemd runs, the folders nginx writes to made its
# own and every unit enabled and started.
install_server () {
	root=/ tls=0
	while [ "$#" -gt 0 ]; do
		case $1 in
		--tls) tls=1; shift ;;
		--root) [ "$#" -ge 2 ] || usage; root=$2; shift 2 ;;
		--root=*) root=${1#*=}; shift ;;
		-*) usage ;;
		*) break ;;
		esac
	done
	[ "$#" -eq 1 ] || usage
	[ -d "$1" ] && [ -s "$1/.rendered" ] ||
		die "$1: no rendered lab (labserver.sh render first)"
	dir=$(cd "$1" && pwd)
	if [ "$root" = / ]; then
		[ "$(id -u)" = 0 ] || fail "install: run it as root (or --root DIR to render the units there)"
		[ -d /run/systemd/system ] ||
			fail "install: systemd does not run this machine (labserver.sh start runs the servers without it)"
		root=
	else
		mkdir -p "$root" && root=$(cd "$root" && pwd)
	fi
	install_units "$root" "$dir" "$tls"
	mkdir -p "$dir/srv/kiln/kiln-results" "$dir/srv/kiln-tmp" \
		"$dir/srv/kiln/fleet"
	if [ -n "$root" ]; then
		echo "install: rendered under $root, nothing started"
		return 0
	fi
	chown www-data: "$dir/srv/kiln/kiln-results" "$dir/srv/kiln-tmp" ||
		fail "install: cannot give nginx (www-data) the upload folders"
	# A folder above DIR closed to others (DIR under /root) would make
	# every upload a 500 long after this said it was done.
	runuser -u www-data -- test -w "$dir/srv/kiln/kiln-results" ||
		fail "install: nginx (www-data) cannot write $dir/srv/kiln/kiln-results: a folder above it is closed to others"
	if [ "$tls" = 1 ]; then
		# The tokens: the claim runs as www-data under Debian's
		# fcgiwrap.socket and writes DIR/state, closed to others.
		chown -R www-data: "$dir/state" && chmod 700 "$dir/state" ||
			fail "install: cannot give the claim (www-data) $dir/state"
		runuser -u www-data -- test -w "$dir/state/users" -a -x "$dir/etc/kiln-claim" ||
			fail "install: the claim (www-data) cannot reach $dir/state or $dir/etc/kiln-claim: a folder above it is closed to others"
		systemctl enable --now fcgiwrap.socket ||
			fail "install: systemctl enable --now fcgiwrap.socket failed"
	fi
	nginx -t -q || fail "install: nginx -t failed"
	systemctl daemon-reload &&
	systemctl enable --now kiln-fleet.path kiln-fleet.timer \
		kiln-pushgateway-prune.timer kiln-dnsmasq.service &&
	systemctl enable nginx.service prometheus-pushgateway.service &&
	systemctl restart prometheus-pushgateway.service &&
	systemctl reload-or-restart nginx.service ||
		fail "install: systemctl failed (systemctl status names the unit)"
	fleet "$dir"
	echo "install: started; systemctl status 'kiln-*' nginx prometheus-pushgateway"
}

fleet () {
	[ "$#" -eq 1 ] || usage
	d=$1
	mkdir -p "$d/srv/kiln/fleet" "$d/srv/kiln/kiln-results"
	# The refused token claims at the top of the page (issue 38).
	set --
	[ ! -f "$d/state/refused" ] || set -- --refused "$d/state/refused"
	"$KILN" fleet --out "$d/srv/kiln/fleet" "$@" "$d/srv/kiln/kiln-results" \
		>/dev/null || fail "kiln fleet failed"
}

stop () {
	[ "$#" -eq 1 ] || usage
	for p in "$1"/run/nginx.pid "$1"/run/pushgateway.pid "$1"/run/fcgiwrap.pid; do
		[ -f "$p" ] || continue
		pid=$(cat "$p")
		kill "$pid" 2>/dev/null || true
		i=0
		while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		rm -f "$p"
	done
	echo "stop: stopped"
}

# --- Tokens (issue 38): no machine can read another machine's secret ---
# A PXE-booted machine holds no secret, so it claims a one-time token at
# boot (POST /claim/NAME on the TLS site; boot/kiln-claim makes it then,
# keeps its hash in DIR/state/users/NAME for nginx, and refuses and
# shows every claim after the first until NAME is armed again).

# tokens_render DIR LINES: DIR/state, each machine of LINES that never
# had a token armed, the state of machines no longer in LINES dropped.
tokens_render () {
	st=$1/state
	mkdir -p "$st/armed" "$st/users"
	chmod 700 "$st"
	touch "$st/claims.log" "$st/refused"
	while read -r mac name args; do
		[ -e "$st/armed/$name" ] || [ -e "$st/users/$name" ] ||
			tokens_arm "$st" "$name"
	done <"$2"
	for f in "$st"/armed/* "$st"/users/*; do
		[ -f "$f" ] || continue
		awk -v n="${f##*/}" '$2 == n { found = 1 } END { exit !found }' "$2" &&
			continue
		rm -f "$f"
		echo "tokens: dropped ${f#"$1"/} (no longer a machine)"
	done
}

# tokens_arm STATE NAME: NAME's next claim is honoured.
tokens_arm () {
	date -u +%Y-%m-%dT%H:%M:%SZ >"$1/armed/$2"
	echo "tokens: armed $2 (its next claim gets a fresh token)"
}

arm () {
	[ "$#" -ge 2 ] || usage
	[ -d "$1/state/armed" ] || die "$1: no tokens (labserver.sh render first)"
	dir=$1
	shift
	if [ "$1" = --all ]; then
		[ "$#" -eq 1 ] || usage
		# shellcheck disable=SC2046 # names: letters, digits, ._-
		set -- $(awk '{ print $2 }' "$dir/state/machines")
	fi
	for name in "$@"; do
		awk -v n="$name" '$2 == n { found = 1 } END { exit !found }' \
			"$dir/state/machines" || die "$name: not a machine of $dir"
	done
	for name in "$@"; do
		tokens_arm "$dir/state" "$name"
	done
}

tokens () {
	[ "$#" -eq 1 ] || usage
	st=$1/state
	[ -d "$st/armed" ] || die "$1: no tokens (labserver.sh render first)"
	while read -r mac name args; do
		if [ -f "$st/armed/$name" ]; then
			echo "$name: armed $(cat "$st/armed/$name"), not claimed since"
		elif [ -f "$st/users/$name" ]; then
			echo "$name: $(awk -v n="$name" '$2 == n && $NF == "claimed" {
				sub(/:$/, "", $4); w = "claimed " $1 " from " $4 }
				END { print w ? w : "claimed" }' "$st/claims.log")"
		else
			echo "$name: no token"
		fi
	done <"$st/machines"
	if [ -s "$st/refused" ]; then
		echo "REFUSED CLAIMS ($(wc -l <"$st/refused")): a machine asked for a token that was not armed for it"
		cat "$st/refused"
	fi
}

# tokens_start DIR RUN: the claim behind the TLS site, fcgiwrap as this
# user on a socket in RUN, the tokens DIR/state.
tokens_start () {
	command -v fcgiwrap >/dev/null 2>&1 || [ -x /usr/sbin/fcgiwrap ] ||
		fail "no fcgiwrap (scripts/deps.list): it runs the token claim"
	[ -d "$1/state/users" ] || die "$1/state: none (labserver.sh render first)"
	cp "$top/boot/kiln-claim" "$2/nginx/kiln-claim"
	ln -sfn "$1/state" "$2/nginx/state"
	rm -f "$2/nginx/fcgiwrap.sock"
	PATH=$PATH:/usr/sbin fcgiwrap -f -s "unix:$2/nginx/fcgiwrap.sock" \
		>>"$2/fcgiwrap.log" 2>&1 &
	echo "$!" >"$2/fcgiwrap.pid"
	i=0
	while [ ! -S "$2/nginx/fcgiwrap.sock" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -S "$2/nginx/fcgiwrap.sock" ] ||
		fail "fcgiwrap did not start (see $2/fcgiwrap.log)"
}

[ "$#" -ge 1 ] || usage
cmd=$1
shift
case $cmd in
render | arm | tokens | start | fleet | stop) "$cmd" "$@" ;;
install) install_server "$@" ;;
*) usage ;;
esac
