/* SPDX-License-Identifier: MIT */
/*
 * Description: recorded series judged as a run judges them. Two real
 * burns of the same four loop devices, one with stress=memory,cpu
 * beside (tests/fixtures/series/README), are replayed sample by sample
 * through the monitor, the machine's shared dips and the judge: the
 * stress WARNs no disk "unstable" that the same disks without it did
 * not; the stressed series with every disk held up together for 3 s in
 * its middle (seconds in which none moved anything) WARNs none either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/dips.h"
#include "judge/figures.h"
#include "judge/judge.h"
#include "judge/monitor.h"

#define FIXTURES "tests/fixtures/series/"
#define MS 1000000ull
#define T0 (1000 * 1000 * MS)
#define DISKS 8

struct replay {
	int n;
	char names[DISKS][32];
	const char *name_of[DISKS];
	struct engine_counters c[DISKS];
	struct engine_snap snap[DISKS];
	struct monitor m;
};

static int phase_of(const char *s)
{
	int p;

	for (p = 0; p < PHASES; p++)
		if (!strcmp(engine_phase_name(p), s))
			return p;
	return -1;
}

static int disk_of(struct replay *rp, const char *name)
{
	int i;

	for (i = 0; i < rp->n; i++)
		if (!strcmp(rp->names[i], name))
			return i;
	if (rp->n == DISKS)
		tap_bail("more than %d disks", DISKS);
	snprintf(rp->names[rp->n], sizeof(rp->names[0]), "%s", name);
	return rp->n++;
}

/*
 * The rows of path as the monitor's samples, each sample's counters
 * given at its time; stall_ms > 0: from then every disk moved nothing
 * for 3 s, the rest coming after.
 */
static void replay(struct replay *rp, const char *path, uint64_t stall_ms)
{
	char line[256], name[64], phase[32];
	double t, last_t = -1;
	unsigned long long w, r;
	unsigned pass;
	uint64_t shift = 0;
	int i, p, started = 0;
	FILE *f = fopen(path, "r");

	memset(rp, 0, sizeof(*rp));
	if (!f || !fgets(line, sizeof(line), f))
		tap_bail("cannot read %s", path);
	/* First the names, so the monitor knows every disk. */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*[^,],%63[^,],", name) == 1)
			disk_of(rp, name);
	for (i = 0; i < rp->n; i++)
		rp->name_of[i] = rp->names[i];
	if (monitor_init(&rp->m, rp->name_of, rp->n, NULL, T0))
		tap_bail("monitor_init");
	rewind(f);
	if (!fgets(line, sizeof(line), f))
		tap_bail("cannot read %s", path);
	for (;;) {
		int more = fgets(line, sizeof(line), f) != NULL;

		if (more && sscanf(line, "%lf,%63[^,],%31[^,],%u,%llu,%llu",
				   &t, name, phase, &pass, &w, &r) != 6)
			tap_bail("bad row in %s: %s", path, line);
		/* A new time: the last one's counters are the sample. */
		if (started && (!more || t > last_t + 0.0015)) {
			uint64_t ms = (uint64_t)(last_t * 1000 + 0.5);

			if (stall_ms && ms >= stall_ms && !shift) {
				/* Three seconds in which none moved. */
				for (i = 0; i < 3; i++)
					monitor_sample(&rp->m, T0 + (stall_ms +
						1000 * (uint64_t)i) * MS,
						rp->c);
				shift = 3000;
			}
			monitor_sample(&rp->m, T0 + (ms + shift) * MS, rp->c);
		}
		if (!more)
			break;
		started = 1;
		last_t = t;
		i = disk_of(rp, name);
		p = phase_of(phase);
		if (p < 0 || i >= rp->n)
			tap_bail("bad row in %s: %s", path, line);
		rp->c[i].state = p == PHASE_END ? STATE_DONE : STATE_RUNNING;
		rp->c[i].phase = p;
		rp->c[i].pass = pass;
		rp->c[i].bytes_written += w;
		rp->c[i].bytes_read += r;
		rp->snap[i].phase_bytes[p] += w + r;
		/* A row is a second's bytes, give or take its sampling. */
		rp->snap[i].phase_ns[p] += 1000 * MS;
	}
	fclose(f);
	for (i = 0; i < rp->n; i++) {
		rp->snap[i].c = rp->c[i];
		rp->snap[i].c.state = STATE_DONE;
		rp->snap[i].plan.mode = ENGINE_WRITE_VERIFY;
	}
}

/* The disks judged "unstable", as their names joined by spaces. */
static const char *unstable(struct replay *rp)
{
	static char out[256];
	struct dips_disk dd[DISKS];
	struct dips found;
	struct judge j;
	int i, p;

	memset(dd, 0, sizeof(dd));
	for (i = 0; i < rp->n; i++) {
		dd[i].mt = &rp->m.mt[i];
		dd[i].ctrl = -1;
		for (p = 0; p < PHASES; p++)
			dd[i].avg[p] = figures_rate(&rp->snap[i], p);
	}
	dips_find(dd, rp->n, &found);
	out[0] = 0;
	for (i = 0; i < rp->n; i++) {
		int k, hit = 0;

		memset(&j, 0, sizeof(j));
		judge_target(&rp->snap[i], &rp->m.mt[i], &j);
		for (k = 0; k < j.nreasons; k++)
			hit |= !strncmp(j.reasons[k], "unstable ", 9);
		if (hit)
			snprintf(out + strlen(out), sizeof(out) - strlen(out),
				 "%s%s", out[0] ? " " : "", rp->names[i]);
	}
	return out;
}

static void test_stress(void)
{
	static struct replay plain, stress;
	char a[256], b[256];
	char *tok, *save = NULL;
	int extra = 0;

	replay(&plain, FIXTURES "plain.csv", 0);
	replay(&stress, FIXTURES "stress.csv", 0);
	snprintf(a, sizeof(a), "%s", unstable(&plain));
	snprintf(b, sizeof(b), "%s", unstable(&stress));
	for (tok = strtok_r(b, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strstr(a, tok))
			extra++;
	tap_ok(plain.n == 4 && stress.n == 4 && !extra,
	       "stress=memory,cpu beside WARNs no disk unstable that the "
	       "same disks without it did not (without: \"%s\", with: "
	       "\"%s\")", a, unstable(&stress));
	monitor_free(&stress.m);
	replay(&stress, FIXTURES "stress.csv", 20000);
	tap_ok(!strcmp(unstable(&stress), ""), "...held up together for 3 s "
	       "in its middle, none (\"%s\")", unstable(&stress));
	monitor_free(&plain.m);
	monitor_free(&stress.m);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_stress);
	return tap_done();
}
