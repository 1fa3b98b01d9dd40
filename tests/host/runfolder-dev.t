#!/bin/sh
# needs: kiln
# A run folder on a target is refused before anything is written, in one
# line naming both (exit 2): on a filesystem of the target disk itself, of
# one of its partitions, of a device built on it (device-mapper), or in the
# target file through a loop device; and a target inside the run folder
# seen through a bind mount of it. (By path, for anyone: runfolder.t.)
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
command -v mkfs.ext4 >/dev/null || test_skip_all "needs mkfs.ext4"
command -v sfdisk >/dev/null || test_skip_all "needs sfdisk"

# refused WHAT... -- ARGS...: kiln exits 2 with one line naming each WHAT.
refused () {
	words=
	while [ "$1" != -- ]; do
		words="$words
$1"
		shift
	done
	shift
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ $code = 2 ] || { echo "exit $code, want 2"; cat "$TEST_TMP/out" "$TEST_TMP/err"; return 1; }
	[ "$(wc -l <"$TEST_TMP/err")" = 1 ] || { echo "want one line:"; cat "$TEST_TMP/err"; return 1; }
	printf '%s\n' "$words" | while IFS= read -r w; do
		[ -z "$w" ] || grep -qF -- "$w" "$TEST_TMP/err" ||
			{ echo "want '$w':"; cat "$TEST_TMP/err"; return 1; }
	done
}

mnt () {
	mkdir -p "$2" && mount "$1" "$2" && test_at_exit "umount '$2'"
}

test_expect_success 'a run folder on the filesystem of the whole target disk' '
	make_loop whole 64M &&
	mkfs.ext4 -q -F "$whole" &&
	mnt "$whole" "$TEST_TMP/m1" &&
	refused "$TEST_TMP/m1/r" "$whole" -- \
		burn --destroy-data --out "$TEST_TMP/m1/r" "$whole" &&
	[ ! -e "$TEST_TMP/m1/r" ] &&
	refused "$TEST_TMP/m1/r" "$whole" -- \
		burn --mode read --out "$TEST_TMP/m1/r" "$whole" &&
	[ ! -e "$TEST_TMP/m1/r" ]
'

test_expect_success '...on a partition of the target disk' '
	make_loop disk 64M &&
	printf "label: gpt\n,16M,L\n,,L\n" | sfdisk -q "$disk" &&
	partx -a "$disk" 2>/dev/null; blockdev --rereadpt "$disk" 2>/dev/null;
	test_at_exit "partx -d $disk" &&
	mkfs.ext4 -q -F "${disk}p2" &&
	mnt "${disk}p2" "$TEST_TMP/m2" &&
	refused "$TEST_TMP/m2/r" "$disk" -- \
		burn --destroy-data --out "$TEST_TMP/m2/r" "$disk" &&
	[ ! -e "$TEST_TMP/m2/r" ] &&
	refused "$TEST_TMP/m2/r" "${disk}p2" -- \
		burn --destroy-data --out "$TEST_TMP/m2/r" "${disk}p2" &&
	[ ! -e "$TEST_TMP/m2/r" ]
'

if ! command -v dmsetup >/dev/null || ! dmsetup version >/dev/null 2>&1; then
	test_skip "a run folder on device-mapper over the target: no device-mapper here"
else
test_expect_success '...on a device-mapper device over the target disk' '
	make_loop under 64M &&
	name=kiln-test-$$ &&
	echo "0 $(blockdev --getsz "$under") linear $under 0" | dmsetup create "$name" &&
	test_at_exit "dmsetup remove $name" &&
	mkfs.ext4 -q -F "/dev/mapper/$name" &&
	mnt "/dev/mapper/$name" "$TEST_TMP/m3" &&
	refused "$TEST_TMP/m3/r" "$under" -- \
		burn --destroy-data --out "$TEST_TMP/m3/r" "$under" &&
	[ ! -e "$TEST_TMP/m3/r" ]
'
fi

test_expect_success '...on a filesystem in the target file, through a loop device' '
	make_loop inner 64M &&
	mkfs.ext4 -q -F "$inner" &&
	mnt "$inner" "$TEST_TMP/m4" &&
	refused "$TEST_TMP/m4/r" "$(backing "$inner")" -- \
		burn --destroy-data --out "$TEST_TMP/m4/r" "$(backing "$inner")" &&
	[ ! -e "$TEST_TMP/m4/r" ]
'

test_expect_success 'a run folder beside the target, on another disk, is fine' '
	make_loop other 64M &&
	"$KILN" burn --destroy-data --span 4M --out "$TEST_TMP/m1.ok" "$other" \
		>/dev/null 2>&1 &&
	[ -f "$TEST_TMP/m1.ok/result.json" ]
'

test_expect_success 'a target inside the run folder through a bind mount of it' '
	mkdir "$TEST_TMP/d" "$TEST_TMP/b" &&
	mount --bind "$TEST_TMP/d" "$TEST_TMP/b" && test_at_exit "umount $TEST_TMP/b" &&
	refused "$TEST_TMP/d" "$TEST_TMP/b/x.img" -- \
		burn --size 4M --out "$TEST_TMP/d" "$TEST_TMP/b/x.img" &&
	[ -z "$(ls -A "$TEST_TMP/d")" ]
'

test_done
