#!/bin/sh
# needs: kiln
# The init, on the host: a fake root (proc, sys) under ROOT and MOCK=FILE,
# so every command that would change the machine is logged instead of run,
# and fakes of kiln and findfs first in PATH. It must mount only what is
# not mounted, load drivers, mount the stick, run kiln with the stick
# protected, keep the results, and end as the setting after says; every
# failure said plainly, never an exit of PID 1 without one.
. "$(dirname "$0")/../lib/tap.sh"

init="$TOP/initramfs/init"
fake="$TEST_TMP/bin"
mkdir -p "$fake"
cat >"$fake/kiln" <<'SH'
#!/bin/sh
case "$1" in
version) echo "kiln test" ;;
settings)
	# The stick's kiln.cfg is read only while the stick is mounted.
	if grep -q "^umount /mnt/kiln" "$MOCK" && grep -q -- "--config" <<-EOF
	$*
	EOF
	then
		echo "kiln settings after the stick was unmounted" >>"$MOCK"
	fi
	while [ "$#" -gt 0 ]; do
		[ "$1" = --get ] && key=$2
		shift
	done
	sed -n "s/^$key=//p" "$FAKE_SETTINGS"
	;;
run)
	echo "kiln $*" >>"$MOCK"
	echo "kiln run output"
	# A power-cut test's boot 1: the file says whether a BMC is there.
	if [ -n "$FAKE_CUT" ]; then
		while [ "$#" -gt 0 ]; do
			[ "$1" = --powercut-file ] && echo "$FAKE_CUT" >"$2"
			shift
		done
	fi
	exit "${FAKE_KILN_STATUS:-0}"
	;;
esac
SH
cat >"$fake/findfs" <<'SH'
#!/bin/sh
[ -n "$FAKE_STICK" ] && echo "$FAKE_STICK"
SH
# The init looks at every other disk read-only for kiln's boot files: the
# fake mount shows them on the devices in FAKE_BOOT_MEDIA, fails on others.
cat >"$fake/mount" <<'SH'
#!/bin/sh
# mount -t FS -o ro DEV DIR
case " $FAKE_BOOT_MEDIA " in
*" $5 "*) mkdir -p "$6/kiln" && : >"$6/kiln/vmlinuz" && exit 0 ;;
esac
exit 32
SH
cat >"$fake/umount" <<'SH'
#!/bin/sh
rm -rf "$1/kiln"
SH
# The lab server's token claim (FAKE_CLAIM: 200, 409, or down:N for N
# connections refused first); every call logged, the token never.
cat >"$fake/curl" <<'SH'
#!/bin/sh
printf "curl %s\n" "$*" >>"$MOCK"
case $FAKE_CLAIM in
down:*)
	n=$(cat "$MOCK.down" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$MOCK.down"
	if [ "$n" -lt "${FAKE_CLAIM#down:}" ]; then
		echo "curl: (7) Failed to connect to lab port 8443: Connection refused" >&2
		exit 7
	fi
	printf '0123456789abcdef0123456789abcdef0123456789abcdef\n200' ;;
200) printf '0123456789abcdef0123456789abcdef0123456789abcdef\n200' ;;
409) printf 'refused: its token was claimed already (2026-12-04T18:53:47Z from 10.0.2.15): a second claim\n409' ;;
esac
SH
chmod +x "$fake/kiln" "$fake/findfs" "$fake/mount" "$fake/umount" "$fake/curl"

