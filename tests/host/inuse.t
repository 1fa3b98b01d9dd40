#!/bin/sh
# needs: kiln
# In use is a property of the bytes, not of a path. Each way a disk's
# bytes are reached, through any chain of loop devices, links and nodes,
# is followed, with the files under /dev/shm, /tmp and /var/tmp: two loop
# devices over one file (two kilns at once), a loop device over a loop
# device that holds a mounted ext4 (by its /dev node, by a node made
# outside /dev, three deep), a loop device whose sibling is mounted (also
# over a hard link), a hard link of a mounted loop device's file, a loop
# device over a file another process holds open to write (a VM's disk),
# a disk held open through a node made outside /dev (and a loop device
# over it), a loop device over an active swap file, swap on a loop
# device. Each: exit 2, the holder named, nothing written (sha256 before
# and after), whatever the consent. kiln once took every loop backing
# path under /dev/ for a device node, and looked for holders by /dev
# paths only.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
command -v mkfs.ext4 >/dev/null || test_skip_all "needs mkfs.ext4"

# refused WHAT ARGS...: kiln exits 2 with a line naming WHAT (a grep
# pattern).
refused () {
	what=$1
	shift
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ $code = 2 ] || { echo "exit $code, want 2: kiln $*"; cat "$TEST_TMP/out" "$TEST_TMP/err"; return 1; }
	grep -q -- "$what" "$TEST_TMP/err" || { echo "want '$what':"; cat "$TEST_TMP/err"; return 1; }
}

sha () {
	sha256sum <"$1" | cut -d' ' -f1
}

# head_sha FILE: of its first 4 KiB. An active swap area's pages are the
# kernel's to write (the machine may swap to it), but its header at byte
# 0 is where any write of kiln's would begin.
head_sha () {
	head -c 4096 "$1" | sha256sum | cut -d' ' -f1
}

# workdir VAR DIR: a new folder of this test's in DIR, gone at exit (after
# what is mounted in it and the loop devices over its files).
workdir () {
	workdir_w=$(mktemp -d "$2/kiln-inuse-$$.XXXXXX") || return 1
	test_at_exit "rm -rf '$workdir_w'"
	eval "$1=\$workdir_w"
}

# loop VAR FILE [losetup options]: a loop device over FILE, detached at
# exit.
loop () {
	loop_v=$1
	loop_f=$2
	shift 2
	loop_d=$(losetup -f --show "$@" "$loop_f") || return 1
	test_at_exit "losetup -d '$loop_d'"
	eval "$loop_v=\$loop_d"
}

# mounted DEV DIR: DEV mounted read-only at DIR (nothing it holds
# changes), unmounted at exit.
mounted () {
	mkdir -p "$2" && mount -o ro "$1" "$2" || return 1
	test_at_exit "umount -l '$2'"
}

# ext4 FILE SIZE: a file that holds an ext4, all of it written now.
ext4 () {
	truncate -s "$2" "$1" &&
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"
}

# node PATH DEV: a device node at PATH for block device DEV.
node () {
	mknod "$1" b $(stat -c "0x%t 0x%T" "$2" | xargs printf "%d %d")
}

n () {
	basename "$1"
}

for dir in /dev/shm /tmp /var/tmp; do

test_expect_success "two loop devices over one file in $dir: a second kiln is refused while a first reads" '
	workdir w "$dir" && f="$w/two.img" && truncate -s 32M "$f" &&
	loop a "$f" --direct-io=on && loop b "$f" --direct-io=on &&
	ln "$f" "$w/hard.img" && loop h "$w/hard.img" --direct-io=on ||
		return 1
	rm -rf "$TEST_TMP/k1"
	"$KILN" burn --mode read --duration 10m --out "$TEST_TMP/k1" "$a" \
		>"$TEST_TMP/k1.out" 2>&1 &
	pid=$! && test_at_exit "kill $pid" &&
	under_way "$TEST_TMP/k1" && s=$(sha "$f") &&
	refused "kiln (pid $pid)" burn "$b" &&
	refused "kiln (pid $pid)" burn --destroy-data "$h" &&
	refused "it backs loop device $(n "$a")" burn --destroy-data "$f" &&
	test_eq "$(sha "$f")" "$s" "sha256 of $f" &&
	kill -INT $pid && { wait $pid; test_eq $? 4 "the first kiln"; }
'

test_expect_success "a loop device over a file a kiln burns, in $dir: refused, the kiln named" '
	workdir w "$dir" && f="$w/burnt.img" && truncate -s 32M "$f" || return 1
	rm -rf "$TEST_TMP/k2"
	"$KILN" burn --destroy-data --duration 10m --max-writes 0 --out "$TEST_TMP/k2" "$f" \
		>"$TEST_TMP/k2.out" 2>&1 &
	pid=$! && test_at_exit "kill $pid" &&
	under_way "$TEST_TMP/k2" && ln "$f" "$w/burnt2.img" &&
	loop b "$w/burnt2.img" --direct-io=on &&
	refused "kiln (pid $pid)" burn --destroy-data "$b" &&
	kill -INT $pid && { wait $pid; test_eq $? 4 "the first kiln"; } &&
	! grep -q FAIL "$TEST_TMP/k2.out"
'

# The claim alone, as a kiln that has not yet opened its target holds it
# (a second kiln started at the same moment sees no open file yet): a
# process that holds the claim on the file's device and inode.
test_expect_success "a claim on a file's bytes in $dir: a kiln on a loop device over a hard link of it is refused" '
	workdir w "$dir" && f="$w/claimed.img" && truncate -s 16M "$f" &&
	ln "$f" "$w/claimed2.img" && loop l "$w/claimed2.img" || return 1
	rm -f "$TEST_TMP/claimed"
	python3 -c "
