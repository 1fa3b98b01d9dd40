#!/bin/sh
# needs: kiln kiln-asan
# kiln fleet on a lab's tree made by the real binary (no root needed): a
# passing run, a failing one (a file damaged between a write and its
# verify), a run killed with SIGKILL (checkpoints only: cut off once old,
# running while fresh), a schema 1 document, a malformed one, a partial
# upload, a machine whose folder name holds odd bytes, and foreign files.
# fleet.csv agrees with every result.json and picks each machine's latest
# run; like disks slow in one machine are named; fleet.html, rendered by
# Debian's headless chromium, shows the failing machine first with its
# failing disk and why, and every machine. Exit codes: 2 for no ROOT or
# one that is not a folder, 3 for a DIR that cannot be written.
. "$(dirname "$0")/../lib/tap.sh"

LAB="$TEST_TMP/lab"
GEN="$TOP/tests/lib/fleetgen.py"
R="$LAB/kiln-results"
PAGE="$TEST_TMP/page"

# burn FOLDER ARGS...: kiln burn into the run folder R/FOLDER.
burn () {
	dir=$1
	shift
	"$KILN" burn --out "$R/$dir" "$@" >"$TEST_TMP/burn.out" 2>&1
}

test_expect_success 'a passing run and a failing one, by the real binary' '
	burn m-pass/20261130T100000Z-00000000000000a1 --size 8M \
		"$TEST_TMP/a.img" "$TEST_TMP/b.img" &&
	burn m-fail/20261130T110000Z-00000000000000b1 --mode write --size 8M \
		"$TEST_TMP/bad.img" &&
	dd if=/dev/urandom of="$TEST_TMP/bad.img" bs=4096 seek=300 count=3 \
		conv=notrunc 2>/dev/null &&
	sleep 1 &&
	{ burn m-fail/20261130T110001Z-00000000000000b2 --mode verify \
		--from "$R/m-fail/20261130T110000Z-00000000000000b1"; test $? = 1; } &&
	# One host made them all: as runs before they carried a machine id,
	# each machine is then its folder.
	python3 "$GEN" --machine-id - "$R"/m-pass/* "$R"/m-fail/*
'

test_expect_success 'a run killed with SIGKILL leaves checkpoints only' '
	cut="$R/m-cut/20261130T120000Z-00000000000000c1" &&
	{ "$KILN" burn --size 64M --passes 100000 --max-writes 0 \
		--checkpoint 1 --out "$cut" "$TEST_TMP/k.img" \
		>/dev/null 2>&1 & } &&
	pid=$! &&
	test_wait_for "[ -e \"$cut/checkpoint-b.json\" ]" &&
	kill -KILL $pid && { wait $pid; test $? = 137; } &&
	[ -e "$cut/checkpoint-a.json" ] && [ ! -e "$cut/result.json" ] &&
	python3 "$GEN" --machine-id - "$cut" &&
	mkdir -p "$R/m-running" && cp -r "$cut" "$R/m-running/" &&
	touch -d "2 hours ago" "$cut" "$cut"/*
'

test_expect_success 'schema 1, malformed, partial, odd names, foreign files' '
	v1="$R/m-v1/20261129T000000Z-89ba0b83200d82f5" && mkdir -p "$v1" &&
	cp "$TOP/tests/fixtures/jsonread/result.json" "$v1/" &&
	grep -q "\"wwid\"" "$v1/result.json" &&
	bad="$R/m-bad/20261130T130000Z-00000000000000d1" && mkdir -p "$bad" &&
	head -c 700 "$R/m-pass/20261130T100000Z-00000000000000a1/result.json" \
		>"$bad/result.json" &&
	part="$R/m-part/20261130T140000Z-00000000000000e1" && mkdir -p "$part" &&
	head -n 1 "$R/m-pass/20261130T100000Z-00000000000000a1/samples.csv" \
		>"$part/samples.csv" &&
	python3 - "$R" <<-\PY &&
	import os, shutil, sys
	r = os.fsencode(sys.argv[1])
	odd = os.path.join(r, b"m-\xff<b>&\"q\",\n")
	shutil.copytree(os.path.join(r, b"m-pass/20261130T100000Z-00000000000000a1"),
	                os.path.join(odd, b"20261130T100000Z-00000000000000f1"))
	PY
	echo "not kiln" >"$R/README.txt" && mkdir "$R/lost+found" &&
	mkdir "$R/m-pass/.hidden" "$R/m-pass/photos" &&
	echo x >"$R/m-pass/notes.txt" && mkdir "$LAB/other"
'

# The latest run: its start when its clock was trusted, else its mtime.
test_expect_success 'runs whose clocks were and were not trusted' '
	python3 - "$R" <<-\PY
	import json, os, shutil, sys, time
	r = sys.argv[1]
	src = os.path.join(r, "m-pass/20261130T100000Z-00000000000000a1")
	now = time.time()
	def run(machine, name, run_id, started, trusted, mtime):
	    d = os.path.join(r, machine, name)
	    shutil.copytree(src, d)
	    p = os.path.join(d, "result.json")
	    doc = json.load(open(p))
	    doc["run_id"] = run_id
	    doc["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
	    doc["clock_trusted"] = trusted
	    json.dump(doc, open(p, "w"), indent=2)
	    # A result.json changed by hand: its index is no longer its own.
	    os.remove(os.path.join(d, "index.json"))
	    for f in os.listdir(d):
	        os.utime(os.path.join(d, f), (mtime, mtime))
	    os.utime(d, (mtime, mtime))
	# Trusted a day ago, untrusted (the year 2000) changed just now: the
	# untrusted one is the latest.
	run("m-clock", "20261129T000000Z-00000000000001a1", "00000000000001a1",
	    now - 86400, True, now - 86400)
	run("m-clock", "20000101T000000Z-00000000000001a2", "00000000000001a2",
	    946684800, False, now - 60)
	# Trusted an hour ago and changed long after, untrusted changed two
	# days ago: the trusted one, by its start.
	run("m-clock2", "20261130T000000Z-00000000000002a1", "00000000000002a1",
	    now - 3600, True, now - 3600)
	run("m-clock2", "20000101T000000Z-00000000000002a2", "00000000000002a2",
	    946684800, False, now - 2 * 86400)
	PY
'

# Four machines with disks of one model: the fourth one's are at half.
test_expect_success 'like disks: one machine whose disks are slow' '
	python3 - "$R" <<-\PY
	import json, os, shutil, sys
	r = sys.argv[1]
	src = os.path.join(r, "m-pass/20261130T100000Z-00000000000000a1")
	for n in range(1, 5):
	    d = os.path.join(r, "like-%d" % n, "20261130T150000Z-000000000000030%d" % n)
	    shutil.copytree(src, d)
	    p = os.path.join(d, "result.json")
	    doc = json.load(open(p))
	    for i, t in enumerate(doc["targets"]):
	        t["model"] = "TESTDISK 1000"
	        t["serial"] = "TD%d%d" % (n, i)
	        t["size"] = 1000204886016
	        t["phases"]["write"]["avg_mbps"] = 500.0 if n == 4 else 1000.0 + i
	        t["phases"]["verify"]["avg_mbps"] = 1000.0
	        # Long enough to compare (the run compares none under 10 s).
	        t["phases"]["write"]["seconds"] = 3600.0
	        t["phases"]["verify"]["seconds"] = 3600.0
	    if n == 1:
	        doc["system"] = {"vendor": "Dell Inc.", "product": "PowerEdge R740",
	                         "mac": "b0:26:28:aa:bb:01", "address": "10.0.0.5",
	                         "asset_tag": "A-1234", "chassis_serial": "CZJ123"}
	        doc["bmc"] = {"state": "read", "address": "10.0.9.5",
	                      "mac": "b0:26:28:aa:bb:ff", "entries": []}
	    json.dump(doc, open(p, "w"), indent=2)
	PY
'

test_expect_success 'kiln fleet reads the lab: exit 0, both files' '
	"$KILN" fleet --out "$PAGE" "$LAB" >"$TEST_TMP/fleet.out" 2>&1 &&
	cat "$TEST_TMP/fleet.out" &&
	grep_in "kiln fleet: 14 machines" "$TEST_TMP/fleet.out" &&
	[ -s "$PAGE/fleet.html" ] && [ -s "$PAGE/fleet.csv" ]
'

# check <<PY: runs the Python on stdin with fleet.csv's rows (rows, in
# order, and by machine), R and PAGE.
check () {
	{
		cat <<-\PY
		import csv, json, os, sys
		R, PAGE = sys.argv[1], sys.argv[2]
		f = open(os.path.join(PAGE, "fleet.csv"), newline="", encoding="utf-8")
		rows = list(csv.DictReader(f))
		by = {x["machine"]: x for x in rows}
		PY
		cat
	} >"$TEST_TMP/check.py" &&
	python3 "$TEST_TMP/check.py" "$R" "$PAGE"
}

test_expect_success 'fleet.csv: its columns, one line per machine' '
	check <<-\PY
	want = ("machine,verdict,state,started,clock_trusted,duration_s,disks,"
	        "failed,failures,warnings,below_like_disks,kiln_version,run_id,"
	        "folder,checkpoint,checkpoint_age_s,runs,bmc_address,bmc_mac,"
	        "end,problem").split(",")
	assert list(rows[0].keys()) == want, list(rows[0].keys())
	raw = open(os.path.join(PAGE, "fleet.csv"), "rb").read()
	assert raw.count(b"\r\n") == 15 and raw.count(b"\n") == 15, raw
	assert len(rows) == 14 and len(by) == 14, list(by)
	for m in ("m-pass", "m-fail", "m-cut", "m-running", "m-v1", "m-bad",
	          "m-part", "m-clock", "m-clock2", "like-1", "like-4"):
	    assert m in by, m
	assert "lost+found" not in by and "other" not in by
	assert by["like-1"]["bmc_address"] == "10.0.9.5", by["like-1"]
	assert by["like-1"]["bmc_mac"] == "b0:26:28:aa:bb:ff", by["like-1"]
	assert by["m-pass"]["bmc_address"] == "", by["m-pass"]
	assert all(x["end"] == "" for x in rows), rows
	PY
'

test_expect_success 'fleet.csv agrees with the result.json of each latest run' '
	check <<-\PY
	n = 0
	for x in rows:
	    p = os.path.join(x["folder"], "result.json")
	    if not os.path.exists(p) or x["state"] == "unreadable":
	        continue
	    d = json.load(open(p))
	    t = d["targets"]
	    assert x["verdict"] == d["verdict"], (x, d["verdict"])
	    assert x["state"] == d["state"], x
	    assert x["started"] == d["started"], x
	    assert x["clock_trusted"] == ("yes" if d["clock_trusted"] else "no"), x
	    assert abs(float(x["duration_s"]) - d["elapsed_seconds"]) < 0.01, x
	    assert x["run_id"] == d["run_id"], x
	    assert x["kiln_version"] == d["kiln_version"], x
	    assert int(x["disks"]) == len(t), x
	    failed = [y for y in t if y["verdict"] == "FAIL"]
	    assert int(x["failed"]) == len(failed), x
	    for y in failed:
	        label = y.get("label", y.get("name"))
	        assert label in x["failures"], x
	        assert y["reasons"][0] in x["failures"], x
	    for y in t:
	        if y["verdict"] == "WARN":
	            assert y["label"] in x["warnings"], x
	    n += 1
	# All but the odd name (its folder is written escaped) and the four
	# that have no result.json to read.
	assert n == 9, n
	PY
'

test_expect_success 'the latest run: by start when trusted, else by mtime' '
	check <<-\PY
	f = by["m-fail"]
	assert f["folder"].endswith("20261130T110001Z-00000000000000b2"), f
	assert f["runs"] == "2" and f["verdict"] == "FAIL", f
	assert by["m-clock"]["run_id"] == "00000000000001a2", by["m-clock"]
	assert by["m-clock"]["clock_trusted"] == "no", by["m-clock"]
	assert by["m-clock2"]["run_id"] == "00000000000002a1", by["m-clock2"]
	PY
'

test_expect_success 'checkpoints only: cut off when old, running when fresh' '
	check <<-\PY
	c, r = by["m-cut"], by["m-running"]
	assert c["state"] == "cut off", c
	assert int(c["checkpoint"]) >= 2 and int(c["checkpoint_age_s"]) >= 7000, c
	assert c["started"] and c["disks"] == "1", c
	assert r["state"] == "running" and int(r["checkpoint_age_s"]) < 600, r
	PY
'

test_expect_success 'malformed, partial and schema 1: said, not crashed' '
	check <<-\PY
	b, p, v = by["m-bad"], by["m-part"], by["m-v1"]
	assert b["state"] == "unreadable", b
	assert b["problem"].startswith("result.json: ") and "at byte" in b["problem"], b
	assert p["state"] == "partial" and "samples.csv" in p["problem"], p
	assert v["verdict"] == "PASS" and v["state"] == "complete", v
	assert v["disks"] == "1" and v["run_id"] == "89ba0b83200d82f5", v
	PY
'

test_expect_success 'failures first, then what cannot be read' '
	check <<-\PY
	order = [x["machine"] for x in rows]
	assert order[0] == "m-fail", order
	i = order.index
	assert i("m-bad") < i("m-cut") < i("m-running") < i("m-pass"), order
	assert i("m-part") < i("m-cut"), order
	PY
'

test_expect_success 'odd bytes in a name: escaped, one line still' '
	check <<-\PY &&
	odd = [m for m in by if m.startswith("m-\\")]
	assert odd == ["m-\\xff<b>&\"q\",\\x0a"], list(by)
	PY
	! grep -q "<b>&\"q\"" "$PAGE/fleet.html" &&
	grep_in "m-\\xff&lt;b&gt;&amp;&quot;q&quot;,\\x0a" "$PAGE/fleet.html"
'

test_expect_success 'like disks: the slow machine named, the others not' '
	check <<-\PY &&
	for m in ("like-1", "like-2", "like-3"):
	    assert by[m]["below_like_disks"] == "", by[m]
	s = by["like-4"]["below_like_disks"]
	assert "write 50%" in s and "TESTDISK 1000" in s and "verify" not in s, s
	assert s.endswith(": write 50% of like disks"), s
	PY
	grep_in "<b>like-4</b>: all 2 (its controller, cabling or backplane?)" \
		"$PAGE/fleet.html" &&
	grep_in "</span>: write 50% of like disks</div>" "$PAGE/fleet.html"
'

test_expect_success 'the page: each run linked, the machine named, passes and bytes' '
	a="20261130T100000Z-00000000000000a1" &&
	grep_in "<a href=\"../lab/kiln-results/m-pass/$a/report.html\">report.html</a>" \
		"$PAGE/fleet.html" &&
	grep_in "<a href=\"../lab/kiln-results/m-pass/$a/summary.txt\">summary.txt</a>" \
		"$PAGE/fleet.html" &&
	grep_in "<span class=\"sys\">Dell Inc. PowerEdge R740 b0:26:28:aa:bb:01 10.0.0.5 asset A-1234 chassis CZJ123 BMC 10.0.9.5 BMC MAC b0:26:28:aa:bb:ff</span>" \
		"$PAGE/fleet.html" &&
	grep_in "1 pass<br>16 MiB written<br>16 MiB read" "$PAGE/fleet.html" &&
	grep_in "a.img: 1 pass, 8 MiB written, 8 MiB read</li>" "$PAGE/fleet.html" &&
	# The damage began at unit 300: the first bad unit by offset.
	grep_in "), the first at byte $((300 * 4096))" "$PAGE/fleet.html"
'

test_expect_success 'a warning only where the run warned; the rates chart has a legend' '
	python3 - "$PAGE/fleet.html" <<-\PY
	import re, sys
	page = open(sys.argv[1], encoding="utf-8").read()
	row = [r for r in page.split("<tr>") if r.startswith("<td><b>like-4</b>")][0]
	cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
	assert cells[5] == "", cells[5]
	assert "write 50% of like disks" in cells[6], cells[6]
	like = page[page.index("<table id=\"like\""):]
	for key in ("write", "verify", "slow", "median", "85%"):
	    assert "<text class=\"key\" x=" in like and ">%s</text>" % key in like, key
	PY
'

test_expect_success 'host burns: one machine by its id, whatever their folders' '
	H2="$TEST_TMP/hosts" &&
	"$KILN" burn --out "$H2/rack1/run1" --size 8M "$TEST_TMP/h1.img" \
		>/dev/null 2>&1 &&
	"$KILN" burn --out "$H2/rack2/run2" --size 8M "$TEST_TMP/h2.img" \
		>/dev/null 2>&1 &&
	"$KILN" fleet --out "$TEST_TMP/ph" "$H2" >"$TEST_TMP/ph.out" 2>&1 &&
	grep_in "kiln fleet: 1 machine, 2 run folders" "$TEST_TMP/ph.out" &&
	python3 - "$H2/rack1/run1/result.json" "$TEST_TMP/ph/fleet.csv" <<-\PY
	import csv, json, sys
	d = json.load(open(sys.argv[1]))
	rows = list(csv.DictReader(open(sys.argv[2], newline="", encoding="utf-8")))
	assert d["machine_id"], d.get("machine_id")
	assert "system" in d and set(d["system"]) == {"vendor", "product", "mac", "address", "asset_tag", "chassis_serial", "nics"}, d.get("system")
	assert len(rows) == 1 and rows[0]["machine"] == d["machine_id"], rows
	assert rows[0]["runs"] == "2", rows
	PY
'

test_expect_success 'block disks without a model are disks, not files' '
	V="$TEST_TMP/virt/kiln-results" &&
	python3 - "$R/m-pass/20261130T100000Z-00000000000000a1" "$V" <<-\PY &&
	import json, os, shutil, sys
	src, v = sys.argv[1:3]
	for n in range(3):
	    d = os.path.join(v, "vm-%d" % n, "20261130T100000Z-00000000000007a%d" % n)
	    shutil.copytree(src, d)
	    p = os.path.join(d, "result.json")
	    doc = json.load(open(p))
	    for t in doc["targets"]:
	        t["kind"], t["model"], t["size"] = "block", "", 8589934592
	    json.dump(doc, open(p, "w"), indent=2)
	PY
	"$KILN" fleet --out "$TEST_TMP/pv" "$TEST_TMP/virt" >/dev/null &&
	grep_in "<tr><td>(no model: disks)</td>" "$TEST_TMP/pv/fleet.html" &&
	! grep -q "(no model: files)" "$TEST_TMP/pv/fleet.html" &&
	grep_in "<tr><td>(no model: files)</td>" "$PAGE/fleet.html"
'

# same A B: two fleet.csv files hold the same rows, but for the age of a
# checkpoint (the clock moves between the runs) and which copy of a run
# found twice is named.
same () {
	python3 - "$1" "$2" <<-\PY
	import csv, sys
	def rows(p):
	    r = list(csv.DictReader(open(p, newline="", encoding="utf-8")))
	    for x in r:
	        x.pop("checkpoint_age_s")
	        x["folder"] = x["folder"].replace("/stick/", "/lab/")
	    return r
	a, b = rows(sys.argv[1]), rows(sys.argv[2])
	for x, y in zip(a, b):
	    assert x == y, [(k, x[k], y[k]) for k in x if x[k] != y[k]]
	assert len(a) == len(b)
	PY
}

test_expect_success 'other layouts: the kiln-results folder, a machine, two roots' '
	"$KILN" fleet --out "$TEST_TMP/p2" "$R" >/dev/null &&
	same "$PAGE/fleet.csv" "$TEST_TMP/p2/fleet.csv" &&
	"$KILN" fleet --out "$TEST_TMP/p3" "$R/m-fail" >/dev/null &&
	[ "$(wc -l <"$TEST_TMP/p3/fleet.csv")" = 2 ] &&
	grep_in "\"m-fail\",\"FAIL\"" "$TEST_TMP/p3/fleet.csv" &&
	# A stick copied without its times: its runs look newer than they are.
	cp -r "$LAB" "$TEST_TMP/stick" &&
	"$KILN" fleet --out "$TEST_TMP/p4" "$LAB" "$TEST_TMP/stick" >/dev/null &&
	same "$PAGE/fleet.csv" "$TEST_TMP/p4/fleet.csv"
'

test_expect_success 'an earlier page in DIR is rewritten' '
	echo "OLD PAGE" >"$TEST_TMP/p2/fleet.html" &&
	"$KILN" fleet --out "$TEST_TMP/p2" "$LAB" >/dev/null &&
	! grep -q "OLD PAGE" "$TEST_TMP/p2/fleet.html" &&
	grep_in "<h1>kiln fleet</h1>" "$TEST_TMP/p2/fleet.html"
'

test_expect_success 'exit 2: no ROOT, a ROOT that is not a folder' '
	{ "$KILN" fleet 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "no results tree given" "$TEST_TMP/e" &&
	{ "$KILN" fleet "$TEST_TMP/a.img" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "not a folder" "$TEST_TMP/e" &&
	{ "$KILN" fleet "$TEST_TMP/nowhere" 2>"$TEST_TMP/e"; test $? = 2; } &&
	grep_in "No such file or directory" "$TEST_TMP/e" &&
	{ "$KILN" fleet --stale 10x "$LAB" 2>"$TEST_TMP/e"; test $? = 2; }
'

test_expect_success 'exit 3: a DIR that cannot be written' '
	{ "$KILN" fleet --out "$TEST_TMP/a.img/page" "$LAB" 2>"$TEST_TMP/e"
	  test $? = 3; } &&
	grep_in "cannot write fleet.html and fleet.csv" "$TEST_TMP/e"
'

# Under ASan and UBSan when make check built that tester.
ASAN="$TOP/out/tests/kiln-asan"
[ -x "$ASAN" ] || ASAN=$KILN

test_expect_success 'cut and flipped result.json and checkpoints: rows, no crash' '
	python3 - "$TEST_TMP/mangled/kiln-results" "$R" <<-\PY &&
	import os, random, sys
	out, r = sys.argv[1], sys.argv[2]
	rng = random.Random(1)
	res = open(os.path.join(r, "m-pass/20261130T100000Z-00000000000000a1/result.json"), "rb").read()
	cp = open(os.path.join(r, "m-cut/20261130T120000Z-00000000000000c1/checkpoint-a.json"), "rb").read()
	n = 0
	def put(name, data):
	    global n
	    d = os.path.join(out, "x%03d" % n, "20261130T000000Z-%016x" % n)
	    os.makedirs(d)
	    open(os.path.join(d, name), "wb").write(data)
	    n += 1
	for doc, name in ((res, "result.json"), (cp, "checkpoint-a.json")):
	    for i in range(60):
	        put(name, doc[:rng.randrange(len(doc))])
	        b = bytearray(doc)
	        b[rng.randrange(len(b))] = rng.randrange(256)
	        put(name, bytes(b))
	PY
	"$ASAN" fleet --out "$TEST_TMP/pm" "$TEST_TMP/mangled" \
		>"$TEST_TMP/pm.out" 2>&1 &&
	grep_in "kiln fleet: 240 machines" "$TEST_TMP/pm.out" &&
	python3 - "$TEST_TMP/pm/fleet.csv" <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
	assert len(rows) == 240, len(rows)
	bad = [x for x in rows if x["state"] == "unreadable"]
	assert len(bad) > 150 and all(x["problem"] for x in bad), len(bad)
	PY
'

# As nobody when root (root reads any folder), so that 000 means unreadable.
AS=
[ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null ||
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"

test_expect_success 'a hostile tree: FIFOs, a forged verdict, a formula, a locked folder' '
	H="$TEST_TMP/hostile/kiln-results" && P="$R/m-pass/20261130T100000Z-00000000000000a1" &&
	mkdir -p "$H/m-fifo/20261130T000000Z-00000000000000f1" "$H/m-locked" &&
	mkfifo "$H/m-fifo/20261130T000000Z-00000000000000f1/result.json" \
		"$H/m-fifo/20261130T000000Z-00000000000000f1/checkpoint-a.json" &&
	cp -r "$P" "$H/m-locked/" &&
	mkdir "$H/=cmd|calc!A0" && cp -r "$R/m-fail/20261130T110001Z-00000000000000b2" "$H/=cmd|calc!A0/" &&
	mkdir -p "$H/m-verdict" && cp -r "$P" "$H/m-verdict/" &&
	python3 - "$H/m-verdict/20261130T100000Z-00000000000000a1/result.json" <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["verdict"] = "<!--"
	d["targets"][0]["verdict"] = "<u>"
	json.dump(d, open(sys.argv[1], "w"))
	PY
	mkdir "$TEST_TMP/hp" && chmod 777 "$TEST_TMP/hp" &&
	chmod -R go+rX "$TEST_TMP/hostile" && chmod go+x "$TEST_TMP" &&
	chmod 000 "$H/m-locked" && test_at_exit "chmod 755 $H/m-locked" &&
	timeout 60 $AS "$KILN" fleet --out "$TEST_TMP/hp" "$TEST_TMP/hostile" \
		>"$TEST_TMP/hp.out" 2>&1 &&
	grep_in "kiln fleet: 4 machines" "$TEST_TMP/hp.out" &&
	grep -q "^\"'\''=cmd|calc!A0\"," "$TEST_TMP/hp/fleet.csv" &&
	! grep -q "<!--\|<u>" "$TEST_TMP/hp/fleet.html" &&
	python3 - "$TEST_TMP/hp/fleet.csv" <<-\PY
	import csv, sys
	by = {x["machine"]: x for x in csv.DictReader(open(sys.argv[1], newline=""))}
	f, l, v = by["m-fifo"], by["m-locked"], by["m-verdict"]
	assert f["state"] == "unreadable" and "not a regular file" in f["problem"], f
	assert l["state"] == "unreadable", l
	assert l["problem"] == "the folder cannot be read: Permission denied", l
	assert v["verdict"] == "", v
	PY
'

# What a person sees: the page as chromium renders it.
. "$TOP/tests/lib/chromium.sh"
if ! have_chromium; then
	test_done
	exit
fi

test_expect_success 'fleet.html in headless chromium: failing first, all there' '
	render "$PAGE/fleet.html" "$TEST_TMP/dom.html" &&
	python3 - "$TEST_TMP/dom.html" "$PAGE/fleet.csv" <<-\PY
	import csv, sys
	from html.parser import HTMLParser

	class Rows(HTMLParser):
	    """The cells of the machines table, row by row, as text."""
	    def __init__(self):
	        super().__init__()
	        self.rows, self.table, self.cell = [], None, None
	    def handle_starttag(self, tag, attrs):
	        if tag == "table":
	            self.table = dict(attrs).get("id")
	        elif self.table == "machines" and tag == "tr":
	            self.rows.append([])
	        elif self.table == "machines" and tag == "td":
	            self.cell = []
	    def handle_endtag(self, tag):
	        if tag == "td" and self.cell is not None:
	            self.rows[-1].append(" ".join("".join(self.cell).split()))
	            self.cell = None
	        elif tag == "table":
	            self.table = None
	    def handle_data(self, data):
	        if self.cell is not None:
	            self.cell.append(data)

	p = Rows()
	p.feed(open(sys.argv[1], encoding="utf-8").read())
	rows = [r for r in p.rows if r]
	machines = [x["machine"] for x in
	            csv.DictReader(open(sys.argv[2], newline="", encoding="utf-8"))]
	assert len(rows) == len(machines) == 14, (len(rows), machines)
	first = rows[0]
	assert first[0].startswith("m-fail"), first
	assert first[1] == "FAIL", first
	assert "bad.img" in first[4] and "bad units" in first[4], first
	for m in machines:
	    assert any(r[0].startswith(m) for r in rows), m
	bad = [r for r in rows if r[0].startswith("m-bad")][0]
	assert "unreadable: result.json:" in bad[2], bad
	cut = [r for r in rows if r[0].startswith("m-cut")][0]
	assert cut[2].startswith("cut off: no result.json and not finished"), cut
	slow = [r for r in rows if r[0].startswith("like-4")][0]
	assert slow[5] == "" and "write 50% of like disks" in slow[6], slow
	ok = [r for r in rows if r[0].startswith("m-pass")][0]
	assert "report.html summary.txt" in ok[0], ok
	assert ok[7].startswith("1 pass") and "16 MiB written" in ok[7], ok
	assert "a.img: 1 pass, 8 MiB written, 8 MiB read" in ok[7], ok
	PY
'

test_expect_success 'an uploaded run still going: the newest progress checkpoint that holds' '
	up="$TEST_TMP/up/kiln-results/m-up/20261130T130000Z-00000000000000d1" &&
	mkdir -p "$up/progress" &&
	cp "$cut/checkpoint-a.json" "$up/progress/checkpoint-000001.json" &&
	good=$(ls "$cut"/checkpoint-*.json | while read -r f; do
		python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$f" 2>/dev/null &&
			echo "$f"; done | tail -n 1) &&
	seq=$(sed -n "1s/.*\"seq\": \([0-9]*\).*/\1/p" "$good") &&
	cp "$good" "$up/progress/checkpoint-000007.json" &&
	head -c 300 "$good" >"$up/progress/checkpoint-000009.json" &&
	"$KILN" fleet --out "$TEST_TMP/pu" "$TEST_TMP/up" >"$TEST_TMP/pu.out" 2>&1 &&
	python3 - "$TEST_TMP/pu/fleet.csv" "$seq" <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
	assert len(rows) == 1 and rows[0]["machine"] == "m-up", rows
	assert rows[0]["checkpoint"] == sys.argv[2], (rows[0], sys.argv[2])
	assert rows[0]["state"] in ("running", "cut off"), rows[0]
	PY
'

test_done
