#!/bin/sh
# image.sh: the boot media, built as a normal user (no root, no loop
# mounts) from the ramboot and loaders taken unmodified from Debian:
#   out/kiln-usb.img  MBR, one FAT32 partition labelled KILN: the kernel,
#                     the initramfs, kiln.cfg and room for results; BIOS
#                     boots syslinux, UEFI boots shim -> signed GRUB ->
#                     signed kernel, so Secure Boot can stay on.
#   out/pxe/          a TFTP root: pxelinux for BIOS PXE, shim and signed
#                     network GRUB for UEFI PXE, kiln.ipxe for iPXE/HTTP.
#   out/kiln.iso      a hybrid ISO (BIOS and UEFI) for BMC virtual media.
# USB_MIB (1024) sets the stick image's size: its free space holds results.
# LAB_SETTINGS ("upload=http://10.0.0.1/kiln after=poweroff"): a lab's
# settings, each word KEY=VALUE (or kiln.KEY=VALUE), added as kiln.KEY=VALUE
# to every entry of every boot menu (syslinux, pxelinux, isolinux, GRUB,
# iPXE), so a lab edits one line, not three files that the next build
# overwrites. Checked against kiln's key table first: a bad one is exit 2,
# nothing built.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$top/out}
usb_mib=${USB_MIB:-1024}
boot=$top/boot
shim=/usr/lib/shim/shimx64.efi.signed
grub=/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed
grub_cd=/usr/lib/grub/x86_64-efi-signed/gcdx64.efi.signed
grub_net=/usr/lib/grub/x86_64-efi-signed/grubnetx64.efi.signed
bios=/usr/lib/syslinux/modules/bios
export MTOOLS_SKIP_CHECK=1

say () {
	echo "image: $*"
}

for f in "$OUT/kernel/vmlinuz" "$OUT/initramfs.cpio.gz" "$shim" "$grub"; do
	[ -e "$f" ] || { say "missing $f (make ramboot, make deps)" >&2; exit 1; }
done

bad_setting () {
	say "LAB_SETTINGS: $*" >&2
	exit 2
}

# The words as kernel command line keys. Only characters that a kernel
# command line and all three menu languages take as they are: no quotes,
# no spaces inside a value, no $ (GRUB and iPXE expand it), no ; or &.
lab_args=
for w in ${LAB_SETTINGS:-}; do
	case $w in
	*=*) ;;
	*) bad_setting "$w: not KEY=VALUE" ;;
	esac
	case $w in
	*[!A-Za-z0-9._:/=,@%+~?-]*)
		bad_setting "$w: only letters, digits and ._:/=,@%+~?- can go on every boot menu's command line" ;;
	esac
	lab_args="$lab_args kiln.${w#kiln.}"
done
menus=$OUT/menus
rm -rf "$menus"
mkdir -p "$menus"
if [ -n "$lab_args" ]; then
	echo "$lab_args" >"$menus/cmdline"
	"$OUT/kiln" settings --cmdline "$menus/cmdline" >/dev/null \
		2>"$menus/err" || bad_setting "$(head -n 1 "$menus/err")"
	say "lab settings in every boot menu:$lab_args"
fi
# Each menu with the lab's keys at the end of every kernel line (after
# the entry's own, so LAB_SETTINGS wins over an entry's kiln.mode=read
# only where it names the same key: the later wins).
sed "/^[[:space:]]*APPEND /s|\$|$lab_args|" "$boot/syslinux.cfg" \
	>"$menus/syslinux.cfg"
sed "/^[[:space:]]*linux /s|\$|$lab_args|" "$boot/grub.cfg" \
	>"$menus/grub.cfg"
sed "/^kernel /s|\$|$lab_args|" "$boot/kiln.ipxe" >"$menus/kiln.ipxe"

# The USB stick. The FAT starts at 1 MiB; everything is put in with
# mtools, and syslinux installs its boot sector through --offset.
usb=$OUT/kiln-usb.img
rm -f "$usb.tmp"
truncate -s "${usb_mib}M" "$usb.tmp"
printf 'label: dos\nstart=2048, type=c, bootable\n' | sfdisk -q "$usb.tmp"
mkfs.vfat -F 32 -n KILN --offset 2048 "$usb.tmp" $(((usb_mib - 1) * 1024)) \
	>/dev/null 2>&1
