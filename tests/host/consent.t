#!/bin/sh
# needs: kiln
# No disk that holds anything is written unless the user named it. Each
# case here once wrote a disk without consent; now each is refused (exit
# 2, the reason named, the disk's sha256 unchanged): flag words that took
# consent, data away from the fixed signature offsets, a kiln unit at byte
# 0 hiding what follows, loop devices in use but not held (also through a
# hard link, a bind mount, a second loop device over the same file or a
# device node outside /dev), a mounted btrfs, an active swap file, the
# same medium twice, read-only devices, a mistyped device name.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

poke="python3 $TOP/tests/lib/poke.py"
M=1048576

# refused WHAT ARGS...: kiln exits 2 with one line naming WHAT.
refused () {
	what=$1
	shift
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ $code = 2 ] || { echo "exit $code, want 2"; cat "$TEST_TMP/out" "$TEST_TMP/err"; return 1; }
	grep -q -- "$what" "$TEST_TMP/err" || { echo "want '$what':"; cat "$TEST_TMP/err"; return 1; }
}

sha () {
	sha256sum <"$1" | cut -d' ' -f1
}

# sample SIZE I: where kiln reads its I-th of 64 samples of a SIZE disk.
sample () {
	python3 -c "import sys; s, i = int(sys.argv[1]), int(sys.argv[2]); print((i * ((s - 65536) // 63)) & ~4095)" "$1" "$2"
}

# in_chroot ROOT: in a mount namespace of its own, a chroot at ROOT (a
# folder, no mount point) with the static busybox and kiln, /dev/null
# and its own /proc, where a sleep holds t/held2.img, a hard link of t/held.img (sha
# in s), and kiln burns t/held.img: its exit in t/rc, its words in t/err.
in_chroot () {
	bb=$(command -v busybox) && command -v unshare >/dev/null &&
		command -v chroot >/dev/null ||
		{ echo "needs busybox, unshare and chroot"; return 1; }
	mkdir -p "$1/bin" "$1/dev" "$1/proc" "$1/t" && cp "$bb" "$1/bin/busybox" &&
	mknod -m 666 "$1/dev/null" c 1 3 &&
	cp "$KILN" "$1/bin/kiln" && truncate -s 8M "$1/t/held.img" &&
	ln "$1/t/held.img" "$1/t/held2.img" && s=$(sha "$1/t/held.img") &&
	cat >"$1/t/run.sh" <<-\EOF &&
	cd /t
	/bin/busybox sleep 600 <held2.img &
	pid=$!
	i=0
	until [ "$(/bin/busybox readlink /proc/$pid/fd/0)" = /t/held2.img ]; do
		i=$((i + 1))
		[ $i -lt 6000 ] || { echo "sleep never held held2.img" >err; exit 1; }
		/bin/busybox sleep 0.01
	done
	/bin/kiln burn --destroy-data --span 1M --out /t/out /t/held.img >err 2>&1
	echo $? >rc
	kill $pid
	EOF
	unshare -m sh -c 'mount -t proc proc "$1/proc" && exec chroot "$1" /bin/busybox sh /t/run.sh' sh "$1"
	cat "$1/t/err"
}

need_root
command -v sfdisk >/dev/null && command -v wipefs >/dev/null ||
	test_skip_all "needs sfdisk and wipefs"

test_expect_success 'ext4 on a device: --destroy-data 0 is refused, nothing made' '
	make_loop e 32M && mkfs.ext4 -q "$e" && s=$(sha "$e") &&
	cd "$TEST_TMP" && refused "ext2/3/4 filesystem at byte 1080" \
		burn --destroy-data 0 --size 1M "$e" && { [ ! -e 0 ] || { echo "kiln made ./0"; false; }; } &&
	refused "ext2/3/4" burn --destroy-data=no "$e" &&
	cd "$TEST_TMP" && test_eq "$(sha "$e")" "$s" "sha256 of $e"
'

test_expect_success 'a GPT disk with two ext4 partitions, after wipefs -a' '
	make_loop g 64M &&
	printf "label: gpt\n,20M,L\n,20M,L\n" | sfdisk -q "$g" &&
	partx -a "$g" 2>/dev/null; blockdev --rereadpt "$g" 2>/dev/null;
	test_at_exit "partx -d $g" &&
	mkfs.ext4 -q "${g}p1" && mkfs.ext4 -q "${g}p2" &&
	wipefs -q -a "$g" && s=$(sha "$g") &&
	refused "refusing to write $g" burn "$g" &&
	grep -q "ext2/3/4 filesystem at byte\|unknown data at byte\|partitions" "$TEST_TMP/err" &&
	"$KILN" probe "$g" >"$TEST_TMP/p" && grep_in "has-data" "$TEST_TMP/p" &&
	test_eq "$(sha "$g")" "$s" "sha256 of $g"
