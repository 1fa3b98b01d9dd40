#!/bin/sh
# needs: kiln
# kiln burn finds what a faulty data path does to data: damage made in a
# loop device's backing file between a write and a verify is found at the
# exact offset and classified (bit flips with their bits, misdirected,
# stale, zeroed, torn, foreign); a device that fills up mid-write fails
# with its error offsets while the others finish and pass; SIGINT stops
# cleanly with results marked interrupted. A FAILed disk has its RMA
# file, named by its identity hash when it has no serial (a loop device).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root
poke="python3 $TOP/tests/lib/poke.py"
M=1048576

test_expect_success 'setup: write once, keep two of its units, write two passes' '
	make_loop d 64M && img=$(backing "$d") &&
	"$KILN" burn --destroy-data --mode write "$d" >"$TEST_TMP/w1" 2>&1 &&
	$poke "$img" save $((3 * M)) 4096 "$TEST_TMP/stale.unit" &&
	$poke "$img" save $((6 * M)) 4096 "$TEST_TMP/old.unit" &&
	"$KILN" burn --mode write --passes 2 --max-writes 0 --out "$TEST_TMP/w2" \
		"$d" >"$TEST_TMP/w2.out" 2>&1 &&
	grep_in "kiln-data" "$TEST_TMP/w2.out"
'

test_expect_success 'setup: damage the backing file' '
	$poke "$img" flip $((M / 2 + 1000)) 0x05 &&
	$poke "$img" copy $((1 * M)) $((2 * M)) 4096 &&
	$poke "$img" put $((3 * M)) "$TEST_TMP/stale.unit" &&
	$poke "$img" zero $((4 * M)) 65536 &&
	dd if="$TEST_TMP/old.unit" of="$img" bs=2048 count=1 seek=$((6 * M / 2048)) \
		conv=notrunc 2>/dev/null &&
	$poke "$img" random $((7 * M)) 4096
'

