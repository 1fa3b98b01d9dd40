/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk's zones judged and said (see zones.h): the shape
 * of each phase's zone rates (zones.c) as the reasons of its verdict (a
 * write cliff; a rotational disk's slow zones), as result.json's zones
 * and as summary.txt's lines, each place named by its device offset.
 */
#include <math.h>
#include <stdio.h>

#include "base/json.h"
#include "settings/settings.h"
#include "judge/zones.h"

static void shape_of(const struct engine_snap *s, const struct engine_zones *e,
		     uint64_t bs, int rotational, struct zones_shape *z)
{
	zones_phase(e, engine_zone_size(&s->plan), bs, rotational, z);
}

/* A share in percent, with a decimal when it is small: 0.4%, not 0%. */
static int prec(double share)
{
	return share < 0.1 ? 1 : 0;
}

/* The device offset where zone z starts. */
static unsigned long long zone_offset(const struct engine_snap *s, int z)
{
	uint64_t left;

	return (unsigned long long)engine_locate(
		&s->plan, (uint64_t)z * engine_zone_size(&s->plan), &left);
}

void zones_judge(const struct engine_snap *s, uint64_t bs, int rotational,
		 struct judge *j)
{
	/* The worst dip of each phase, and how many there were. */
	struct zones_dip worst[PHASES];
	uint32_t pass[PHASES];
	int dips[PHASES] = { 0 }, cliff = 0, p;
	unsigned e;

	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;
		int i, ph = ez->phase;

		if (!ez->ended || ph < 0 || ph >= PHASES)
			continue;
		shape_of(s, ez, bs, rotational, &z);
		for (i = 0; rotational == 1 && i < z.ndips &&
			    i < ZONES_MAX_DIPS; i++) {
			const struct zones_dip *d = &z.dips[i];

			if (!dips[ph]++ || d->mbps / d->around <
			    worst[ph].mbps / worst[ph].around) {
				worst[ph] = *d;
				pass[ph] = ez->pass;
			}
		}
		if (z.cliff < 0 || cliff ||
		    z.cliff_after >= ZONES_CLIFF_WARN * z.cliff_before)
			continue;
		cliff = 1;
		judge_reason(j, JUDGE_WARN, "write cliff at byte %llu (zone %d) "
			     "in pass %u: %.0f MB/s fell to %.0f MB/s for the "
			     "rest of the region, %.*f%% (under %.0f%% WARNs)",
			     zone_offset(s, z.cliff), z.cliff, ez->pass,
			     z.cliff_before, z.cliff_after,
			     prec(z.cliff_after / z.cliff_before),
			     100 * z.cliff_after / z.cliff_before,
			     100 * ZONES_CLIFF_WARN);
	}
	for (p = 0; p < PHASES; p++) {
		const struct zones_dip *d = &worst[p];

		if (!dips[p])
			continue;
		judge_reason(j, JUDGE_WARN, "slow zone in %s pass %u: zone %d "
			     "at byte %llu ran %.0f MB/s, %.*f%% of the %.0f "
			     "MB/s beside it (a rotational disk WARNs under "
			     "%.0f%%); %d such in all",
			     engine_phase_name(p), pass[p], d->worst,
			     zone_offset(s, d->worst), d->mbps,
			     prec(d->mbps / d->around),
			     100 * d->mbps / d->around, d->around,
			     100 * ZONES_DIP_SHARE, dips[p]);
	}
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case ZONES_FLAT: return "flat";
	case ZONES_SLOPE: return "slope";
	case ZONES_STEPS: return "steps";
	case ZONES_SHORT: return "short";
	}
	return "unknown";
}

static void shape_json(struct json *j, const struct engine_snap *s,
		       const struct zones_shape *z)
{
	int i;

	json_str(j, "shape", kind_name(z->kind));
	if (z->kind == ZONES_UNKNOWN || z->kind == ZONES_SHORT)
		return;
	json_num(j, "first_mbps", z->first_mbps);
	json_num(j, "last_mbps", z->last_mbps);
	json_array(j, "plateaus");
	for (i = 0; i < z->nplateaus; i++) {
		json_begin(j, NULL);
		json_u64(j, "from_zone", (uint64_t)z->plateaus[i].from);
		json_u64(j, "to_zone", (uint64_t)z->plateaus[i].to);
		json_u64(j, "offset", zone_offset(s, z->plateaus[i].from));
		json_num(j, "mbps", z->plateaus[i].mbps);
		json_end(j);
	}
	json_array_end(j);
	json_u64(j, "dip_count", (uint64_t)z->ndips);
	json_array(j, "dips");
	for (i = 0; i < z->ndips && i < ZONES_MAX_DIPS; i++) {
		const struct zones_dip *d = &z->dips[i];

		json_begin(j, NULL);
		json_u64(j, "from_zone", (uint64_t)d->from);
		json_u64(j, "to_zone", (uint64_t)d->to);
		json_u64(j, "zone", (uint64_t)d->worst);
		json_u64(j, "offset", zone_offset(s, d->worst));
		json_num(j, "mbps", d->mbps);
		json_num(j, "around_mbps", d->around);
		json_num(j, "share", d->mbps / d->around);
		json_num(j, "lost_seconds", d->lost_s);
		json_end(j);
	}
	json_array_end(j);
	if (z->cliff < 0) {
		json_null(j, "cliff");
		return;
	}
	json_begin(j, "cliff");
	json_u64(j, "zone", (uint64_t)z->cliff);
	json_u64(j, "offset", zone_offset(s, z->cliff));
	json_num(j, "before_mbps", z->cliff_before);
	json_num(j, "after_mbps", z->cliff_after);
	json_num(j, "share", z->cliff_after / z->cliff_before);
	json_end(j);
}

