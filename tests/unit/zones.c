/* SPDX-License-Identifier: MIT */
/*
 * Description: the shape of a phase's 100 zone rates, from synthetic
 * curves: a flat disk is one plateau; an HDD's smooth outer-to-inner fall
 * (to about half at the inner zones, with noise) is a slope with no
 * plateau, no dip and no WARN; steps like the seeds' 890, 1000, 650 MB/s
 * are three plateaus; an SSD's write cliff is found where it starts, how
 * far it falls is said, and only a fall under a tenth WARNs; a zone far
 * under both sides of it is a dip, a WARN on a rotational disk only,
 * naming its zone, byte offset, figure and threshold; noise is neither.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "base/json.h"
#include "judge/zones.h"

#define N ENGINE_ZONES
/* The burn's request: 1 MiB, as by default. */
#define BS 1048576ull

static double rate[N], secs[N];
static unsigned seed;

/* Noise of +-share, the same every run. */
static double noise(double share)
{
	seed = seed * 1103515245u + 12345u;
	return 1 + share * (2.0 * ((seed >> 8) & 0xffff) / 0xffff - 1);
}

/* Each zone 1 GB: its seconds follow from its rate. */
static void times(void)
{
	int i;

	for (i = 0; i < N; i++)
		secs[i] = rate[i] > 0 ? 1000 / rate[i] : 0;
}

static void flat(double mbps, double share)
{
	int i;

	seed = 1;
	for (i = 0; i < N; i++)
		rate[i] = mbps * noise(share);
	times();
}

/* An HDD: rate follows the radius, LBA the area: inner = outer * k. */
static void hdd(double outer, double k, double share)
{
	int i;

	seed = seed ? seed : 7;
	for (i = 0; i < N; i++) {
		double x = (i + 0.5) / N;

		rate[i] = outer * sqrt(1 - x * (1 - k * k)) * noise(share);
	}
	times();
}

static void steps(const int *until, const double *mbps, int n, double share)
{
	int i, s = 0;

	seed = 3;
	for (i = 0; i < N; i++) {
		while (s < n - 1 && i >= until[s])
			s++;
		rate[i] = mbps[s] * noise(share);
	}
	times();
}

static void show(const struct zones_shape *z)
{
	int i;

	tap_diag("kind %d, %d measured, %.0f..%.0f, %d plateaus, %d dips, "
		 "cliff %d", z->kind, z->measured, z->first_mbps, z->last_mbps,
		 z->nplateaus, z->ndips, z->cliff);
	for (i = 0; i < z->nplateaus; i++)
		tap_diag("  plateau %d-%d %.0f", z->plateaus[i].from,
			 z->plateaus[i].to, z->plateaus[i].mbps);
	for (i = 0; i < z->ndips && i < ZONES_MAX_DIPS; i++)
		tap_diag("  dip %d-%d worst %d %.0f of %.0f, %.2f s",
			 z->dips[i].from, z->dips[i].to, z->dips[i].worst,
			 z->dips[i].mbps, z->dips[i].around, z->dips[i].lost_s);
	if (z->cliff >= 0)
		tap_diag("  cliff %d: %.0f -> %.0f", z->cliff, z->cliff_before,
			 z->cliff_after);
}

static int near(double x, double want, double share)
{
	return fabs(x - want) <= share * want;
}

static struct zones_shape shape(int write)
{
	struct zones_shape z;

	zones_shape(rate, secs, N, write, &z);
	return z;
}

static int ok_shape(int cond, const struct zones_shape *z)
{
	if (!cond)
		show(z);
	return cond;
}

static void test_flat(void)
{
	struct zones_shape z;

	flat(500, 0);
	z = shape(1);
	tap_ok(ok_shape(z.kind == ZONES_FLAT && z.nplateaus == 1 &&
			z.plateaus[0].from == 0 && z.plateaus[0].to == 99 &&
			near(z.plateaus[0].mbps, 500, 0.001) && !z.ndips &&
			z.cliff < 0, &z),
	       "flat: one plateau over all 100 zones, 500 MB/s");
	flat(500, 0.08);
	z = shape(1);
	tap_ok(ok_shape(z.kind == ZONES_FLAT && z.nplateaus == 1 &&
			near(z.plateaus[0].mbps, 500, 0.02) && !z.ndips &&
			z.cliff < 0, &z),
	       "flat with +-8%% noise: still one plateau, no dip, no cliff");
	flat(500, 0);
	rate[3] = rate[50] = rate[77] = 0;
	z = shape(0);
	tap_ok(ok_shape(z.kind == ZONES_FLAT && z.measured == 97, &z),
	       "zones not measured are left out");
	memset(rate, 0, sizeof(rate));
	rate[0] = rate[1] = 100;
	z = shape(0);
	tap_ok(z.kind == ZONES_UNKNOWN && !z.nplateaus && z.measured == 2,
	       "two zones measured have no shape");
}

