#!/bin/sh
# needs: kiln
# Bad input to kiln burn gets one clear line on stderr and exit 2, before
# any I/O: nothing is created, nothing is written.
. "$(dirname "$0")/../lib/tap.sh"

f="$TEST_TMP/t.img"
"$KILN" burn --size 1M "$f" >/dev/null 2>&1 || test_bail "cannot make $f"
sum=$(md5sum <"$f")

# usage_error WHAT ARGS...: exit 2, one "kiln: " line naming WHAT, $f intact.
usage_error () {
	what=$1
	shift
	"$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	code=$?
	[ "$code" = 2 ] || { echo "exit $code, want 2"; cat "$TEST_TMP/err"; return 1; }
	[ "$(wc -l <"$TEST_TMP/err")" = 1 ] || { echo "want one line:"; cat "$TEST_TMP/err"; return 1; }
	grep -q "^kiln: .*$what" "$TEST_TMP/err" || { echo "want '$what':"; cat "$TEST_TMP/err"; return 1; }
	[ ! -s "$TEST_TMP/out" ] || { echo "stdout not empty"; return 1; }
	[ "$(md5sum <"$f")" = "$sum" ] || { echo "$f changed"; return 1; }
	[ ! -e "$TEST_TMP/new.img" ] || { echo "new.img was created"; return 1; }
}

test_expect_success 'an unknown option' '
	usage_error "unknown option .--frobnicate." burn --frobnicate "$f"
'
test_expect_success 'an unknown command' '
	usage_error "unknown command" frob
'
test_expect_success 'bad sizes' '
	usage_error "bad value for --bs: .12x." burn --bs 12x "$f" &&
	usage_error "bad value for --bs: 1000" burn --bs 1000 "$f" &&
	usage_error "bad value for --bs: 0" burn --bs=0 "$f" &&
	usage_error "bad value for --size: .-1." burn --size -1 "$TEST_TMP/new.img" &&
	usage_error "bad value for --offset" burn --offset 99999999999999999999999 "$f" &&
	usage_error "bad value for --span" burn --span 1x "$f"
'
test_expect_success 'bad counts, times, modes, flags and ids' '
	usage_error "bad value for --qd" burn --qd 0 "$f" &&
	usage_error "bad value for --qd" burn --qd 1000 "$f" &&
	usage_error "bad value for --passes" burn --passes abc "$f" &&
	usage_error "bad value for --duration" burn --duration 5x "$f" &&
	usage_error "bad value for --mode" burn --mode bogus "$f" &&
	usage_error "bad value for --json" burn --json=2 "$f" &&
	usage_error "bad value for --run-id" burn --run-id xyz "$f" &&
	usage_error "bad value for --interval" burn --interval 0 "$f"
'
test_expect_success 'an option without its value' '
	usage_error "--bs needs a value" burn "$f" --bs
'
test_expect_success 'no target, and a missing one' '
	usage_error "no target given" burn --bs 1M &&
	usage_error "no such file or device .give --size" burn "$TEST_TMP/new.img"
'
test_expect_success 'a missing device: no such device, kiln never makes one, no --size' '
	usage_error "/dev/kiln-no-such: no such device (kiln never creates a file under /dev)$" \
		burn /dev/kiln-no-such &&
	usage_error "/dev/kiln-no-such: no such device (kiln never" \
		burn --mode read /dev/kiln-no-such &&
	usage_error "/dev/kiln-no-such: no such device (kiln never" \
		burn --size 1M /dev/kiln-no-such &&
	! grep -q -- "--size" "$TEST_TMP/err"
'
test_expect_success 'a target too small' '
	printf x >"$TEST_TMP/tiny" &&
	usage_error "too small" burn --mode read "$TEST_TMP/tiny" &&
	usage_error "too small: 1 MiB, --offset is 2M$" burn --offset 2M "$f" &&
	usage_error "too small: --offset 512k + --span 1M is past its end at 1 MiB$" \
		burn --offset 512k --span 1M "$f" &&
	usage_error "new.img is too small: 3 KiB, less than one 4 KiB unit" \
		burn --size 3k "$TEST_TMP/new.img"
'
test_expect_success 'a target given twice, by two names' '
	ln -s "$f" "$TEST_TMP/link" &&
	usage_error "given twice" burn "$f" "$TEST_TMP/link"
