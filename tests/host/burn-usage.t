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
test_expect_success '--help prints the usage and exits 0' '
	"$KILN" burn --help >"$TEST_TMP/help" &&
	grep_in "usage: kiln" "$TEST_TMP/help" &&
	grep_in "Exit codes" "$TEST_TMP/help"
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
