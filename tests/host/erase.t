#!/bin/sh
# needs: kiln lyingdisk
# profile=erase (a machine back from a customer): no burn pass, each disk
# destroy-data names gets only its end step, its read-back and its
# certificate. Two disks full of data end zeroed, result.json shows the
# profile, no pass made and no bytes burnt, the summary says "erased",
# not a burn's PASS (and kiln report says it again); end=keep with it is
# a usage error (exit 2, one line, untouched); a disk destroy-data does
# not name is refused whole by kiln burn, every disk untouched; a disk
# whose end step fails FAILs, its certificate "not sanitized: destroy",
# and a discard that promises nothing WARNs, not proven erased; an erase
# interrupted (SIGTERM) while its end step's write is held by the lying
# disk is "not erased", WARN, nowhere "erased".
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
M=1048576

# fill DEV: random data over its first and last MiB and one in the middle.
fill () {
	for at in 0 31 63; do
		head -c $M /dev/urandom |
			dd of="$1" bs=1M seek=$at oflag=direct conv=notrunc,fsync \
				status=none || return 1
	done
}

# zeros DEV: the whole 64 MiB device reads as zeros (O_DIRECT).
zeros () {
	dd if="$1" bs=1M iflag=direct status=none | cmp -n $((64 * M)) - /dev/zero
}

# ident DEV: its identity, the way destroy-data names it.
ident () {
	echo "loop:$(backing "$1")"
}

test_expect_success 'two disks full of data: erased, read back, no burn pass' '
	make_loop d1 64M && make_loop d2 64M &&
	fill "$d1" && fill "$d2" &&
	! zeros "$d1" && ! zeros "$d2" &&
	"$KILN" burn --profile erase --end zero --operator op-9 \
		--destroy-data="$(ident "$d1"),$(ident "$d2")" \
		--out "$TEST_TMP/erase" "$d1" "$d2" >"$TEST_TMP/erase.out" 2>&1 &&
	cat "$TEST_TMP/erase.out" &&
	zeros "$d1" && zeros "$d2"
'

test_expect_success 'result.json: no pass made, nothing burnt, each disk erased' '
	r="$TEST_TMP/erase/result.json" &&
	test_eq "$(json_get "$r" "d[\"settings\"][\"profile\"]")" erase profile &&
	for i in 0 1; do
		t="d[\"targets\"][$i]" &&
		test_eq "$(json_get "$r" "$t[\"mode\"]")" none mode &&
		test_eq "$(json_get "$r" "len($t[\"passes\"])")" 0 passes &&
		test_eq "$(json_get "$r" "sum(p[\"bytes\"] for p in $t[\"phases\"].values())")" \
			0 "bytes burnt" &&
		test_eq "$(json_get "$r" "$t[\"verdict\"]")" PASS verdict &&
		json_get "$r" "$t[\"reasons\"][0]" | grep -q "^erased (end=zero): " &&
		test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][$i][\"state\"]")" done state &&
		test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][$i][\"disposition\"]")" \
			"sanitized (hidden capacity not checked)" disposition &&
		c="$TEST_TMP/erase/$(json_get "$r" "d[\"end\"][\"disks\"][$i][\"certificate_json\"]")" &&
		json_get "$c" "d[\"end\"][\"hidden_capacity\"]" |
			grep -q "^not checked (neither NVMe nor ATA" || return 1
	done
'

test_expect_success 'the certificates are written, their digests in result.json' '
	r="$TEST_TMP/erase/result.json" &&
	for i in 0 1; do
		for k in json html; do
			n=$(json_get "$r" "d[\"end\"][\"disks\"][$i][\"certificate_$k\"]") &&
			test_eq "$(sha256sum <"$TEST_TMP/erase/$n" | cut -d" " -f1)" \
				"$(json_get "$r" "d[\"end\"][\"disks\"][$i][\"certificate_${k}_sha256\"]")" \
				"$n" || return 1
		done
	done &&
	[ -s "$TEST_TMP/erase/cert-machine.html" ] &&
	c="$TEST_TMP/erase/$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_json\"]")" &&
	test_eq "$(json_get "$c" "d[\"burn_in\"][\"bytes_written\"]")" 0 "burnt" &&
	test_eq "$(json_get "$c" "d[\"operator\"]")" op-9 operator
'

test_expect_success 'the console and summary.txt say an erase, not a burn PASS' '
	s="$TEST_TMP/erase/summary.txt" &&
	grep -q "^kiln burn: erased, no burn, 2 targets, 0 failed" "$s" &&
	grep -q "^profile erase: no burn pass" "$s" &&
	grep -q "^loop[0-9]* .* erased$" "$s" &&
	! grep -q "^loop[0-9]* (/dev/loop[0-9]*): PASS" "$s" &&
	grep -q "profile erase: no burn pass" "$TEST_TMP/erase.out" &&
	grep -q "erase (end=zero): has data" "$TEST_TMP/erase.out" &&
	grep -q "^    ##########    ########  " "$s" &&
	grep -e "^kiln burn:" -e "^profile erase" -e " erased$" "$s" >"$TEST_TMP/said.before" &&
	rm "$s" &&
	"$KILN" report "$TEST_TMP/erase" >/dev/null &&
	grep -e "^kiln burn:" -e "^profile erase" -e " erased$" "$s" >"$TEST_TMP/said.after" &&
	cmp "$TEST_TMP/said.before" "$TEST_TMP/said.after"
