#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Description: certs.py RUN_DIR: each certificate a run's result.json
# names under "end" (each disk's JSON and HTML, and cert-machine.html) is
# there and its SHA-256 is the one result.json gives, and no two disks'
# certificates share a name. Prints what differs; exit 1 when anything
# does. For the tests that read an end= run (lab.t, endpromise.t).
import hashlib
import json
import os
import sys


def main(run):
    end = json.load(open(os.path.join(run, "result.json")))["end"]
    bad = []

    def check(name, want):
        if not name or not want:
            bad.append(f"{name}: no certificate or digest")
            return
        path = os.path.join(run, name)
        got = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if got != want:
            bad.append(f"{name}: {got} not {want}")

    for e in end["disks"]:
        for k in ("json", "html"):
            check(e[f"certificate_{k}"], e[f"certificate_{k}_sha256"])
    check("cert-machine.html", end["certificate_machine_sha256"])
    names = [e["certificate_json"] for e in end["disks"]]
    if len(set(names)) != len(names):
        bad.append(f"certificates share a name: {names}")
    print("\n".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
