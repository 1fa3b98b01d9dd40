#!/bin/sh
# needs: kiln lyingdisk
# Throughput where it happens, and latency, on a disk that answers slowly
# at chosen offsets (tests/lib/lyingdisk.c under a loop device, marked
# rotational as an HDD is): the slow offsets show as dips in the zones of
# each phase and among the slowest requests, and the confirming re-read
# (alone, qd 1, 4 KiB at a time) finds them again: a WARN that names each
# offset, with its figure and threshold; the re-read ends at the burn's
# deadline, however slow the disk. A disk whose writes are slow over its
# second half is slow in those zones, and its write's plateaus step at
# its middle, with no write cliff (the fast level lasted a tenth of a
# second). A healthy disk PASSes, with its
# 100 zones, latency histograms and re-read in result.json, no WARN, and
# no known limit (a loop device); its phases, a few seconds of 2.6 MiB
# zones of 1 MiB requests, are too short to judge zones (zones.h), so
# the others burn with smaller requests, one or two at a time, for
# phases of 10 s or more.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
M=1048576
# Three slow 4 KiB spots, in zones 30, 55 and 80 of a 256 MiB disk.
A=$((77 * M + 8192))
B=$((141 * M + 4096))
C=$((205 * M))

t0 () {
	json_get "$1/result.json" "d[\"targets\"][0]$2"
}

