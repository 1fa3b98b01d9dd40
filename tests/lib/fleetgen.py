#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Description: makes a lab's results tree for kiln fleet to read, from one
# real result.json (a run of kiln burn): N machines under
# OUT/kiln-results/<machine id>/<YYYYMMDDTHHMMSSZ>-<run id>/, each with one
# to three runs, disks of a few models at rates around each model's own
# (one machine in 40 with a slow controller: all its disks of one model
# at 60%), some FAIL and WARN verdicts, clocks not set, runs cut off
# (checkpoints only, with kiln's header and CRC32C), malformed result.json,
# partial uploads (samples.csv alone) and foreign files. Folder times
# follow the runs' times, as an upload leaves them. Each whole result.json
# has its index.json beside it, as kiln writes one (fleet_index.c), when
# the template's folder holds one and --no-index is not given: made from
# the template's index and what this script changed of each disk (rates
# of hours, so each is its phase's avg_mbps). Python 3 stdlib only.
#
#   fleetgen.py --template RESULT.json --out ROOT [--machines 1000]
#               [--disks 12] [--seed 1] [--no-index] [--shared-result]
#               [--first 0]
# --first N numbers the machines from N (a second call adds machines to
# a tree, with another --seed).
# --shared-result (for 100,000 machines, 44 GB of result.json otherwise):
# each run with an index gets the index of its own runs and disks, and a
# result.json that is a hard link to one file of the template's, which
# the index is made to match (kiln fleet checks result_bytes, then reads
# the index in its place); runs cut off, malformed and partial are
# written whole as before.
#   fleetgen.py --machine-id ID|- RUN_DIR...
# The second form gives run folders kiln made (result.json and the
# checkpoints) another machine id ("-": none, so kiln fleet goes by the
# machine's folder, as for runs before they carried one).
import argparse
import copy
import json
import os
import random
import time

MODELS = [
    # model, capacity, write MB/s, verify MB/s
    ("ST4000NM0035-1V4107", 4000787030016, 210.0, 215.0),
    ("WDC WUH721414ALE6L4", 14000519643136, 265.0, 270.0),
    ("SAMSUNG MZ7LH960HAJR-00005", 960197124096, 510.0, 540.0),
    ("INTEL SSDPE2KX040T8", 4000787030016, 2900.0, 3100.0),
]


def crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def checkpoint(seq, doc):
    """A checkpoint file as folder.c writes one."""
    body = b'"result": ' + doc + b"}\n"
    head = '{"kiln_checkpoint": 1, "seq": %d, "bytes": %d, "crc32c": "%08x",\n' % (
        seq, len(body), crc32c(body))
    return head.encode() + body