'

test_expect_success 'profile=erase end=keep: exit 2, one line, the disk untouched' '
	fill "$d1" &&
	before=$(sum_of "$d1") &&
	{ "$KILN" burn --profile erase --end keep --destroy-data \
		--out "$TEST_TMP/keep" "$d1" >"$TEST_TMP/keep.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/keep.out" &&
	test_eq "$rc" 2 exit &&
	test_eq "$(wc -l <"$TEST_TMP/keep.out")" 1 lines &&
	grep -q "^kiln: profile erase .*end=keep erases nothing" "$TEST_TMP/keep.out" &&
	test_eq "$(sum_of "$d1")" "$before" "the disk" &&
	[ ! -e "$TEST_TMP/keep/result.json" ]
'

test_expect_success 'a disk destroy-data does not name: refused, every disk untouched' '
	make_loop d3 64M && fill "$d2" && fill "$d3" &&
	b1=$(sum_of "$d1") && b2=$(sum_of "$d2") && b3=$(sum_of "$d3") &&
	{ "$KILN" burn --profile erase --end zero \
		--destroy-data="$(ident "$d1"),$(ident "$d2")" \
		--out "$TEST_TMP/not" "$d1" "$d2" "$d3" >"$TEST_TMP/not.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/not.out" &&
	test_eq "$rc" 2 exit &&
	grep -q "^kiln: refusing to write $d3: .*give --destroy-data" "$TEST_TMP/not.out" &&
	test_eq "$(sum_of "$d1")" "$b1" "the first disk" &&
	test_eq "$(sum_of "$d2")" "$b2" "the second disk" &&
	test_eq "$(sum_of "$d3")" "$b3" "the disk not named"
'

test_expect_success 'a blank disk destroy-data does not name: no unguarded erase, exit 2' '
	make_loop d4 64M &&
	{ "$KILN" burn --profile erase --end zero \
		--out "$TEST_TMP/blank" "$d4" >"$TEST_TMP/blank.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/blank.out" &&
	test_eq "$rc" 2 exit &&
	grep -q "destroy-data does not name it; name it in destroy-data" \
		"$TEST_TMP/blank.out"
'

test_expect_success 'end=discard on a loop (no promise): WARN, not proven erased' '
	fill "$d1" &&
	"$KILN" burn --profile erase --end discard --destroy-data \
		--out "$TEST_TMP/discard" "$d1" >"$TEST_TMP/discard.out" 2>&1 &&
	cat "$TEST_TMP/discard.out" &&
	r="$TEST_TMP/discard/result.json" &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" WARN verdict &&
	json_get "$r" "d[\"targets\"][0][\"reasons\"][0]" |
		grep -q "^not proven erased (end=discard): deallocated" &&
	! grep -q " erased$" "$TEST_TMP/discard/summary.txt"
'

test_expect_success 'an end step that fails: FAIL, certificate "not sanitized: destroy"' '
	make_lying d5 64M &&
	fill "$d5" &&
	lying "$d5" drop on &&
	{ "$KILN" burn --profile erase --end zero --destroy-data \
		--out "$TEST_TMP/drop" "$d5" >"$TEST_TMP/drop.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/drop.out" &&
	test_eq "$rc" 1 exit &&
	r="$TEST_TMP/drop/result.json" &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" FAIL verdict &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"disposition\"]")" \
		"not sanitized: destroy" disposition &&
	c="$TEST_TMP/drop/$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_json\"]")" &&
	test_eq "$(json_get "$c" "d[\"end\"][\"disposition\"]")" \
		"not sanitized: destroy" "its certificate" &&
	! grep -q "erased" "$TEST_TMP/drop/summary.txt"
'

test_expect_success 'an erase interrupted during its end step: WARN, not erased' '
	make_lying d6 64M &&
	fill "$d6" &&
	lying "$d6" hold 0 64M write &&
	{ "$KILN" burn --profile erase --end zero --destroy-data \
		--out "$TEST_TMP/stop" "$d6" >"$TEST_TMP/stop.out" 2>&1 &
	  echo $! >"$TEST_TMP/stop.pid"; } &&
	n=0 &&
	until [ "$(lying_get "$d6" pending)" -gt 0 ]; do
		n=$((n + 1)) && [ $n -le 3000 ] && sleep 0.1 || break
	done &&
	kill -TERM "$(cat "$TEST_TMP/stop.pid")" &&
	r="$TEST_TMP/stop/result.json" &&
	n=0 &&
	until [ "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]" \
		2>/dev/null)" = stopped ]; do
		n=$((n + 1)) && [ $n -le 3000 ] && sleep 0.1 || break
	done &&
	lying "$d6" resume &&
	{ wait "$(cat "$TEST_TMP/stop.pid")"; rc=$?; } ;
	cat "$TEST_TMP/stop.out" &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]")" \
		stopped state &&
	test_eq "$(json_get "$r" "d[\"targets\"][0][\"verdict\"]")" WARN verdict &&
	json_get "$r" "d[\"targets\"][0][\"reasons\"]" |
		grep -q "not erased (end=zero): the run was interrupted" &&
	s="$TEST_TMP/stop/summary.txt" &&
	grep -q "not erased" "$s" &&
	! grep -q -e " erased$" -e ": erased" -e "erased, no burn" -e ERASED "$s"
'

test_done