static void test_hdd(void)
{
	struct zones_shape z;
	unsigned run, bad = 0;

	seed = 0;
	hdd(250, 0.5, 0);
	z = shape(1);
	tap_ok(ok_shape(z.kind == ZONES_SLOPE && !z.nplateaus && !z.ndips &&
			z.cliff < 0 && near(z.first_mbps, 249, 0.02) &&
			near(z.last_mbps, 127, 0.03), &z),
	       "an HDD falling from 250 to 125 MB/s: a slope, no plateaus, "
	       "no dip, no cliff");
	seed = 0;
	hdd(270, 0.45, 0.04);
	z = shape(1);
	tap_ok(ok_shape(z.kind == ZONES_SLOPE && !z.nplateaus && !z.ndips &&
			z.cliff < 0, &z),
	       "...steeper (to 45%%) with +-4%% noise: the same");
	/* Many draws of noise: none may make plateaus or dips of a slope. */
	for (run = 1; run <= 200; run++) {
		seed = run;
		hdd(250, 0.45 + run % 4 * 0.05, 0.06);
		z = shape(1);
		if (z.kind != ZONES_SLOPE || z.ndips || z.cliff >= 0) {
			if (!bad++)
				show(&z);
		}
	}
	tap_ok(!bad, "200 HDDs, inner at 45-60%% of outer, +-6%% noise: all "
	       "slopes, no dip, no cliff (%u not)", bad);
	for (run = 1, bad = 0; run <= 200; run++) {
		int i;

		seed = run * 7919;
		for (i = 0; i < N; i++)
			rate[i] = 800 * noise(0.08);
		times();
		z = shape(1);
		if (z.kind != ZONES_FLAT || z.ndips || z.cliff >= 0) {
			if (!bad++)
				show(&z);
		}
	}
	tap_ok(!bad, "200 flat disks with +-8%% noise: all flat, no dip, no "
	       "cliff (%u not)", bad);
}

static void test_steps(void)
{
	static const int until[] = { 38, 60, 100 };
	static const double mbps[] = { 890, 1000, 650 };
	struct zones_shape z;

	steps(until, mbps, 3, 0.02);
	z = shape(0);
	tap_ok(ok_shape(z.kind == ZONES_STEPS && z.nplateaus == 3 &&
			z.plateaus[0].from == 0 && z.plateaus[0].to == 37 &&
			z.plateaus[1].from == 38 && z.plateaus[1].to == 59 &&
			z.plateaus[2].from == 60 && z.plateaus[2].to == 99 &&
			near(z.plateaus[0].mbps, 890, 0.02) &&
			near(z.plateaus[1].mbps, 1000, 0.02) &&
			near(z.plateaus[2].mbps, 650, 0.02) && z.cliff < 0,
			&z),
	       "the seeds' 890, 1000, 650 MB/s: three plateaus where they "
	       "are (a read has no cliff)");
	z = shape(1);
	tap_ok(ok_shape(z.nplateaus == 3 && z.cliff == 60 &&
			near(z.cliff_before, 1000, 0.02), &z),
	       "...written: the fall from 1000 to 650 for good is a cliff");
}

/*
 * A disk whose writes slow ten times over its second half, measured on a
 * busy machine (tests/host/zones.t, two CPU hogs): the fast half's zones
 * spike and sag (105 to 1317 MB/s). Squared errors let those few zones
 * outweigh the whole step, and the shape was called a slope from 588 to
 * -14 MB/s, so a write cliff like it would be missed.
 */
