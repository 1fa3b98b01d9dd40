#!/usr/bin/env python3
"""truth.py TRUTH INVENTORY: does kiln's inventory.json match what the
guest saw (kiln-truth.txt, written by scripts/sysfs-capture.sh)?

Whole disks only: the kinds kiln does not test (loop, ram, zram, dm, md,
optical, ...) are left out of both. A disk's enclosure bay ("slot" lines)
must be as the truth says, and a disk without one must have no "slot".
Prints every difference; exit 1 if any.
"""
import json
import re
import sys

SKIP = ("loop", "ram", "zram", "dm-", "md", "sr", "fd", "nbd", "drbd",
        "bcache", "rbd", "zd", "nullb", "pmem", "mtdblock")


def main(truth_path, inv_path):
    blocks, controllers, slots = {}, {}, {}
    for line in open(truth_path):
        f = line.split()
        if not f:
            continue
        if f[0] == "block":
            kv = dict(x.split("=", 1) for x in f[2:] if "=" in x)
            blocks[f[1]] = kv
        elif f[0] == "slot" and len(f) >= 5:
            slots[f[1]] = {"enclosure": f[2], "slot": int(f[3]),
                           "name": " ".join(f[4:])}
        elif f[0] == "controller":
            kv = dict(x.split("=", 1) for x in f[4:] if "=" in x)
            controllers[f[1]] = {"class": f[2], "ids": f[3], **kv}
    inv = json.load(open(inv_path))
    bad = []
    want = {n: kv for n, kv in blocks.items()
            if not n.startswith(SKIP) and kv.get("hidden", "0") != "1"}
    got = {d["name"]: d for d in inv["disks"]}
    for n in sorted(set(want) - set(got)):
        bad.append(f"disk {n} missing")
    for n in sorted(set(got) - set(want)):
        bad.append(f"disk {n} listed but not in the guest")
    for n in sorted(set(want) & set(got)):
        w, d = want[n], got[n]
        if d["size"] != int(w["size"]) * 512:
            bad.append(f"disk {n}: size {d['size']}, guest {int(w['size']) * 512}")
        pci = w.get("pci", "")
        if pci in ("", "-", "none"):
            pci = None
        if d["controller"] != pci:
            bad.append(f"disk {n}: behind {d['controller']}, guest saw {pci}")
        if d.get("slot") != slots.get(n):
            bad.append(f"disk {n}: slot {d.get('slot')}, truth {slots.get(n)}")
    ctrls = {c["pci"]: c for c in inv["controllers"]}
    for a, c in controllers.items():
        if not c["class"].lower().startswith("0x01"):
            continue
        if a not in ctrls:
            bad.append(f"controller {a} missing")
            continue
        if c.get("driver", "-") not in ("-", "") and ctrls[a]["driver"] != c["driver"]:
            bad.append(f"controller {a}: driver {ctrls[a]['driver']}, guest {c['driver']}")
        n = sum(1 for d in want.values() if d.get("pci") == a)
        if ctrls[a]["disks"] != n:
            bad.append(f"controller {a}: {ctrls[a]['disks']} disks, guest {n}")
    for b in bad:
        print(b)
    print(f"{len(want)} disks, {len(controllers)} controllers compared")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