# machine NAME: a fake root with two disks, a NIC and two modaliases.
machine () {
	ROOT="$TEST_TMP/$1"
	rm -rf "$ROOT"
	mkdir -p "$ROOT/proc" "$ROOT/sys/block/sda" "$ROOT/sys/block/sdb" \
		"$ROOT/sys/class/block/sda" "$ROOT/sys/class/block/sdb" \
		"$ROOT/sys/class/block/sdz1" "$ROOT/sys/class/block/loop0" \
		"$ROOT/sys/devices/pci0000:00/0000:00:1f.2" \
		"$ROOT/sys/devices/pci0000:00/0000:00:03.0" \
		"$ROOT/sys/class/net/eth0/device" "$ROOT/sys/class/net/lo"
	echo "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01" \
		>"$ROOT/sys/devices/pci0000:00/0000:00:1f.2/modalias"
	echo "pci:v00008086d0000100Esv00001AF4sd00001100bc02sc00i00" \
		>"$ROOT/sys/devices/pci0000:00/0000:00:03.0/modalias"
	: >"$ROOT/proc/mounts"
	echo "console=ttyS0,115200 quiet" >"$ROOT/proc/cmdline"
	printf 'after=poweroff\nsettle=30\n' >"$TEST_TMP/settings"
	MOCK="$TEST_TMP/$1.mock"
	: >"$MOCK"
}

boot () {
	ROOT="$ROOT" MOCK="$MOCK" PATH="$fake:$PATH" FAKE_SETTINGS="$TEST_TMP/settings" \
		sh "$init" >"$TEST_TMP/out" 2>&1
}

test_expect_success 'the init parses (sh -n, and busybox ash when present)' '
	sh -n "$init" &&
	{ ! command -v busybox >/dev/null || busybox ash -n "$init"; }
'

test_expect_success 'a full boot: mounts, drivers, stick, kiln run, results, poweroff' '
	machine full && FAKE_STICK=/dev/sdz1 boot &&
	cat "$MOCK" &&
	grep -qx "mount -t proc proc /proc" "$MOCK" &&
	grep -qx "mount -t sysfs sysfs /sys" "$MOCK" &&
	grep -qx "mount -t devtmpfs devtmpfs /dev" "$MOCK" &&
	grep "^modprobe -q -a -b " "$MOCK" | grep -q "pci:v00008086d00002922" &&
	grep "^modprobe -q -a -b " "$MOCK" | grep -q "pci:v00008086d0000100E" &&
	grep -qx "mount -t vfat -o rw,noatime,flush /dev/sdz1 /mnt/kiln" "$MOCK" &&
	grep -qx "kiln run --results /mnt/kiln --protect /dev/sdz1 --powercut-file $ROOT/run/kiln.powercut" "$MOCK" &&
	grep -qx "umount /mnt/kiln" "$MOCK" &&
	grep -qx "poweroff -f" "$MOCK" &&
	grep -qx "end poweroff" "$MOCK" &&
	! grep -q "kiln settings after the stick was unmounted" "$MOCK" &&
	grep_in "kiln-init: results stick: /dev/sdz1 mounted at /mnt/kiln" "$TEST_TMP/out" &&
	grep_in "kiln-init: disks: sda sdb" "$TEST_TMP/out" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/out"
'

test_expect_success 'the kernel console quiet: only emergencies, set before kiln runs' '
	grep -qx "dmesg -n 1" "$MOCK" &&
	awk "/^dmesg -n 1\$/ { d = NR } /^kiln run / { k = NR }
		END { exit !(d && d < k) }" "$MOCK"
'

for word in loglevel=7 debug ignore_loglevel; do
	test_expect_success "$word on the command line: the kernel console left as asked" '
		machine "$word" &&
		echo "console=ttyS0,115200 $word" >"$ROOT/proc/cmdline" &&
		FAKE_STICK=/dev/sdz1 boot &&
		grep -q "^kiln run " "$MOCK" &&
		! grep -q "^dmesg" "$MOCK"
	'
done

test_expect_success 'the order: mount the stick, then run kiln, then unmount' '
	machine order && FAKE_STICK=/dev/sdz1 boot &&
	awk "/^mount -t vfat/ { m = NR } /^kiln run/ { k = NR } /^umount/ { u = NR }
		END { exit !(m < k && k < u) }" "$MOCK"
'

test_expect_success 'what is mounted already is not mounted again' '
	machine again &&
	printf "proc /proc proc rw 0 0\nsysfs /sys sysfs rw 0 0\n" >"$ROOT/proc/mounts" &&
	FAKE_STICK=/dev/sdz1 boot &&
	! grep -q "^mount -t proc" "$MOCK" && ! grep -q "^mount -t sysfs" "$MOCK" &&
	grep -qx "mount -t devtmpfs devtmpfs /dev" "$MOCK"
