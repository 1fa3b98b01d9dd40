#!/bin/sh
# needs: kiln lyingdisk
# end=discard and end=zero leave no kiln unit on the disks this run wrote
# whole, and write a certificate per disk (cert-<serial>.json, .html) and
# for the machine, their SHA-256 in result.json; kiln burn refuses end= on
# a target it would not write whole (exit 2, untouched); a FAILed disk is
# kept for its RMA, its certificate saying "not sanitized: destroy"; a
# disk that acknowledges a discard and keeps its data promises nothing,
# so it is said, not FAILed; a disk that hangs in the
# step is stalled and an interrupt stops it, the results complete.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
M=1048576

# no_data FILE: the file holds no data at all (every byte a hole).
no_data () {
	python3 -c '
import os, sys
f = os.open(sys.argv[1], os.O_RDONLY)
try:
	at = os.lseek(f, 0, os.SEEK_DATA)
	print("data at byte", at)
	sys.exit(1)
except OSError:
	sys.exit(0)' "$1"
}

# units FILE_OR_DEV: how many kiln units it holds, read with O_DIRECT.
units () {
	dd if="$1" bs=1M iflag=direct status=none | grep -c -a KILNUNIT
}

# certs_check RUN: each certificate's SHA-256 is result.json's, and the
# disk's certificate names the drive and the machine.
certs_check () {
	r="$1/result.json" &&
	for k in json html; do
		n=$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_$k\"]") &&
		want=$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_${k}_sha256\"]") &&
		test_eq "$(sha256sum <"$1/$n" | cut -d" " -f1)" "$want" "$n" ||
			return 1
	done &&
	test_eq "$(sha256sum <"$1/cert-machine.html" | cut -d" " -f1)" \
		"$(json_get "$r" "d[\"end\"][\"certificate_machine_sha256\"]")" \
		cert-machine.html &&
	c="$1/$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_json\"]")" &&
	test_eq "$(json_get "$c" "d[\"drive\"][\"identity\"]")" \
		"$(json_get "$r" "d[\"targets\"][0][\"identity\"]")" identity &&
	test_eq "$(json_get "$c" "d[\"machine\"][\"id\"]")" \
		"$(json_get "$r" "d[\"machine_id\"]")" machine &&
	test_eq "$(json_get "$c" "d[\"run_id\"]")" \
		"$(json_get "$r" "d[\"run_id\"]")" run_id &&
	test_eq "$(json_get "$c" "d[\"operator\"]")" "op-7" operator &&
	grep -q "op-7" "$1/cert-machine.html"
}

test_expect_success 'end=discard: holes punched in the whole backing file' '
	make_loop d1 64M &&
	"$KILN" burn --destroy-data --end discard --operator op-7 \
		--out "$TEST_TMP/discard" "$d1" >"$TEST_TMP/discard.out" 2>&1 &&
	cat "$TEST_TMP/discard.out" &&
	no_data "$(backing "$d1")" &&
	test_eq "$(units "$d1")" 0 units &&
	test_eq "$(json_get "$TEST_TMP/discard/result.json" \
		"d[\"end\"][\"disks\"][0][\"state\"]")" said state &&
	test_eq "$(json_get "$TEST_TMP/discard/result.json" \
		"d[\"end\"][\"disks\"][0][\"disposition\"]")" \
		"deallocated: not a sanitization" disposition &&
	grep -q "deallocated, contents not promised" "$TEST_TMP/discard.out"
'

test_expect_success 'end=discard: the certificates, their digests in result.json' '
	certs_check "$TEST_TMP/discard" &&
	python3 -c "import html.parser,sys; html.parser.HTMLParser().feed(open(sys.argv[1]).read())" \
		"$TEST_TMP/discard/cert-machine.html"
'