def utc(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def disk(tpl, rng, i, model, slow):
    name, size, w, v = model
    t = copy.deepcopy(tpl)
    label = "sd" + chr(ord("a") + i % 26) + ("" if i < 26 else str(i // 26))
    serial = "%s%08d" % (name[:2].upper(), rng.randrange(10**8))
    t.update(path="/dev/" + label, name=label, label=label, kind="block",
             identity="serial:" + serial, model=name, serial=serial,
             size=size)
    t["wwn"] = "0x5000c500%08x" % rng.randrange(1 << 32)
    t.pop("wwid", None)
    ph = t.setdefault("phases", {})
    for phase, base in (("write", w), ("verify", v)):
        rate = base * rng.uniform(0.95, 1.05) * slow
        # An hour: long enough to compare (the run compares none under 10 s).
        ph.setdefault(phase, {}).update(avg_mbps=round(rate, 3),
                                        seconds=3600.0)
    t["verdict"] = "PASS"
    t["reasons"] = ["no I/O errors, no bad units"]
    return t


def run_doc(tpl, rng, machine, start, trusted, ndisks, slow_model, fate):
    d = copy.deepcopy(tpl)
    tt = tpl["targets"][0]
    run_id = "%016x" % rng.randrange(1 << 64)
    d.update(run_id=run_id, clock_trusted=trusted, host=machine,
             machine_id=machine,
             started=utc(start), elapsed_seconds=round(rng.uniform(3600, 40000), 3))
    d["system"] = {"vendor": "Supermicro", "product": "SYS-6029P-%s" % machine[-3:],
                   "mac": "0c:c4:7a:%02x:%02x:%02x" % tuple(rng.randrange(256) for _ in range(3)),
                   "address": "10.1.%d.%d" % (rng.randrange(256), rng.randrange(1, 255))}
    d["ended"] = utc(start + int(d["elapsed_seconds"]))
    d["state"] = "complete"
    models = rng.sample(MODELS, 2)
    targets = []
    for i in range(ndisks):
        m = models[i % 2]
        targets.append(disk(tt, rng, i, m, 0.6 if m[0] == slow_model else 1.0))
    verdict = "PASS"
    if fate == "fail":
        t = rng.choice(targets)
        t["verdict"] = "FAIL"
        t["reasons"] = ["%d I/O errors, the first at byte %d (Input/output error)"
                        % (rng.randrange(1, 40), rng.randrange(1 << 40))]
        verdict = "FAIL"
    elif fate == "warn":
        t = rng.choice(targets)
        t["verdict"] = "WARN"
        t["reasons"] = ["SMART: 8 reallocated sectors from before the run"]
        verdict = "WARN"
    d["targets"] = targets
    d["verdict"] = verdict
    d["exit_code"] = 1 if verdict == "FAIL" else 0
    return run_id, d


def index_doc(tpl_index, d, nbytes):
    """The index kiln writes beside the result.json d of nbytes."""
    x = copy.deepcopy(tpl_index)
    proto = x["disks"][0]
    sys_ = d["system"]
    x.update(result_bytes=nbytes, machine_id=d["machine_id"],
             vendor=sys_["vendor"], product=sys_["product"], mac=sys_["mac"],
             address=sys_["address"], state=d["state"], verdict=d["verdict"],
             started=d["started"], clock_trusted=d["clock_trusted"],
             elapsed_seconds=d["elapsed_seconds"], run_id=d["run_id"])
    disks = []
    for t in d["targets"]:
        k = copy.deepcopy(proto)
        k.pop("reasons", None)
        k.update(label=t["label"], model=t["model"], serial=t["serial"],
                 wwn=t["wwn"], identity=t["identity"], size=t["size"],
                 file=t["kind"] == "file", verdict=t["verdict"],
                 write_mbps=t["phases"]["write"]["avg_mbps"],
                 read_mbps=t["phases"]["verify"]["avg_mbps"])
        if t["verdict"] in ("WARN", "FAIL"):
            k["reasons"] = "; ".join(t["reasons"])
        disks.append(k)
    x["disks"] = disks
    return x


def set_machine_id(machine, dirs):
    """Each run folder's documents with another machine id, or none."""
    def change(doc):
        doc.pop("machine_id", None)
        if machine != "-":
            doc["machine_id"] = machine
        return doc
    for d in dirs:
        p = os.path.join(d, "result.json")
        if os.path.exists(p):
            before = os.path.getsize(p)
            with open(p) as f:
                doc = change(json.load(f))
            text = json.dumps(doc, indent=2)
            with open(p, "w") as f:
                f.write(text)
            p = os.path.join(d, "index.json")
            x = None
            if os.path.exists(p):
                with open(p) as f:
                    x = json.load(f)
            # An index of a result.json changed since (by a test) is
            # not its own any more: gone, as kiln fleet would pass it over.
            if x and x.get("result_bytes") != before:
                os.remove(p)
            elif x:
                x.pop("machine_id", None)
                if machine != "-":
                    x["machine_id"] = machine
                x["result_bytes"] = len(text.encode())
                with open(p, "w") as f:
                    json.dump(x, f, indent=2)
        for name in ("checkpoint-a.json", "checkpoint-b.json"):
            p = os.path.join(d, name)
            if not os.path.exists(p):
                continue
            with open(p, "rb") as f:
                head, body = f.read().split(b"\n", 1)
            seq = int(head.split(b'"seq": ')[1].split(b",")[0])
            doc = change(json.loads(b"{" + body)["result"])
            with open(p, "wb") as f:
                f.write(checkpoint(seq, json.dumps(doc, indent=2).encode()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine-id")
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--template")
    ap.add_argument("--out")
    ap.add_argument("--machines", type=int, default=1000)
    ap.add_argument("--disks", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-index", action="store_true")
    ap.add_argument("--shared-result", action="store_true")
    ap.add_argument("--first", type=int, default=0)
    a = ap.parse_args()
    if a.machine_id:
        set_machine_id(a.machine_id, a.dirs)
        return
    if not a.template or not a.out:
        ap.error("--template and --out are needed")
    rng = random.Random(a.seed)
    with open(a.template) as f:
        tpl = json.load(f)
    if not tpl.get("targets"):
        raise SystemExit("fleetgen: the template has no targets")
    tpl_index = None
    p = os.path.join(os.path.dirname(a.template), "index.json")
    if not a.no_index and os.path.exists(p):
        with open(p) as f:
            tpl_index = json.load(f)
    root = os.path.join(a.out, "kiln-results")
    os.makedirs(root, exist_ok=True)
    shared = light = None
    if a.shared_result:
        if not tpl_index:
            raise SystemExit("fleetgen: --shared-result needs the "
                             "template's index.json")
        shared_text = json.dumps(tpl, indent=2).encode()
        shared_n = 0
        # What index_doc reads of a run, without the template's bulk.
        light = {"targets": [{"kind": tpl["targets"][0]["kind"]}]}
    # Foreign things a stick or a server holds beside the machines.
    os.makedirs(os.path.join(root, "System Volume Information"), exist_ok=True)
    with open(os.path.join(root, "README.txt"), "w") as f:
        f.write("not kiln's\n")
    now = int(time.time())
    counts = {}
    for n in range(a.first, a.first + a.machines):
        machine = "SRV%05d" % n if n % 5 else "%012x" % rng.randrange(1 << 48)
        slow = rng.choice(MODELS)[0] if n % 40 == 7 else None
        when = now - rng.randrange(3 * 86400, 30 * 86400)
        for r in range(rng.randrange(1, 4)):
            when += rng.randrange(3600, 86400)
            trusted = n % 50 != 3
            start = when if trusted else 946684800 + rng.randrange(86400)
            roll = rng.random()
            fate = ("fail" if roll < 0.05 else "warn" if roll < 0.15 else
                    "cut" if roll < 0.17 else "bad" if roll < 0.18 else
                    "partial" if roll < 0.19 else "pass")
            whole = not a.shared_result or fate in ("cut", "bad", "partial")
            run_id, d = run_doc(tpl if whole else light, rng, machine,
                                start, trusted, a.disks, slow, fate)
            folder = os.path.join(root, machine, time.strftime(
                "%Y%m%dT%H%M%SZ", time.gmtime(start)) + "-" + run_id)
            os.makedirs(folder, exist_ok=True)
            doc = json.dumps(d, indent=2).encode() if whole else None
            if not whole:
                # A file takes 65,000 links on ext4: a new one each 60,000.
                if not shared_n % 60000:
                    shared = os.path.join(a.out, "shared-result-%d-%d.json"
                                          % (a.first, shared_n))
                    with open(shared, "wb") as f:
                        f.write(shared_text)
                    os.utime(shared, (now - 60 * 86400, now - 60 * 86400))
                shared_n += 1
                os.link(shared, os.path.join(folder, "result.json"))
                with open(os.path.join(folder, "index.json"), "w") as f:
                    json.dump(index_doc(tpl_index, d,
                                        os.path.getsize(shared)), f,
                              indent=2)
            elif fate == "cut":
                d["state"] = "running"
                d["verdict"] = None
                doc = json.dumps(d, indent=2).encode()
                for seq, name in ((6, "checkpoint-a.json"), (7, "checkpoint-b.json")):
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(checkpoint(seq, doc))
            elif fate == "bad":
                with open(os.path.join(folder, "result.json"), "wb") as f:
                    f.write(doc[:len(doc) // 2])
            elif fate == "partial":
                pass
            else:
                with open(os.path.join(folder, "result.json"), "wb") as f:
                    f.write(doc)
                if tpl_index:
                    with open(os.path.join(folder, "index.json"), "w") as f:
                        json.dump(index_doc(tpl_index, d, len(doc)), f,
                                  indent=2)
            with open(os.path.join(folder, "samples.csv"), "w") as f:
                f.write("elapsed_s,target,phase,pass,write_bytes,read_bytes\n")
            for p in os.listdir(folder):
                # A shared result.json keeps one time, older than any
                # index (kiln fleet takes an index older than its
                # result.json for a stale one).
                if whole or p != "result.json":
                    os.utime(os.path.join(folder, p), (when, when))
            os.utime(folder, (when, when))
            counts[fate] = counts.get(fate, 0) + 1
    print("fleetgen: %d machines, %s" % (a.machines, ", ".join(
        "%d %s" % (v, k) for k, v in sorted(counts.items()))))


if __name__ == "__main__":
    main()
