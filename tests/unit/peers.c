/* SPDX-License-Identifier: MIT */
/*
 * Description: like disks compared, on records made by hand and judged
 * the way a run judges them (record_judge): of three like disks and one
 * at a tenth of their speed only that one WARNs, naming its rate, the
 * median and slow-warn; two like disks are "too few", said once; disks
 * of another controller, firmware or capacity are another group; a disk
 * slow alone (the solo phase) FAILs under slow-fail; a phase measured
 * under ten seconds is not compared; a disk that took far longer to
 * finish WARNs; 5 zones in a row slower than the like disks' there, or
 * one under half, WARN, single zones a little slow do not; a PCIe
 * link trained below its maximum WARNs; an I/O error read alone FAILs;
 * and what result.json says of all this is read back by kiln finish.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/record.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/signal.h"

#define MB 1000000ull
#define SEC 1000000000ull
#define GB_SIZE 4000787030016ull

static struct settings s;
static struct record r;
static struct monitor_target mts[8];

/* A disk of model "ST4000NM" on controller ctrl (-1: none) that read
 * at mbps for 60 s, done. */
static struct record_disk *disk(const char *name, const char *model,
				int ctrl, double mbps)
{
	struct record_disk *d = record_add(&r, name, SETTINGS_READ);
	int p;

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", name);
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", name);
	snprintf(d->t.id.model, sizeof(d->t.id.model), "%s", model);
	snprintf(d->link.firmware, sizeof(d->link.firmware), "SN04");
	d->t.kind = TARGET_BLOCK;
	d->t.size = GB_SIZE;
	d->ep.mode = ENGINE_READ;
	d->link.ctrl = ctrl;
	d->snap.c.state = STATE_DONE;
	d->snap.phase_bytes[PHASE_READ] = (uint64_t)(mbps * 60 * MB);
	d->snap.phase_ns[PHASE_READ] = 60 * SEC;
	d->snap.c.bytes_read = d->snap.phase_bytes[PHASE_READ];
	d->mt = &mts[r.n - 1];
	memset(d->mt, 0, sizeof(*d->mt));
	for (p = 0; p < PHASES; p++)
		d->mt->min[p] = -1;
	d->mt->min[PHASE_READ] = d->mt->max[PHASE_READ] = mbps;
	d->mt->seconds[PHASE_READ] = 60;
	return d;
}

/* Disk i read at mbps instead, every second alike. */
static void rate(int i, double mbps)
{
	struct record_disk *d = &r.disks[i];

	d->snap.phase_bytes[PHASE_READ] = (uint64_t)(mbps * 60 * MB);
	d->mt->min[PHASE_READ] = d->mt->max[PHASE_READ] = mbps;
}

/* Disk i read for secs seconds of its 60, at the same rate; flushes took
 * the rest, so it finished with the others. */
static void took(int i, double secs)
{
	struct record_disk *d = &r.disks[i];
	double mbps = figures_rate(&d->snap, PHASE_READ);

	d->snap.phase_ns[PHASE_READ] = (uint64_t)(secs * SEC);
	d->snap.phase_ns[PHASE_FLUSH] = (uint64_t)((60 - secs) * SEC);
	d->snap.phase_bytes[PHASE_READ] = (uint64_t)(mbps * secs * MB);
}

static void fresh(void)
{
	record_free(&r);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
}

static int ctrl(const char *pci, int width, int max_width)
{
	struct pci_controller c;

	memset(&c, 0, sizeof(c));
	snprintf(c.pci, sizeof(c.pci), "%s", pci);
	snprintf(c.kind, sizeof(c.kind), "SAS");
	snprintf(c.link_speed, sizeof(c.link_speed), "8.0 GT/s PCIe");
	snprintf(c.max_link_speed, sizeof(c.max_link_speed), "8.0 GT/s PCIe");
	c.link_width = width;
	c.max_link_width = max_width;
	c.link_mbps = 984.6 * width;
	c.degraded = width < max_width;
	return links_add_ctrl(&r.links, &c);
}

/* The verdicts as letters, "PPPW", after the final judging. */
static const char *verdicts(void)
{
	static char out[16];
	int i;

	signals_judge(&r, 1, 0);
	for (i = 0; i < r.n && i < 15; i++)
		out[i] = judge_name(r.disks[i].j.verdict)[0];
	out[i] = 0;
	return out;
}

