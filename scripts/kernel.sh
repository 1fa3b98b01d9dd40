#!/bin/sh
# kernel.sh: the Debian kernel that kiln boots, unpacked without installing
# anything on the host. Fetches bookworm's current linux-image-amd64 (a
# metapackage, resolved to the real linux-image-6.1.0-N-amd64) into
# cache/debs/ with `apt-get download`, or takes KERNEL_DEB=path/to.deb, then
# leaves:
#   out/kernel/root/      the package unpacked (boot/, lib/modules/VERSION/)
#   out/kernel/vmlinuz    a symlink to root/boot/vmlinuz-VERSION
#   out/kernel/version    VERSION, e.g. 6.1.0-57-amd64
#   out/kernel/package    "PACKAGE DEBVERSION SHA256", for the build manifest
# Runs as a normal user (apt-get download and dpkg-deb -x need no root) and
# does nothing but print what it uses when that is already in place.
# Environment: KERNEL_DEB (a .deb to use instead), KERNEL_DIR (a folder
# with vmlinuz and lib/modules/VERSION instead), KERNEL_PKG (default
# linux-image-amd64), OUT and CACHE (default out/ and cache/ of the repo).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/out}
CACHE=${CACHE:-$top/cache}
KERNEL_PKG=${KERNEL_PKG:-linux-image-amd64}
kdir=$OUT/kernel
debs=$CACHE/debs
# depmod lives in /sbin, which a normal user's PATH often lacks.
PATH=$PATH:/usr/sbin:/sbin

say () {
	echo "kernel: $*"
}

die () {
	echo "kernel: $*" >&2
	exit 1
}

# resolve_pkg NAME: the package that holds the kernel itself. Debian's
# linux-image-amd64 only depends on linux-image-ABI-amd64, which changes
# with every ABI bump, so we follow that dependency of the candidate version.
resolve_pkg () {
	info=$(apt-cache show --no-all-versions "$1" 2>/dev/null) ||
		die "apt knows no package $1 (run apt-get update, or set KERNEL_DEB)"
	dep=$(printf '%s\n' "$info" | sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed -n 's/^ *\(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1)
	if [ -n "$dep" ]; then
		echo "$dep"
	else
		echo "$1"
	fi
}

# fetch PKG: prints the path of PKG's candidate .deb in $debs, downloading
# it only when it is not there yet. apt-get download writes in the current
# directory, so it runs in a private one and the .deb appears in $debs only
# when complete; an interrupted download never looks cached.
fetch () {
	uri=$(apt-get download --print-uris "$1" 2>/dev/null | head -n 1) ||
		die "cannot locate $1 in apt's lists"
	[ -n "$uri" ] || die "cannot locate $1 in apt's lists"
	# The line is 'URI' FILE SIZE HASH; split it into words.
	# shellcheck disable=SC2086
	set -- "$1" $uri
	file=$3
	if [ -f "$debs/$file" ]; then
		echo "$debs/$file"
		return 0
	fi
	mkdir -p "$debs"
	part=$(mktemp -d "$debs/.part.XXXXXX")
	say "downloading $file" >&2
	if ! (cd "$part" && apt-get download -q "$1" >&2); then
		rm -rf "$part"
		die "apt-get download $1 failed"
	fi
	mv "$part/$file" "$debs/$file"
	rm -rf "$part"
	echo "$debs/$file"
}

# KERNEL_DIR=DIR: a kernel built elsewhere, as DIR/vmlinuz and
# DIR/lib/modules/VERSION/; linked, not copied, and depmod run on it.
if [ -n "${KERNEL_DIR:-}" ]; then
	dir=$(cd "$KERNEL_DIR" && pwd) || die "KERNEL_DIR=$KERNEL_DIR: no such folder"
	set -- "$dir"/lib/modules/*/
	if [ "$#" -ne 1 ] || [ ! -d "$1" ] || [ ! -f "$dir/vmlinuz" ]; then
		die "KERNEL_DIR=$dir: want vmlinuz and exactly one lib/modules/VERSION"
	fi
	version=$(basename "$1")
	[ -f "$1/modules.dep" ] || depmod -b "$dir" "$version"
	mkdir -p "$kdir"
	rm -rf "$kdir/root" "$kdir/.stamp"
	ln -sfn "$dir" "$kdir/root"
	ln -sfn "$dir/vmlinuz" "$kdir/vmlinuz"
	echo "$version" >"$kdir/version"
	echo "kernel-dir $version $dir" >"$kdir/package"
	say "using KERNEL_DIR=$dir, version $version"
	exit 0
fi

if [ -n "${KERNEL_DEB:-}" ]; then
	[ -f "$KERNEL_DEB" ] || die "KERNEL_DEB=$KERNEL_DEB: no such file"
	deb=$(cd "$(dirname "$KERNEL_DEB")" && pwd)/$(basename "$KERNEL_DEB")
	say "using KERNEL_DEB=$deb"
else
	pkg=$(resolve_pkg "$KERNEL_PKG")
	[ "$pkg" = "$KERNEL_PKG" ] || say "$KERNEL_PKG -> $pkg"
	deb=$(fetch "$pkg")
fi

# The stamp names the .deb with its size and mtime: a different or rebuilt
# .deb unpacks afresh, the same one is not unpacked twice.
stamp="$deb $(stat -c '%s %Y' "$deb")"
if [ -f "$kdir/.stamp" ] && [ "$(cat "$kdir/.stamp")" = "$stamp" ] &&
	[ -f "$kdir/version" ] && [ -e "$kdir/vmlinuz" ]; then
	version=$(cat "$kdir/version")
	if [ -f "$kdir/root/lib/modules/$version/modules.dep" ]; then
		say "package $(cut -d' ' -f1,2 "$kdir/package") (already unpacked)"
		say "deb $deb"
		say "version $version"
		say "vmlinuz $kdir/vmlinuz"
		exit 0
	fi
fi

pkgname=$(dpkg-deb -f "$deb" Package)
pkgver=$(dpkg-deb -f "$deb" Version)
case "$pkgname" in
linux-image-*) ;;
*) die "$deb holds $pkgname, not a linux-image package" ;;
esac

mkdir -p "$kdir"
rm -rf "$kdir/root.new" "$kdir/.stamp"
dpkg-deb -x "$deb" "$kdir/root.new"

# The version is the one directory under lib/modules, so a KERNEL_DEB whose
# name does not follow Debian's pattern still works.
set -- "$kdir"/root.new/lib/modules/*/
if [ "$#" -ne 1 ] || [ ! -d "$1" ]; then
	die "$deb: expected exactly one lib/modules/VERSION directory"
fi
version=$(basename "$1")
[ -f "$kdir/root.new/boot/vmlinuz-$version" ] ||
	die "$deb: no boot/vmlinuz-$version"

# Debian generates modules.dep in the postinst, so the package lacks it.
depmod -b "$kdir/root.new" "$version"

rm -rf "$kdir/root"
mv "$kdir/root.new" "$kdir/root"
ln -sfn "root/boot/vmlinuz-$version" "$kdir/vmlinuz"
echo "$version" >"$kdir/version"
echo "$pkgname $pkgver $(sha256sum <"$deb" | cut -d' ' -f1)" >"$kdir/package"
echo "$stamp" >"$kdir/.stamp"

say "package $pkgname $pkgver"
say "deb $deb"
say "version $version"
say "vmlinuz $kdir/vmlinuz"
