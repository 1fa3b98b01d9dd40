#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Description: makes run folders for kiln report to render, from one real
# result.json (a run of kiln burn on one disk): "sixty", a 90 s burn of 60
# like loop devices (loop0-59, 101-107 passes each, rates around the
# template's); and "soak", a 12 h soak of 12 disks of one model with SMART
# before and after (two disks' counters grew, one of them WARNs), its
# phases sampled for hours. Each folder holds result.json alone. Python 3
# stdlib only.
#
#   reportgen.py --template RESULT.json --out DIR [--seed 1]
import argparse
import copy
import json
import os
import random

HOUR = 3600


def phase(t, name, nbytes, seconds, whole, spread):
    """A phase of target t: nbytes in seconds, sampled whole seconds."""
    avg = nbytes / seconds / 1e6 if seconds else 0.0
    p = t["phases"][name]
    p.update(bytes=nbytes, seconds=round(seconds, 3),
             avg_mbps=round(avg, 3), whole_seconds=whole)
    if whole >= 3 and avg:
        p.update(min_mbps=round(avg * (1 - spread), 3),
                 max_mbps=round(avg * (1 + spread), 3))
    else:
        p.update(min_mbps=None, max_mbps=None)
    tot = t["pass_totals"][name]
    tot.update(bytes=nbytes, seconds=round(seconds, 3))


def target(template, i, name, size, passes, mbps, seconds, whole, rng):
    t = copy.deepcopy(template)
    t.update(path="/dev/" + name, name=name, label=name,
             identity="loop:/srv/lab/disk%02d.img" % i,
             identity_hash="%016x" % rng.getrandbits(64), size=size,
             region=[{"offset": 0, "length": size}],
             last_pass_written=passes, verified_pass=passes,
             last_pass_reached=size, last_pass_complete=True,
             region_writes=passes, state="done",
             stopped_because="the duration ran out in pass %d" % passes,
             verdict="PASS", reasons=["no I/O errors, no bad units"],
             kind="block", **{"class": "blank"},
             zones=None, latency=None, reread=None)
    moved = passes * size
    t["bytes_written"] = t["bytes_read"] = moved
    for name_ in ("write", "verify"):
        rate = mbps * rng.uniform(0.97, 1.03)
        phase(t, name_, moved, moved / rate / 1e6, whole, 0.2)
        t["pass_totals"][name_]["passes"] = passes
    t["pass_totals"]["flush"]["passes"] = passes
    t["passes"] = [p for p in t["passes"] if p["pass"] == 1]
    t["passes_folded"] = max(0, 3 * passes - len(t["passes"]))
    return t


def folder(doc, out, name):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(doc, f, indent=1)


def run_of(template, rng, seconds):
    doc = copy.deepcopy(template)
    doc["run_id"] = "%016x" % rng.getrandbits(64)
    doc["started"] = "2026-11-30T08:00:00Z"
    end = 8 * HOUR + seconds
    doc["ended"] = "2026-11-%02dT%02d:%02d:%02dZ" % (
        30 + end // (24 * HOUR), end // HOUR % 24, end // 60 % 60, end % 60)
    doc["elapsed_seconds"] = seconds + 0.4
    doc["settings"]["duration_seconds"] = seconds
    doc["state"], doc["verdict"], doc["exit_code"] = "complete", "PASS", 0
    doc["notes"], doc["controllers"] = [], []
    return doc


def peer_group(doc, size, n):
    key = "loop|||%d|" % size
    for t in doc["targets"]:
        t["peers"].update(group=key, group_size=n)
    doc["peer_groups"] = [{
        "group": key, "name": "loop devices, %d MiB" % (size >> 20),
        "disks": n, "median_mbps": {"write": None, "verify": None,
                                    "read": None},
        "solo_median_mbps": None, "finish_median_seconds": None,
        "note": "loop devices, %d MiB: %d disks, not compared: loop "
                "devices have no rate of their own" % (size >> 20, n)}]


def sixty(template, rng):
    doc = run_of(template, rng, 90)
    size = 128 << 20
    doc["targets"] = [
        target(template["targets"][0], i, "loop%d" % i, size,
               rng.randint(101, 107), 450.0, 40.0, 40, rng)
        for i in range(60)]
    peer_group(doc, size, 60)
    return doc


def smart(realloc, pending):
    return {"passed": True, "reallocated_sectors": realloc,
            "pending_sectors": pending, "offline_uncorrectable": 0,
            "crc_errors": 0, "media_errors": None, "critical_warning": None,
            "grown_defects": None}


def soak(template, rng):
    doc = run_of(template, rng, 12 * HOUR)
    size = 4 << 30
    doc["targets"] = []
    for i in range(12):
        t = target(template["targets"][0], i, "loop%d" % (20 + i), size,
                   rng.randint(2950, 3050), 600.0, 6 * HOUR, 5 * HOUR, rng)
        t["model"] = "KILN SOAK 4G"
        before, after = smart(0, 0), smart(0, 0)
        if i in (3, 7):
            after = smart(8 if i == 3 else 1, 2 if i == 3 else 0)
        t["smart"] = {"before": before, "after": after}
        if i == 3:
            t["verdict"] = "WARN"
            t["reasons"] = ["SMART reallocated sectors grew by 8 during "
                            "the run (0 to 8)"]
        doc["targets"].append(t)
    doc["verdict"] = "WARN"
    peer_group(doc, size, 12)
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--template", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.template) as f:
        template = json.load(f)
    folder(sixty(template, rng), a.out, "sixty")
    folder(soak(template, rng), a.out, "soak")


if __name__ == "__main__":
    main()