'
test_expect_success 'verify without a run id' '
	usage_error "needs the record of the write" burn --mode verify "$f"
'
test_expect_success 'not a block device or a file' '
	usage_error "not a block device or a regular file" burn --mode read "$TEST_TMP"
'
test_expect_success 'a path that cannot name a target: exit 2, not 3' '
	usage_error "t.img/: Not a directory" burn --mode read "$f/" &&
	ln -s "$TEST_TMP/l2" "$TEST_TMP/l1" && ln -s "$TEST_TMP/l1" "$TEST_TMP/l2" &&
	usage_error "Symbolic link loop" burn --mode read "$TEST_TMP/l1" &&
	usage_error "not a block device or a regular file" burn --mode read /dev/zero
'
test_expect_success 'kiln probe: /dev/zero, a FIFO, a bad path are exit 2, never blank' '
	mkfifo "$TEST_TMP/fifo" &&
	usage_error "/dev/zero: not a block device or a regular file" probe /dev/zero &&
	usage_error "fifo: not a block device or a regular file" probe "$TEST_TMP/fifo" &&
	usage_error "Not a directory" probe "$f/"
'
test_expect_success 'a bad target after a new one: the new file goes again' '
	usage_error "not a block device" burn --size 1M "$TEST_TMP/new.img" "$TEST_TMP"
'
# One set of keys: kiln run's own are refused by name in kiln burn, and
# the keys both take work in both.
test_expect_success 'include, exclude and powercut are kiln run'"'"'s: exit 2 saying so' '
	usage_error "--include is kiln run.s: it chooses among the disks it finds; kiln burn tests the targets it is given" \
		burn --include "sd*" "$f" &&
	usage_error "--exclude is kiln run.s: it chooses" burn --exclude=sda "$f" &&
	usage_error "--countdown is kiln run.s" burn --countdown 5 "$f" &&
	usage_error "profile powercut is kiln run.s alone" burn --profile powercut "$f"
'
test_expect_success 'profile works with kiln burn: smoke samples a quick span' '
	"$KILN" burn --profile smoke --out "$TEST_TMP/smoke" "$f" >"$TEST_TMP/o" 2>&1 &&
	grep -q "\"quick\": true" "$TEST_TMP/smoke/result.json" &&
	[ "$(md5sum <"$f")" != "$sum" ] &&
	"$KILN" burn --size 1M --out "$TEST_TMP/re" "$TEST_TMP/re.img" >/dev/null 2>&1 &&
	rm -f "$TEST_TMP/re.img" && sum=$(md5sum <"$f")
