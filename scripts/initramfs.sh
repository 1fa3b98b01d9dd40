#!/bin/sh
# initramfs.sh: kiln's initramfs, built as a normal user (no root, no
# loop mounts): busybox-static and its applet links, out/kiln, the init,
# smartctl, iperf3, stressapptest, ipmitool and curl with their
# libraries, pci.ids, the lab's CA when LAB_CA names one, and the kernel
# modules of initramfs/modules.list with their dependencies and firmware
# (copied
# by dracut's dracut-install, as Debian ships them: never stripped or
# recompressed, which would break their signatures). Leaves
# out/initramfs.cpio.gz and adds what it used to out/manifest.txt.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/out}
kver=$(cat "$OUT/kernel/version")
kdir=$OUT/kernel/root/lib/modules/$kver
stage=$OUT/initramfs-root
image=$OUT/initramfs.cpio.gz
dracut_install=/usr/lib/dracut/dracut-install
PATH=$PATH:/usr/sbin:/sbin

say () {
	echo "initramfs: $*"
}

[ -x "$OUT/kiln" ] || { say "build out/kiln first (make)" >&2; exit 1; }
[ -d "$kdir" ] || { say "no kernel in $OUT/kernel (scripts/kernel.sh)" >&2; exit 1; }
if [ -n "${LAB_CA:-}" ] &&
	! grep -q -- '-----BEGIN CERTIFICATE-----' "$LAB_CA" 2>/dev/null; then
	say "LAB_CA=$LAB_CA is not a PEM certificate" >&2
	exit 1
fi

rm -rf "$stage"
mkdir -p "$stage/usr/bin" "$stage/usr/sbin" "$stage/usr/lib" \
	"$stage/etc" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/run" \
	"$stage/tmp" "$stage/mnt/kiln" "$stage/usr/share/misc" \
	"$stage/var/log"
# var/log: ledctl will not run without its log there (ledctl.log).
# Debian's merged /usr: /bin, /sbin and /lib are links into /usr.
ln -s usr/bin "$stage/bin"
ln -s usr/sbin "$stage/sbin"
ln -s usr/lib "$stage/lib"
ln -s usr/lib "$stage/lib64"

# busybox and a link for every applet it has.
cp /bin/busybox "$stage/usr/bin/busybox"
busybox --list-full | while read -r applet; do
	case "$applet" in
	bin/busybox | usr/bin/busybox) continue ;;
	esac
	dest="$stage/usr/${applet#usr/}"
	[ -e "$dest" ] || ln -s /usr/bin/busybox "$dest"
done

install -m 0755 "$OUT/kiln" "$stage/usr/bin/kiln"
install -m 0755 "$top/initramfs/init" "$stage/init"
install -m 0755 "$top/initramfs/udhcpc.script" "$stage/etc/udhcpc.script"
cp /usr/share/misc/pci.ids "$stage/usr/share/misc/pci.ids"

# smartctl, iperf3, ledmon's ledctl (the fault LEDs an HBA drives over
# SGPIO or VMD, which have no sysfs files), stressapptest (the memory
# and CPU load beside the burn), ipmitool (the BMC's event log, its
# address, a power-cut test's power cycle) and curl (kiln's https://: TLS
# from Debian's libcurl and OpenSSL) with the libraries they link.
"$dracut_install" -D "$stage" -a -l /usr/sbin/smartctl /usr/bin/iperf3 \
	/usr/sbin/ledctl /usr/bin/stressapptest /usr/bin/ipmitool /usr/bin/curl
for b in usr/sbin/smartctl usr/bin/iperf3 usr/sbin/ledctl usr/bin/stressapptest \
	usr/bin/ipmitool usr/bin/curl; do
	[ -x "$stage/$b" ] || { say "$b missing from the initramfs" >&2; exit 1; }
done

# make image LAB_CA=FILE: the lab's CA, which kiln trusts for https://
# when no ca= is given (a machine booted from the network, no stick).
if [ -n "${LAB_CA:-}" ]; then
	mkdir -p "$stage/etc/kiln"
	install -m 0644 "$LAB_CA" "$stage/etc/kiln/lab-ca.pem"
fi

# Modules, their dependencies and firmware; a name this kernel lacks is
# only noted.
modules=$(sed -e 's/#.*//' "$top/initramfs/modules.list")
missing=""
for m in $modules; do
	if ! "$dracut_install" -D "$stage" --kerneldir "$kdir" \
		--firmwaredirs /lib/firmware -m "$m" >/dev/null 2>&1; then
		missing="$missing $m"
	fi
done
[ -z "$missing" ] || say "not in kernel $kver, skipped:$missing"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$kdir/$f" ] && cp "$kdir/$f" "$stage/usr/lib/modules/$kver/"
done
depmod -b "$stage" "$kver"

# /dev/console, so PID 1 starts with a console: a device node in a cpio
# made by hand (newc), since making the node itself needs root.
cpio_entry () {	# NAME MODE RDEVMAJOR RDEVMINOR
	namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
	printf '%s\0' "$1"
	pad=$(( (4 - (110 + namesize) % 4) % 4 ))
	[ "$pad" -eq 0 ] || head -c "$pad" /dev/zero
}
{
	cpio_entry dev $((0040755)) 0 0
	cpio_entry dev/console $((0020600)) 5 1
	cpio_entry 'TRAILER!!!' 0 0 0
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet)
} | gzip -9 -n >"$image.tmp"
mv "$image.tmp" "$image"

{
	echo "initramfs $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for p in busybox-static smartmontools iperf3 ledmon stressapptest ipmitool \
		curl libcurl4 libssl3 \
		pci.ids dracut-core kmod cpio gzip musl-tools liburing-dev; do
		dpkg-query -W -f='package ${Package} ${Version}\n' "$p" 2>/dev/null ||
			echo "package $p not-installed"
	done
	[ -z "${LAB_CA:-}" ] ||
		echo "lab-ca $(sha256sum "$LAB_CA" | cut -d' ' -f1)"
	echo "kiln $("$OUT/kiln" version | cut -d' ' -f2)"
} >"$OUT/manifest.initramfs"
say "$(du -h "$image" | cut -f1) $image ($(find "$stage" -name '*.ko' | wc -l) modules)"