test_expect_success 'verify finds it all and fails the disk (exit 1)' '
	r="$TEST_TMP/v/result.json" &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/w2" --out "$TEST_TMP/v" "$d" \
		>"$TEST_TMP/v.out" 2>&1; test $? = 1; } &&
	cat "$TEST_TMP/v.out" &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" = FAIL ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"verified_pass\"]")" = 2 ] &&
	[ "$(json_get "$r" "d[\"targets\"][0][\"bad_units\"][\"count\"]")" = 21 ]
'

bad () {
	json_get "$r" "[b for b in d[\"targets\"][0][\"bad_units\"][\"first\"] if b[\"offset\"] == $1][0][\"$2\"]"
}

test_expect_success 'flipped bits: the exact unit and bit positions' '
	[ "$(bad $((M / 2)) class)" = bitflip ] &&
	[ "$(bad $((M / 2)) bit_positions)" = "[8000, 8002]" ] &&
	[ "$(bad $((M / 2)) bits_differing)" = 2 ] &&
	[ "$(bad $((M / 2)) reread)" = "same on re-read" ] &&
	grep_in "bitflip at byte 524288 (pass 2): 2 bits, at 8000 8002" "$TEST_TMP/v/summary.txt"
'

test_expect_success 'a unit copied over another is misdirected, from where' '
	[ "$(bad $((2 * M)) class)" = misdirected ] &&
	[ "$(json_get "$r" "[b for b in d[\"targets\"][0][\"bad_units\"][\"first\"] if b[\"offset\"] == $((2 * M))][0][\"found\"][\"offset\"]")" = $M ]
'

test_expect_success 'a unit left from the earlier run is stale' '
	[ "$(bad $((3 * M)) class)" = stale ] &&
	[ "$(json_get "$r" "[b for b in d[\"targets\"][0][\"bad_units\"][\"first\"] if b[\"offset\"] == $((3 * M))][0][\"found\"][\"pass\"]")" = 1 ]
'

test_expect_success 'a zeroed range is 16 zeroed units' '
	[ "$(json_get "$r" "d[\"targets\"][0][\"bad_units\"][\"by_class\"][\"zeroed\"]")" = 16 ] &&
	[ "$(bad $((4 * M)) class)" = zeroed ] &&
	[ "$(bad $((4 * M + 61440)) class)" = zeroed ]
'

test_expect_success 'half a unit from the earlier run is torn; random bytes are foreign' '
	[ "$(bad $((6 * M)) class)" = torn ] &&
	[ "$(bad $((6 * M)) sectors_bad_mask)" = 15 ] &&
	[ "$(bad $((7 * M)) class)" = foreign ]
'

test_expect_success 'the first bad units are saved with what was expected' '
	ls "$TEST_TMP/v" | grep -c "^bad-unit-.*\.read$" >"$TEST_TMP/n" &&
	[ "$(cat "$TEST_TMP/n")" = 4 ] &&
	saved="$TEST_TMP/v/bad-unit-$(basename "$d")-$((2 * M))" &&
	$poke "$img" save $((2 * M)) 4096 "$TEST_TMP/at2M" &&
	cmp "$saved.read" "$TEST_TMP/at2M" &&
	[ "$(stat -c %s "$saved.expected")" = 4096 ] &&
	! cmp -s "$saved.read" "$saved.expected"
'

test_expect_success 'the FAILed disk has its RMA file, by its identity hash: offsets, classes' '
	ls "$TEST_TMP/v" | grep "^rma-" >"$TEST_TMP/rma" &&
	[ "$(wc -l <"$TEST_TMP/rma")" = 1 ] &&
	grep -q "^rma-[0-9a-f]\{16\}\.txt$" "$TEST_TMP/rma" &&
	rma="$TEST_TMP/v/$(cat "$TEST_TMP/rma")" &&
	grep_in "Failure: FAIL" "$rma" &&
	grep_in "Bad units (4 KiB): " "$rma" &&
	grep_in "  524288  2  bitflip  2" "$rma" &&
	grep_in "  2097152  2  misdirected" "$rma" &&
	grep_in "for its vendor: $(cat "$TEST_TMP/rma")" "$TEST_TMP/v/summary.txt" &&
	! grep -q "NVMe logs" "$rma" &&
	[ "$(json_get "$r" "\"error_log\" in d[\"targets\"][0]")" = False ]
'

test_expect_success 'verify with the wrong run id finds no unit of its run' '
	{ "$KILN" burn --mode verify --run-id 1234 "$d" >"$TEST_TMP/x.out" 2>&1;
	  test $? = 1; } &&
	grep_in "no unit of this run and disk" "$TEST_TMP/x.out"
'

test_expect_success 'a full tmpfs fails its device with offsets; the rest pass' '
	mkdir "$TEST_TMP/small" &&
	mount -t tmpfs -o size=16m kiln-small "$TEST_TMP/small" &&
	test_at_exit "umount -l '$TEST_TMP/small'" &&
	truncate -s 64M "$TEST_TMP/small/sparse.img" &&
	full=$(losetup -f --show --direct-io=on "$TEST_TMP/small/sparse.img") &&
	test_at_exit "losetup -d $full" &&
	make_loop a 32M && make_loop b 32M && make_loop c 32M &&
	{ "$KILN" burn --destroy-data --out "$TEST_TMP/full" "$a" "$full" "$b" "$c" \
		>"$TEST_TMP/full.out" 2>&1; test $? = 1; } &&
	cat "$TEST_TMP/full.out" &&
	f="$TEST_TMP/full/result.json" &&
	[ "$(json_get "$f" "\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" = \
		"PASS FAIL PASS PASS" ] &&
	[ "$(json_get "$f" "d[\"targets\"][1][\"io_errors\"][\"count\"] > 0")" = True ] &&
	[ "$(json_get "$f" "d[\"targets\"][1][\"io_errors\"][\"first\"][0][\"phase\"]")" = write ] &&
	[ "$(json_get "$f" "d[\"targets\"][1][\"io_errors\"][\"first\"][0][\"offset\"] >= 8 * $M")" = True ] &&
	[ "$(json_get "$f" "d[\"targets\"][1][\"bytes_written\"] > 0")" = True ] &&
	[ "$(json_get "$f" "[t[\"bytes_read\"] for t in d[\"targets\"]][2:]")" = \
		"[$((32 * M)), $((32 * M))]" ] &&
	grep_in "I/O errors, the first in write at byte" "$TEST_TMP/full/summary.txt"
'

# --deadline 10: under ThreadSanitizer (tsan.t) on a loaded machine,
# opening and reading a healthy 32 MiB loop device to class it took more
# than 2 s, and both disks FAILed as stalled before the burn.
test_expect_success 'a device that stops answering stalls and FAILs; the other passes' '
	make_loop fsdev 128M &&
	mkfs.ext4 -q "$fsdev" &&
	mkdir "$TEST_TMP/frozen" && mount "$fsdev" "$TEST_TMP/frozen" &&
	test_at_exit "umount -l '$TEST_TMP/frozen'" &&
	fallocate -l 32M "$TEST_TMP/frozen/disk.img" &&
	slow=$(losetup -f --show --direct-io=on "$TEST_TMP/frozen/disk.img") &&
	test_at_exit "losetup -d $slow" &&
	test_at_exit "fsfreeze -u '$TEST_TMP/frozen'" &&
	make_loop fine 32M &&
	fsfreeze -f "$TEST_TMP/frozen" &&
	{ "$KILN" burn --destroy-data --deadline 10 --out "$TEST_TMP/stall" \
		"$slow" "$fine" >"$TEST_TMP/stall.out" 2>&1; test $? = 1; } &&
	fsfreeze -u "$TEST_TMP/frozen" &&
	cat "$TEST_TMP/stall.out" &&
	s="$TEST_TMP/stall/result.json" &&
	test_eq "$(json_get "$s" "\" \".join(t[\"verdict\"] + \"/\" + t[\"state\"] for t in d[\"targets\"])")" \
		"FAIL/stalled PASS/done" verdicts &&
	grep_in "stalled: a request during write got no answer in 10 s" "$TEST_TMP/stall/summary.txt"
'

test_expect_success 'SIGINT stops cleanly: results say interrupted (exit 4)' '
	make_loop big 256M &&
	{ "$KILN" burn --destroy-data --passes 1000 --max-writes 0 --checkpoint 1 \
		--out "$TEST_TMP/int" "$big" >"$TEST_TMP/int.out" 2>&1 & } &&
	pid=$! && under_way "$TEST_TMP/int" 2 && kill -INT $pid &&
	{ wait $pid; test $? = 4; } &&
	[ "$(json_get "$TEST_TMP/int/result.json" "d[\"state\"]")" = interrupted ] &&
	[ "$(json_get "$TEST_TMP/int/result.json" "d[\"exit_code\"]")" = 4 ] &&
	grep_in "(interrupted)" "$TEST_TMP/int/summary.txt"
'

test_expect_success 'a 4Kn disk (4096-byte sectors): burnt, and its damage found' '
	fallocate -l 32M /dev/shm/kiln-test-$$-4kn.img &&
	test_at_exit "rm -f /dev/shm/kiln-test-$$-4kn.img" &&
	k=$(losetup -f --show --direct-io=on --sector-size 4096 \
		/dev/shm/kiln-test-$$-4kn.img) &&
	test_at_exit "losetup -d $k" &&
	[ "$(cat /sys/block/${k#/dev/}/queue/logical_block_size)" = 4096 ] &&
	"$KILN" burn --destroy-data --mode write --out "$TEST_TMP/k1" "$k" \
		>"$TEST_TMP/k1.out" 2>&1 &&
	[ "$(json_get "$TEST_TMP/k1/result.json" \
		"d[\"targets\"][0][\"logical_block_size\"]")" = 4096 ] &&
	$poke /dev/shm/kiln-test-$$-4kn.img flip $((5 * M + 4100)) 0x01 &&
	{ "$KILN" burn --mode verify --from "$TEST_TMP/k1" --out "$TEST_TMP/k2" \
		"$k" >"$TEST_TMP/k2.out" 2>&1; test $? = 1; } &&
	r="$TEST_TMP/k2/result.json" &&
	[ "$(bad $((5 * M + 4096)) class)" = bitflip ] &&
	{ "$KILN" burn --destroy-data --offset 512 "$k" 2>"$TEST_TMP/k3.err"
	  test $? = 2; } &&
	grep_in "multiples of its logical block size, 4096 bytes" "$TEST_TMP/k3.err"
'

test_done