test_expect_success 'a slow rotational disk: zones dip where it is slow' '
	make_lying s 256M &&
	rot="/sys/block/$(basename "$s")/queue/rotational" &&
	echo 1 >"$rot" && test_at_exit "echo 0 >$rot" &&
	for o in $A $B $C; do lying "$s" slow $o 4096 5000 || return 1; done &&
	{ "$KILN" burn --destroy-data --bs 512k --qd 1 --out "$TEST_TMP/slow" "$s" \
		>"$TEST_TMP/slow.out" 2>&1; test $? = 0; } &&
	r="$TEST_TMP/slow" &&
	[ "$(t0 "$r" "[\"rotational\"]")" = True ] &&
	[ "$(t0 "$r" "[\"zones\"][\"phases\"][0][\"phase\"]")" = write ] &&
	for p in 0 1; do
		z=$(t0 "$r" "[\"zones\"][\"phases\"][$p][\"dips\"]") &&
		for n in 30 55 80; do
			echo "$z" | grep -q "'"'"'zone'"'"': $n," || {
				echo "phase $p: no dip in zone $n: $z"; return 1; }
		done || return 1
	done
'

test_expect_success '...and its slowest requests are where it is slow' '
	for o in $A $B $C; do
		[ "$(t0 "$r" "[\"latency\"][\"slowest\"]" | python3 -c "
import sys, ast
s = ast.literal_eval(sys.stdin.read())
print(any(e[\"offset\"] <= $o < e[\"offset\"] + e[\"length\"] and
	  e[\"ms\"] >= 500 for e in s))")" = True ] || {
			echo "no slow request over $o"; return 1; }
	done
'

test_expect_success '...the re-read confirms each at qd 1: WARN naming the offsets' '
	[ "$(t0 "$r" "[\"verdict\"]")" = WARN ] &&
	[ "$(t0 "$r" "[\"reread\"][\"grid\"][\"from_500_ms\"]")" = 3 ] &&
	[ "$(t0 "$r" "[\"reread\"][\"state\"]")" = done ] &&
	grep_in "slow reads confirmed: 3 of " "$r/summary.txt" &&
	grep_in "took 500 ms or more" "$r/summary.txt" &&
	grep_in "(a rotational disk WARNs at 500 ms)" "$r/summary.txt" &&
	for o in $A $B $C; do grep_in "$o" "$r/summary.txt" || return 1; done &&
	grep_in "slow zone in write pass 1: zone " "$r/summary.txt" &&
	! grep -q "too short to judge" "$r/summary.txt" "$r/report.html" &&
	grep_in "(a rotational disk WARNs under 50%)" "$r/summary.txt"
'

# Six spots of 900 ms: the re-read of them all would take longer than the
# deadline of 4 s, so it is cut short there. Each request of the burn has
# 4 s for its 900 ms. The re-read reads in a child that is given up a
# second deadline later (then the state is "stalled"), so "cut short"
# says it ended within 8 s, with 3 s of room for a busy machine after the
# last read; no clock is read here.
test_expect_success 'the re-read stops at the deadline: a slow disk cannot hold kiln' '
	make_lying d 64M &&
	for o in 4 14 24 34 44 54; do
		lying "$d" slow $((o * M)) 4096 900 || return 1; done &&
	{ "$KILN" burn --destroy-data --deadline 4 --out "$TEST_TMP/dl" "$d" \
		>"$TEST_TMP/dl.out" 2>&1 || { echo "kiln burn: exit $?"; \
		tail -n 20 "$TEST_TMP/dl.out"; false; }; } &&
	r="$TEST_TMP/dl" &&
	test_eq "$(t0 "$r" "[\"reread\"][\"state\"]")" "cut short" &&
	test_eq "$(t0 "$r" "[\"reread\"][\"why\"]")" "the deadline (4 s) ran out" &&
	grep_in "; cut short: the deadline (4 s) ran out" "$r/summary.txt"
'

test_expect_success 'a healthy disk PASSes with zones, latency and re-read, no WARN' '
	make_loop h 256M &&
	"$KILN" burn --destroy-data --out "$TEST_TMP/ok" "$h" \
		>"$TEST_TMP/ok.out" 2>&1 &&
	r="$TEST_TMP/ok" &&
	[ "$(t0 "$r" "[\"verdict\"]")" = PASS ] &&
	[ "$(t0 "$r" "[\"zones\"][\"count\"]")" = 100 ] &&
	[ "$(t0 "$r" "[\"zones\"][\"zone_bytes\"]")" = 2684355 ] &&
	[ "$(json_get "$r/result.json" "[len(p[\"mbps\"]) for p in d[\"targets\"][0][\"zones\"][\"phases\"]]")" = "[100, 100]" ] &&
	[ "$(t0 "$r" "[\"zones\"][\"phases\"][1][\"phase\"]")" = verify ] &&
	[ "$(t0 "$r" "[\"latency\"][\"write\"][\"requests\"]")" = 256 ] &&
	[ "$(t0 "$r" "[\"latency\"][\"verify\"][\"requests\"]")" = 256 ] &&
	[ "$(t0 "$r" "[\"reread\"][\"state\"]")" = done ] &&
	[ "$(t0 "$r" "[\"reread\"][\"times\"][\"requests\"]")" = 5120 ] &&
	! grep -q WARN "$r/summary.txt" &&
	[ "$(t0 "$r" "[\"zones\"][\"phases\"][0][\"shape\"]")" = short ] &&
	grep_in "too short to judge zones: 2.6 MiB zones, 1 MiB requests" \
		"$r/summary.txt" && ! grep -q "plateaus\|steady at" "$r/summary.txt" &&
	grep -q "^  limit: ran at [0-9.]* [MG]B/s \(write\|read\); no known limit (a loop device)$" \
		"$r/summary.txt" &&
	grep -q "<p class=\"limit\">limit: ran at [0-9.]* [MG]B/s \(write\|read\); no known limit (a loop device)</p>" \
		"$r/report.html" &&
	[ "$(t0 "$r" "[\"rate_limit\"].endswith(\"no known limit (a loop device)\")")" = True ] &&
	grep -q "<p class=\"short\">too short to judge zones: its run</p>" "$r/report.html"
'

test_expect_success 'reread=0: the request times judged, nothing read again' '
	make_loop n 64M &&
	"$KILN" burn --destroy-data --reread 0 --out "$TEST_TMP/noreread" "$n" \
		>"$TEST_TMP/noreread.out" 2>&1 &&
	r="$TEST_TMP/noreread" &&
	[ "$(t0 "$r" "[\"verdict\"]")" = PASS ] &&
	[ "$(t0 "$r" "[\"reread\"]")" = None ] &&
	[ "$(t0 "$r" "[\"latency\"][\"verify\"][\"requests\"]")" = 64 ] &&
	! grep -q "reading the slowest requests" "$TEST_TMP/noreread.out"
'

# Writes only: the writes there come at a tenth of the rest, whatever the
# load of the machine (the lying disk itself moves 200 to 700 MB/s), and
# the reads that class the disk and re-read it are quick.
test_expect_success 'a disk slow over its second half: plateaus that step there' '
	make_lying p 128M &&
	lying "$p" slow $((64 * M)) $((64 * M)) 250 write &&
	"$KILN" burn --destroy-data --deadline 2 --bs 256k --qd 2 \
		--out "$TEST_TMP/half" "$p" \
		>"$TEST_TMP/half.out" 2>&1
	rc=$? r="$TEST_TMP/half" &&
	{ test_eq "$rc/$(t0 "$r" "[\"verdict\"]")" 0/PASS "exit/verdict" ||
		{ t0 "$r" "[\"reasons\"]"; tail -n 5 "$TEST_TMP/half.out"; false; }; } &&
	python3 - "$r/result.json" <<-\PY &&
	import json, sys
	t = json.load(open(sys.argv[1]))["targets"][0]
	write = t["zones"]["phases"][0]
	assert write["phase"] == "write", write
	v = write["mbps"]
	fast, slow = v[:50], [x for x in v[50:] if x]
	assert sum(slow) / len(slow) < sum(fast) / len(fast) / 3, v
	# The write moves at the pace of the lying disk: whatever the noise
	# splits, its levels step at zone 50, by far, and it is no cliff
	# (the fast level lasted a tenth of a second). A zone the machine
	# slowed beside the step may make a shortest plateau (3 zones) with
	# two slow ones: the step is then inside it.
	pl = write["plateaus"]
	assert write["shape"] == "steps" and write["cliff"] is None, write
	at = [p for p in pl if p["from_zone"] <= 50 <= p["to_zone"]]
	assert len(at) == 1 and (at[0]["from_zone"] == 50 or
	    at[0]["from_zone"] >= 48 and at[0]["to_zone"] <= 52), pl
	fast = [p["mbps"] for p in pl if p["to_zone"] < at[0]["from_zone"]]
	slow = [p["mbps"] for p in pl if p["from_zone"] > at[0]["to_zone"]]
	if at[0]["from_zone"] == 50:
	    slow.append(at[0]["mbps"])
	assert fast and slow and min(fast) > 2 * max(slow), pl
	PY
	grep_in "zones, write pass 1: plateaus " "$r/summary.txt" &&
	! grep -q cliff "$r/summary.txt"
'

test_expect_success 'quick span: zones cover the three pieces tested' '
	make_loop q 1G &&
	"$KILN" burn --destroy-data --span quick:96M --out "$TEST_TMP/q" "$q" \
		>"$TEST_TMP/q.out" 2>&1 &&
	r="$TEST_TMP/q" &&
	[ "$(t0 "$r" "[\"zones\"][\"zone_bytes\"]")" = 1006633 ] &&
	[ "$(t0 "$r" "[\"zones\"][\"phases\"][0][\"mbps\"].count(None)")" = 0 ]
'

# What a person sees: report.html as chromium renders it.
. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	test_done
	exit
fi

test_expect_success 'report.html in headless chromium: zones and latency plotted, dips marked' '
	render "$TEST_TMP/slow/report.html" "$TEST_TMP/dom.html" &&
	python3 - "$TEST_TMP/dom.html" <<-\PY
	import re, sys
	from html.parser import HTMLParser

	class Plots(HTMLParser):
	    """The marks of each small multiple, by its section."""
	    def __init__(self):
	        super().__init__()
	        self.section, self.cells = None, {"zones": [], "latency": []}
	    def handle_starttag(self, tag, a):
	        a = dict(a)
	        cls = a.get("class", "")
	        if tag == "div" and cls in self.cells:
	            self.section = cls
	        elif tag == "div" and cls == "cell" and self.section:
	            self.cells[self.section].append([])
	        elif self.section and self.cells[self.section]:
	            self.cells[self.section][-1].append((tag, cls, a))

	p = Plots()
	p.feed(open(sys.argv[1], encoding="utf-8").read())
	zones, latency = p.cells["zones"], p.cells["latency"]
	assert len(zones) == 1 and len(latency) == 1, (len(zones), len(latency))
	paths = {c: a["d"] for t, c, a in zones[0] if t == "path"}
	assert set(paths) == {"zone-write", "zone-verify"}, paths.keys()
	for c, d in paths.items():
	    assert len(re.findall("[ML]", d)) == 100, (c, d)
	dips = [a for t, c, a in zones[0] if t == "circle" and c == "dip"]
	assert len(dips) == 6, len(dips)
	bars = [c for t, c, a in latency[0] if t == "rect" and c.startswith("lat-")]
	assert "lat-write" in bars and "lat-verify" in bars, bars
	PY
'

test_done