'
test_expect_success 'expect-disks with kiln burn: fewer targets is a FAIL, exit 1' '
	{ "$KILN" burn --expect-disks 2 --mode read --out "$TEST_TMP/x1" "$f" \
		>"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	grep_in "1 target tested, 2 expected (expect-disks): a disk is missing" "$TEST_TMP/o"
'
test_expect_success 'expect-disks: a named target not there is a missing disk, the rest burn' '
	{ "$KILN" burn --expect-disks 2 --mode read --out "$TEST_TMP/x2" "$f" \
		/dev/kiln-no-such >"$TEST_TMP/o" 2>&1; test $? = 1; } &&
	grep_in "kiln-no-such" "$TEST_TMP/x2/summary.txt" &&
	grep_in "missing" "$TEST_TMP/x2/summary.txt" &&
	! grep -q "identity *$" "$TEST_TMP/x2/summary.txt" "$TEST_TMP/o" &&
	grep_in " read (1 disk)" "$TEST_TMP/x2/summary.txt" &&
	test_eq "$(grep -c "^  kiln-no-such  " "$TEST_TMP/o")" 1 "plan lines naming it" &&
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); v=[t[\"verdict\"] for t in d[\"targets\"]]; sys.exit(v != [\"PASS\", \"FAIL\"])" \
		"$TEST_TMP/x2/result.json" &&
	"$KILN" burn --expect-disks 1 --mode read --out "$TEST_TMP/x3" "$f" >"$TEST_TMP/o" 2>&1
'
# A unit apart from its number (--duration 12 h) once ran 12 s and burned
# a new file named h. A bare number stays what the key says; its unit,
# apart, is exit 2 with what was likely meant, and nothing is made.
# in_empty ARGS...: kiln run in an empty folder, which must stay empty.
in_empty () {
	rm -rf "$TEST_TMP/w" && mkdir "$TEST_TMP/w" &&
	(cd "$TEST_TMP/w" && "$KILN" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err")
	code=$?
	[ -z "$(ls -A "$TEST_TMP/w")" ] || { echo "made:"; ls -A "$TEST_TMP/w"; return 1; }
	return $code
}
# unit_apart MEANT ARGS...: exit 2, one line naming what was meant.
unit_apart () {
	meant=$1
	shift
	in_empty "$@"
	code=$?
	[ "$code" = 2 ] || { echo "exit $code, want 2"; cat "$TEST_TMP/err"; return 1; }
	[ "$(wc -l <"$TEST_TMP/err")" = 1 ] || { echo "want one line:"; cat "$TEST_TMP/err"; return 1; }
	grep -qF -- "$meant" "$TEST_TMP/err" || { echo "want '$meant':"; cat "$TEST_TMP/err"; return 1; }
	[ "$(md5sum <"$f")" = "$sum" ] || { echo "$f changed"; return 1; }
}
test_expect_success 'a time unit apart from its number: exit 2, the likely meaning' '
	unit_apart "kiln: --duration 12 h: a unit apart from its number, not a target (--duration 12h?)" \
		burn --duration 12 h --size 16M x.img &&
	unit_apart "(--duration 12h?)" burn --duration=12 h --size 16M x.img &&
	unit_apart "(--duration 12h?)" burn --duration 12 hours --size 16M x.img &&
	unit_apart "(--duration 12h?)" burn --size 16M --duration 12 HOURS x.img &&
	unit_apart "(--duration 30m?)" burn --duration 30 m --size 16M x.img &&
	unit_apart "(--duration 90m?)" burn --duration 90 min --size 16M x.img &&
	unit_apart "(--duration 45s?)" burn --duration 45 s --size 16M x.img &&
	unit_apart "(--duration 2d?)" burn --duration 2 days --size 16M x.img &&
	unit_apart "(--duration 14d?)" burn --duration 2 weeks --size 16M x.img &&
	unit_apart "(--sensors 5m?)" burn --sensors 5 min --size 16M x.img &&
	unit_apart "(--solo 30s?)" burn --solo 30 sec --size 16M x.img &&
	unit_apart "(--deadline 3?)" burn --deadline 3 s --size 16M x.img &&
	unit_apart "(--deadline 180?)" burn --deadline 3 m --size 16M x.img &&
	unit_apart "(--interval 3600?)" burn --interval 1 h --size 16M x.img &&
	unit_apart "(--checkpoint 120?)" burn --checkpoint 2 minutes --size 16M x.img
'
test_expect_success 'a size unit apart from its number: exit 2, the likely meaning' '
	unit_apart "kiln: --size 16 M: a unit apart from its number, not a target (--size 16M?)" \
		burn --size 16 M x.img &&
	unit_apart "(--size 1G?)" burn --size 1 GiB x.img &&
	unit_apart "(--size 1G?)" burn --size 1 G x.img &&
	unit_apart "(--size 1G?)" burn --size 1 gb x.img &&
	unit_apart "(--size 64k?)" burn --size 64 K x.img &&
	unit_apart "(--size 4096?)" burn --size 4096 bytes x.img &&
	unit_apart "(--bs 1M?)" burn --bs 1 MiB "$f" &&
	unit_apart "(--span 8M?)" burn --span 8 M "$f" &&
	unit_apart "(--offset 4k?)" burn --offset 4 KiB "$f" &&
	unit_apart "(--size 16M?)" burn --mode read --size 16 M "$f"
'
test_expect_success 'a unit a count cannot take: exit 2, what the key takes' '
	unit_apart "kiln: --qd 8 k: '"'"'k'"'"' is a unit, not a target, and --qd takes a count from 1 to 256" \
		burn --qd 8 k --size 16M x.img &&
	unit_apart "--passes 2 h: '"'"'h'"'"' is a unit" burn --passes 2 h --size 16M x.img &&
	unit_apart "--duration 12 GiB: '"'"'GiB'"'"' is a unit" burn --duration 12 GiB --size 16M x.img &&
	unit_apart "--size 16 h: '"'"'h'"'"' is a unit" burn --size 16 h x.img &&
	unit_apart "--slow-warn 50 %" burn --slow-warn 50 % --size 16M x.img &&
	unit_apart "--deadline 3 s" probe --deadline 3 s "$f" &&
	unit_apart "--deadline 3 s" discover --deadline 3 s
'
test_expect_success 'a file named as a value is never created' '
	unit_apart "kiln: refusing to create a file named '"'"'h'"'"': it reads as a value" \
		burn --size 16M h &&
	unit_apart "named '"'"'GiB'"'"'" burn --size 16M GiB &&
	unit_apart "named '"'"'min'"'"'" burn --size 16M x.img min &&
	unit_apart "named '"'"'16M'"'"'" burn --size 16M 16M &&
	unit_apart "named '"'"'12h'"'"'" burn --size 16M --duration 12 12h &&
	unit_apart "named '"'"'600'"'"'" burn --size 16M 600
'
test_expect_success 'a bare number stays seconds; x, ./h and an h that is there are targets' '
	in_empty burn --size 1M --sensors 1 --duration 1 --deadline 60 --passes 1 \
		--out "$TEST_TMP/bare" x 2>/dev/null >/dev/null
	test_eq "$(ls -A "$TEST_TMP/w")" "x" "what the burn made" &&
	grep -q "\"verdict\": \"PASS\"" "$TEST_TMP/bare/result.json" &&
	(cd "$TEST_TMP/w" && "$KILN" burn --size 1M --out "$TEST_TMP/dot" ./h >/dev/null 2>&1) &&
	(cd "$TEST_TMP/w" && "$KILN" burn --mode read --out "$TEST_TMP/there" h >/dev/null 2>&1) &&
	(cd "$TEST_TMP/w" && "$KILN" burn --size 1M --duration 1 --out "$TEST_TMP/dx" x >/dev/null 2>&1)
'
test_expect_success '--help prints the usage and exits 0' '
	"$KILN" burn --help >"$TEST_TMP/help" &&
	grep_in "usage: kiln" "$TEST_TMP/help" &&
	grep_in "Exit codes" "$TEST_TMP/help"
'

# --destroy-data is a flag or a list: its list after a space is read as
# a target, which does not exist; the line says the likely mistake.
test_expect_success 'an identity given as a target says --destroy-data=LIST' '
	usage_error "give --destroy-data=loop:/x.img (an .=., no space" burn --destroy-data loop:/x.img &&
	usage_error "give --destroy-data=wwn:0x5000c500a1b2c3d4" burn --size 8M --destroy-data wwn:0x5000c500a1b2c3d4 &&
	! [ -e "wwn:0x5000c500a1b2c3d4" ]
'

if [ "$(id -u)" -eq 0 ]; then
	. "$(dirname "$0")/../lib/host.sh"
	test_expect_success 'offsets not aligned to the logical block size' '
		make_loop d 8M &&
		usage_error "multiples of its logical block size" burn --mode read --offset 100 "$d" &&
		usage_error "multiples of its logical block size" burn --mode read --span 5000 "$d"
	'
	# What the kernel lets kiln open is not what kiln says: a mounted disk
	# kiln may not open (another user, a container's device rules) is in
	# use all the same, and probe says so rather than the open's errno.
	if command -v setpriv >/dev/null; then
		test_expect_success 'kiln probe: a mounted disk kiln cannot open is in-use' '
			make_loop m 16M && mkfs.ext4 -q "$m" &&
			mkdir "$TEST_TMP/mnt" && mount "$m" "$TEST_TMP/mnt" &&
			test_at_exit "umount $TEST_TMP/mnt" &&
			mkdir "$TEST_TMP/bin" && cp "$KILN" "$TEST_TMP/bin/kiln" &&
			chmod 755 "$TEST_TMP" "$TEST_TMP/bin" "$TEST_TMP/bin/kiln" &&
			(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$TEST_TMP/bin/kiln" probe "$m") >"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
			grep_in "$m: in-use: $(basename "$m") is mounted at $TEST_TMP/mnt" "$TEST_TMP/out" &&
			! grep -q "denied\|not permitted" "$TEST_TMP/out" "$TEST_TMP/err"
		'
	else
		test_skip "needs setpriv"
	fi
else
	test_skip "needs root (loop devices)"
fi

test_done