/* Whether disk i has a reason holding text. */
static int says(int i, const char *text)
{
	int k;

	for (k = 0; k < r.disks[i].j.nreasons; k++)
		if (strstr(r.disks[i].j.reasons[k], text))
			return 1;
	return 0;
}

/* NVMe drives are each their own controller: like ones still compare. */
static void test_nvme(void)
{
	const char *pci[] = { "0000:01:00.0", "0000:02:00.0", "0000:03:00.0",
			      "0000:04:00.0" };
	const char *got;
	int i;

	fresh();
	for (i = 0; i < 4; i++) {
		struct record_disk *d = disk(pci[i] + 8, "PM9A3", ctrl(pci[i],
					     4, 4), i == 3 ? 500 : 3000);

		snprintf(d->link.transport, sizeof(d->link.transport), "nvme");
	}
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW") && r.peers.n == 1 &&
	       !strstr(r.peers.groups[0].name, " on "),
	       "four NVMe drives, each its own controller, are one group; "
	       "the slow one WARNs (%s, %s)", got, r.peers.groups[0].name);
	for (i = 0; i < 4; i++)
		r.disks[i].link.transport[0] = 0;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP") && r.peers.n == 4,
	       "...disks on four different HBAs are not (%s)", got);
}

static void test_slow_one(void)
{
	const char *got;
	int i;

	fresh();
	disk("sda", "ST4000NM", -1, 200);
	disk("sdb", "ST4000NM", -1, 210);
	disk("sdc", "ST4000NM", -1, 190);
	disk("sdd", "ST4000NM", -1, 20);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW") &&
	       says(3, "slow read: 20 MB/s, 10% of the 195 MB/s median of 4 "
		    "like disks (slow-warn 85%)"),
	       "three like disks and one at a tenth: only it WARNs, naming "
	       "its rate, the median and slow-warn (%s)", got);
	tap_ok(r.peers.n == 1 && r.peers.groups[0].n == 4 &&
	       r.disks[3].peer.group == 0 &&
	       r.disks[3].peer.phase == PHASE_READ &&
	       r.disks[3].peer.ratio > 0.102 && r.disks[3].peer.ratio < 0.103 &&
	       r.disks[3].peer.median == 195 && !r.peers.groups[0].note[0],
	       "its group of 4, the median and its ratio are kept for the "
	       "results");

	rate(3, 166);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "at 85%% of the median it is not slow "
	       "(%s)", got);
	rate(3, 165);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW"), "...at 84%% it is (%s)", got);
	s.slow_warn = 50;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "slow-warn 50 lets it be (%s)", got);

	s.slow_warn = 85;
	rate(3, 20);
	for (i = 0; i < 4; i++)
		r.disks[i].mt->seconds[PHASE_READ] = 0;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW") && says(3, "slow read: 20 MB/s, "),
	       "60 s of reading in passes shorter than a second (no whole "
	       "second in the phase) is compared (%s)", got);
	took(3, 9);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "a phase of 9 seconds is not "
	       "compared (%s)", got);
	took(0, 9);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP") &&
	       r.peers.groups[0].measured[PHASE_READ] == 2 &&
	       !r.peers.groups[0].median[PHASE_READ],
	       "...nor counted: two measured are too few (%s)", got);
}

