#!/bin/sh
# Installs the Debian packages in scripts/deps.list that are not installed
# yet, with sudo when not root. Idempotent: a second run installs nothing.
#
# Some are servers that tests start on their own, on loopback ports
# (nginx, prometheus-pushgateway, dnsmasq). Debian's postinst starts them as system
# services and enables them at boot: a build machine must not serve port
# 80 or 9091 because kiln's tests use the same programs. So while apt-get
# runs, a policy-rc.d (when there is none already) forbids every start,
# and afterwards those services are disabled (and stopped where systemd
# runs, in case a policy-rc.d of someone else's let them start).
set -eu

list="$(dirname "$0")/deps.list"
# Packages whose service must stay off, as they are named in deps.list.
services="nginx prometheus-pushgateway prometheus dnsmasq fcgiwrap"
policy=/usr/sbin/policy-rc.d

set --
for pkg in $(sed -e 's/#.*//' "$list"); do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	case "$status" in
	*"install ok installed") ;;
	*) set -- "$@" "$pkg" ;;
	esac
done
[ "$#" -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "deps: not root and no sudo; as root run: apt-get install $*" >&2
		exit 1
	}
	sudo=sudo
fi

made_policy=""
remove_policy () {
	if [ -n "$made_policy" ]; then
		$sudo rm -f "$policy"
		made_policy=""
	fi
}
# Removed however the script ends: done, apt-get failing, or interrupted.
trap 'remove_policy' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Exit status 101 is invoke-rc.d's "action forbidden by policy".
if [ ! -e "$policy" ] && [ ! -L "$policy" ]; then
	made_policy=1
	printf '#!/bin/sh\n# scripts/deps.sh of kiln: no service starts while it installs.\nexit 101\n' |
		$sudo tee "$policy" >/dev/null
	$sudo chmod 755 "$policy"
fi

echo "deps: installing $*"
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends "$@"
remove_policy

# Only what this run installed: a server someone set up on purpose stays.
for pkg in "$@"; do
	case " $services " in
	*" $pkg "*) ;;
	*) continue ;;
	esac
	units=$pkg.service
	# fcgiwrap's service is started by its socket.
	[ "$pkg" != fcgiwrap ] || units="fcgiwrap.socket $units"
	if command -v systemctl >/dev/null 2>&1; then
		if [ -d /run/systemd/system ]; then
			# shellcheck disable=SC2086 # one or two unit names
			$sudo systemctl disable --now --quiet $units ||
				echo "deps: could not disable $pkg.service" >&2
		else
			# No systemd running (a container): only the boot links.
			# shellcheck disable=SC2086
			$sudo systemctl disable --quiet $units \
				>/dev/null 2>&1 || true
		fi
	fi
	if [ -x "/etc/init.d/$pkg" ] && command -v update-rc.d >/dev/null 2>&1
	then
		$sudo update-rc.d "$pkg" disable >/dev/null 2>&1 || true
	fi
	echo "deps: $pkg installed, its system service left off"
done
