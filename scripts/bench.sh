#!/bin/sh
# make bench: kiln against fio on the same four loop devices over files in
# /dev/shm, in one run, as ratios (this machine is noisy: only ratios taken
# in one run compare). Both with verification (CRC32C) and without.
# BENCH_SIZE (2G) per device, BENCH_BS (1M), BENCH_QD (8); the verified
# rate with the memory and CPU stress beside (BENCH_STRESS_MEMORY, 256M)
# against without. Then the
# guarded write against a consented one, on two loop devices of
# BENCH_GUARD_SIZE (1G) over files in BENCH_DISK_DIR (/var/tmp). Needs root.
# Then kiln fleet over a lab's folders (fleet-bench.sh), and kiln burn's
# memory and CPU a target at 60, 256 and 1,024 targets (scale-bench.sh).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kiln="$top/out/kiln"
size=${BENCH_SIZE:-2G}
bs=${BENCH_BS:-1M}
qd=${BENCH_QD:-8}
tmp=$(mktemp -d)

[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (loop devices)" >&2; exit 3; }

loops=""
cleanup () {
	for d in $loops; do
		losetup -d "$d" 2>/dev/null || true
	done
	rm -f /dev/shm/kiln-bench-*.img
	rm -rf "$tmp"
	[ -z "${gdir:-}" ] || rm -rf "$gdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# kiln burn keeps each run's folder under ./kiln-results: here, not the tree.
cd "$tmp"

set --
for i in 0 1 2 3; do
	img="/dev/shm/kiln-bench-$i.img"
	rm -f "$img"
	# Allocated up front: first-touch page allocation in tmpfs would be
	# measured otherwise.
	fallocate -l "$size" "$img"
	dev=$(losetup -f --show --direct-io=on "$img")
	loops="$loops $dev"
	set -- "$@" "$dev"
done

# measure NAME CMD...: runs CMD, keeps its wall, user and sys seconds.
measure () {
	name=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/$name.time" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || {
		echo "bench: $name failed:" >&2
		tail -5 "$tmp/$name.err" >&2
		exit 3
	}
}

fio_jobs () {
	for d in "$@"; do
		printf ' --name=%s --filename=%s' "$(basename "$d")" "$d"
	done
}

# fio saves a verify state file per job in the working folder unless told not to.
common="--verify_state_save=0 --ioengine=io_uring --direct=1 --bs=$bs --iodepth=$qd --group_reporting --output-format=json"
echo "bench: 4 loop devices of $size in /dev/shm, bs $bs, qd $qd, $(nproc) CPUs"
echo "bench: kiln $("$kiln" version | cut -d' ' -f2), crc32c by CPUID; fio $(fio --version)"

# A first write of a tmpfs file allocates its pages (fallocate does not
# make them ready), which would be charged to whoever comes first.
# shellcheck disable=SC2046
measure warmup fio $common --rw=write $(fio_jobs "$@")
measure kiln_wv "$kiln" burn --destroy-data --bs "$bs" --qd "$qd" --json "$@"
# The same burn without the confirming re-read after it: fio's work (a
# write and a verify) and no more, for CPU a verified GiB like for like.
measure kiln_burn "$kiln" burn --destroy-data --reread=0 --bs "$bs" \
	--qd "$qd" --json "$@"
# Everything on: the machine's signals sampled every second (smartctl,
# hwmon, EDAC, AER, the kernel's log) beside zones and request times
# (always on) and the confirming re-read after the burn.
measure kiln_all "$kiln" burn --destroy-data --bs "$bs" --qd "$qd" \
	--sensors=1 --json "$@"
# The memory and CPU stress beside the disks (stressapptest, below them in
# priority): the disks' verified rate with it against without.
measure kiln_stress "$kiln" burn --destroy-data --bs "$bs" --qd "$qd" \
	--stress memory,cpu --stress-memory "${BENCH_STRESS_MEMORY:-256M}" \
	--json "$@"
# shellcheck disable=SC2046
measure fio_wv fio $common --rw=write --verify=crc32c --do_verify=1 \
	--verify_fatal=1 $(fio_jobs "$@")
measure kiln_w "$kiln" burn --destroy-data --mode write --bs "$bs" --qd "$qd" --json "$@"
measure kiln_r "$kiln" burn --mode read --bs "$bs" --qd "$qd" --json "$@"
# shellcheck disable=SC2046
measure fio_w fio $common --rw=write $(fio_jobs "$@")
# shellcheck disable=SC2046
measure fio_r fio $common --rw=read $(fio_jobs "$@")

# The guarded write's cost: a first pass that reads each span before it
# writes it, against the same pass with consent, on two loop devices over
# files on the machine's disk (over /dev/shm a read costs nothing, so the
# ratio would say nothing). The files are new each time: blank, so the
# pass without consent is guarded.
gdir=$(mktemp -d "${BENCH_DISK_DIR:-/var/tmp}/kiln-bench.XXXXXX")
gsize=${BENCH_GUARD_SIZE:-1G}
guard_loops () {
	for d in $gloops; do
		losetup -d "$d" 2>/dev/null || true
	done
	gloops=""
	rm -f "$gdir"/*.img
	for i in 0 1; do
		fallocate -l "$gsize" "$gdir/$i.img"
		gloops="$gloops $(losetup -f --show --direct-io=on "$gdir/$i.img")"
	done
	loops="$loops $gloops"
}
gloops=""
guard_loops
# shellcheck disable=SC2086
measure kiln_guarded "$kiln" burn --mode write --bs "$bs" --qd "$qd" --json $gloops
guard_loops
# shellcheck disable=SC2086
measure kiln_consented "$kiln" burn --destroy-data --mode write --bs "$bs" --qd "$qd" --json $gloops
# A read pass of what that wrote: the guard's time is held to a write
# pass and a read pass of the same devices, measured apart.
# shellcheck disable=SC2086
measure kiln_readback "$kiln" burn --mode read --bs "$bs" --qd "$qd" --json $gloops
for d in $gloops; do
	losetup -d "$d" 2>/dev/null || true
done
rm -rf "$gdir"

python3 - "$tmp" "$size" <<'PY'
import json, sys
tmp = sys.argv[1]
GiB = 1 << 30

def cpu(name):
    wall, user, sys_ = (float(x) for x in open(f"{tmp}/{name}.time").read().split()[-3:])
    return wall, user + sys_

def kiln(name, phase):
    d = json.load(open(f"{tmp}/{name}.out"))
    b = sum(t["phases"][phase]["bytes"] for t in d["targets"])
    s = max(t["phases"][phase]["seconds"] for t in d["targets"])
    assert d["verdict"] == "PASS", f"{name}: {d['verdict']}"
    return b, s

def fio(name, rw):
    d = json.load(open(f"{tmp}/{name}.out"))
    j = d["jobs"][0][rw]
    return j["io_bytes"], j["runtime"] / 1000.0

rows = []
# kiln with verification
kw, kws = kiln("kiln_wv", "write")
kv, kvs = kiln("kiln_wv", "verify")
wall, c = cpu("kiln_wv")
rows.append(("kiln write+verify", kw / kws / GiB, kv / kvs / GiB, c / ((kw + kv) / GiB), (kw) / wall / GiB))
fw, fws = fio("fio_wv", "write")
fv, fvs = fio("fio_wv", "read")
wall, c = cpu("fio_wv")
rows.append(("fio  write+verify", fw / fws / GiB, fv / fvs / GiB, c / ((fw + fv) / GiB), fw / wall / GiB))
# without verification
kw2, kw2s = kiln("kiln_w", "write")
kr2, kr2s = kiln("kiln_r", "read")
w1, c1 = cpu("kiln_w")
w2, c2 = cpu("kiln_r")
rows.append(("kiln write, read", kw2 / kw2s / GiB, kr2 / kr2s / GiB, (c1 + c2) / ((kw2 + kr2) / GiB), kw2 / (w1 + w2) / GiB))
fw2, fw2s = fio("fio_w", "write")
fr2, fr2s = fio("fio_r", "read")
w3, c3 = cpu("fio_w")
w4, c4 = cpu("fio_r")
rows.append(("fio  write, read", fw2 / fw2s / GiB, fr2 / fr2s / GiB, (c3 + c4) / ((fw2 + fr2) / GiB), fw2 / (w3 + w4) / GiB))

print()
print(f"{'':20} {'write':>8} {'verify/':>8} {'CPU s':>8} {'whole':>8}")
print(f"{'':20} {'GiB/s':>8} {'read':>8} {'per GiB':>8} {'GiB/s':>8}")
for r in rows:
    print(f"{r[0]:20} {r[1]:8.2f} {r[2]:8.2f} {r[3]:8.3f} {r[4]:8.2f}")
k, f, ku, fu = rows
print()
print("whole: bytes of the devices over the wall time of writing and")
print("reading them back (with or without checking), the whole command.")
print()
bw, bws = kiln("kiln_burn", "write")
bv, bvs = kiln("kiln_burn", "verify")
_, bc = cpu("kiln_burn")
_, kc = cpu("kiln_wv")
print(f"kiln/fio CPU per GiB, verified:     "
      f"{bc / ((bw + bv) / GiB) / f[3]:5.2f}  (target <= 0.2: the burn "
      f"alone, reread=0, fio's work)")
print(f"  the same with the re-read:        {k[3] / f[3]:5.2f}  (kiln's "
      f"default: its slowest requests read again after the burn; "
      f"{kc - bc:.2f} s of CPU more than the run without, one run each)")
print(f"kiln/fio write+verify throughput:   {k[4] / f[4]:5.2f}  (target >= 1.5)")
print(f"kiln verified/unverified rate:      {k[4] / ku[4]:5.2f}  (target >= 0.75)")
print(f"fio  verified/unverified rate:      {f[4] / fu[4]:5.2f}")
aw, aws = kiln("kiln_all", "write")
av, avs = kiln("kiln_all", "verify")
print(f"kiln everything on / default rate:  "
      f"{((aw + av) / (aws + avs)) / ((kw + kv) / (kws + kvs)):5.2f}  "
      f"(aim >= 0.98: signals every 1 s)")
sw, sws = kiln("kiln_stress", "write")
sv, svs = kiln("kiln_stress", "verify")
st = json.load(open(f"{tmp}/kiln_stress.out")).get("stress", {})
print(f"kiln with stress / without, rate:   "
      f"{((sw + sv) / (sws + svs)) / ((kw + kv) / (kws + kvs)):5.2f}  "
      f"(aim >= 0.9: stressapptest {st.get('load')} "
      f"{st.get('memory_bytes', 0) >> 20} MiB, {st.get('verdict')})")
print(f"fio verify: write at {f[1] / fu[1]:.0%} of its unverified write, "
      f"verify at {f[2] / fu[2]:.0%} of its read")
gw, gc = cpu("kiln_guarded")
cw, cc = cpu("kiln_consented")
for name in ("kiln_guarded", "kiln_consented", "kiln_readback"):
    d = json.load(open(f"{tmp}/{name}.out"))
    assert d["verdict"] == "PASS", f"{name}: {d['verdict']}"
g = json.load(open(f"{tmp}/kiln_guarded.out"))
assert all(t["guard"]["checked"] == t["region"][0]["length"]
           for t in g["targets"]), "the guard did not read every byte"
print(f"guarded/consented first pass, time: {gw / cw:5.2f}  "
      f"(2 loop devices on the machine's disk; about 2 where reads and "
      f"writes share one disk)")
print(f"guarded/consented first pass, CPU:  {gc / cc:5.2f}  (target <= 2.2)")
rw, rc = cpu("kiln_readback")
print(f"guarded / (write pass + read pass): {gw / (cw + rw):5.2f}  "
      f"(target <= 1.05: the write {cw:.1f} s and the read {rw:.1f} s "
      f"measured apart)")
# A span that waited for the checked front is read again before its write.
gb = sum(t["phases"]["guard"]["bytes"] for t in g["targets"])
rb = sum(t["region"][0]["length"] for t in g["targets"])
print(f"guard reads / region (read again):  {gb / rb:5.2f}  "
      f"({(gb - rb) >> 20} MiB read again before their writes)")
PY

# The fleet page over a lab's worth of run folders.
sh "$top/scripts/fleet-bench.sh"

# kiln burn at 60, 256 and 1,024 targets: memory and CPU a target.
sh "$top/scripts/scale-bench.sh"