'

test_expect_success 'ext4 at 1 MiB, no partition table: found at its offset' '
	make_loop x 64M && img=$(backing "$x") &&
	y=$(losetup -f --show -o $M "$x") && test_at_exit "losetup -d $y" &&
	mkfs.ext4 -q "$y" && losetup -d "$y" && s=$(sha "$x") &&
	refused "ext2/3/4 filesystem at byte $((M + 1080))" burn "$x" &&
	test_eq "$(sha "$x")" "$s" "sha256 of $x"
'

test_expect_success 'btrfs at 2 MiB, no partition table' '
	make_loop bt 320M &&
	y=$(losetup -f --show -o $((2 * M)) "$bt") && test_at_exit "losetup -d $y" &&
	mkfs.btrfs -q -f "$y" >/dev/null && losetup -d "$y" && s=$(sha "$bt") &&
	refused "Btrfs filesystem at byte $((2 * M + 65600))" burn "$bt" &&
	test_eq "$(sha "$bt")" "$s" "sha256 of $bt"
'

test_expect_success 'Ceph BlueStore, Oracle ASM and VMFS headers are named' '
	make_loop h 64M && img=$(backing "$h") &&
	$poke "$img" text 0 "bluestore block device" &&
	refused "Ceph BlueStore OSD at byte 0" burn "$h" &&
	$poke "$img" zero 0 64 && $poke "$img" text 32 ORCLDISK &&
	refused "Oracle ASM disk at byte 32" burn "$h" &&
	$poke "$img" zero 0 64 && $poke "$img" hex $M 0dd001c0 &&
	refused "VMware VMFS volume at byte $M" burn "$h"
'

test_expect_success 'one byte in a sample: unknown data at that byte' '
	make_loop u 256M && img=$(backing "$u") &&
	at=$(( $(sample $((256 * M)) 25) + 12345 )) &&
	$poke "$img" text $at "x" &&
	refused "unknown data at byte $at" burn "$u" &&
	make_loop u0 32M && $poke "$(backing "$u0")" text 123 "x" &&
	refused "unknown data at byte 123" burn "$u0"
'

test_expect_success 'blank is proven by reading; 0xFF is blank too; mixed is not' '
	make_loop z 64M && img=$(backing "$z") &&
	"$KILN" probe "$z" >"$TEST_TMP/p" &&
	grep_in "blank: proven by reading" "$TEST_TMP/p" &&
	tr "\000" "\377" </dev/zero | head -c $((64 * M)) >"$img" &&
	"$KILN" probe "$z" >"$TEST_TMP/p" && grep_in "all hold 0xff" "$TEST_TMP/p" &&
	at=$(sample $((64 * M)) 31) && $poke "$img" zero $at 4096 &&
	"$KILN" probe "$z" >"$TEST_TMP/p" && grep_in "has-data" "$TEST_TMP/p" &&
	grep_in "unknown data at byte $at" "$TEST_TMP/p"
'

# kiln_disk VAR SIZE: a loop device kiln has written once.
kiln_disk () {
	make_loop "$1" "$2" &&
	eval "\"\$KILN\" burn --mode write \"\$$1\"" >"$TEST_TMP/kd" 2>&1 ||
		{ cat "$TEST_TMP/kd"; return 1; }
}

test_expect_success 'kiln data, then ext4 at 1 MiB: has-data, not kiln-data' '
	kiln_disk k1 64M &&
	"$KILN" probe "$k1" >"$TEST_TMP/p" && grep_in "kiln-data" "$TEST_TMP/p" &&
	y=$(losetup -f --show -o $M "$k1") && test_at_exit "losetup -d $y" &&
	mkfs.ext4 -q "$y" && losetup -d "$y" && s=$(sha "$k1") &&
	refused "ext2/3/4 filesystem at byte $((M + 1080))" burn "$k1" &&
	test_eq "$(sha "$k1")" "$s" "sha256 of $k1"
'

