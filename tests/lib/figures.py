#!/usr/bin/env python3
# figures.py RUN_DIR [--console FILE] [--metrics FILE] [--fleet DIR]:
# one figure, one value. Reads a run's every output back (the console,
# summary.txt, result.json, report.html, ocptv.jsonl, an rma-*.txt, the
# metrics a Pushgateway holds for it, kiln fleet's fleet.csv and
# fleet.html) and holds each figure to result.json's, to the rounding
# each output prints it with: a phase's rate and its slowest and fastest
# pass, passes made, bytes, the run's duration, the first bad byte, the
# rate a disk ran at and its direction, a controller's total (the sum of
# its disks'). Says every difference with both sides ("# ..."), exit 1 on
# any; compares outputs with each other, never with expected speeds.
# --dom FILE: report.html's DOM as headless chromium left it (dom.py),
# read instead of the file.
import argparse
import csv
import datetime
import html.parser
import json
import os
import re
import sys

bad = []


def differ(what, *sides):
    bad.append("%s: %s" % (what, "; ".join(str(s) for s in sides)))


def same_rate(what, printed, exact):
    """printed (text, %.0f) is exact rounded; '-' is no figure."""
    if exact is None:
        if printed not in ("-", None):
            differ(what, "printed %s" % printed, "result.json none")
        return
    if printed in ("-", None):
        differ(what, "printed none", "result.json %.3f" % exact)
        return
    if abs(float(printed) - exact) > 0.5 + 1e-6:
        differ(what, "printed %s" % printed, "result.json %.3f" % exact)


def hms(secs):
    s = int(secs)
    return "%02d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def size(n):
    """Bytes as kiln says them (settings_fmt_size)."""
    v, u = float(n), 0
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    while v >= 1024 and u < 6:
        v /= 1024
        u += 1
    if u == 0:
        return "%d B" % n
    if v == int(v):
        return "%d %s" % (v, units[u])
    return "%.1f %s" % (v, units[u])


def size_range(v):
    """Bytes of several disks each, as a group's line says them."""
    a, b = size(min(v)), size(max(v))
    if a == b:
        return a
    if a.split()[1] == b.split()[1]:
        return "%s-%s" % (a.split()[0], b)
    return "%s to %s" % (a, b)


def group_names(text):
    """A group's names said as ranges ("loop0-3, loop7") one by one;
    None when a range is not of numbered names."""
    out = []
    for part in text.split(", "):
        m = re.fullmatch(r"([a-z]+)(\d+)-(\d+)", part)
        if m:
            out += ["%s%d" % (m.group(1), i)
                    for i in range(int(m.group(2)), int(m.group(3)) + 1)]
        elif re.fullmatch(r"[a-z]+\d+", part):
            out.append(part)
        else:
            return None
    return out


def table_rows(summary, labels):
    """summary.txt's per-disk table: {label: cols} and [(names, cols)]
    for a group's line, cols the six rates as printed."""
    rows, groups, pending, on = {}, [], None, False
    for line in summary.splitlines():
        if line.startswith("                        avg   min   max"):
            on = True
            continue
        if not on:
            continue
        if not line.strip():
            break
        name, rest = line[:10].strip(), line[11:].split()
        if len(rest) < 11:
            pending = line.strip()
            continue
        name = name or pending
        pending = None
        if name in labels:
            rows[name] = rest[2:8]
        else:
            groups.append((name, rest[2:8]))
    return rows, groups


def passes_text(lo, hi):
    if lo != hi:
        return "%d-%d passes" % (lo, hi)
    return "%d pass%s" % (lo, "" if lo == 1 else "es")


class Rows(html.parser.HTMLParser):
    """Every table row's cells' text, and the page's text."""

    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell, self.text = [], None, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "br":
            self.text.append("\n")
            if self.cell is not None:
                self.cell += "\n"

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.row is not None and \
                self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        self.text.append(data)
        if self.cell is not None:
            self.cell += data


