#!/bin/sh
# pushgateway-prune.sh: keeps a lab's Pushgateway to its recent machines.
# The Pushgateway keeps every group it was given, for ever (on disk, with
# Debian's --persistence.file), so a lab that burns forty machines a day
# has thousands of finished ones after a season. This deletes each kiln
# group (job=kiln, machine=ID) whose last push is older than a limit,
# finished or not: a machine that stopped pushing a week ago is not
# coming back. Run it from cron on the lab server, e.g. daily:
#
#	pushgateway-prune.sh --days 14 http://127.0.0.1:9091
#
#	pushgateway-prune.sh [--days N | --before EPOCH] [--dry-run] URL
#
# --days N (default 14): groups last pushed more than N days ago;
# --before EPOCH: last pushed before that time (seconds since 1970);
# --dry-run says what it would delete. Each group deleted is said on
# stdout ("deleted SN-1 (last push 2026-11-02T10:00:00Z)"). Exit 0 done
# (nothing to delete included), 2 bad usage, 3 the gateway did not answer
# or refused a delete. Needs curl and awk.
set -eu

usage () {
	echo "pushgateway-prune.sh: $*" >&2
	echo "usage: pushgateway-prune.sh [--days N | --before EPOCH] [--dry-run] URL" >&2
	exit 2
}

days=14 before= dry=0 url=
while [ $# -gt 0 ]; do
	case $1 in
	--days) [ $# -ge 2 ] || usage "--days needs a number"; days=$2; shift ;;
	--before) [ $# -ge 2 ] || usage "--before needs a time"; before=$2; shift ;;
	--dry-run) dry=1 ;;
	-*) usage "unknown option $1" ;;
	*) [ -z "$url" ] || usage "one URL only"; url=${1%/} ;;
	esac
	shift
done
[ -n "$url" ] || usage "no Pushgateway URL"
case $days in ''|*[!0-9]*) usage "--days $days: not a whole number of days" ;; esac
case $before in *[!0-9.]*) usage "--before $before: not seconds since 1970" ;; esac
[ -n "$before" ] || before=$(( $(date +%s) - days * 86400 ))

metrics=$(curl -fsS --max-time 30 "$url/metrics") || {
	echo "pushgateway-prune.sh: $url did not answer" >&2
	exit 3
}

# push_time_seconds{instance="",job="kiln",machine="SN-1"} 1.7e+09: the
# machine and the time of each kiln group's last push, a line each.
groups=$(printf '%s\n' "$metrics" | awk '
	/^push_time_seconds\{/ && /job="kiln"/ {
		if (!match($0, /machine="([^"\\]|\\.)*"/))
			next
		m = substr($0, RSTART + 9, RLENGTH - 10)
		printf "%s %.3f\n", m, $NF
	}')

status=0
printf '%s\n' "$groups" | while read -r machine at; do
	[ -n "$machine" ] || continue
	awk -v a="$at" -v b="$before" 'BEGIN { exit !(a < b) }' || continue
	when=$(date -u -d "@${at%.*}" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo "$at")
	if [ "$dry" = 1 ]; then
		echo "would delete $machine (last push $when)"
		continue
	fi
	# The id base64url-encoded: any character of it is safe in the path.
	enc=$(printf '%s' "$machine" | base64 -w0 | tr '+/' '-_')
	if curl -fsS --max-time 30 -X DELETE \
		"$url/metrics/job/kiln/machine@base64/$enc" >/dev/null; then
		echo "deleted $machine (last push $when)"
	else
		echo "pushgateway-prune.sh: $url refused to delete $machine" >&2
		exit 3
	fi
done || status=3
exit $status
