#!/bin/sh
# needs: kiln
# make lab's scripts without QEMU: the QEMU command lines scripts/lab.sh
# builds (LAB_DRY prints them and boots nothing) for make lab and for
# make lab-fail, whose disks are lab_failing_disks in scripts/qemu.sh, the
# one definition tests/e2e/faults.t boots too; bad LAB_* values refused;
# every LAB_* variable the lab honours named in docs/lab.md; the build line's
# sizes are the files', not their symlinks'.
. "$(dirname "$0")/../lib/tap.sh"

for tool in sfdisk mkfs.vfat mcopy stat; do
	command -v "$tool" >/dev/null 2>&1 || test_skip_all "needs $tool"
done

# dry DIR [fail]: scripts/lab.sh's QEMU command line, one argument a line.
dry () {
	dir=$1
	shift
	LAB_DRY=1 LAB_BOOT=direct LAB_DIR="$TEST_TMP/$dir" \
		sh "$TOP/scripts/lab.sh" "$@" >"$TEST_TMP/$dir.cmd" &&
	tr ' ' '\n' <"$TEST_TMP/$dir.cmd" >"$TEST_TMP/$dir.args"
}

# drive_of SERIAL FILE: the -drive of the disk with that serial.
drive_of () {
	id=$(grep "serial=$1," "$2" | sed 's/.*drive=\(d[0-9]*\),.*/\1/')
	grep "^if=none,id=$id," "$2"
}

test_expect_success 'make lab-fail: a healthy disk, one with read errors, one that drops writes' '
	dry fail fail &&
	[ "$(grep -c "^ide-hd," "$TEST_TMP/fail.args")" = 3 ] &&
	drive_of KILN-GOOD "$TEST_TMP/fail.args" | grep -q "format=raw,.*file=$TEST_TMP/fail/good.img" &&
	drive_of KILN-BAD "$TEST_TMP/fail.args" |
		grep -q "file.driver=blkdebug,file.config=$TEST_TMP/fail/bad.blkdebug," &&
	drive_of KILN-DROP "$TEST_TMP/fail.args" |
		grep -q "driver=null-co,size=64M,read-zeroes=on" &&
	[ ! -e "$TEST_TMP/fail/drop.img" ] &&
	[ "$(sed -n "s/^sector = \"\(.*\)\"/\1/p" "$TEST_TMP/fail/bad.blkdebug" | tr "\n" " ")" = "20480 40960 " ] &&
	[ "$(grep -c "^iotype = \"read\"" "$TEST_TMP/fail/bad.blkdebug")" = 2 ]
'

test_expect_success 'tests/e2e/faults.t boots the same disks (lab_failing_disks)' '
	grep -q "^lab_failing_disks " "$TOP/tests/e2e/faults.t" &&
	grep -q "lab_failing_disks \"\$mib\"" "$TOP/scripts/lab.sh"
'

test_expect_success 'make lab: eight disks, none of them faulty; LAB_MIB sizes them' '
	LAB_MIB=16 dry lab &&
	[ "$(grep -c "^nvme-ns," "$TEST_TMP/lab.args")" = 2 ] &&
	[ "$(grep -c "^ide-hd," "$TEST_TMP/lab.args")" = 2 ] &&
	[ "$(grep -c "^scsi-hd," "$TEST_TMP/lab.args")" = 4 ] &&
	! grep -q "blkdebug\|null-co" "$TEST_TMP/lab.args" &&
	[ "$(stat -c %s "$TEST_TMP/lab/sata-a.img")" = $((16 << 20)) ] &&
	grep -q "^quiet$" "$TEST_TMP/lab.args"
'

test_expect_success 'each lab starts from fresh disks: no fault left from another run' '
	: >"$TEST_TMP/lab/sata-a.blkdebug" && : >"$TEST_TMP/lab/nvme-a.drops" &&
	echo data >"$TEST_TMP/lab/nvme-b.img" &&
	dry lab &&
	! grep -q "blkdebug\|null-co" "$TEST_TMP/lab.args" &&
	[ "$(stat -c %s "$TEST_TMP/lab/nvme-b.img")" = $((64 << 20)) ]
'

test_expect_success 'lab_discard: that disk'"'"'s discards reach its image, no other'"'"'s' '
	(
		lab_top=$TOP && . "$TOP/scripts/qemu.sh" &&
		lab_init "$TEST_TMP/discard" &&
		lab_discard nvme-a && lab_discard sata-a &&
		lab_disk nvme nvme-a 1 && lab_disk ahci sata-a 1 KILN-SATA-A &&
		lab_disk ahci sata-b 1 KILN-SATA-B &&
		printf "%s\n" $lab_args >"$TEST_TMP/discard.args"
	) &&
	grep -q "^if=none,id=d1,.*file=$TEST_TMP/discard/nvme-a.img,discard=unmap$" "$TEST_TMP/discard.args" &&
	drive_of KILN-SATA-A "$TEST_TMP/discard.args" | grep -q ",discard=unmap$" &&
	! drive_of KILN-SATA-B "$TEST_TMP/discard.args" | grep -q "discard="
'

test_expect_success 'LAB_APPEND and LAB_EXTRA reach the command line' '
	LAB_APPEND=kiln.profile=smoke LAB_EXTRA="-name lab" dry extra &&
	grep -qx "kiln.profile=smoke" "$TEST_TMP/extra.args" &&
	grep -q " -name lab$" "$TEST_TMP/extra.cmd"