test_expect_success 'kiln data, then an md 1.2 superblock at 4 KiB' '
	kiln_disk k2 64M && img=$(backing "$k2") &&
	$poke "$img" hex 4096 fc4e2ba9 && s=$(sha "$k2") &&
	refused "md RAID superblock 1.2 at byte 4096" burn "$k2" &&
	test_eq "$(sha "$k2")" "$s" "sha256 of $k2"
'

test_expect_success 'kiln data, then ZFS labels; kiln data, then btrfs at 2 MiB' '
	kiln_disk k3 64M && img=$(backing "$k3") &&
	$poke "$img" hex 131072 0cb1ba0000000000 &&
	refused "ZFS label at byte 131072" burn "$k3" &&
	kiln_disk k4 64M && img=$(backing "$k4") &&
	$poke "$img" text $((2 * M + 65600)) "_BHRfS_M" &&
	refused "Btrfs filesystem at byte $((2 * M + 65600))" burn "$k4"
'

test_expect_success 'partitions the kernel sees, under another disk s kiln unit' '
	kiln_disk k5 64M && make_loop p 64M &&
	printf "label: dos\n,16M,L\n" | sfdisk -q "$p" &&
	partx -a "$p" 2>/dev/null; test_at_exit "partx -d $p" &&
	dd if="$k5" of="$p" bs=1M count=1 oflag=direct 2>/dev/null &&
	s=$(sha "$p") &&
	refused "refusing to write $p" burn "$p" &&
	grep_in "kiln units of another disk at byte 0" "$TEST_TMP/err" &&
	test_eq "$(sha "$p")" "$s" "sha256 of $p"
'

test_expect_success 'a loop device under a mounted loop device is in use' '
	make_loop lo 64M &&
	y=$(losetup -f --show -o $M "$lo") && test_at_exit "losetup -d $y" &&
	mkfs.ext4 -q "$y" && mkdir "$TEST_TMP/m" && mount "$y" "$TEST_TMP/m" &&
	test_at_exit "umount -l $TEST_TMP/m" && echo keep >"$TEST_TMP/m/file" &&
	refused "it is in use ($(basename "$lo") backs loop device $(basename "$y")" \
		burn --destroy-data "$lo" &&
	umount "$TEST_TMP/m" && fsck.ext4 -n "$y" >/dev/null 2>&1 &&
	mount "$y" "$TEST_TMP/m" && grep -q keep "$TEST_TMP/m/file" && umount "$TEST_TMP/m"
'

test_expect_success 'a file backing a mounted loop device is in use' '
	f="$TEST_TMP/back.img" && truncate -s 32M "$f" && mkfs.ext4 -q -F "$f" &&
	y=$(losetup -f --show "$f") && test_at_exit "losetup -d $y" &&
	mount -o ro "$y" "$TEST_TMP/m" && s=$(sha "$f") &&
	refused "it backs loop device $(basename "$y")" burn --destroy-data "$f" &&
	umount "$TEST_TMP/m" && test_eq "$(sha "$f")" "$s" "sha256 of $f"
'

test_expect_success 'a mounted image reached by a hard link or a bind mount is in use' '
	mkdir "$TEST_TMP/hl" "$TEST_TMP/bind" "$TEST_TMP/m2" &&
	f="$TEST_TMP/hl/fs.img" && truncate -s 32M "$f" && mkfs.ext4 -q -F "$f" &&
	y=$(losetup -f --show "$f") && test_at_exit "losetup -d $y" &&
	mount -o ro "$y" "$TEST_TMP/m2" && test_at_exit "umount -l $TEST_TMP/m2" &&
	s=$(sha "$f") && ln "$f" "$TEST_TMP/hl/hard.img" &&
	refused "it backs loop device $(basename "$y")" \
		burn --destroy-data --span 1M "$TEST_TMP/hl/hard.img" &&
	mount --bind "$TEST_TMP/hl" "$TEST_TMP/bind" &&
	test_at_exit "umount -l $TEST_TMP/bind" &&
	refused "it backs loop device $(basename "$y")" \
		burn --destroy-data --span 1M "$TEST_TMP/bind/fs.img" &&
	umount "$TEST_TMP/bind" && umount "$TEST_TMP/m2" && test_eq "$(sha "$f")" "$s" "sha256 of $f"
'