test_expect_success 'summary.txt and report.html say it, and kiln report keeps it' '
	grep -q "^end=discard: loop[0-9]* said: deallocated, contents not promised.*(certificate cert-loop[0-9]*.html)$" \
		"$TEST_TMP/discard/summary.txt" &&
	grep -q "<a href=\"cert-machine.html\">" "$TEST_TMP/discard/report.html" &&
	grep -q "<a href=\"cert-loop[0-9]*.html\">cert-loop[0-9]*.html</a>" \
		"$TEST_TMP/discard/report.html" &&
	grep "^end=" "$TEST_TMP/discard/summary.txt" >"$TEST_TMP/end.before" &&
	rm "$TEST_TMP/discard/summary.txt" &&
	"$KILN" report "$TEST_TMP/discard" >/dev/null &&
	grep "^end=" "$TEST_TMP/discard/summary.txt" >"$TEST_TMP/end.after" &&
	cmp "$TEST_TMP/end.before" "$TEST_TMP/end.after" &&
	grep -q "<a href=\"cert-machine.html\">" "$TEST_TMP/discard/report.html"
'

test_expect_success 'end=zero: the disk reads as zeros, said done' '
	make_loop d2 64M /var/tmp &&
	"$KILN" burn --destroy-data --end zero --end-verify 5% --operator op-7 \
		--out "$TEST_TMP/zero" "$d2" >"$TEST_TMP/zero.out" 2>&1 &&
	cat "$TEST_TMP/zero.out" &&
	dd if="$d2" bs=1M iflag=direct status=none | cmp -n $((64 * M)) - /dev/zero &&
	test_eq "$(json_get "$TEST_TMP/zero/result.json" \
		"d[\"end\"][\"disks\"][0][\"state\"]")" done state &&
	certs_check "$TEST_TMP/zero" &&
	test_eq "$(json_get "$TEST_TMP/zero/result.json" \
		"d[\"end\"][\"disks\"][0][\"disposition\"]")" "sanitized (hidden capacity not checked)" disposition
'

test_expect_success 'end=keep (the default): the units stay, no certificate' '
	"$KILN" burn --destroy-data --out "$TEST_TMP/keep" "$d2" \
		>"$TEST_TMP/keep.out" 2>&1 &&
	test_eq "$(units "$d2")" 16384 units &&
	! ls "$TEST_TMP/keep"/cert-* 2>/dev/null
'