static void test_spikes(void)
{
	static const double busy[N] = {
		105, 190, 213, 310, 360, 440, 1074, 1317, 601, 605, 607, 597,
		428, 344, 510, 375, 331, 286, 283, 363, 311, 337, 322, 324, 322,
		322, 323, 325, 328, 328, 328, 329, 329, 327, 326, 325, 326, 325,
		325, 325, 324, 322, 322, 323, 322, 322, 323, 325, 326, 326,
		29.6, 29.5, 29.5, 29.4, 22.8, 15.3, 23.1, 27.4, 27.4, 19.0, 16.3,
		27.6, 27.9, 28.3, 17.7, 19.6, 26.3, 27.7, 25.5, 18.5, 23.1, 26.5,
		29.1, 23.1, 19.3, 25.7, 26.4, 28.5, 21.2, 21.3, 25.4, 27.2, 26.9,
		20.4, 23.1, 25.5, 28.1, 24.4, 20.8, 25.3, 26.2, 28.2, 22.3, 21.5,
		25.6, 27.0, 24.9, 15.1, 13.5, 11.0,
	};
	struct zones_shape z;
	int i, at50 = 0;

	memcpy(rate, busy, sizeof(rate));
	times();
	z = shape(1);
	for (i = 0; i < z.nplateaus; i++) {
		at50 += z.plateaus[i].from == 50;
		if (z.plateaus[i].from < 50 && z.plateaus[i].to >= 50)
			at50 = -100;
	}
	tap_ok(ok_shape(z.kind == ZONES_STEPS && at50 == 1 &&
			z.cliff >= 0 && z.cliff <= 50, &z),
	       "a tenfold fall at zone 50 with spikes before it: steps "
	       "that step there, and a write cliff");
}

static void test_cliff(void)
{
	static const int until[] = { 30, 100 };
	static const double mbps[] = { 2000, 600 };
	static const double deep[] = { 2000, 150 };
	struct zones_shape z;
	int i;

	steps(until, mbps, 2, 0.03);
	z = shape(1);
	tap_ok(ok_shape(z.kind == ZONES_STEPS && z.nplateaus == 2 &&
			z.cliff == 30 && near(z.cliff_before, 2000, 0.02) &&
			near(z.cliff_after, 600, 0.02) && !z.ndips, &z),
	       "an SSD's write cliff: at zone 30, 2000 to 600 MB/s; its "
	       "edge is no dip");
	steps(until, deep, 2, 0.03);
	z = shape(1);
	tap_ok(ok_shape(z.cliff == 30 && near(z.cliff_after, 150, 0.03), &z),
	       "...and one to 150 MB/s");
	steps(until, mbps, 2, 0.03);
	rate[70] = 2000;
	rate[71] = 1900;
	z = shape(1);
	tap_ok(ok_shape(z.cliff == 30, &z),
	       "two fast zones after it do not undo a cliff");
	{
		static const int u3[] = { 30, 60, 100 };
		static const double back[] = { 2000, 600, 1900 };

		steps(u3, back, 3, 0.02);
		z = shape(1);
		tap_ok(ok_shape(z.nplateaus == 3 && z.cliff < 0, &z),
		       "a write that comes back to its rate had no cliff");
	}
	/* The same fall in a small region written in a quarter second. */
	steps(until, deep, 2, 0.03);
	for (i = 0; i < N; i++)
		secs[i] /= 1e4;
	z = shape(1);
	tap_ok(ok_shape(z.nplateaus == 2 && z.cliff < 0, &z),
	       "a fall from a level held for under 1 s is no cliff (noise)");
	steps(until, deep, 2, 0.03);
	for (i = 30; i < N; i++)
		secs[i] = 0.01;
	z = shape(1);
	tap_ok(ok_shape(z.cliff < 0, &z),
	       "...nor one whose rest took under 1 s");
	tap_ok(zones_cliffs(PHASE_WRITE, 0) && zones_cliffs(PHASE_WRITE, -1) &&
	       !zones_cliffs(PHASE_WRITE, 1) && !zones_cliffs(PHASE_VERIFY, 0),
	       "only writes have cliffs, and not on a disk that spins");
}

/*
 * A write that fell to 2 MB/s at zone 50 of a 128 MiB lying disk, its
 * first half at 200 to 1200 MB/s under two CPU hogs (tests/host/zones.t
 * 7, as measured): the step is at zone 50, and the fast level lasted a
 * tenth of a second, so there is no cliff. A plateau of noisy zone 49 and
 * two slow zones, held over a second by the slow ones, once made a
 * "cliff at zone 52: 108 to 2 MB/s" and a false WARN.
 */