'

test_expect_success 'no stick: said, kiln runs without results, after wait' '
	machine nostick && printf "after=wait\n" >"$TEST_TMP/settings" &&
	FAKE_STICK= boot &&
	grep_in "kiln-init: no KILN stick found: results go to the console only" \
		"$TEST_TMP/out" &&
	grep -qx "kiln run --powercut-file $ROOT/run/kiln.powercut" "$MOCK" &&
	! grep -q "^umount" "$MOCK" &&
	grep -qx "end wait" "$MOCK"
'

test_expect_success 'no stick, upload set: said that results go to the lab server' '
	machine noup &&
	printf "after=wait\nupload=http://10.0.2.2:8080/kiln-results/\n" \
		>"$TEST_TMP/settings" &&
	FAKE_STICK= boot &&
	grep_in "kiln-init: no KILN stick found: results go to the lab server http://10.0.2.2:8080/kiln-results/ and to the console" \
		"$TEST_TMP/out" &&
	! grep -q "console only" "$TEST_TMP/out" &&
	grep -qx "kiln run --powercut-file $ROOT/run/kiln.powercut" "$MOCK"
'

test_expect_success 'kiln cannot run: said, and the machine still ends as asked' '
	machine broken && printf "after=shell\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 FAKE_KILN_STATUS=3 boot &&
	grep_in "kiln-init: kiln run: could not run" "$TEST_TMP/out" &&
	grep -qx "umount /mnt/kiln" "$MOCK" &&
	grep -qx "end shell" "$MOCK"
'

test_expect_success 'a disk failed: said; reboot when asked' '
	machine failed && printf "after=reboot\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 FAKE_KILN_STATUS=1 boot &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/out" &&
	grep -qx "reboot -f" "$MOCK"
'

test_expect_success 'a bad after: said, and the machine waits' '
	machine badafter && printf "after=sideways\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 boot &&
	grep_in "setting after is '\''sideways'\'', not poweroff, reboot, shell or wait: waiting" \
		"$TEST_TMP/out" &&
	grep -qx "end wait" "$MOCK"
'

test_expect_success 'PXE-booted (BOOTIF=): the wired NIC gets DHCP' '
	machine pxe &&
	echo "console=ttyS0 BOOTIF=01-52-54-00-12-34-56" >"$ROOT/proc/cmdline" &&
	FAKE_STICK= boot &&
	grep -qx "ip link set eth0 up" "$MOCK" &&
	grep -q "^udhcpc -i eth0 " "$MOCK" &&
	! grep -q "udhcpc -i lo" "$MOCK"
'

test_expect_success 'PXE-booted: the NIC that booted goes first' '
	machine pxe2 && mkdir -p "$ROOT/sys/class/net/eth1/device" &&
	echo 52:54:00:00:00:01 >"$ROOT/sys/class/net/eth0/address" &&
	echo 52:54:00:12:34:56 >"$ROOT/sys/class/net/eth1/address" &&
	echo "console=ttyS0 BOOTIF=01-52-54-00-12-34-56" >"$ROOT/proc/cmdline" &&
	FAKE_STICK= boot &&
	grep "^udhcpc -i" "$MOCK" | head -n 1 | grep -q "^udhcpc -i eth1 "
'

for key in upload metrics iperf; do
	test_expect_success "not PXE-booted, $key set: DHCP" '
		machine "net$key" &&
		printf "%s=http://10.0.2.2:8080/\n" "$key" >>"$TEST_TMP/settings" &&
		FAKE_STICK=/dev/sdz1 boot &&
		grep -q "^udhcpc -i eth0 " "$MOCK"
	'
done

test_expect_success 'iperf set: every NIC takes DHCP, not only the first' '
	machine iperfall && mkdir -p "$ROOT/sys/class/net/eth1/device" &&
	printf "iperf=10.0.2.2\n" >>"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 boot &&
	grep -q "^udhcpc -i eth0 " "$MOCK" && grep -q "^udhcpc -i eth1 " "$MOCK" &&
	grep_in "kiln-init: network: eth0 is up" "$TEST_TMP/out" &&
	grep_in "kiln-init: network: eth1 is up" "$TEST_TMP/out"