def read_phase(t, name):
    p = (t.get("phases") or {}).get(name)
    if not p or not p.get("bytes"):
        return None
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--console")
    ap.add_argument("--metrics")
    ap.add_argument("--fleet")
    ap.add_argument("--dom")
    a = ap.parse_args()
    r = json.load(open(os.path.join(a.run, "result.json")))
    summary = open(os.path.join(a.run, "summary.txt")).read()
    page = open(a.dom or os.path.join(a.run, "report.html")).read()
    doc = Rows()
    doc.feed(page)
    page_text = "".join(doc.text)
    targets = r["targets"]
    for t in targets:
        if "passes_made" not in t:
            t["passes_made"] = passes_made(t)
    labels = [t["label"] for t in targets]
    checked = 0

    # The run's duration: one figure, from the command's start.
    dur = hms(r["elapsed_seconds"])
    m = re.search(r"^run [0-9a-f]{16}  \S+ \.\. \S+  \((\d\d:\d\d:\d\d)\)",
                  summary, re.M)
    if not m or m.group(1) != dur:
        differ("duration, summary.txt", m and m.group(1), dur)
    m = re.search(r"run [0-9a-f]{16}  \S+ \.\. \S+  \((\d\d:\d\d:\d\d)\)",
                  page_text)
    if not m or m.group(1) != dur:
        differ("duration, report.html", m and m.group(1), dur)
    # The times said are as far apart as the duration says.
    said = [("result.json", r.get("started"), r.get("ended"))]
    for name, text in (("summary.txt", summary), ("report.html", page_text)):
        m = re.search(r"run [0-9a-f]{16}  (\S+) \.\. (\S+)  \(", text)
        if m:
            said.append((name, m.group(1), m.group(2)))
    for name, began, ended in said:
        if not began or not ended:
            continue
        t = [datetime.datetime.strptime(x, "%Y-%m-%dT%H:%M:%SZ")
             for x in (began, ended)]
        apart = int((t[1] - t[0]).total_seconds())
        if hms(apart) != dur:
            differ("started .. ended, " + name, "%d s apart" % apart, dur)
    checked += 2

    # The work line: passes each disk's (a range), bytes in all.
    made = [t["passes_made"] for t in targets
            if t.get("state") != "not_started"]
    if made:
        want = passes_text(min(made), max(made))
        for name, text in (("summary.txt", summary),
                           ("report.html", page_text)):
            m = re.search(r"work: ([0-9-]+ pass(?:es)?)", text)
            if not m or m.group(1) != want:
                differ("the run's passes, " + name, m and m.group(1), want)
        checked += 2
        if a.console:
            con = open(a.console).read()
            m = re.findall(r"^\d\d:\d\d:\d\d (?:done|stopped) \d+/\d+  "
                           r"([0-9-]+ pass(?:es)?)", con, re.M)
            if not m or m[-1] != want:
                differ("the run's passes, the last status line",
                       m and m[-1], want)
            last = [x for x in con.splitlines()
                    if re.match(r"^\d\d:\d\d:\d\d (done|stopped) ", x)]
            w = sum(t["bytes_written"] for t in targets)
            rb = sum(t["bytes_read"] for t in targets)
            for n, key in ((w, "written"), (rb, "read")):
                if n and last and " %s %s" % (key, size(n)) not in last[-1]:
                    differ("the run's bytes %s, the last status line" % key,
                           last[-1], size(n))
            if summary.strip() not in con:
                differ("the console says summary.txt whole", "not in it")
            checked += 2

    # The run's bytes, in all.
    live = [t for t in targets if t.get("state") != "not_started"]
    if len(live) > 1:
        want = "%s written, %s read in all" % (
            size(sum(t["bytes_written"] for t in live)),
            size(sum(t["bytes_read"] for t in live)))
        if ("work: " not in summary) or want not in summary:
            differ("the run's bytes, summary.txt", "no '%s'" % want)
        checked += 1

    # The per-disk table: summary.txt's and report.html's rows.
    srows, grows = table_rows(summary, labels)
    hrows = {}
    for row in doc.rows:
        if len(row) >= 15 and row[0] in labels and row[2] in \
                ("write-verify", "write", "verify", "read"):
            hrows[row[0]] = row
    by_id = {}
    ocp = []
    if os.path.exists(os.path.join(a.run, "ocptv.jsonl")):
        for line in open(os.path.join(a.run, "ocptv.jsonl")):
            ocp.append(json.loads(line))
    for o in ocp:
        # Each disk's hardware info names it.
        txt = json.dumps(o)
        for hw in re.finditer(r'"hardwareInfoId": "(\d+)", "name": "([^"]+)"',
                              txt):
            by_id[hw.group(1)] = hw.group(2)
    meas = {}
    for o in ocp:
        m = (o.get("testStepArtifact") or {}).get("measurement")
        if m and m.get("hardwareInfoId") in by_id:
            meas[(by_id[m["hardwareInfoId"]], m["name"])] = m["value"]
    gw = {}
    if a.metrics:
        lre = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
        bre = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
        for line in open(a.metrics):
            m = lre.match(line.rstrip("\n"))
            if not m:
                continue
            lab = dict(bre.findall(m.group(2) or ""))
            if lab.get("machine") != r.get("machine_id"):
                continue
            gw[(m.group(1), lab.get("disk"))] = float(m.group(3))

    for t in targets:
        l = t["label"]
        if t.get("state") == "not_started":
            continue
        ph = {}
        for name in ("write", "verify", "read"):
            ph[name] = read_phase(t, name)
        rd = ph["verify"] or ph["read"]
        rdname = "verify" if ph["verify"] else "read"
        cols = []
        for p in (ph["write"], rd):
            cols += [p and p["avg_mbps"], p and p["min_mbps"],
                     p and p["max_mbps"]]
        names = ["write avg", "write min", "write max", "read avg",
                 "read min", "read max"]
        # Every pass's rate within the slowest and fastest said.
        for p, pn in ((ph["write"], "write"), (rd, rdname)):
            if not p or p["min_mbps"] is None:
                continue
            for run in t["passes"]:
                if run["phase"] != pn or not run["bytes"] or \
                        not run["seconds"]:
                    continue
                v = run["bytes"] / run["seconds"] / 1e6
                # seconds are printed to the ms: allow that much.
                slack = run["bytes"] / 1e6 * 0.0005 / run["seconds"] ** 2
                if v < p["min_mbps"] - slack - 0.001 or \
                        v > p["max_mbps"] + slack + 0.001:
                    differ("%s %s pass %d" % (l, pn, run["pass"]),
                           "ran %.3f" % v, "min %.3f max %.3f" %
                           (p["min_mbps"], p["max_mbps"]))
            if not p["min_mbps"] - 0.001 <= p["avg_mbps"] <= \
                    p["max_mbps"] + 0.001:
                differ("%s %s average outside min and max" % (l, pn),
                       p["avg_mbps"], p["min_mbps"], p["max_mbps"])
        if l in srows:
            for k in range(6):
                same_rate("%s %s, summary.txt's table" % (l, names[k]),
                          srows[l][k], cols[k])
            checked += 1
        if l in hrows:
            for k in range(6):
                same_rate("%s %s, report.html's table" % (l, names[k]),
                          hrows[l][3 + k], cols[k])
            if (hrows[l][10], hrows[l][11]) != (size(t["bytes_written"]),
                                                size(t["bytes_read"])):
                differ("%s bytes, report.html's table" % l,
                       hrows[l][10:12], size(t["bytes_written"]),
                       size(t["bytes_read"]))
            if hrows[l][9] != str(t["passes_made"]):
                differ("%s passes, report.html's table" % l, hrows[l][9],
                       t["passes_made"])
            checked += 1
        # The disk's own lines in summary.txt.
        m = re.search(r"^%s \(.*\): .*\n((?:  .*\n)*)" % re.escape(l),
                      summary, re.M)
        if m:
            body = m.group(1)
            pm = re.search(r"^  (\d+) pass(?:es)?, (.*) written, (.*) "
                           r"read$", body, re.M)
            if not pm or int(pm.group(1)) != t["passes_made"]:
                differ("%s passes, summary.txt" % l, pm and pm.group(1),
                       t["passes_made"])
            elif (pm.group(2), pm.group(3)) != (size(t["bytes_written"]),
                                                size(t["bytes_read"])):
                differ("%s bytes, summary.txt" % l, pm.group(0).strip(),
                       size(t["bytes_written"]), size(t["bytes_read"]))
            lm = re.search(r"ran at (\d+) MB/s (write|read)", body)
            # Each way's rate over its busy time, as result.json says it.
            bm = t.get("busiest_mbps") or {}
            w, rr = bm.get("write") or 0, bm.get("read") or 0
            if w and ph["write"] and \
                    abs(w - ph["write"]["avg_mbps"]) > 0.001:
                differ("%s write rate, busiest_mbps and the phase" % l, w,
                       ph["write"]["avg_mbps"])
            top, way = (w, "write") if w > rr else (rr, "read")
            if top > 0:
                if not lm:
                    differ("%s: 'ran at' with its direction, summary.txt"
                           % l, "none", "%.0f MB/s %s" % (top, way))
                else:
                    # result.json's seconds are to the ms: a read side
                    # of two phases is summed from them.
                    same_rate("%s ran at, summary.txt" % l, lm.group(1),
                              top)
                    if lm.group(2) != way:
                        differ("%s ran at's direction" % l, lm.group(2),
                               way)
                    pc = re.search(r"ran at \d+ MB/s \w+, (\d+)% of its "
                                   r"\w+ link \([^,]*, (\d+) MB/s\)", body)
                    if pc and abs(int(pc.group(1)) - 100 * int(lm.group(1)) /
                                  int(pc.group(2))) > 1:
                        differ("%s share of its link" % l, pc.group(0))
            checked += 1
        # The limit line is one text: result.json's, summary.txt's and
        # report.html's (wrapped as each wraps it).
        lim = t.get("rate_limit")
        if lim:
            flat = " ".join(lim.split())
            # A disk said in a group has no lines of its own there.
            said = [("report.html", page_text)]
            if m:
                said.append(("summary.txt", summary))
            for name, text in said:
                if flat not in " ".join(text.split()):
                    differ("%s limit, %s" % (l, name),
                           "not '%s'" % flat)
            checked += 1
        # The first bad byte, wherever it is said.
        bu = t.get("bad_units") or {}
        if bu.get("count"):
            fb = bu.get("first_byte")
            said = [("result.json's reasons", "\n".join(t["reasons"])),
                    ("summary.txt", summary), ("report.html", page_text)]
            for name in sorted(os.listdir(a.run)):
                if name.startswith("rma-") and name.endswith(".txt"):
                    said.append((name, open(os.path.join(a.run, name))
                                 .read()))
            listed = [b["offset"] for b in bu.get("first", [])]
            if listed and fb is not None and fb > min(listed):
                differ("%s first_byte above a listed bad unit" % l, fb,
                       min(listed))
            for name, text in said:
                for x in re.findall(r"the first at byte (\d+)", text):
                    if int(x) != fb:
                        differ("%s first bad byte, %s" % (l, name), x, fb)
            checked += 1
        # The OCP output.
        if ocp:
            if meas.get((l, "passes-made")) != t["passes_made"]:
                differ("%s passes, ocptv.jsonl" % l,
                       meas.get((l, "passes-made")), t["passes_made"])
            for pn in ("write", "verify", "read"):
                v = meas.get((l, pn + "-throughput-average"))
                p = ph[pn]
                if p and (v is None or abs(v - p["avg_mbps"]) > 0.001):
                    differ("%s %s average, ocptv.jsonl" % (l, pn), v,
                           p["avg_mbps"])
            checked += 1
        # The metrics pushed.
        if gw:
            v = gw.get(("kiln_disk_passes_made", l))
            if v != t["passes_made"]:
                differ("%s passes, the metrics" % l, v, t["passes_made"])
            for fam, p in (("kiln_disk_write_megabytes_per_second",
                            ph["write"]),
                           ("kiln_disk_verify_megabytes_per_second", rd)):
                v = gw.get((fam, l))
                if p and (v is None or abs(v - p["avg_mbps"]) > 0.0015):
                    differ("%s %s, the metrics" % (l, fam), v,
                           p["avg_mbps"])
            for fam, key in (("kiln_disk_written_bytes", "bytes_written"),
                             ("kiln_disk_read_bytes", "bytes_read")):
                if gw.get((fam, l)) != t[key]:
                    differ("%s %s, the metrics" % (l, fam),
                           gw.get((fam, l)), t[key])
            checked += 1

    # A group of like disks said once: its figures are its disks'.
    by_label = dict((t["label"], t) for t in targets)
    for gname, cols in grows:
        members = group_names(gname)
        if not members or not all(m in by_label for m in members):
            differ("a group's names, summary.txt", gname)
            continue
        ts = [by_label[m] for m in members]
        for k, pn in ((0, "write"), (3, "verify")):
            ps = [read_phase(t, pn) or read_phase(t, "read" if pn ==
                                                  "verify" else pn)
                  for t in ts]
            ps = [p for p in ps if p]
            if not ps:
                continue
            same_rate("group %s %s avg (the mean of its disks')" %
                      (gname, pn), cols[k],
                      sum(p["avg_mbps"] for p in ps) / len(ps))
            mins = [p["min_mbps"] for p in ps if p["min_mbps"] is not None]
            maxs = [p["max_mbps"] for p in ps if p["max_mbps"] is not None]
            same_rate("group %s %s min" % (gname, pn), cols[k + 1],
                      min(mins) if mins else None)
            same_rate("group %s %s max" % (gname, pn), cols[k + 2],
                      max(maxs) if maxs else None)
        m = re.search(r"^%s: .* \(%d like disks\)\n  (.*)$" %
                      (re.escape(gname), len(ts)), summary, re.M)
        want = "%s, %s written, %s read each" % (
            passes_text(min(t["passes_made"] for t in ts),
                        max(t["passes_made"] for t in ts)),
            size_range([t["bytes_written"] for t in ts]),
            size_range([t["bytes_read"] for t in ts]))
        if not m or m.group(1) != want:
            differ("group %s's work, summary.txt" % gname,
                   m and m.group(1), want)
        checked += 1

    if gw:
        e = gw.get(("kiln_run_elapsed_seconds", None))
        if e is None or hms(e) != dur:
            differ("duration, the metrics", e, dur)
        if made and gw.get(("kiln_run_passes_made", None)) != min(made):
            differ("the run's passes (the fewest), the metrics",
                   gw.get(("kiln_run_passes_made", None)), min(made))

    # A controller's total is the sum of its disks'.
    for c in r.get("controllers") or []:
        mine = [t for t in targets if t.get("controller") == c["pci"]]
        for way in ("write", "read"):
            s = sum(((t.get("busiest_mbps") or {}).get(way) or 0)
                    for t in mine)
            v = (c.get("aggregate_mbps") or {}).get(way) or 0
            if abs(s - v) > 0.01 * len(mine) + 0.001:
                differ("controller %s %s total" % (c["pci"], way), v,
                       "its disks' sum %.3f" % s)
        m = re.search(r"^  %s .*: together (\d+) MB/s write, (\d+) MB/s "
                      r"read" % re.escape(c["pci"]), summary, re.M)
        if m:
            same_rate("controller %s write, summary.txt" % c["pci"],
                      m.group(1), c["aggregate_mbps"]["write"])
            same_rate("controller %s read, summary.txt" % c["pci"],
                      m.group(2), c["aggregate_mbps"]["read"])
        checked += 1

    # kiln fleet's page and file.
    if a.fleet:
        rows = list(csv.DictReader(open(os.path.join(a.fleet, "fleet.csv"),
                                        newline="")))
        mine = [x for x in rows if x.get("run_id") == r["run_id"]]
        if not mine:
            differ("fleet.csv", "no line of run %s" % r["run_id"])
        elif int(float(mine[0]["duration_s"])) != int(r["elapsed_seconds"]):
            differ("duration, fleet.csv", mine[0]["duration_s"],
                   r["elapsed_seconds"])
        fp = Rows()
        fp.feed(open(os.path.join(a.fleet, "fleet.html")).read())
        text = "".join(fp.text)
        if dur not in text:
            differ("duration, fleet.html", "no '%s'" % dur)
        if made:
            want = passes_text(min(made), max(made))
            if ("\n" + want + "\n") not in text and \
                    (want + "\n") not in text:
                differ("the run's passes, fleet.html", "no '%s'" % want)
            for t in targets:
                if t.get("state") == "not_started":
                    continue
                w = "%s: %s," % (t["label"], passes_text(t["passes_made"],
                                                          t["passes_made"]))
                if w not in text:
                    differ("%s passes, fleet.html" % t["label"],
                           "no '%s'" % w)
        checked += 1

    for b in bad:
        print("# " + b)
    print("# figures: %d outputs checked, %d differences" %
          (checked, len(bad)))
    return 1 if bad else 0


def passes_made(t):
    """A record of an older kiln: the runs of a pass's last phase that
    covered the region (its last run kept, when cut short, not made)."""
    last = {"write": "write", "read": "read"}.get(t.get("mode"), "verify")
    n = ((t.get("pass_totals") or {}).get(last) or {}).get("passes", 0)
    runs = [p for p in t.get("passes", []) if p["phase"] == last]
    if runs and not runs[-1]["complete"] and n:
        n -= 1
    return n


if __name__ == "__main__":
    sys.exit(main())