static void test_groups(void)
{
	const char *got;
	int a, b;

	fresh();
	disk("sda", "ST4000NM", -1, 200);
	disk("sdb", "ST4000NM", -1, 20);
	got = verdicts();
	tap_ok(!strcmp(got, "PP") && r.peers.n == 1 &&
	       !strcmp(r.peers.groups[0].note, "ST4000NM, fw SN04, 3.6 TiB: "
		       "2 disks, too few to compare with peers (3 or more "
		       "needed)"),
	       "two like disks: not compared, said once for the group (%s)",
	       r.peers.n ? r.peers.groups[0].note : "no group");

	fresh();
	a = ctrl("0000:03:00.0", 8, 8);
	b = ctrl("0000:04:00.0", 8, 8);
	disk("sda", "ST4000NM", a, 200);
	disk("sdb", "ST4000NM", a, 200);
	disk("sdc", "ST4000NM", a, 200);
	disk("sdd", "ST4000NM", b, 20);
	disk("sde", "ST4000NM", b, 20);
	disk("sdf", "ST4000NM", b, 20);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPPPP") && r.peers.n == 2 &&
	       strstr(r.peers.groups[1].name, "on 0000:04:00.0") &&
	       r.peers.groups[1].median[PHASE_READ] == 20,
	       "disks behind another controller are another group: a busier "
	       "controller is not slow disks (%s)", got);

	fresh();
	disk("sda", "ST4000NM", -1, 200);
	disk("sdb", "ST4000NM", -1, 200);
	disk("sdc", "ST4000NM", -1, 200);
	disk("sdd", "ST4000NM", -1, 20);
	snprintf(r.disks[3].link.firmware, sizeof(r.disks[3].link.firmware),
		 "SN05");
	disk("sde", "ST4000NM", -1, 20)->t.size = GB_SIZE / 2;
	disk("sdf", "ST8000NM", -1, 20);
	got = verdicts();
	tap_ok(!strcmp(got, "PPPPPP") && r.peers.n == 4,
	       "another firmware, capacity or model is another group (%s, %d "
	       "groups)", got, r.peers.n);

	fresh();
	disk("/dev/loop0", "", -1, 200)->t.id.backing[0] = '/';
	disk("/dev/loop1", "", -1, 200)->t.id.backing[0] = '/';
	disk("/dev/loop2", "", -1, 200)->t.id.backing[0] = '/';
	disk("/dev/loop3", "", -1, 20)->t.id.backing[0] = '/';
	disk("/tmp/f.img", "", -1, 20)->t.kind = TARGET_FILE;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPWP") && r.peers.n == 2 &&
	       !strcmp(r.peers.groups[0].name, "loop devices, 3.6 TiB"),
	       "loop devices are grouped by what is known of them, files "
	       "apart (%s)", got);

	fresh();
	disk("sda", "ST4000NM", -1, 200);
	disk("sdb", "ST4000NM", -1, 200);
	disk("sdc", "ST4000NM", -1, 200);
	snprintf(disk("sdd", "ST4000NM", -1, 20)->failed, 240, "stalled");
	got = verdicts();
	tap_ok(!strcmp(got, "PPPF") && r.peers.groups[0].n == 3 &&
	       r.disks[3].peer.group == -1,
	       "a disk that FAILed before the burn is in no group (%s)", got);
	signals_judge(&r, 0, 0);
	tap_ok(r.peers.n == 1, "...and a judgement before the end leaves the "
	       "groups be");
}

static void test_solo(void)
{
	const char *got;
	int i;

	fresh();
	for (i = 0; i < 4; i++) {
		struct record_disk *d = disk("sd", "ST4000NM", -1, 200);

		d->solo.ran = 1;
		d->solo.seconds = 2;
		d->solo.mbps = i == 3 ? 100 : 250;
	}
	got = verdicts();
	tap_ok(!strcmp(got, "PPPF") &&
	       says(3, "slow alone: 100 MB/s read alone, 40% of the 250 MB/s "
		    "median of 4 like disks alone (slow-fail 50%)") &&
	       r.disks[3].peer.solo_ratio == 0.4 &&
	       r.peers.groups[0].solo_median == 250,
	       "alone at 40%% of its like disks' median alone: FAIL, naming "
	       "slow-fail (%s)", got);
	s.slow_fail = 30;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW") && says(3, "(slow-warn 85%)"),
	       "over slow-fail and under slow-warn alone: WARN (%s)", got);
	s.slow_fail = 0;
	r.disks[3].solo.mbps = 10;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW"), "slow-fail 0 never FAILs (%s)", got);
	s.slow_fail = 50;
	s.slow_warn = 30;
	r.disks[3].solo.mbps = 70;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPF") && says(3, "(slow-fail 30%)"),
	       "slow-fail follows a slow-warn set below it: at 28%%, FAIL "
	       "(%s)", got);
	r.disks[3].solo.mbps = 100;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "...at 40%% nothing, not a FAIL it "
	       "never WARNs for (%s)", got);
	s.slow_warn = 85;

	s.slow_fail = 50;
	r.disks[3].solo.seconds = 0.2;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "read alone a moment is not compared "
	       "(%s)", got);
	r.disks[3].solo.seconds = 2;
	r.disks[3].solo.io_errors = 2;
	r.disks[3].solo.error = 5;
	r.disks[3].solo.error_offset = 4096;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPF") &&
	       says(3, "2 I/O errors read alone before the burn, the first at "
		    "byte 4096: Input/output error"),
	       "an I/O error read alone FAILs, and the rate is not compared "
	       "(%s)", got);
}