test_expect_success 'a second loop device over a mounted file is in use' '
	f="$TEST_TMP/two.img" && truncate -s 32M "$f" && mkfs.ext4 -q -F "$f" &&
	a=$(losetup -f --show "$f") && test_at_exit "losetup -d $a" &&
	b=$(losetup -f --show "$f") && test_at_exit "losetup -d $b" &&
	mount -o ro "$a" "$TEST_TMP/m2" && test_at_exit "umount -l $TEST_TMP/m2" &&
	s=$(sha "$f") &&
	refused "it is in use ($(basename "$b") is over the same file as $(basename "$a"), which is in use: $(basename "$a") is mounted at $TEST_TMP/m2" \
		burn --destroy-data --span 1M "$b" &&
	umount "$TEST_TMP/m2" && test_eq "$(sha "$f")" "$s" "sha256 of $f"
'

test_expect_success 'a loop device over a device node outside /dev: its disk is in use' '
	make_loop nd 32M && mkfs.ext4 -q "$nd" &&
	mknod "$TEST_TMP/node" b $(stat -c "0x%t 0x%T" "$nd" | xargs printf "%d %d") &&
	y=$(losetup -f --show "$TEST_TMP/node") && test_at_exit "losetup -d $y" &&
	mount -o ro "$y" "$TEST_TMP/m2" && test_at_exit "umount -l $TEST_TMP/m2" &&
	s=$(sha "$nd") &&
	refused "$(basename "$nd") backs loop device $(basename "$y")" \
		burn --destroy-data --span 1M "$nd" &&
	umount "$TEST_TMP/m2" && test_eq "$(sha "$nd")" "$s" "sha256 of $nd"
'

test_expect_success 'a mounted btrfs is in use (its mount names no device number)' '
	command -v mkfs.btrfs >/dev/null || { echo "no mkfs.btrfs: skipped"; return 0; } &&
	make_loop bt 128M && mkfs.btrfs -q "$bt" >/dev/null 2>&1 &&
	mount "$bt" "$TEST_TMP/m2" && test_at_exit "umount -l $TEST_TMP/m2" &&
	"$KILN" probe "$bt" >"$TEST_TMP/probe" 2>&1 &&
	grep -q "in-use" "$TEST_TMP/probe" &&
	refused "it is in use ($(basename "$bt") is mounted at $TEST_TMP/m2" \
		burn --destroy-data --span 1M "$bt" &&
	umount "$TEST_TMP/m2"
'

test_expect_success 'an active swap file is in use (the kernel holds it, no process)' '
	command -v swapon >/dev/null || { say "no swapon"; return 0; }
	f="$TEST_TMP/swapfs.img" && truncate -s 64M "$f" && mkfs.ext4 -q -F "$f" &&
	mkdir -p "$TEST_TMP/m3" && mount -o loop "$f" "$TEST_TMP/m3" &&
	test_at_exit "umount -l $TEST_TMP/m3" &&
	sw="$TEST_TMP/m3/swap file" &&
	dd if=/dev/zero of="$sw" bs=1M count=16 status=none && chmod 600 "$sw" &&
	mkswap -q "$sw" >/dev/null && swapon "$sw" &&
	test_at_exit "swapoff \"$sw\"" && s=$(sha "$sw") &&
	refused "it is used as swap ($sw)" burn --destroy-data --span 1M "$sw" &&
	ln "$sw" "$TEST_TMP/m3/hard" &&
	refused "it is used as swap" burn --destroy-data --span 1M "$TEST_TMP/m3/hard" &&
	swapoff "$sw" && test_eq "$(sha "$sw")" "$s" "sha256 of $sw"
'

test_expect_success 'a device open in another process is in use, the process named' '
	make_loop op 16M && hold pid "$op" &&
	refused "open in sleep (pid $pid)" burn --destroy-data "$op" &&
	kill $pid
'

# The holder is open when kiln looks (hold waits for /proc to show it).
# kiln finds it through a hard link by the device and inode of what it
# holds, never by the mount in mountinfo: in a chroot whose root is no
# mount point (a debootstrap'd machine) mountinfo leaves out the mounts
# above the root, and kiln once found no holder there and wrote the file.
test_expect_success 'a file open in another process through a hard link is in use' '
	f="$TEST_TMP/held.img" && truncate -s 8M "$f" && ln "$f" "$TEST_TMP/held2.img" &&
	hold pid "$TEST_TMP/held2.img" &&
	refused "open in sleep (pid $pid)" burn --destroy-data --span 1M "$f" &&
	kill $pid