static void test_noisy_step(void)
{
	static const double fast[50] = {
	399.3, 1094.8, 1041.0, 1024.6, 1004.3, 430.7, 1090.3, 495.7, 421.5,
	1019.5, 1079.8, 226.4, 1159.6, 1055.8, 1185.6, 308.1, 356.8, 1225.9,
	1200.7, 688.4, 332.5, 377.4, 1185.1, 1202.1, 261.4, 279.1, 374.9,
	1130.5, 1133.7, 513.0, 377.0, 985.7, 1082.3, 1074.6, 370.4, 1139.3,
	1130.1, 252.7, 1117.6, 1131.5, 1131.7, 515.3, 553.5, 1071.8, 629.4,
	307.9, 1137.6, 1118.0, 983.2, 318.5,
	};
	struct zones_shape z;
	int i, at50 = 0;

	for (i = 0; i < N; i++) {
		rate[i] = i < 50 ? fast[i] : 2.1;
		/* 1.28 MiB zones: seconds = MB / MB/s */
		secs[i] = 134217728.0 / N / 1e6 / rate[i];
	}
	z = shape(1);
	for (i = 0; i < z.nplateaus; i++)
		at50 += z.plateaus[i].from == 50;
	tap_ok(ok_shape(z.kind == ZONES_STEPS && z.cliff < 0 && at50 == 1 &&
			z.plateaus[z.nplateaus - 1].mbps < 3, &z),
	       "a noisy fast half that falls at zone 50: the step is there, "
	       "no plateau straddles it, no cliff");
	/* Zone 49 written while a hog held the CPU for a tenth of a second. */
	rate[49] = 13;
	secs[49] = 134217728.0 / N / 1e6 / rate[49];
	z = shape(1);
	tap_ok(ok_shape(z.cliff < 0, &z),
	       "...nor when the zone before the step is 13 MB/s: a level held "
	       "for a second is held at that level");
}

static void test_dips(void)
{
	struct zones_shape z;

	flat(200, 0.03);
	rate[42] = 60;
	times();
	z = shape(0);
	tap_ok(ok_shape(z.kind == ZONES_FLAT && z.ndips == 1 &&
			z.dips[0].worst == 42 && z.dips[0].from == 42 &&
			near(z.dips[0].mbps, 60, 0.001) &&
			near(z.dips[0].around, 200, 0.05) &&
			near(z.dips[0].lost_s, 1000.0 / 60 - 1000.0 / 200, 0.06),
			&z),
	       "a zone at 30%% of the zones beside it is a dip; the shape "
	       "is read without it");
	rate[43] = 80;
	rate[0] = 40;
	times();
	z = shape(0);
	tap_ok(ok_shape(z.ndips == 2 && z.dips[0].from == 0 &&
			z.dips[1].from == 42 && z.dips[1].to == 43 &&
			z.dips[1].worst == 42, &z),
	       "two zones side by side are one dip; the first zone has one "
	       "side");
	flat(200, 0.03);
	rate[42] = 120;
	times();
	z = shape(0);
	tap_ok(ok_shape(!z.ndips, &z), "60%% of its neighbours is no dip "
	       "(under 50%% is)");
	flat(200, 0.03);
	rate[42] = 60;
	secs[42] = 0.01;
	z = shape(0);
	tap_ok(ok_shape(!z.ndips, &z), "a dip that cost under 50 ms is "
	       "noise, not a dip");
	/* A machine's hiccup: a zone of a small disk held 0.45 s. */
	secs[42] = 0.45;
	z = shape(0);
	tap_ok(ok_shape(!z.ndips, &z), "nor one that cost 0.3 s: under half "
	       "a second, a machine's hiccup is not the disk's surface");
	secs[42] = 0.8;
	z = shape(0);
	tap_ok(ok_shape(z.ndips == 1, &z), "...one that cost 0.56 s is a dip");
	hdd(250, 0.5, 0.03);
	rate[80] = 40;
	times();
	z = shape(0);
	tap_ok(ok_shape(z.kind == ZONES_SLOPE && z.ndips == 1 &&
			z.dips[0].worst == 80, &z),
	       "a dip on an HDD's slope is found, the slope stays a slope");
}

/* A snapshot of one phase whose zones have the rates above, 1 GB each. */
static void snapshot(struct engine_snap *s, struct engine_zones *e, int phase)
{
	int i;

	memset(s, 0, sizeof(*s));
	memset(e, 0, sizeof(*e));
	s->plan.ext[0].offset = 1048576;
	s->plan.ext[0].length = 100000000000ull;
	s->plan.region = s->plan.ext[0].length;
	s->plan.next = 1;
	e->pass = 1;
	e->phase = phase;
	e->ended = 1;
	for (i = 0; i < N; i++) {
		e->bytes[i] = rate[i] > 0 ? 1000000000ull : 0;
		e->ns[i] = (uint64_t)(secs[i] * 1e9);
	}
	s->zones = e;
	s->nzones = 1;
}

