#!/bin/sh
# needs: kiln lyingdisk
# The guarded write at its edges: data in the first or the last unit of
# the region, past an extent boundary of --span quick, at a bs that is not
# a power of two, on a disk whose blank byte is 0xff; kiln's own data of
# an earlier run at another bs; a read error, a hang and SIGINT during
# the guard. Never a byte written that was not read and found blank or
# kiln's, never a false PASS, never a false stop.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

MiB=1048576
head -c 4096 /dev/urandom >"$TEST_TMP/data"

# put DEV OFF: the 4 KiB of data at byte OFF.
put () {
	dd if="$TEST_TMP/data" of="$1" bs=4096 seek=$(($2 / 4096)) \
		conv=notrunc oflag=direct status=none
}

# intact DEV OFF: the 4 KiB at OFF are still the data.
intact () {
	dd if="$1" bs=4096 skip=$(($2 / 4096)) count=1 iflag=direct \
		status=none >"$TEST_TMP/got" &&
	cmp "$TEST_TMP/data" "$TEST_TMP/got"
}

# t DIR EXPR: a value of the first target in DIR/result.json.
t () {
	json_get "$1/result.json" "d[\"targets\"][0]$2"
}

test_expect_success 'data in the first unit of the region: nothing written, all read' '
	make_loop a $((256 * MiB)) && put "$a" $((100 * MiB)) &&
	{ "$KILN" burn --offset 100M --out "$TEST_TMP/a" "$a" \
		>"$TEST_TMP/o" 2>&1; test $? = 2; } &&
	intact "$a" $((100 * MiB)) &&
	[ "$(t "$TEST_TMP/a" "[\"guard\"][\"stopped_at\"]")" = $((100 * MiB)) ] &&
	[ "$(t "$TEST_TMP/a" "[\"bytes_written\"]")" = 0 ] &&
	[ "$(t "$TEST_TMP/a" "[\"bytes_read\"]")" = $((156 * MiB)) ] &&
	[ "$(t "$TEST_TMP/a" "[\"verdict\"]")" = PASS ]
'

test_expect_success 'data in the last unit of a region not a multiple of bs (100k, qd 1)' '
	make_loop b $((256 * MiB)) && at=$((100 * MiB + 8192)) &&
	put "$b" $at &&
	{ "$KILN" burn --span $((at + 4096)) --bs 100k --qd 1 \
		--out "$TEST_TMP/b" "$b" >"$TEST_TMP/o" 2>&1; test $? = 2; } &&
	intact "$b" $at &&
	[ "$(t "$TEST_TMP/b" "[\"guard\"][\"stopped_at\"]")" = $at ] &&
	grep_in "holds data from byte $at" "$TEST_TMP/o"
'

test_expect_success 'quick span: data just past an extent boundary (qd 256, bs 100k)' '
	make_loop c $((256 * MiB)) && put "$c" $((120 * MiB)) &&
	{ "$KILN" burn --span quick:48M --qd 256 --bs 100k \
		--out "$TEST_TMP/c" "$c" >"$TEST_TMP/o" 2>&1; test $? = 2; } &&
	intact "$c" $((120 * MiB)) &&
	[ "$(t "$TEST_TMP/c" "[\"guard\"][\"stopped_at\"]")" = $((120 * MiB)) ]
'

test_expect_success 'quick span: data between the pieces is neither touched nor a stop' '
	make_loop g $((256 * MiB)) && put "$g" $((16 * MiB)) &&
	"$KILN" burn --span quick:48M --out "$TEST_TMP/g" "$g" \
		>"$TEST_TMP/o" 2>&1 &&
	intact "$g" $((16 * MiB)) &&
	[ "$(t "$TEST_TMP/g" "[\"guard\"][\"checked\"]")" = $((48 * MiB)) ]
'

test_expect_success 'a disk of 0xff with one unit of zeros stops there' '
	make_loop e $((64 * MiB)) &&
	head -c $((64 * MiB)) /dev/zero | tr "\000" "\377" \
		| dd of="$e" bs=1M oflag=direct status=none &&
	head -c 4096 /dev/zero >"$TEST_TMP/data" &&
	put "$e" $((30 * MiB)) &&
	"$KILN" probe "$e" >"$TEST_TMP/probe" 2>&1 &&
	grep_in "hold 0xff" "$TEST_TMP/probe" &&
	{ "$KILN" burn --out "$TEST_TMP/e" "$e" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	intact "$e" $((30 * MiB)) &&
	[ "$(t "$TEST_TMP/e" "[\"guard\"][\"stopped_at\"]")" = $((30 * MiB)) ] &&
	head -c 4096 /dev/urandom >"$TEST_TMP/data"
'

test_expect_success 'kiln data of an earlier run at another bs, the rest blank: written whole, guarded once' '
	make_loop k $((64 * MiB)) &&
	"$KILN" burn --destroy-data=1 --bs 64k --span 40M \
		--out "$TEST_TMP/k1" "$k" >"$TEST_TMP/o" 2>&1 &&
	"$KILN" burn --passes 3 --bs 100k --qd 3 --max-writes 0 \
		--out "$TEST_TMP/k2" "$k" >"$TEST_TMP/o" 2>&1 &&
	[ "$(t "$TEST_TMP/k2" "[\"verdict\"]")" = PASS ] &&
	[ "$(t "$TEST_TMP/k2" "[\"region_writes\"]")" = 3 ] &&
	[ "$(t "$TEST_TMP/k2" "[\"guard\"][\"checked\"]")" = $((64 * MiB)) ] &&
	[ "$(t "$TEST_TMP/k2" "[\"phases\"][\"guard\"][\"bytes\"]")" = \
		$((64 * MiB)) ]
'

test_expect_success 'a file of kiln data is guarded; a file kiln creates is not' '
	f="$TEST_TMP/f.img" &&
	"$KILN" burn --size 64M --out "$TEST_TMP/f1" "$f" >"$TEST_TMP/o" 2>&1 &&
	[ "$(t "$TEST_TMP/f1" ".get(\"guard\")")" = None ] &&
	dd if="$TEST_TMP/data" of="$f" bs=4096 seek=$((30 * 256)) \
		conv=notrunc status=none &&
	{ "$KILN" burn --out "$TEST_TMP/f2" "$f" >"$TEST_TMP/o" 2>&1
	  test $? = 2; } &&
	dd if="$f" bs=4096 skip=$((30 * 256)) count=1 status=none \
		>"$TEST_TMP/got" &&
	cmp "$TEST_TMP/data" "$TEST_TMP/got" &&
	[ "$(t "$TEST_TMP/f2" "[\"guard\"][\"stopped_at\"]")" = $((30 * MiB)) ]
'

test_expect_success 'a read error in the guard: nothing written from it on, FAIL, said as an error' '
	make_lying x 64M && put "$x" $((44 * MiB)) &&
	lying "$x" eio $((40 * MiB)) 4096 read &&
	{ "$KILN" burn --out "$TEST_TMP/x" "$x" >"$TEST_TMP/o" 2>&1
	  test $? = 1; } &&
	lying "$x" eio clear &&
	intact "$x" $((44 * MiB)) &&
	[ "$(lying_get "$x" write_bytes)" -le $((40 * MiB + 4096)) ] &&
	[ "$(t "$TEST_TMP/x" "[\"verdict\"]")" = FAIL ] &&
	grep_in "could not be read at byte $((40 * MiB))" "$TEST_TMP/o" &&
	! grep -q "holds data" "$TEST_TMP/o" &&
	! grep -q "holds data" "$TEST_TMP/x/result.json"
'

# A read of the guard that takes 2 s holds the front at 30 MiB; the disk
# hangs then, and kiln must write nothing it had not checked.
test_expect_success 'a disk that hangs in the guard: stalled, FAIL, nothing written after' '
	make_lying h 64M && put "$h" $((40 * MiB)) &&
	lying "$h" slow $((30 * MiB)) 4096 2000 read &&
	{ "$KILN" burn --deadline 5 --out "$TEST_TMP/h" "$h" \
		>"$TEST_TMP/o" 2>&1 & } &&
	pid=$! && test_at_exit "lying $h resume" &&
	test_wait_for "[ \$(lying_get \"$h\" write_bytes) -ge $((20 * MiB)) ]" &&
	lying "$h" hang &&
	test_wait_for "[ -e \"$TEST_TMP/h/result.json\" ]" &&
	lying "$h" resume && lying "$h" slow clear &&
	{ wait $pid; test $? = 1; } &&
	[ "$(t "$TEST_TMP/h" "[\"verdict\"]")" = FAIL ] &&
	grep_in "stalled" "$TEST_TMP/h/summary.txt" &&
	checked=$(t "$TEST_TMP/h" "[\"guard\"][\"checked\"]") &&
	[ "$checked" -le $((30 * MiB)) ] &&
	[ "$(lying_get "$h" write_bytes)" -le $((checked + 4096)) ] &&
	intact "$h" $((40 * MiB))
'

test_expect_success 'SIGINT in a guarded pass: exit 4, nothing written past the checked front' '
	make_lying s 128M && put "$s" $((90 * MiB)) &&
	lying "$s" slow 0 128M 200 read &&
	{ "$KILN" burn --qd 4 --out "$TEST_TMP/s" "$s" >"$TEST_TMP/o" 2>&1 & } &&
	pid=$! &&
	test_wait_for "[ \$(lying_get \"$s\" write_bytes) -ge $((4 * MiB)) ]" &&
	kill -INT $pid && { wait $pid; test $? = 4; } &&
	lying "$s" slow clear &&
	intact "$s" $((90 * MiB)) &&
	checked=$(t "$TEST_TMP/s" "[\"guard\"][\"checked\"]") &&
	[ "$checked" -lt $((90 * MiB)) ] &&
	[ "$(t "$TEST_TMP/s" "[\"bytes_written\"]")" -le "$checked" ]
'

test_expect_success 'a failed disk outranks a guard that stopped: exit 1' '
	make_loop m $((64 * MiB)) && put "$m" $((30 * MiB)) &&
	make_lying w 32M && lying "$w" eio $((20 * MiB)) 4096 write &&
	{ "$KILN" burn --out "$TEST_TMP/m" "$m" "$w" >"$TEST_TMP/o" 2>&1
	  test $? = 1; } &&
	intact "$m" $((30 * MiB)) &&
	[ "$(json_get "$TEST_TMP/m/result.json" \
		"\" \".join(t[\"verdict\"] for t in d[\"targets\"])")" = \
		"PASS FAIL" ]
'

test_expect_success 'kiln finish of a guarded run cut off keeps what the guard found' '
	make_lying p 64M && put "$p" $((20 * MiB)) &&
	lying "$p" slow $((24 * MiB)) 40M 300 read &&
	{ "$KILN" burn --checkpoint 1 --out "$TEST_TMP/p" "$p" \
		>"$TEST_TMP/o" 2>&1 & } &&
	pid=$! &&
	test_wait_for "grep -qs \"\\\"stopped_at\\\"\" \"$TEST_TMP/p\"/checkpoint-*.json" &&
	kill -9 $pid && { wait $pid; true; } &&
	lying "$p" slow clear &&
	{ "$KILN" finish "$TEST_TMP/p" >/dev/null 2>&1; test $? = 2; } &&
	[ "$(t "$TEST_TMP/p" "[\"guard\"][\"stopped_at\"]")" = $((20 * MiB)) ] &&
	t "$TEST_TMP/p" "[\"reasons\"]" >"$TEST_TMP/why" &&
	grep_in "holds data from byte $((20 * MiB))" "$TEST_TMP/why" &&
	intact "$p" $((20 * MiB))
'

# Data at A answers late; data a few spans above it, at B, is found first
# and said at once. Once A's read lands the guard stops there: the
# console, the reasons and result.json must all say A, what is at A.
test_expect_success 'data found first above data found later: A is said, and what is at A' '
	make_lying o 128M &&
	A=$((100 * MiB)) && B=$((104 * MiB)) &&
	{ printf "at A"; head -c 4092 /dev/zero; } | dd of="$o" bs=4096 \
		seek=$((A / 4096)) conv=notrunc oflag=direct status=none &&
	put "$o" $B &&
	lying "$o" slow $A 4096 2500 read &&
	{ "$KILN" burn --out "$TEST_TMP/lo" "$o" >"$TEST_TMP/out" 2>&1
	  test $? = 2; } &&
	lying "$o" slow clear &&
	intact "$o" $B &&
	[ "$(t "$TEST_TMP/lo" "[\"guard\"][\"stopped_at\"]")" = $A ] &&
	t "$TEST_TMP/lo" "[\"guard\"][\"found\"]" >"$TEST_TMP/found" &&
	grep_in "unknown data at byte $A" "$TEST_TMP/found" &&
	grep "^kiln: .* holds data from byte" "$TEST_TMP/out" | tail -n 1 \
		>"$TEST_TMP/said" &&
	grep_in "holds data from byte $A " "$TEST_TMP/said"
'

test_expect_success 'a disk of kiln data burnt again from 512 bytes in: no false stop' '
	make_loop u $((64 * MiB)) &&
	"$KILN" burn --destroy-data=1 --out "$TEST_TMP/u1" "$u" \
		>"$TEST_TMP/o" 2>&1 &&
	"$KILN" burn --offset 512 --out "$TEST_TMP/u2" "$u" \
		>"$TEST_TMP/o" 2>&1 &&
	[ "$(t "$TEST_TMP/u2" "[\"guard\"][\"checked\"]")" = \
		$((64 * MiB - 4096)) ] &&
	[ "$(t "$TEST_TMP/u2" "[\"verdict\"]")" = PASS ] &&
	make_loop u4 $((16 * MiB)) &&
	"$KILN" burn --destroy-data=1 --out "$TEST_TMP/u3" "$u4" \
		>"$TEST_TMP/o" 2>&1 &&
	"$KILN" burn --offset 512 --bs 4k --out "$TEST_TMP/u4" "$u4" \
		>"$TEST_TMP/o" 2>&1 &&
	[ "$(t "$TEST_TMP/u4" "[\"verdict\"]")" = PASS ]
'

test_done