void zones_json(struct json *j, const struct engine_snap *s, uint64_t bs,
		int rotational)
{
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES], line[ENGINE_ZONES];
	unsigned e;
	int i;

	json_begin(j, "zones");
	json_u64(j, "count", ENGINE_ZONES);
	json_u64(j, "zone_bytes", engine_zone_size(&s->plan));
	json_array(j, "phases");
	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;

		zones_rates(ez, mbps, secs);
		shape_of(s, ez, bs, rotational, &z);
		json_begin(j, NULL);
		json_u64(j, "pass", ez->pass);
		json_str(j, "phase", engine_phase_name(ez->phase));
		json_bool(j, "ended", ez->ended);
		/* One line each: 32 phases of 100 zones a disk add up. */
		for (i = 0; i < ENGINE_ZONES; i++)
			line[i] = mbps[i] > 0 ? mbps[i] : NAN;
		json_num_list(j, "mbps", line, ENGINE_ZONES);
		shape_json(j, s, &z);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

static void plateaus_line(FILE *f, const struct zones_shape *z)
{
	int i;

	if (z->nplateaus == 1) {
		fprintf(f, ": steady at %.0f MB/s\n", z->plateaus[0].mbps);
		return;
	}
	fputs(": plateaus", f);
	for (i = 0; i < z->nplateaus; i++)
		fprintf(f, "%s %.0f%s (zones %d-%d)", i ? "," : "",
			z->plateaus[i].mbps, i ? "" : " MB/s",
			z->plateaus[i].from, z->plateaus[i].to);
	fputc('\n', f);
}

static void dips_line(FILE *f, const struct engine_snap *s,
		      const struct engine_zones *ez, const struct zones_shape *z)
{
	const struct zones_dip *d = &z->dips[0];
	int i;

	for (i = 1; i < z->ndips && i < ZONES_MAX_DIPS; i++)
		if (z->dips[i].mbps / z->dips[i].around < d->mbps / d->around)
			d = &z->dips[i];
	fprintf(f, "  zones, %s pass %u: %d dip%s, the worst zone %d (byte "
		"%llu): %.0f MB/s, %.*f%% of %.0f\n",
		engine_phase_name(ez->phase), ez->pass, z->ndips,
		z->ndips == 1 ? "" : "s", d->worst, zone_offset(s, d->worst),
		d->mbps, prec(d->mbps / d->around), 100 * d->mbps / d->around,
		d->around);
}

/* The busy seconds of a phase: its zones'. */
static double phase_seconds(const struct engine_zones *ez)
{
	double t = 0;
	int i;

	for (i = 0; i < ENGINE_ZONES; i++)
		t += (double)ez->ns[i] / 1e9;
	return t;
}

/* A phase's lines: its level or plateaus, its cliff, its dips. */
static void phase_lines(FILE *f, const struct engine_snap *s,
			const struct engine_zones *ez,
			const struct zones_shape *z)
{
	if (z->kind == ZONES_STEPS || z->kind == ZONES_FLAT) {
		fprintf(f, "  zones, %s pass %u",
			engine_phase_name(ez->phase), ez->pass);
		plateaus_line(f, z);
	}
	if (z->cliff >= 0)
		fprintf(f, "  zones, %s pass %u: cliff at zone %d "
			"(byte %llu): %.0f to %.0f MB/s, %.*f%%\n",
			engine_phase_name(ez->phase), ez->pass,
			z->cliff, zone_offset(s, z->cliff),
			z->cliff_before, z->cliff_after,
			prec(z->cliff_after / z->cliff_before),
			100 * z->cliff_after / z->cliff_before);
	if (z->ndips)
		dips_line(f, s, ez, z);
}

void zones_summary(FILE *f, const struct engine_snap *s, uint64_t bs,
		   int rotational)
{
	int told[PHASES] = { 0 }, ended = 0, judged = 0;
	double longest = 0;
	char zone[32], req[32];
	unsigned e;

	/* The first phase of each kind with something to say, in short. */
	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;

		if (!ez->ended || ez->phase < 0 || ez->phase >= PHASES)
			continue;
		ended++;
		if (phase_seconds(ez) > longest)
			longest = phase_seconds(ez);
		shape_of(s, ez, bs, rotational, &z);
		if (z.kind == ZONES_SHORT)
			continue;
		judged++;
		if (told[ez->phase] ||
		    (z.kind != ZONES_STEPS && z.kind != ZONES_FLAT && !z.ndips))
			continue;
		told[ez->phase] = 1;
		phase_lines(f, s, ez, &z);
	}
	if (ended && !judged)
		fprintf(f, "  too short to judge zones: %s zones, %s requests, "
			"%.*f s a phase (%d requests a zone and %d s needed)\n",
			settings_fmt_size(engine_zone_size(&s->plan), zone,
					  sizeof(zone)),
			settings_fmt_size(bs, req, sizeof(req)),
			longest < ZONES_MIN_PHASE_S ? 1 : 0, longest,
			ZONES_MIN_REQUESTS, ZONES_MIN_PHASE_S);
}