'

test_expect_success 'no iperf: the first NIC that gets a lease is enough' '
	machine netfirst && mkdir -p "$ROOT/sys/class/net/eth1/device" &&
	printf "upload=http://10.0.2.2:8080/\n" >>"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 boot &&
	grep -q "^udhcpc -i eth0 " "$MOCK" && ! grep -q "^udhcpc -i eth1 " "$MOCK"
'

test_expect_success 'not PXE-booted: no DHCP' '
	machine nopxe && FAKE_STICK= boot &&
	! grep -q "^udhcpc" "$MOCK"
'

test_expect_success 'another disk holding kiln boot files is protected too' '
	machine media && FAKE_STICK=/dev/sdz1 FAKE_BOOT_MEDIA=/dev/sdb boot &&
	grep -qx "kiln run --results /mnt/kiln --protect /dev/sdz1 --protect /dev/sdb --powercut-file $ROOT/run/kiln.powercut" \
		"$MOCK" &&
	grep_in "kiln-init: /dev/sdb holds kiln" "$TEST_TMP/out" &&
	grep_in "boot files: protected" "$TEST_TMP/out" &&
	! grep -q "/dev/sda holds" "$TEST_TMP/out"
'

test_expect_success 'the stick is not looked at twice; no other media: none protected' '
	machine nomedia && FAKE_STICK=/dev/sdz1 FAKE_BOOT_MEDIA=/dev/sdz1 boot &&
	grep -qx "kiln run --results /mnt/kiln --protect /dev/sdz1 --powercut-file $ROOT/run/kiln.powercut" "$MOCK" &&
	! grep -q "holds kiln" "$TEST_TMP/out"
'

test_expect_success 'the BMC drivers are loaded, after the stick says bmc' '
	machine bmcmods && FAKE_STICK=/dev/sdz1 boot &&
	for m in ipmi_msghandler ipmi_devintf ipmi_si ipmi_ssif; do
		grep -qx "modprobe -q $m" "$MOCK" || return 1
	done &&
	awk "/^mount -t vfat/ { m = NR } /^modprobe -q ipmi_si/ { i = NR }
		END { exit !(m && m < i) }" "$MOCK"
'

test_expect_success 'bmc=0: no BMC driver loaded' '
	machine bmcoff && printf "after=wait\nbmc=0\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 boot &&
	! grep -q "^modprobe -q ipmi" "$MOCK"
'

test_expect_success 'powercut with a BMC: synced, unmounted, then the BMC cycles the power' '
	machine cutbmc && FAKE_STICK=/dev/sdz1 FAKE_CUT=bmc boot &&
	cat "$MOCK" &&
	grep -qx "ipmitool chassis power cycle" "$MOCK" &&
	awk "/^kiln run/ { k = NR } /^sync/ && !s { s = NR } /^umount \/mnt\/kiln/ { u = NR }
		/^ipmitool chassis power cycle/ { c = NR }
		END { exit !(k < s && s < u && u < c) }" "$MOCK" &&
	grep_in "kiln-init: power-cut test: the stick is unmounted; the BMC cycles the power now" \
		"$TEST_TMP/out"
'

test_expect_success 'the BMC refuses: said, and the machine ends as after says' '
	machine cutno && printf "after=wait\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 FAKE_CUT=bmc MOCK_FAIL="ipmitool chassis*" boot &&
	grep -qx "ipmitool chassis power cycle" "$MOCK" &&
	grep_in "kiln-init: the BMC did not cycle the power: CUT THE POWER by hand" \
		"$TEST_TMP/out" &&
	grep -qx "end wait" "$MOCK"
'