'

test_expect_success '... also in a chroot whose root is no mount point' '
	in_chroot "$TEST_TMP/root" &&
	test_eq "$(cat "$TEST_TMP/root/t/rc")" 2 "kiln exit" &&
	grep_in "is open in busybox (pid" "$TEST_TMP/root/t/err" &&
	test_eq "$(sha "$TEST_TMP/root/t/held.img")" "$s" "sha256 of held.img"
'

test_expect_success 'two kilns on one file: the second is refused, the first goes on' '
	"$KILN" burn --size 64M --passes 1000 --max-writes 0 "$TEST_TMP/busy.img" \
		>"$TEST_TMP/first" 2>&1 &
	pid=$! && test_at_exit "kill $pid" &&
	test_wait_for "grep -q write-verify \"\$TEST_TMP/first\"" &&
	refused "another kiln holds it\|open in kiln" burn "$TEST_TMP/busy.img" &&
	kill -INT $pid && { wait $pid; test $? = 4; } &&
	grep_in "(interrupted)" "$TEST_TMP/first"
'

test_expect_success 'the same medium twice is refused as such' '
	make_loop t1 16M && img=$(backing "$t1") &&
	refused "given twice: $t1 and $img are the same medium" burn "$t1" "$img" &&
	t2=$(losetup -f --show --direct-io=on "$img") && test_at_exit "losetup -d $t2" &&
	refused "given twice: $t1 and $t2 are the same medium" burn "$t1" "$t2" &&
	refused "given twice: $t1 and $t1 are the same medium" burn "$t1" "$t1" &&
	f="$TEST_TMP/twice.img" && truncate -s 16M "$f" &&
	for i in 1 2 3 4 5 6; do
		refused "given twice: $f and $f are the same medium (file:$f)" \
			burn --destroy-data "$f" "$f" || return 1
	done &&
	(cd "$TEST_TMP" && refused "given twice: $f and ./twice.img are the same medium (file:$f)" \
		burn --size 16M --destroy-data "$f" ./twice.img)
'

test_expect_success 'a read-only device: a writing burn is refused, read runs' '
	make_loop r0 16M && img=$(backing "$r0") &&
	ro=$(losetup -f --show -r "$img") && test_at_exit "losetup -d $ro" &&
	refused "refusing to write $ro: it is read-only" burn "$ro" &&
	"$KILN" burn --mode read "$ro" >"$TEST_TMP/o" 2>&1
'

test_expect_success 'destroy-data names a loop device by its identity; names are no consent' '
	make_loop c1 32M && mkfs.ext4 -q "$c1" && img=$(backing "$c1") &&
	n=$(basename "$c1") &&
	refused "refusing to write $c1: it holds ext2/3/4 .*; destroy-data names $n by its kernel name ($n), which is no consent: .* give its identity loop:$img$" \
		burn --destroy-data="$n" "$c1" &&
	! grep -q "give --destroy-data to" "$TEST_TMP/err" &&
	refused "names $n by its kernel name ($c1), which is no consent: .* give its identity loop:$img$" \
		burn --destroy-data="$c1" "$c1" &&
	"$KILN" burn --destroy-data="loop:$img" "$c1" >"$TEST_TMP/o" 2>&1 &&
	grep_in "has data, overwritten with consent" "$TEST_TMP/o"
'

test_expect_success 'a blank disk named by its kernel name: said with its identity, no typo' '
	make_loop c3 16M && img=$(backing "$c3") && n=$(basename "$c3") &&
	"$KILN" burn --destroy-data="$n" "$c3" >"$TEST_TMP/o" 2>&1 &&
	grep_in "destroy-data names $n by its kernel name ($n), which is no consent" "$TEST_TMP/o" &&
	grep_in "give its identity loop:$img" "$TEST_TMP/o" &&
	! grep -q "no such disk" "$TEST_TMP/o"
'

test_expect_success 'a destroy-data value that names no disk is said' '
	make_loop c2 16M &&
	"$KILN" burn --destroy-data=SERIAL-TYPO "$c2" >"$TEST_TMP/o" 2>&1 &&
	grep_in "destroy-data names SERIAL-TYPO: no such disk" "$TEST_TMP/o" &&
	"$KILN" burn --destroy-data=yes "$c2" >"$TEST_TMP/o" 2>&1
'

test_done
