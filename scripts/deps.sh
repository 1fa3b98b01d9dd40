#!/bin/sh
# Installs the Debian packages in scripts/deps.list that are not installed
# yet, with sudo when not root. Idempotent: a second run installs nothing.
set -eu

list="$(dirname "$0")/deps.list"
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
echo "deps: installing $*"
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends "$@"