test_expect_success 'powercut with no BMC: said, nothing asked of one' '
	machine cutnone && printf "after=wait\n" >"$TEST_TMP/settings" &&
	FAKE_STICK=/dev/sdz1 FAKE_CUT=none boot &&
	! grep -q "^ipmitool" "$MOCK" &&
	grep_in "kiln-init: no BMC to cut the power: CUT THE POWER by hand" \
		"$TEST_TMP/out" &&
	grep -qx "end wait" "$MOCK"
'

test_expect_success 'no power-cut test: the BMC is not asked, a stale file is not read' '
	machine nocut && mkdir -p "$ROOT/run" && echo bmc >"$ROOT/run/kiln.powercut" &&
	FAKE_STICK=/dev/sdz1 boot &&
	! grep -q "^ipmitool" "$MOCK" && grep -qx "poweroff -f" "$MOCK"
'

# A lab on one-time tokens (docs/lab.md, "Tokens"): the lab's URLs.
tokens () {
	machine "$1" &&
	echo "console=ttyS0 BOOTIF=01-52-54-00-12-34-56" >"$ROOT/proc/cmdline" &&
	printf "%s\n" after=wait machine-id=SN-1 \
		claim=https://lab:8443/claim/ \
		upload=https://lab:8443/kiln-results/ \
		metrics=https://lab:8443/pushgateway/ lab=https://lab:8443/ \
		>"$TEST_TMP/settings"
}
TOKEN=0123456789abcdef0123456789abcdef0123456789abcdef

test_expect_success 'claim=: the token claimed once over TLS, into every https URL, never printed' '
	tokens claim && FAKE_STICK= FAKE_CLAIM=200 boot &&
	test_eq "$(grep -c "^curl " "$MOCK")" 1 &&
	grep -q "^curl .*--cacert $ROOT/etc/kiln/lab-ca.pem .*-X POST .*https://lab:8443/claim/SN-1\$" "$MOCK" &&
	grep -qx "kiln run --upload https://SN-1:$TOKEN@lab:8443/kiln-results/ --metrics https://SN-1:$TOKEN@lab:8443/pushgateway/ --lab https://SN-1:$TOKEN@lab:8443/ --powercut-file $ROOT/run/kiln.powercut" "$MOCK" &&
	grep_in "kiln-init: token: claimed for SN-1 at https://lab:8443/claim/" "$TEST_TMP/out" &&
	! grep -q "$TOKEN" "$TEST_TMP/out"
'

test_expect_success 'a refused claim: said loudly, never sent again, kiln runs as set' '
	tokens refused && FAKE_STICK= FAKE_CLAIM=409 boot &&
	test_eq "$(grep -c "^curl " "$MOCK")" 1 &&
	grep_in "kiln-init: token: claim at https://lab:8443/claim/SN-1 REFUSED: its token was claimed already" "$TEST_TMP/out" &&
	grep_in "arms SN-1 again" "$TEST_TMP/out" &&
	grep -qx "kiln run --powercut-file $ROOT/run/kiln.powercut" "$MOCK"
'

test_expect_success 'a server not listening yet: the claim is tried again; a user part of its own is kept' '
	tokens down && echo upload=https://me:pw@lab:8443/kiln-results/ >>"$TEST_TMP/settings" &&
	sed -i "/^upload=https:\/\/lab/d" "$TEST_TMP/settings" &&
	FAKE_STICK= FAKE_CLAIM=down:1 boot &&
	test_eq "$(grep -c "^curl " "$MOCK")" 2 &&
	grep -qx "kiln run --metrics https://SN-1:$TOKEN@lab:8443/pushgateway/ --lab https://SN-1:$TOKEN@lab:8443/ --powercut-file $ROOT/run/kiln.powercut" "$MOCK"
'

test_expect_success 'claim= over plain http: no claim, said (a token never goes in clear)' '
	tokens plain && sed -i "s|^claim=https:|claim=http:|" "$TEST_TMP/settings" &&
	FAKE_STICK= FAKE_CLAIM=200 boot &&
	! grep -q "^curl " "$MOCK" &&
	grep_in "a token never goes in clear" "$TEST_TMP/out" &&
	grep -qx "kiln run --powercut-file $ROOT/run/kiln.powercut" "$MOCK"
'

test_done