static void test_finish(void)
{
	const char *got;
	int i;

	fresh();
	for (i = 0; i < 4; i++)
		disk("sd", "ST4000NM", -1, 200);
	/* The same rate while it moved, and a minute's flush on top. */
	r.disks[2].snap.phase_ns[PHASE_FLUSH] = 60 * SEC;
	got = verdicts();
	tap_ok(!strcmp(got, "PPWP") &&
	       says(2, "slow to finish: 120 s, where the median of 4 like "
		    "disks took 60 s (slow-warn 85%: over 71 s)"),
	       "a disk that took twice as long to finish WARNs (%s)", got);
	r.disks[2].snap.c.state = STATE_STOPPED;
	got = verdicts();
	tap_ok(got[2] == 'W' && !says(2, "slow to finish"),
	       "one that did not finish is not timed (%s)", got);
}

/*
 * Guarded and consented like disks: the guarded ones' time and read
 * phases are not like the others' (they read before writing and read on
 * past data), so only writes are compared.
 */
static void test_mixed_guard(void)
{
	const char *got;
	int i;

	fresh();
	for (i = 0; i < 4; i++) {
		struct record_disk *d = disk("sd", "ST4000NM", -1, 200);

		d->snap.phase_bytes[PHASE_WRITE] = (uint64_t)(200 * 60 * MB);
		d->snap.phase_ns[PHASE_WRITE] = 60 * SEC;
		d->ep.guard = i >= 2;
	}
	/* Disk 3 read on where its guard stopped: a tenth of the reading. */
	r.disks[3].snap.phase_bytes[PHASE_READ] = (uint64_t)(20 * 60 * MB);
	r.disks[3].snap.phase_ns[PHASE_FLUSH] = 60 * SEC;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP") && !says(3, "slow read") &&
	       !says(3, "slow to finish"),
	       "guarded and consented like disks: reads and time to finish "
	       "are not compared (%s)", got);
	r.disks[2].snap.phase_bytes[PHASE_WRITE] = (uint64_t)(20 * 60 * MB);
	got = verdicts();
	tap_ok(!strcmp(got, "PPWP") && says(2, "slow write: 20 MB/s"),
	       "...writes are: a guarded disk writing at a tenth WARNs (%s)",
	       got);
	for (i = 0; i < 4; i++)
		r.disks[i].ep.guard = 1;
	got = verdicts();
	tap_ok(got[3] == 'W' && says(3, "slow read"),
	       "all guarded: everything is compared again (%s)", got);
}

/* Four zones of 200 MB/s for 0.1 s each; disk 3's third at 20 MB/s. */
static struct engine_zones zones[4];