import os, socket, sys, time
st = os.stat(sys.argv[1])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(\"\\0kiln-bytes file %d:%d %d\" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
s.listen(4)
open(sys.argv[2], \"w\").close()
time.sleep(600)
" "$f" "$TEST_TMP/claimed" &
	pid=$! && test_at_exit "kill $pid" &&
	test_wait_for "[ -e \"$TEST_TMP/claimed\" ]" && s=$(sha "$f") &&
	refused "is being tested by another kiln (pid $pid)" burn --destroy-data "$l" &&
	test_eq "$(sha "$f")" "$s" "sha256 of $f" && kill $pid
'

test_expect_success "a loop device over a loop device that holds a mounted ext4, in $dir" '
	workdir w "$dir" && ext4 "$w/fs.img" 32M && loop c "$w/fs.img" &&
	mounted "$c" "$w/m" && s=$(sha "$c") &&
	loop d "$c" && refused "$(n "$c") is mounted at $w/m" burn --destroy-data "$d" &&
	refused "$(n "$c") is mounted at $w/m" burn --mode read "$d" &&
	node "$w/node" "$c" && loop e "$w/node" &&
	refused "$(n "$c") is mounted at $w/m" burn --destroy-data "$e" &&
	loop g "$d" && refused "$(n "$c") is mounted at $w/m" burn --destroy-data "$g" &&
	test_eq "$(sha "$c")" "$s" "sha256 of $c"
'

test_expect_success "a loop device whose sibling is mounted, in $dir (also over a hard link)" '
	workdir w "$dir" && f="$w/sib.img" && ext4 "$f" 32M &&
	loop a "$f" && loop b "$f" && ln "$f" "$w/sib2.img" && loop h "$w/sib2.img" &&
	mounted "$a" "$w/m" && s=$(sha "$f") &&
	refused "$(n "$a") is mounted at $w/m" burn --destroy-data "$b" &&
	refused "$(n "$a") is mounted at $w/m" burn --destroy-data "$h" &&
	test_eq "$(sha "$f")" "$s" "sha256 of $f"
'

test_expect_success "a hard link of a mounted loop device s file, in $dir: in use in read mode too" '
	workdir w "$dir" && f="$w/hl.img" && ext4 "$f" 32M && loop a "$f" &&
	mounted "$a" "$w/m" && ln "$f" "$w/hl2.img" && s=$(sha "$f") &&
	refused "backs loop device $(n "$a")" burn --mode read "$w/hl2.img" &&
	refused "backs loop device $(n "$a")" burn --destroy-data "$w/hl2.img" &&
	test_eq "$(sha "$f")" "$s" "sha256 of $f"
'

test_expect_success "a loop device over a file open to write in another process, in $dir" '
	workdir w "$dir" && f="$w/vm.img" && truncate -s 16M "$f" &&
	printf data >"$w/data" && dd if="$w/data" of="$f" conv=notrunc status=none &&
	loop l "$f" && ln "$f" "$w/vm2.img" && hold pid "$w/vm2.img" rw &&
	s=$(sha "$f") &&
	refused "open in sleep (pid $pid)" burn --destroy-data "$l" &&
	refused "open in sleep (pid $pid)" burn --mode read "$l" &&
	test_eq "$(sha "$f")" "$s" "sha256 of $f" && kill $pid
'

test_expect_success "a disk held open through a node made outside /dev, in $dir (and a loop device over it)" '
	workdir w "$dir" && make_loop x 16M "$dir" && node "$w/node" "$x" &&
	hold pid "$w/node" rw && s=$(sha "$x") &&
	refused "open in sleep (pid $pid)" burn --destroy-data "$x" &&
	loop y "$x" && refused "open in sleep (pid $pid)" burn --destroy-data "$y" &&
	test_eq "$(sha "$x")" "$s" "sha256 of $x" && kill $pid
'

test_expect_success "swap on a loop device by a node outside /dev, in $dir: it, its file and a sibling are in use" '
	command -v swapon >/dev/null || { say "no swapon"; return 0; }
	workdir w "$dir" && f="$w/lswap.img" && truncate -s 16M "$f" &&
	loop a "$f" && mkswap -q "$a" >/dev/null && node "$w/sw" "$a" &&
	chmod 600 "$w/sw" && swapon "$w/sw" && test_at_exit "swapoff \"$w/sw\"" &&
	loop b "$f" && s=$(head_sha "$f") &&
	refused "$(n "$a") is used as swap" burn --destroy-data "$a" &&
	refused "$(n "$a") is used as swap" burn --destroy-data "$b" &&
	refused "backs loop device" burn --destroy-data "$f" &&
	swapoff "$w/sw" && test_eq "$(head_sha "$f")" "$s" "sha256 of the header of $f"
'

# tmpfs holds no swap file.
if [ "$(stat -f -c %T "$dir")" = tmpfs ]; then
	test_skip "a loop device over an active swap file in $dir: tmpfs holds no swap file"
	continue
fi

test_expect_success "a loop device over an active swap file, in $dir" '
	command -v swapon >/dev/null || { say "no swapon"; return 0; }
	workdir w "$dir" && sw="$w/swap file" &&
	dd if=/dev/zero of="$sw" bs=1M count=16 status=none && chmod 600 "$sw" &&
	mkswap -q "$sw" >/dev/null && swapon "$sw" &&
	test_at_exit "swapoff \"$sw\"" && loop l "$sw" && s=$(head_sha "$sw") &&
	refused "used as swap" burn --mode read "$l" &&
	refused "used as swap" burn --destroy-data "$l" &&
	swapoff "$sw" && test_eq "$(head_sha "$sw")" "$s" "sha256 of the header of $sw"
'

done

test_done