'

# refused LAB ENV...: scripts/lab.sh LAB (lab or fail) with those
# variables exits 2 with one line on stderr and makes nothing.
refused () {
	lab=$1
	shift
	env LAB_DRY=1 LAB_DIR="$TEST_TMP/refused" "$@" sh "$TOP/scripts/lab.sh" \
		"$lab" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	status=$?
	cat "$TEST_TMP/err"
	[ "$status" = 2 ] && [ "$(wc -l <"$TEST_TMP/err")" = 1 ] &&
		[ ! -s "$TEST_TMP/out" ] && [ ! -e "$TEST_TMP/refused" ]
}

if [ ! -e "$TOP/out/pxe/pxelinux.0" ]; then
	test_skip "LAB_BOOT=pxe: no out/pxe (make image builds it)"
else
test_expect_success 'LAB_BOOT=pxe: no stick, SeaBIOS boots pxelinux over QEMU'"'"'s TFTP, the MAC'"'"'s entry from scripts/labserver.sh names the servers' '
	LAB_DRY=1 LAB_BOOT=pxe LAB_DIR="$TEST_TMP/pxe" \
		sh "$TOP/scripts/lab.sh" >"$TEST_TMP/pxe.cmd" &&
	tr " " "\n" <"$TEST_TMP/pxe.cmd" >"$TEST_TMP/pxe.args" &&
	grep -qx "user,id=net0,tftp=$TEST_TMP/pxe/server/tftp,bootfile=pxelinux.0" "$TEST_TMP/pxe.args" &&
	grep -qx "e1000,netdev=net0,mac=52:54:00:12:34:56,bootindex=0" "$TEST_TMP/pxe.args" &&
	! grep -q "stick" "$TEST_TMP/pxe.args" && ! grep -qx -- "-kernel" "$TEST_TMP/pxe.args" &&
	entry="$TEST_TMP/pxe/server/tftp/pxelinux.cfg/01-52-54-00-12-34-56" &&
	grep -q "^SYSAPPEND 2$" "$entry" &&
	grep -q "APPEND .*kiln.machine-id=kiln-lab kiln.after=poweroff kiln.upload=http://10.0.2.2:[0-9]*/kiln-results/ kiln.lab=http://10.0.2.2:[0-9]*/ kiln.metrics=http://10.0.2.2:[0-9]*/$" "$entry" &&
	grep -qx "countdown=5" "$TEST_TMP/pxe/server/srv/kiln/config/kiln-lab.cfg" &&
	cmp "$TOP/out/pxe/pxelinux.0" "$TEST_TMP/pxe/server/tftp/pxelinux.0" &&
	[ ! -e "$TEST_TMP/pxe/server/run/nginx.pid" ]
'
fi

test_expect_success 'bad LAB_BOOT, LAB_MIB or lab: one line, exit 2, nothing made' '
	refused lab LAB_BOOT=floppy &&
	grep_in "LAB_BOOT is bios, uefi, secureboot, pxe or direct, not floppy" "$TEST_TMP/err" &&
	refused fail LAB_MIB=64M &&
	grep_in "LAB_MIB is a whole number of MiB, not 64M" "$TEST_TMP/err" &&
	refused lab LAB_MIB=0 &&
	refused broken LAB_BOOT=direct &&
	grep_in "scripts/lab.sh [fail], not broken" "$TEST_TMP/err"
'

test_expect_success 'docs/lab.md names every LAB_* variable make lab and lab-host honour' '
	# LAB_SHOW, LAB_KEYS, LAB_UNTIL, LAB_UNTIL_CMD and LAB_ARGV are the
	# e2e tests'"'"' hooks into lab_run (scripts/qemu.sh), not settings of a lab.
	grep -oh "LAB_[A-Z_]*" "$TOP/scripts/lab.sh" "$TOP/scripts/qemu.sh" \
		"$TOP/scripts/lab-host.sh" | sort -u |
		grep -v -x "LAB_SHOW\|LAB_KEYS\|LAB_UNTIL\|LAB_UNTIL_CMD\|LAB_ARGV" >"$TEST_TMP/vars" &&
	[ "$(wc -l <"$TEST_TMP/vars")" -ge 10 ] &&
	missing= &&
	for v in $(cat "$TEST_TMP/vars"); do
		grep -q "\`$v\`" "$TOP/docs/lab.md" || missing="$missing $v"
	done &&
	test_eq "$missing" "" "not in docs/lab.md"
'

test_expect_success 'the build line gives a symlinked kernel its own size' '
	mkdir -p "$TEST_TMP/k/root/boot" &&
	head -c 12345 /dev/zero >"$TEST_TMP/k/root/boot/vmlinuz-9.9" &&
	ln -s root/boot/vmlinuz-9.9 "$TEST_TMP/k/vmlinuz" &&
	sh "$TOP/scripts/sizes.sh" "$TEST_TMP/k/vmlinuz" >"$TEST_TMP/sizes" &&
	test_eq "$(cat "$TEST_TMP/sizes")" "  size     12345 $TEST_TMP/k/vmlinuz" &&
	grep -q "scripts/sizes.sh" "$TOP/Makefile"
'

test_done