static void test_zones(void)
{
	const char *got;
	int i, z;

	fresh();
	for (i = 0; i < 4; i++) {
		disk("sd", "ST4000NM", -1, 200);
		zones[i].phase = PHASE_READ;
		zones[i].ended = 1;
		for (z = 0; z < 4; z++) {
			zones[i].bytes[z] = i == 3 && z == 2 ? 200000000 :
				2000000000;
			zones[i].ns[z] = 10 * SEC;
		}
		r.disks[i].snap.zones = &zones[i];
		r.disks[i].snap.nzones = 1;
	}
	got = verdicts();
	tap_ok(!strcmp(got, "PPPW") &&
	       says(3, "slow read in zone 3 of 100: 20 MB/s, 10% of the 200 "
		    "MB/s median of like disks there (one zone WARNs under "
		    "50%)"),
	       "a disk far slower in one zone only WARNs, naming the zone "
	       "(%s)", got);
	zones[3].bytes[2] = 1500000000;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "one zone at 75%% is noise (%s)", got);
	for (z = 10; z < 100; z++)
		for (i = 0; i < 4; i++) {
			/* Every disk's zones wobble by up to 12%. */
			zones[i].bytes[z] = (uint64_t)(2000000000 *
				(0.88 + 0.24 * (double)((z * 7 + i * 13) % 17)
				 / 16));
			zones[i].ns[z] = 10 * SEC;
		}
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "like disks whose zones wobble by 12%% "
	       "are not slow (%s)", got);
	for (z = 40; z < 46; z++)
		zones[1].bytes[z] = 1400000000;
	got = verdicts();
	tap_ok(!strcmp(got, "PWPP") &&
	       says(1, "slow read in zones 41-46 of 100: 140 MB/s, ") &&
	       says(1, "median of like disks there (slow-warn 85%, 5 zones "
		    "in a row or more)"),
	       "six zones in a row at 70%% WARN, naming the stretch (%s)",
	       got);
	zones[1].bytes[44] = 2000000000;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "...four and one are not (%s)", got);
	zones[3].ns[2] = 10000000;
	zones[3].bytes[2] = 200000;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"),
	       "a zone that took 10 ms is not held against it (%s)",
	       got);
	/*
	 * A pass of a fifth of a second (a small disk, a quick span): zones
	 * of 2 ms, and a machine that stalled 60 ms in one of them.
	 */
	for (i = 0; i < 4; i++)
		for (z = 0; z < 100; z++) {
			zones[i].bytes[z] = 400000;
			zones[i].ns[z] = 2000000;
		}
	zones[2].ns[7] = 62000000;
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "a hiccup of 60 ms in a pass of 0.2 s "
	       "is not a slow zone: it cost under a second (%s)", got);
	zones[2].ns[7] = 1062000000;
	got = verdicts();
	tap_ok(!strcmp(got, "PPWP"), "...one that cost a second is (%s)",
	       got);
	/*
	 * The machine took 1.5 s of that pass (the monitor's samples came
	 * late: the process was frozen): the zone's second is the
	 * machine's, unless the stall was of another pass.
	 */
	for (i = 0; i < 4; i++)
		zones[i].pass = 1;
	r.disks[2].mt->runs[PHASE_READ][0] =
		(struct monitor_run){ 1, 0, 60000, 1.5f };
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "a zone's lost second the machine took "
	       "(its samples late) is not the disk's (%s)", got);
	r.disks[2].mt->runs[PHASE_READ][0].pass = 2;
	got = verdicts();
	tap_ok(!strcmp(got, "PPWP"), "...a stall in another pass forgives "
	       "nothing (%s)", got);
	/* A second at 0 MB/s most disks shared, within the pass: the same. */
	for (i = 0; i < 4; i++) {
		struct monitor_target *mt = r.disks[i].mt;

		mt->runs[PHASE_READ][0] =
			(struct monitor_run){ 1, 0, 60000, 0 };
		mt->busy = 1;
		mt->busy_to_ms = 60000;
		monitor_slow_add(mt, PHASE_READ, 30000, i == 2 || i < 2 ?
				 0 : 200);
	}
	got = verdicts();
	tap_ok(!strcmp(got, "PPPP"), "a second most disks dipped together "
	       "in the pass is not the disk's zone's either (%s)", got);
	r.disks[0].mt->nslow[PHASE_READ] = r.disks[1].mt->nslow[PHASE_READ] =
		0;
	got = verdicts();
	tap_ok(got[2] == 'W' && says(2, "slow read in zone 8 of 100"),
	       "...one it dipped alone is its own (%s)", got);
	for (i = 0; i < 4; i++)
		memset(r.disks[i].mt->runs, 0, sizeof(r.disks[i].mt->runs));
	for (i = 0; i < 4; i++)
		r.disks[i].snap.zones = NULL, r.disks[i].snap.nzones = 0;
}

static void test_links(void)
{
	const char *got;
	int a;

	fresh();
	a = ctrl("0000:03:00.0", 4, 8);
	disk("sda", "ST4000NM", a, 200);
	disk("sdb", "ST4000NM", -1, 200);
	snprintf(r.disks[0].link.kind, sizeof(r.disks[0].link.kind), "sas");
	signals_judge(&r, 0, 0);
	got = verdicts();
	tap_ok(!strcmp(got, "WP") &&
	       says(0, "its controller's PCIe link (0000:03:00.0) trained "
		    "below its maximum: PCIe 3.0 x4 of x8"),
	       "a controller's PCIe link below its maximum WARNs its disks, "
	       "at every look (%s)", got);
	snprintf(r.disks[0].link.kind, sizeof(r.disks[0].link.kind), "pcie");
	got = verdicts();
	tap_ok(says(0, "its PCIe link trained below its maximum: PCIe 3.0 x4 "
		    "of x8"), "...an NVMe drive's own link too");
}