fat="$usb.tmp@@1M"
mmd -i "$fat" ::/kiln ::/syslinux ::/EFI ::/EFI/BOOT ::/EFI/debian
mcopy -i "$fat" "$OUT/kernel/vmlinuz" ::/kiln/vmlinuz
mcopy -i "$fat" "$OUT/initramfs.cpio.gz" ::/kiln/initrd.gz
mcopy -i "$fat" "$boot/kiln.cfg" ::/kiln.cfg
mcopy -i "$fat" "$menus/syslinux.cfg" ::/syslinux/syslinux.cfg
mcopy -i "$fat" "$shim" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$fat" "$grub" ::/EFI/BOOT/grubx64.efi
# Debian's signed GRUB looks for its grub.cfg in /EFI/debian first.
mcopy -i "$fat" "$menus/grub.cfg" ::/EFI/debian/grub.cfg
syslinux --offset $((2048 * 512)) --install --directory /syslinux "$usb.tmp"
dd if=/usr/lib/syslinux/mbr/mbr.bin of="$usb.tmp" bs=440 count=1 \
	conv=notrunc 2>/dev/null
mv "$usb.tmp" "$usb"

# The PXE root.
pxe=$OUT/pxe
rm -rf "$pxe"
mkdir -p "$pxe/kiln" "$pxe/pxelinux.cfg" "$pxe/grub"
cp "$OUT/kernel/vmlinuz" "$pxe/kiln/vmlinuz"
cp "$OUT/initramfs.cpio.gz" "$pxe/kiln/initrd.gz"
cp /usr/lib/PXELINUX/pxelinux.0 "$pxe/"
cp "$bios/ldlinux.c32" "$pxe/"
cp "$menus/syslinux.cfg" "$pxe/syslinux.cfg"
cp "$boot/pxelinux.cfg" "$pxe/pxelinux.cfg/default"
# shim loads grubx64.efi from where it came from: the network GRUB, whose
# prefix is /grub on the TFTP server.
cp "$shim" "$pxe/bootx64.efi"
cp "$grub_net" "$pxe/grubx64.efi"
cp "$menus/grub.cfg" "$pxe/grub/grub.cfg"
cp "$menus/kiln.ipxe" "$pxe/kiln.ipxe"

# The ISO: isolinux for BIOS (hybrid: it boots from a stick too), and an
# EFI El Torito image with shim and the CD GRUB, which finds the ISO by
# /.disk/info and reads /boot/grub/grub.cfg from it.
iso=$OUT/kiln.iso
tree=$OUT/iso-root
rm -rf "$tree"
mkdir -p "$tree/kiln" "$tree/isolinux" "$tree/boot/grub" "$tree/.disk"
cp "$OUT/kernel/vmlinuz" "$tree/kiln/vmlinuz"
cp "$OUT/initramfs.cpio.gz" "$tree/kiln/initrd.gz"
cp /usr/lib/ISOLINUX/isolinux.bin "$bios/ldlinux.c32" "$tree/isolinux/"
cp "$menus/syslinux.cfg" "$tree/isolinux/isolinux.cfg"
cp "$menus/grub.cfg" "$tree/boot/grub/grub.cfg"
echo "kiln $("$OUT/kiln" version | cut -d' ' -f2)" >"$tree/.disk/info"
efi=$tree/boot/efi.img
truncate -s 10M "$efi"
mkfs.vfat -n KILN-EFI "$efi" >/dev/null
mmd -i "$efi" ::/EFI ::/EFI/BOOT
mcopy -i "$efi" "$shim" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$efi" "$grub_cd" ::/EFI/BOOT/grubx64.efi
# Volume id KILN-ISO, not KILN: the init must not take the CD for the stick.
xorriso -as mkisofs -quiet -o "$iso.tmp" -V KILN-ISO -J -r \
	-isohybrid-mbr /usr/lib/ISOLINUX/isohdpfx.bin \
	-b isolinux/isolinux.bin -c isolinux/boot.cat \
	-no-emul-boot -boot-load-size 4 -boot-info-table \
	-eltorito-alt-boot -e boot/efi.img -no-emul-boot \
	-isohybrid-gpt-basdat "$tree" 2>/dev/null
mv "$iso.tmp" "$iso"

{
	for p in syslinux syslinux-common isolinux pxelinux shim-signed \
		grub-efi-amd64-signed mtools dosfstools xorriso fdisk; do
		dpkg-query -W -f='package ${Package} ${Version}\n' "$p" 2>/dev/null ||
			echo "package $p not-installed"
	done
} >"$OUT/manifest.image"
for f in "$usb" "$iso" "$pxe"; do
	say "$(du -sh --apparent-size "$f" | cut -f1) apparent, $(du -sh "$f" | cut -f1) on disk  $f"
done
