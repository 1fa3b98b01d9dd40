#!/bin/sh
# needs: kiln
# make image LAB_SETTINGS=...: a lab's settings go into every boot menu
# alike (the stick's syslinux and GRUB, the PXE root's pxelinux, GRUB and
# iPXE, the ISO's isolinux and GRUB), each kernel line ending in them; a
# key kiln does not know, or a character a menu would read as its own
# ($ is expanded by GRUB and iPXE), is exit 2 with one line and nothing
# built; without LAB_SETTINGS the menus are boot/'s as they are.
. "$(dirname "$0")/../lib/tap.sh"

for tool in sfdisk mkfs.vfat mcopy mtype syslinux xorriso; do
	command -v "$tool" >/dev/null 2>&1 || test_skip_all "needs $tool"
done
for f in kernel/vmlinuz initramfs.cpio.gz kiln; do
	[ -e "$TOP/out/$f" ] || test_skip_all "needs out/$f (make ramboot)"
done

# build NAME [LAB_SETTINGS]: scripts/image.sh into $TEST_TMP/NAME, a small
# stick; the exit code in $TEST_TMP/NAME.rc, what it said in NAME.err.
build () {
	out=$TEST_TMP/$1
	mkdir -p "$out/kernel" &&
	ln -sf "$TOP/out/kernel/vmlinuz" "$out/kernel/vmlinuz" &&
	ln -sf "$TOP/out/initramfs.cpio.gz" "$TOP/out/kiln" "$out/" &&
	{ OUT=$out USB_MIB=64 LAB_SETTINGS=${2:-} sh "$TOP/scripts/image.sh" \
		>"$TEST_TMP/$1.out" 2>"$TEST_TMP/$1.err"; echo $? >"$TEST_TMP/$1.rc"; }
}

# kernel_lines FILE: the lines of a menu that start a kernel.
kernel_lines () {
	grep -E "^[[:space:]]*(APPEND|linux|kernel) " "$1"
}

# every_line_ends FILE WORDS: each kernel line of FILE ends so, and there
# are as many as boot/'s menu has.
every_line_ends () {
	n=$(kernel_lines "$1" | wc -l)
	m=$(kernel_lines "$1" | grep -c -- "$2\$")
	[ "$n" -gt 0 ] && [ "$n" = "$m" ] && return 0
	echo "$1: $m of $n kernel lines end in '$2':"
	kernel_lines "$1"
	return 1
}

lab="upload=http://10.0.2.2:8080/kiln/ kiln.after=poweroff metrics=http://10.0.2.2:9091"
want=" kiln.upload=http://10.0.2.2:8080/kiln/ kiln.after=poweroff kiln.metrics=http://10.0.2.2:9091"

test_expect_success 'LAB_SETTINGS: every kernel line of every menu ends in the lab keys' '
	build lab "$lab" && test_eq "$(cat "$TEST_TMP/lab.rc")" 0 "exit" &&
	o=$TEST_TMP/lab &&
	mtype -i "$o/kiln-usb.img@@1M" ::/syslinux/syslinux.cfg >"$TEST_TMP/stick-syslinux" &&
	mtype -i "$o/kiln-usb.img@@1M" ::/EFI/debian/grub.cfg >"$TEST_TMP/stick-grub" &&
	every_line_ends "$TEST_TMP/stick-syslinux" "$want" &&
	every_line_ends "$TEST_TMP/stick-grub" "$want" &&
	every_line_ends "$o/pxe/syslinux.cfg" "$want" &&
	every_line_ends "$o/pxe/grub/grub.cfg" "$want" &&
	every_line_ends "$o/pxe/kiln.ipxe" "$want" &&
	every_line_ends "$o/iso-root/isolinux/isolinux.cfg" "$want" &&
	every_line_ends "$o/iso-root/boot/grub/grub.cfg" "$want" &&
	grep -q "^INCLUDE syslinux.cfg" "$o/pxe/pxelinux.cfg/default" &&
	grep -qF "lab settings in every boot menu:$want" "$TEST_TMP/lab.out"
'

test_expect_success 'an entry keeps its own keys before the lab'"'"'s: the later wins' '
	grep -q "APPEND .* kiln.mode=read$want\$" "$TEST_TMP/lab/pxe/syslinux.cfg"
'

test_expect_success 'without LAB_SETTINGS the menus are boot/'"'"'s as they are' '
	build plain && test_eq "$(cat "$TEST_TMP/plain.rc")" 0 "exit" &&
	cmp "$TOP/boot/syslinux.cfg" "$TEST_TMP/plain/pxe/syslinux.cfg" &&
	cmp "$TOP/boot/grub.cfg" "$TEST_TMP/plain/pxe/grub/grub.cfg" &&
	cmp "$TOP/boot/kiln.ipxe" "$TEST_TMP/plain/pxe/kiln.ipxe"
'

# refused NAME SETTINGS SAYS: exit 2, one line that says SAYS, no media.
refused () {
	build "$1" "$2" &&
	test_eq "$(cat "$TEST_TMP/$1.rc")" 2 "exit" &&
	test_eq "$(wc -l <"$TEST_TMP/$1.err")" 1 "lines said" &&
	grep -qF -- "$3" "$TEST_TMP/$1.err" &&
	[ ! -e "$TEST_TMP/$1/kiln-usb.img" ] && [ ! -e "$TEST_TMP/$1/pxe" ] &&
	[ ! -e "$TEST_TMP/$1/kiln.iso" ]
}

test_expect_success 'a key kiln does not know: exit 2, one line, nothing built' '
	refused typo "uplod=http://x/ after=poweroff" "uplod"
'

test_expect_success 'a bad value: exit 2, one line, nothing built' '
	refused value "after=sometimes" "sometimes"
'

test_expect_success 'a $ (GRUB and iPXE would expand it), a quote, no =: exit 2' '
	refused dollar "upload=http://\$host/" "only letters, digits" &&
	refused quote "upload=\"http://x/\"" "only letters, digits" &&
	refused bare "poweroff" "poweroff: not KEY=VALUE"
'

test_done