/* What result.json says of it all comes back for kiln finish. */
static void test_round_trip(void)
{
	struct restored back;
	struct jsonread *doc = NULL;
	char err[200], *json;
	size_t len;
	int a, i, ok;

	fresh();
	s.slow_warn = 70;
	s.solo = 5;
	a = ctrl("0000:03:00.0", 8, 8);
	for (i = 0; i < 4; i++) {
		struct record_disk *d = disk("sd", "ST4000NM", a, 200);

		d->solo.ran = 1;
		d->solo.seconds = 5;
		d->solo.mbps = i == 3 ? 50 : 250;
		snprintf(d->link.kind, sizeof(d->link.kind), "sas");
		snprintf(d->link.rate, sizeof(d->link.rate), "12.0 Gbit");
		d->link.mbps = 1200;
		r.links.ctrls[a].ndisks++;
	}
	r.links.ctrls[a].read_mbps = 800;
	verdicts();
	json = result_json(&r, &len);
	if (!json || jsonread_parse(&doc, json, len, NULL, err, sizeof(err)))
		tap_bail("result.json does not parse: %s", err);
	ok = restore_record(jsonread_root(doc), &back, err, sizeof(err)) == 0;
	if (ok)
		signals_judge(&back.r, 1, 0);
	tap_ok(ok && back.r.links.n == 1 && back.r.n == 4 &&
	       back.s.slow_warn == 70 && back.s.solo == 5 &&
	       back.r.links.ctrls[0].read_mbps == 800 &&
	       back.r.links.ctrls[0].pci.link_width == 8 &&
	       back.r.disks[3].link.ctrl == 0 &&
	       back.r.disks[3].solo.mbps == 50 &&
	       !strcmp(back.r.disks[3].link.firmware, "SN04") &&
	       back.r.disks[3].j.verdict == JUDGE_FAIL &&
	       back.r.links.ctrls[0].solo_sum == 800 &&
	       back.r.peers.n == 1,
	       "result.json's controllers, links, solo rates and thresholds "
	       "come back, and judge the same (%s)", ok ? "read" : err);
	tap_ok(strstr(json, "\"limit\": \"the controller or an expander is "
		      "the limit: 800 MB/s read together, 100% of the 800 "
		      "MB/s its disks read alone") == NULL &&
	       strstr(json, "\"limit\": \"the drives are the limit: 800 MB/s "
		      "read together, 100% of the 800 MB/s its disks read "
		      "alone, under its PCIe 3.0 x8 link\""),
	       "each controller's limit is said in result.json");
	if (ok)
		restore_free(&back);
	jsonread_free(doc);
	free(json);

	/* A loop device read back has only its identity to say it is one. */
	fresh();
	for (i = 0; i < 3; i++) {
		struct record_disk *d = disk("/dev/loop", "", -1, 200);

		snprintf(d->t.id.backing, sizeof(d->t.id.backing), "/x%d", i);
		snprintf(d->t.id.identity, sizeof(d->t.id.identity),
			 "loop:/x%d", i);
	}
	verdicts();
	json = result_json(&r, &len);
	doc = NULL;
	if (!json || jsonread_parse(&doc, json, len, NULL, err, sizeof(err)))
		tap_bail("result.json does not parse: %s", err);
	ok = restore_record(jsonread_root(doc), &back, err, sizeof(err)) == 0;
	if (ok)
		signals_judge(&back.r, 1, 0);
	tap_ok(ok && back.r.peers.n == 1 &&
	       !strcmp(back.r.peers.groups[0].key, r.peers.groups[0].key) &&
	       !strncmp(r.peers.groups[0].key, "loop|", 5),
	       "loop devices read back are the same group of loop devices");
	if (ok)
		restore_free(&back);
	jsonread_free(doc);
	free(json);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_slow_one);
	TAP_RUN(test_nvme);
	TAP_RUN(test_groups);
	TAP_RUN(test_solo);
	TAP_RUN(test_finish);
	TAP_RUN(test_mixed_guard);
	TAP_RUN(test_zones);
	TAP_RUN(test_links);
	TAP_RUN(test_round_trip);
	record_free(&r);
	return tap_done();
}