static void test_judge(void)
{
	static const int until[] = { 30, 100 };
	static const double mbps[] = { 2000, 600 };
	static const double deep[] = { 2000, 150 };
	struct engine_snap s;
	struct engine_zones e;
	struct judge j;

	flat(200, 0.03);
	rate[42] = 60;
	times();
	snapshot(&s, &e, PHASE_VERIFY);
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 1, &j);
	tap_ok(j.verdict == JUDGE_WARN && j.nreasons == 1 &&
	       tap_has_reason(&j, "slow zone in verify pass 1: zone 42 at byte "
		   "42001048576 ran 60 MB/s, 30% of the ") &&
	       tap_has_reason(&j, "(a rotational disk WARNs under 50%); 1 such in all"),
	       "a dip on a rotational disk WARNs: zone, byte offset, figure, "
	       "threshold");
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 0, &j);
	tap_ok(j.verdict == JUDGE_PASS && !j.nreasons,
	       "...on an SSD it is said, not judged");
	e.ended = 0;
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 1, &j);
	tap_ok(!j.nreasons, "a phase still under way is not judged");

	hdd(250, 0.5, 0.03);
	snapshot(&s, &e, PHASE_WRITE);
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 1, &j);
	tap_ok(!j.nreasons, "an HDD's slope does not WARN");

	steps(until, mbps, 2, 0.03);
	snapshot(&s, &e, PHASE_WRITE);
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 0, &j);
	tap_ok(!j.nreasons, "an SSD's cliff to 30%% is stated, not a WARN");
	steps(until, deep, 2, 0.03);
	snapshot(&s, &e, PHASE_WRITE);
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 0, &j);
	tap_ok(j.verdict == JUDGE_WARN &&
	       tap_has_reason(&j, "write cliff at byte 30001048576 (zone 30) in pass 1: ") &&
	       tap_has_reason(&j, "for the rest of the region, 7.5% (under 10% WARNs)"),
	       "a cliff under a tenth WARNs, with where, figure and "
	       "threshold");
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 1, &j);
	tap_ok(!j.nreasons, "...not on a rotational disk (a quick span's "
	       "pieces of an HDD fall like that)");
}

static void test_told(void)
{
	static const int until[] = { 30, 100 };
	static const double mbps[] = { 2000, 600 };
	struct engine_snap s;
	struct engine_zones e;
	struct json j;
	char *doc = NULL, *text = NULL;
	size_t len;
	FILE *f;

	steps(until, mbps, 2, 0.03);
	rate[80] = 100;
	times();
	snapshot(&s, &e, PHASE_WRITE);
	json_init(&j);
	json_begin(&j, NULL);
	zones_json(&j, &s, BS, 0);
	json_end(&j);
	doc = json_take(&j, &len);
	tap_ok(doc && strstr(doc, "\"zone_bytes\": 1000000000") &&
	       strstr(doc, "\"shape\": \"steps\"") &&
	       strstr(doc, "\"from_zone\": 30") &&
	       strstr(doc, "\"offset\": 30001048576") &&
	       strstr(doc, "\"dip_count\": 1") &&
	       strstr(doc, "\"cliff\": {"), "result.json: rates, plateaus, "
	       "dips and the cliff with their byte offsets");
	free(doc);
	f = open_memstream(&text, &len);
	zones_summary(f, &s, BS, 0);
	fclose(f);
	tap_ok(text && strstr(text, "  zones, write pass 1: plateaus ") &&
	       strstr(text, "  zones, write pass 1: cliff at zone 30 (byte "
		      "30001048576): ") &&
	       strstr(text, "  zones, write pass 1: 1 dip, the worst zone 80 "
		      "(byte 80001048576): 100 MB/s"),
	       "summary.txt: a short line for each finding");
	if (text && !strstr(text, "1 dip"))
		tap_diag("%s", text);
	free(text);
	flat(500, 0.02);
	snapshot(&s, &e, PHASE_WRITE);
	text = NULL;
	f = open_memstream(&text, &len);
	zones_summary(f, &s, BS, 0);
	fclose(f);
	tap_ok(text && !strcmp(text, "  zones, write pass 1: steady at 500 "
				"MB/s\n"),
	       "...and one plateau is steady at its rate");
	if (text && strcmp(text, "  zones, write pass 1: steady at 500 MB/s\n"))
		tap_diag("%s", text);
	free(text);
}

