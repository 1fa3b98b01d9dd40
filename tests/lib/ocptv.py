#!/usr/bin/env python3
# ocptv.py SCHEMA_DIR FILE...: holds OCP Test & Validation output (JSON
# lines) to the spec's JSON schemas (draft 2020-12, their $refs resolved
# from SCHEMA_DIR, never the network) and to what the schemas cannot say:
# RFC 3339 timestamps, sequence numbers from 0 in order, the schema version
# first and the run's start second, every id used after it is declared,
# series counted right, nothing after an end, and the status/result pairs
# the spec allows. Prints FILE:LINE: what is wrong, and exits 1 on any.
# --running FILE: a run still going (no testRunEnd expected).
import glob
import json
import os
import re
import sys

from jsonschema import Draft202012Validator

STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?"
                   r"(Z|[+-]\d{2}:\d{2})$")
PAIRS = {("COMPLETE", "PASS"), ("COMPLETE", "FAIL"),
         ("SKIP", "NOT_APPLICABLE"), ("ERROR", "NOT_APPLICABLE")}


def validator(schema_dir):
    schemas = []
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.json"))):
        with open(path) as f:
            schemas.append(json.load(f))
    root = next(s for s in schemas if s["$id"].endswith("/output"))
    try:
        # jsonschema 4.18 and later resolve through referencing.
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(
                s, default_specification=DRAFT202012)) for s in schemas)
        return Draft202012Validator(root, registry=registry)
    except ImportError:
        # Debian 12's python3-jsonschema (4.10): a resolver with a store.
        from jsonschema import RefResolver
        resolver = RefResolver.from_schema(
            root, store={s["$id"]: s for s in schemas})
        return Draft202012Validator(root, resolver=resolver)


class Checker:
    def __init__(self, v, path, running):
        self.v, self.path, self.running = v, path, running
        self.errors = 0
        self.hardware, self.steps, self.ended_steps = set(), set(), set()
        self.series = {}        # id: elements seen, None once ended
        self.seq = 0
        self.lineno = 0
        self.run_end = None

    def bad(self, what):
        print("%s:%d: %s" % (self.path, self.lineno, what))
        self.errors += 1

    def stamp(self, t):
        if not isinstance(t, str) or not STAMP.match(t):
            self.bad("not an RFC 3339 date-time: %r" % (t,))

    def hw(self, obj):
        h = obj.get("hardwareInfoId")
        if h is not None and h not in self.hardware:
            self.bad("hardwareInfoId %r not in dutInfo" % h)

    def line(self, text):
        self.lineno += 1
        try:
            d = json.loads(text)
        except ValueError as e:
            self.bad("not JSON: %s" % e)
            return
        for e in self.v.iter_errors(d):
            self.bad("schema: %s at %s" % (e.message, list(e.absolute_path)))
        if self.run_end is not None:
            self.bad("a line after testRunEnd")
        if d.get("sequenceNumber") != self.seq:
            self.bad("sequenceNumber %r, expected %d" %
                     (d.get("sequenceNumber"), self.seq))
        self.seq += 1
        self.stamp(d.get("timestamp"))
        if (self.lineno == 1) != ("schemaVersion" in d):
            self.bad("the schema version must come first, once")
        run = d.get("testRunArtifact", {})
        if (self.lineno == 2) != ("testRunStart" in run):
            self.bad("testRunStart must come second, once")
        if "testRunStart" in run:
            for h in run["testRunStart"]["dutInfo"].get("hardwareInfos", []):
                if h["hardwareInfoId"] in self.hardware:
                    self.bad("hardwareInfoId %r twice" % h["hardwareInfoId"])
                self.hardware.add(h["hardwareInfoId"])
        if "testRunEnd" in run:
            self.run_end = run["testRunEnd"]
            pair = (self.run_end["status"], self.run_end["result"])
            if pair not in PAIRS:
                self.bad("status %s with result %s: not allowed" % pair)
            if self.steps != self.ended_steps:
                self.bad("steps never ended: %s" %
                         sorted(self.steps - self.ended_steps))
        if "testStepArtifact" in d:
            self.step(d["testStepArtifact"])

    def step(self, a):
        sid = a["testStepId"]
        if "testStepStart" in a:
            if sid in self.steps:
                self.bad("step %r started twice" % sid)
            self.steps.add(sid)
            return
        if sid not in self.steps:
            self.bad("step %r used before its start" % sid)
        if sid in self.ended_steps:
            self.bad("step %r used after its end" % sid)
        if "testStepEnd" in a:
            self.ended_steps.add(sid)
        for kind in ("measurement", "measurementSeriesStart", "diagnosis"):
            if kind in a:
                self.hw(a[kind])
        if "measurementSeriesStart" in a:
            m = a["measurementSeriesStart"]["measurementSeriesId"]
            if m in self.series:
                self.bad("series %r started twice" % m)
            self.series[m] = 0
        if "measurementSeriesElement" in a:
            e = a["measurementSeriesElement"]
            m = e["measurementSeriesId"]
            self.stamp(e["timestamp"])
            if self.series.get(m) is None:
                self.bad("element of series %r not open" % m)
            elif e["index"] != self.series[m]:
                self.bad("series %r: index %d, expected %d" %
                         (m, e["index"], self.series[m]))
            else:
                self.series[m] += 1
        if "measurementSeriesEnd" in a:
            e = a["measurementSeriesEnd"]
            m = e["measurementSeriesId"]
            if self.series.get(m) is None:
                self.bad("end of series %r not open" % m)
            elif e["totalCount"] != self.series[m]:
                self.bad("series %r: totalCount %d, %d elements" %
                         (m, e["totalCount"], self.series[m]))
            self.series[m] = None

    def done(self):
        if self.lineno < 2:
            self.bad("no testRunStart")
        if self.run_end is None and not self.running:
            self.bad("no testRunEnd")
        if self.run_end is not None and self.running:
            self.bad("a run still going has no testRunEnd")
        open_series = [m for m, n in self.series.items() if n is not None]
        if open_series:
            self.bad("series never ended: %s" % open_series)


def main(argv):
    if len(argv) < 3:
        print("usage: ocptv.py SCHEMA_DIR [--running] FILE...",
              file=sys.stderr)
        return 2
    v = validator(argv[1])
    errors, running = 0, False
    for path in argv[2:]:
        if path == "--running":
            running = True
            continue
        c = Checker(v, path, running)
        running = False
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not text.endswith("\n"):
            c.bad("the last line has no newline")
        for line in text.split("\n")[:-1]:
            c.line(line)
        c.done()
        errors += c.errors
        print("%s: %d lines, %d problems" % (path, c.lineno, c.errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