test_expect_success 'kiln fleet: the certificates linked, a batch page to print' '
	mkdir "$TEST_TMP/lab" &&
	cp -r "$TEST_TMP/discard" "$TEST_TMP/lab/" &&
	"$KILN" fleet --out "$TEST_TMP/fleet" "$TEST_TMP/lab" >"$TEST_TMP/fleet.out" 2>&1 &&
	cat "$TEST_TMP/fleet.out" &&
	grep -q "cert-machine.html\">cert-machine.html</a>" "$TEST_TMP/fleet/fleet.html" &&
	grep -q "href=\"fleet-certificates.html\"" "$TEST_TMP/fleet/fleet.html" &&
	b="$TEST_TMP/fleet/fleet-certificates.html" &&
	python3 -c "import html.parser,sys; html.parser.HTMLParser().feed(open(sys.argv[1]).read())" "$b" &&
	test_eq "$(grep -c "<section>" "$b")" 1 sections &&
	grep -q "$(json_get "$TEST_TMP/discard/result.json" \
		"d[\"end\"][\"disks\"][0][\"certificate_json_sha256\"]")" "$b" &&
	grep -q "$(json_get "$TEST_TMP/discard/result.json" "d[\"machine_id\"]")" "$b" &&
	test_eq "$(python3 -c "import csv,sys; print(next(csv.DictReader(open(sys.argv[1], newline=\"\")))[\"end\"])" \
		"$TEST_TMP/fleet/fleet.csv")" "discard: 1 said" "fleet.csv end"
'

test_expect_success 'kiln burn: end= on a span short of the disk is exit 2, untouched' '
	before=$(sum_of "$d2") &&
	{ "$KILN" burn --destroy-data --end zero --span 32M \
		--out "$TEST_TMP/span" "$d2" >"$TEST_TMP/span.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/span.out" &&
	test_eq "$rc" 2 exit &&
	grep -q "does not write the whole disk" "$TEST_TMP/span.out" &&
	test_eq "$(sum_of "$d2")" "$before" "the disk"
'

test_expect_success 'kiln burn: end= with a mode that does not write is exit 2' '
	{ "$KILN" burn --mode read --end discard \
		--out "$TEST_TMP/read" "$d2" >"$TEST_TMP/read.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/read.out" &&
	test_eq "$rc" 2 exit &&
	grep -q "does not write it" "$TEST_TMP/read.out"
'

test_expect_success 'a disk that keeps its data through a discard: said, not FAILed' '
	make_lying d3 64M &&
	lying "$d3" discard keep &&
	"$KILN" burn --destroy-data --end discard --out "$TEST_TMP/keeps" \
		"$d3" >"$TEST_TMP/keeps.out" 2>&1 &&
	cat "$TEST_TMP/keeps.out" &&
	[ "$(lying_get "$d3" discard_kept_bytes)" -gt 0 ] &&
	test_eq "$(units "$d3")" 16384 units &&
	r="$TEST_TMP/keeps/result.json" &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]")" said state &&
	[ "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"read_back\"][\"units_of_this_run\"]")" -gt 0 ] &&
	grep -q "contents not promised.*units of this run" "$TEST_TMP/keeps.out" &&
	test_eq "$(json_get "$r" "d[\"verdict\"]")" PASS verdict
'

test_expect_success 'a FAILed disk is kept as it is for its RMA, its certificate says destroy' '
	make_lying d4 64M &&
	lying "$d4" eio $((8 * M)) 4096 read &&
	{ "$KILN" burn --destroy-data --end discard --reread 0 \
		--out "$TEST_TMP/failed" "$d4" >"$TEST_TMP/failed.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/failed.out" &&
	test_eq "$rc" 1 exit &&
	test_eq "$(lying_get "$d4" discards)" 0 discards &&
	r="$TEST_TMP/failed/result.json" &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]")" skipped state &&
	grep -q "kept as it is for its RMA" "$TEST_TMP/failed.out" &&
	c="$TEST_TMP/failed/$(json_get "$r" "d[\"end\"][\"disks\"][0][\"certificate_json\"]")" &&
	test_eq "$(json_get "$c" "d[\"end\"][\"disposition\"]")" "not sanitized: destroy" disposition &&
	test_eq "$(json_get "$c" "d[\"burn_in\"][\"verdict\"]")" FAIL verdict &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"disposition\"]")" "not sanitized: destroy" &&
	grep -q "<td>not sanitized: destroy</td>" "${c%.json}.html" &&
	grep -q "^end=discard: .* skipped: .*(certificate cert-" "$TEST_TMP/failed/summary.txt" &&
	grep -q "<a href=\"cert-loop[0-9]*.html\">" "$TEST_TMP/failed/report.html" &&
	python3 "$TOP/tests/lib/certs.py" "$TEST_TMP/failed"
'

test_expect_success 'a disk that hangs in the step: stalled, FAILed, results complete' '
	make_lying d5 64M &&
	lying "$d5" hang at-discard &&
	{ "$KILN" burn --destroy-data --end discard --deadline 5 \
		--out "$TEST_TMP/hang" "$d5" >"$TEST_TMP/hang.out" 2>&1; rc=$?; } ;
	cat "$TEST_TMP/hang.out" &&
	test_eq "$rc" 1 exit &&
	r="$TEST_TMP/hang/result.json" &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]")" stalled state &&
	test_eq "$(json_get "$r" "d[\"results_complete\"]")" True complete &&
	lying "$d5" resume
'

test_expect_success 'SIGINT during the step: kiln exits 4, results complete' '
	make_lying d6 64M &&
	lying "$d6" hang at-discard &&
	{ "$KILN" burn --destroy-data --end discard \
		--out "$TEST_TMP/int" "$d6" >"$TEST_TMP/int.out" 2>&1 & } &&
	pid=$! &&
	lying_until "$d6" pending 1 &&
	kill -INT "$pid" &&
	{ wait "$pid"; rc=$?; } ;
	cat "$TEST_TMP/int.out" &&
	test_eq "$rc" 4 exit &&
	r="$TEST_TMP/int/result.json" &&
	test_eq "$(json_get "$r" "d[\"end\"][\"disks\"][0][\"state\"]")" stopped state &&
	test_eq "$(json_get "$r" "d[\"results_complete\"]")" True complete &&
	lying "$d6" resume
'

test_done