/* A write phase of zone_bytes zones that took phase_s in all. */
static void phase_of(struct engine_zones *e, uint64_t zone_bytes,
		     double phase_s, double share)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->pass = 1;
	e->phase = PHASE_WRITE;
	e->ended = 1;
	seed = 5;
	for (i = 0; i < N; i++) {
		e->bytes[i] = zone_bytes;
		e->ns[i] = (uint64_t)(phase_s / N * 1e9 * noise(share));
	}
}

static void test_short(void)
{
	static const int until[] = { 20, 45, 70, 100 };
	static const double mbps[] = { 900, 400, 1200, 300 };
	struct engine_zones e;
	struct engine_snap s;
	struct zones_shape z;
	struct judge j;
	struct json js;
	char *text = NULL, *doc;
	size_t len;
	FILE *f;

	/* 64 MiB: 640 KiB zones, each less than one 1 MiB request. */
	phase_of(&e, 655360, 60, 0.5);
	tap_ok(zones_short(&e, 655360, BS),
	       "a zone smaller than a request is too short to judge");
	phase_of(&e, 3 * BS, 60, 0);
	tap_ok(zones_short(&e, 3 * BS, BS) && !zones_short(&e, 4 * BS, BS),
	       "3 requests a zone are too few, 4 enough");
	phase_of(&e, 64 * BS, 9.9, 0);
	tap_ok(zones_short(&e, 64 * BS, BS),
	       "a phase of 9.9 s is too short, whatever its zones");
	phase_of(&e, 64 * BS, 10.5, 0);
	tap_ok(!zones_short(&e, 64 * BS, BS) && zones_short(&e, 64 * BS, 0),
	       "10 s and 64 requests a zone are enough (an unknown bs is not)");

	/* Steps a RAM-backed loop device shows in a second: no plateaus. */
	steps(until, mbps, 4, 0.03);
	snapshot(&s, &e, PHASE_WRITE);
	zones_phase(&e, 655360, BS, 0, &z);
	tap_ok(z.kind == ZONES_SHORT && !z.nplateaus && !z.ndips &&
	       z.cliff < 0 && z.measured == N,
	       "a short phase has no plateaus, dips or cliff");
	zones_phase(&e, 1000000000ull, BS, 0, &z);
	tap_ok(z.kind == ZONES_STEPS && z.nplateaus == 4,
	       "the same rates, long enough: four plateaus");

	/* The whole of a lab disk: 64 MiB regions, each phase a second. */
	s.plan.ext[0].length = s.plan.region = 64ull << 20;
	for (int i = 0; i < N; i++) {
		e.bytes[i] = 655360;
		e.ns[i] = 10000000;
	}
	e.bytes[42] = 655360;
	e.ns[42] = 900000000;
	memset(&j, 0, sizeof(j));
	zones_judge(&s, BS, 1, &j);
	tap_ok(!j.nreasons, "a short phase is not judged (its slow zone "
	       "would WARN on a rotational disk)");
	f = open_memstream(&text, &len);
	zones_summary(f, &s, BS, 0);
	fclose(f);
	tap_ok(text && !strcmp(text, "  too short to judge zones: 655.4 KiB "
			       "zones, 1 MiB requests, 1.9 s a phase (4 requests "
			       "a zone and 10 s needed)\n"),
	       "summary.txt says once that its zones were too short");
	tap_diag("%s", text ? text : "");
	free(text);
	json_init(&js);
	json_begin(&js, NULL);
	zones_json(&js, &s, BS, 0);
	json_end(&js);
	doc = json_take(&js, &len);
	tap_ok(doc && strstr(doc, "\"shape\": \"short\"") &&
	       !strstr(doc, "plateaus"), "result.json: its shape is short");
	free(doc);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_flat);
	TAP_RUN(test_hdd);
	TAP_RUN(test_steps);
	TAP_RUN(test_spikes);
	TAP_RUN(test_cliff);
	TAP_RUN(test_noisy_step);
	TAP_RUN(test_dips);
	TAP_RUN(test_judge);
	TAP_RUN(test_told);
	TAP_RUN(test_short);
	return tap_done();
}
