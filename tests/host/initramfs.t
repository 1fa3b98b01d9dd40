#!/bin/sh
# needs: kiln
# What the built initramfs holds: the init, kiln, busybox, smartctl,
# What the built initramfs holds: the init, kiln, busybox, smartctl,
# iperf3, ledctl, stressapptest, ipmitool and curl with their libraries
# (curl in the manifest), the lab's CA when LAB_CA names one, pci.ids,
# /dev/console, the modules of
# initramfs/modules.list with a modules.dep, and each module exactly as
# Debian ships it (a stripped or recompressed module fails its signature
# under Secure Boot).
. "$(dirname "$0")/../lib/tap.sh"

img="$TOP/out/initramfs.cpio.gz"
[ -e "$img" ] || test_skip_all "no $img: make ramboot builds it"
kver=$(cat "$TOP/out/kernel/version")
list="$TEST_TMP/list"
python3 "$TOP/tests/lib/newc.py" list "$img" >"$list" ||
	test_bail "cannot list $img"

has () {
	for f in "$@"; do
		grep -qx "$f" "$list" || { echo "missing: $f"; return 1; }
	done
}

test_expect_success 'the init, kiln, busybox and its applets, /dev/console' '
	has init usr/bin/kiln usr/bin/busybox usr/bin/sh usr/sbin/modprobe \
		usr/sbin/findfs usr/sbin/udhcpc etc/udhcpc.script dev/console
'

test_expect_success 'smartctl, iperf3 and ledctl, each under its own name, with libraries' '
	has usr/sbin/smartctl usr/bin/iperf3 usr/sbin/ledctl var/log &&
	grep -q "^usr/lib/x86_64-linux-gnu/libc.so" "$list" &&
	grep -q "libiperf" "$list" && grep -q "libsgutils2" "$list"
'

test_expect_success 'stressapptest with its libraries (the load beside the burn)' '
	has usr/bin/stressapptest &&
	grep -q "libstdc++.so" "$list" && grep -q "libaio.so" "$list"
'

test_expect_success 'ipmitool with its libraries, and the IPMI drivers (the BMC)' '
	has usr/bin/ipmitool && grep -q "libfreeipmi" "$list" &&
	for m in ipmi_msghandler ipmi_devintf ipmi_si ipmi_ssif; do
		grep -q "/$m\.ko$" "$list" || { echo "no $m.ko"; return 1; }
	done
'

test_expect_success 'curl with libcurl and OpenSSL (https://), in the manifest' '
	has usr/bin/curl &&
	grep -q "libcurl.so" "$list" && grep -q "libssl.so" "$list" &&
	grep -q "^package curl " "$TOP/out/manifest.initramfs" &&
	grep -q "^package libcurl4 " "$TOP/out/manifest.initramfs"
'

test_expect_success 'make image LAB_CA=FILE: the lab'"'"'s CA built in, its hash in the manifest' '
	mkdir -p "$TEST_TMP/out" &&
	ln -s "$TOP/out/kiln" "$TOP/out/kernel" "$TEST_TMP/out/" &&
	printf "%s\n" "-----BEGIN CERTIFICATE-----" "MIIB" \
		"-----END CERTIFICATE-----" >"$TEST_TMP/lab-ca.pem" &&
	LAB_CA="$TEST_TMP/lab-ca.pem" OUT="$TEST_TMP/out" \
		sh "$TOP/scripts/initramfs.sh" >"$TEST_TMP/ca.log" 2>&1 &&
	python3 "$TOP/tests/lib/newc.py" extract "$TEST_TMP/out/initramfs.cpio.gz" \
		"$TEST_TMP/ca" &&
	cmp "$TEST_TMP/lab-ca.pem" "$TEST_TMP/ca/etc/kiln/lab-ca.pem" &&
	grep -q "^lab-ca $(sha256sum "$TEST_TMP/lab-ca.pem" | cut -d" " -f1)\$" \
		"$TEST_TMP/out/manifest.initramfs"
'

test_expect_success 'LAB_CA that is not a PEM certificate: refused, said, nothing built' '
	printf "not a certificate\n" >"$TEST_TMP/junk.pem" &&
	rm -f "$TEST_TMP/out/initramfs.cpio.gz" &&
	{ LAB_CA="$TEST_TMP/junk.pem" OUT="$TEST_TMP/out" \
		sh "$TOP/scripts/initramfs.sh" >"$TEST_TMP/junk.log" 2>&1
	  test $? = 1; } &&
	grep_in "LAB_CA=$TEST_TMP/junk.pem is not a PEM certificate" \
		"$TEST_TMP/junk.log" &&
	[ ! -e "$TEST_TMP/out/initramfs.cpio.gz" ]
'

test_expect_success 'pci.ids for controller names' '
	has usr/share/misc/pci.ids
'

test_expect_success 'the storage, USB, stick and NIC modules, and modules.dep' '
	for m in ahci nvme megaraid_sas mpt3sas virtio_scsi virtio_blk \
		usb-storage xhci-pci vfat efivarfs e1000; do
		grep -q "/$m\.ko$" "$list" || { echo "no $m.ko"; return 1; }
	done &&
	has "usr/lib/modules/$kver/modules.dep"
'

test_expect_success 'every module is byte for byte the one Debian ships' '
	rm -rf "$TEST_TMP/x" && mkdir "$TEST_TMP/x" &&
	python3 "$TOP/tests/lib/newc.py" extract "$img" "$TEST_TMP/x" &&
	n=0 &&
	for m in $(grep "\.ko$" "$list"); do
		orig="$TOP/out/kernel/root/lib/modules/$kver/${m#usr/lib/modules/$kver/}"
		cmp -s "$TEST_TMP/x/$m" "$orig" || { echo "differs: $m"; return 1; }
		n=$((n + 1))
	done &&
	[ "$n" -gt 50 ]
'

test_done
