/* SPDX-License-Identifier: MIT */
/*
 * Description: like disks compared (see peers.h), as the engineers in the
 * seeds compared them by eye: a disk slower than its like disks beside it
 * WARNs; one slower alone, where nothing else shares its path, FAILs.
 * Also what a disk's way up holds against it: a PCIe link trained below
 * its maximum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/peers.h"
#include "judge/record.h"
#include "base/timing.h"
#include "judge/zones.h"

/* A disk read alone for less than this has no rate alone to compare. */
#define PEERS_MIN_SOLO_S 0.5

static const int compared[] = { PHASE_WRITE, PHASE_VERIFY, PHASE_READ };
#define NCOMPARED ((int)(sizeof(compared) / sizeof(compared[0])))

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values (sorted in place); 0 for none. */
static double median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *kind_of(const struct record_disk *d)
{
	if (d->t.kind == TARGET_FILE)
		return "file";
	/* Read back from a document, a loop device has only its identity. */
	return d->t.id.backing[0] || !strncmp(d->t.id.identity, "loop:", 5) ?
	       "loop" : "disk";
}

/*
 * The controller a disk shares with others, for grouping: none for an
 * NVMe or virtio-blk drive, which is its own PCI function (like drives
 * each have their own, so grouping by it would leave each alone).
 */
static const char *ctrl_of(const struct record *r, const struct record_disk *d)
{
	int c = d->link.ctrl;

	if (!strcmp(d->link.transport, "nvme") ||
	    !strcmp(d->link.transport, "virtio"))
		return "";
	return c >= 0 && c < r->links.n ? r->links.ctrls[c].pci.pci : "";
}

static void group_key(const struct record *r, const struct record_disk *d,
		      char *key, size_t len)
{
	snprintf(key, len, "%s|%s|%s|%llu|%s", kind_of(d), d->t.id.model,
		 d->link.firmware, (unsigned long long)d->t.size,
		 ctrl_of(r, d));
}

int peers_like(const struct record *r, const struct record_disk *a,
	       const struct record_disk *b)
{
	char ka[sizeof(r->peers.groups[0].key)], kb[sizeof(ka)];

	group_key(r, a, ka, sizeof(ka));
	group_key(r, b, kb, sizeof(kb));
	return !strcmp(ka, kb);
}

/* "ST4000NM0035, fw SN04, 3.6 TiB, on 0000:03:00.0", "loop devices, 64 MiB" */
static void group_name(const struct record *r, const struct record_disk *d,
		       char *name, size_t len)
{
	const char *kind = kind_of(d), *ctrl = ctrl_of(r, d);
	char size[32];
	size_t used;

	settings_fmt_size(d->t.size, size, sizeof(size));
	if (strcmp(kind, "disk"))
		used = (size_t)snprintf(name, len, "%s, %s",
					!strcmp(kind, "loop") ? "loop devices" :
					"files", size);
	else
		used = (size_t)snprintf(name, len, "%s%s%s, %s",
					d->t.id.model[0] ? d->t.id.model :
					"disks without a model",
					d->link.firmware[0] ? ", fw " : "",
					d->link.firmware, size);
	if (ctrl[0] && used < len)
		snprintf(name + used, len - used, ", on %s", ctrl);
}

/* The group of each disk, found or made: 0, or -1 when out of memory. */
static int make_groups(struct record *r)
{
	struct peers *p = &r->peers;
	char key[sizeof(p->groups[0].key)];
	int i, g;

	p->groups = calloc((size_t)r->n + 1, sizeof(*p->groups));
	if (!p->groups)
		return -1;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		d->peer.group = -1;
		if (d->failed[0])
			continue;
		group_key(r, d, key, sizeof(key));
		for (g = 0; g < p->n && strcmp(p->groups[g].key, key); g++)
			;
		if (g == p->n) {
			snprintf(p->groups[g].key, sizeof(key), "%s", key);
			group_name(r, d, p->groups[g].name,
				   sizeof(p->groups[g].name));
			p->n++;
		}
		p->groups[g].n++;
		d->peer.group = g;
	}
	return 0;
}

/*
 * Its time in the phase, not the monitor's whole seconds in it: small or
 * fast disks alternate write and verify passes faster than a second, and
 * ten minutes of them may hold no whole second of either.
 */
static int measured(const struct record_disk *d, int phase)
{
	return figures_rate(&d->snap, phase) > 0 &&
	       timing_secs(d->snap.phase_ns[phase]) >= PEERS_MIN_SECONDS;
}

/* Seconds a disk spent on its work: every phase of every pass. */
static double busy(const struct record_disk *d)
{
	uint64_t ns = 0;
	int p;

	for (p = PHASE_WRITE; p <= PHASE_READ; p++)
		ns += d->snap.phase_ns[p];
	return timing_secs(ns);
}

static int solo_measured(const struct record_disk *d)
{
	return d->solo.ran && d->solo.mbps > 0 && !d->solo.io_errors &&
	       d->solo.seconds >= PEERS_MIN_SOLO_S;
}

/* Keeps the disk's lowest ratio to its group's median, for the results. */
static void keep_ratio(struct record_disk *d, int phase, double mine,
		       double med)
{
	if (med <= 0 || (d->peer.phase >= 0 && mine / med >= d->peer.ratio))
		return;
	d->peer.phase = phase;
	d->peer.mbps = mine;
	d->peer.median = med;
	d->peer.ratio = mine / med;
}

/*
 * The rates of d's zones in the latest ended phase of that kind, and the
 * busy seconds of each, and the seconds the machine took from that run
 * (monitor_stalled()); 0: the engine kept none.
 */
static int zone_rates(const struct record_disk *d, int phase, double *mbps,
		      double *secs, double *stalled)
{
	const struct engine_snap *p = &d->snap;
	unsigned k;

	for (k = p->nzones; k-- > 0;)
		if (p->zones[k].phase == phase && p->zones[k].ended) {
			zones_rates(&p->zones[k], mbps, secs);
			*stalled = d->mt ? monitor_stalled(d->mt, phase,
					   p->zones[k].pass,
					   figures_rate(p, phase)) : 0;
			return 1;
		}
	return 0;
}

/* A stretch of a disk's zones against the like disks' medians there. */
struct stretch {
	int from, n;		/* zones; n 0: none */
	double mbps, median;	/* sums over the stretch */
	double lost;		/* seconds it cost against the median */
};

static double stretch_ratio(const struct stretch *t)
{
	return t->mbps / t->median;
}

static void say_stretch(struct record *r, struct record_disk *d, int phase,
			const struct stretch *t)
{
	char where[40], rule[80];

	snprintf(where, sizeof(where), t->n == 1 ? "zone %d" : "zones %d-%d",
		 t->from + 1, t->from + t->n);
	if (t->n >= PEERS_ZONE_RUN)
		snprintf(rule, sizeof(rule), "slow-warn %u%%, %d zones in a "
			 "row or more", r->s->slow_warn, PEERS_ZONE_RUN);
	else
		snprintf(rule, sizeof(rule), "one zone WARNs under %.0f%%",
			 100 * PEERS_ZONE_ONE);
	judge_reason(&d->j, JUDGE_WARN, "slow %s in %s of %d: %.0f MB/s, "
		     "%.0f%% of the %.0f MB/s median of like disks there (%s)",
		     engine_phase_name(phase), where, ENGINE_ZONES,
		     t->mbps / t->n, 100 * stretch_ratio(t), t->median / t->n,
		     rule);
}

/*
 * Zone by zone, against the like disks' median in each zone: a disk WARNs
 * for PEERS_ZONE_RUN zones or more in a row under slow-warn (a weak head,
 * a bad stretch of flash), or for one zone under PEERS_ZONE_ONE of it;
 * the noise of single zones a little slow is neither. Only zones the disk
 * spent ZONES_DIP_MIN_S or more on count, so a zone that took a few
 * milliseconds is not held against it, and only a stretch that cost it
 * PEERS_ZONE_LOST_S or more against the median: in a pass of a fifth of
 * a second (a small disk, a quick span) a machine's hiccup of 60 ms
 * makes one zone thirty times slower, and that is not the disk. Nor are
 * the seconds the machine took from the run (dips.h): they are left out
 * of what a stretch cost.
 */
static void compare_zones(struct record *r, int g, int phase, double *v,
			  const int *slow)
{
	double share = r->s->slow_warn / 100.0;
	double (*rate)[ENGINE_ZONES], (*secs)[ENGINE_ZONES], *stalled;
	int i, k, z, like;
	char *has;

	rate = calloc((size_t)r->n + 1, sizeof(*rate));
	secs = calloc((size_t)r->n + 1, sizeof(*secs));
	stalled = calloc((size_t)r->n + 1, sizeof(*stalled));
	has = calloc((size_t)r->n + 1, 1);
	if (!rate || !secs || !stalled || !has)
		goto out;
	for (i = 0; i < r->n; i++)
		has[i] = r->disks[i].peer.group == g &&
			 measured(&r->disks[i], phase) &&
			 zone_rates(&r->disks[i], phase, rate[i], secs[i],
				    &stalled[i]);
	for (i = 0; i < r->n; i++) {
		struct stretch run = { 0 }, longest = { 0 }, worst = { 0 };

		if (!has[i] || slow[i])
			continue;
		for (z = 0; z < ENGINE_ZONES; z++) {
			double med = 0, lost;

			if (rate[i][z] > 0 && secs[i][z] >= ZONES_DIP_MIN_S) {
				for (k = 0, like = 0; k < r->n; k++)
					if (has[k] && rate[k][z] > 0)
						v[like++] = rate[k][z];
				med = like >= PEERS_MIN ? median(v, like) : 0;
			}
			if (med <= 0 || rate[i][z] >= share * med) {
				run.n = 0;
				continue;
			}
			lost = secs[i][z] * (1 - rate[i][z] / med);
			if (!worst.n || rate[i][z] / med < stretch_ratio(&worst))
				worst = (struct stretch){ z, 1, rate[i][z],
							  med, lost };
			if (!run.n)
				run = (struct stretch){ z, 0, 0, 0, 0 };
			run.n++;
			run.mbps += rate[i][z];
			run.median += med;
			run.lost += lost;
			if (run.n > longest.n)
				longest = run;
		}
		/*
		 * The seconds the machine took from this run (its samples
		 * late, seconds most disks dipped together) fell in some
		 * zone of it: a stretch is the disk's only for what it
		 * lost beyond them.
		 */
		if (longest.n >= PEERS_ZONE_RUN &&
		    longest.lost - stalled[i] >= PEERS_ZONE_LOST_S)
			say_stretch(r, &r->disks[i], phase, &longest);
		else if (worst.n && stretch_ratio(&worst) < PEERS_ZONE_ONE &&
			 worst.lost - stalled[i] >= PEERS_ZONE_LOST_S)
			say_stretch(r, &r->disks[i], phase, &worst);
	}
out:
	free(rate);
	free(secs);
	free(stalled);
	free(has);
}

/* Each phase's whole rate against the group's median. */
static void compare_phase(struct record *r, int g, int phase, double *v,
			  int *slow)
{
	struct peers_group *pg = &r->peers.groups[g];
	double share = r->s->slow_warn / 100.0;
	int i, like = 0;

	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		if (d->peer.group == g && measured(d, phase))
			v[like++] = figures_rate(&d->snap, phase);
	}
	pg->measured[phase] = like;
	if (like < PEERS_MIN)
		return;
	pg->median[phase] = median(v, like);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		double mine = figures_rate(&d->snap, phase);

		if (d->peer.group != g || !measured(d, phase))
			continue;
		keep_ratio(d, phase, mine, pg->median[phase]);
		if (mine >= share * pg->median[phase])
			continue;
		slow[i] = 1;
		judge_reason(&d->j, JUDGE_WARN, "slow %s: %.0f MB/s, %.0f%% of "
			     "the %.0f MB/s median of %d like disks "
			     "(slow-warn %u%%)", engine_phase_name(phase), mine,
			     100 * mine / pg->median[phase], pg->median[phase],
			     like, r->s->slow_warn);
	}
	compare_zones(r, g, phase, v, slow);
}

/*
 * Time to finish the same work: a disk slow only now and then (a flush
 * that hangs, retries) shows here when its rates while moving do not.
 */
static void compare_finish(struct record *r, int g, double *v,
			   const int *slow)
{
	struct peers_group *pg = &r->peers.groups[g];
	double share = r->s->slow_warn / 100.0;
	int i, like = 0;

	for (i = 0; i < r->n; i++)
		if (r->disks[i].peer.group == g &&
		    r->disks[i].snap.c.state == STATE_DONE)
			v[like++] = busy(&r->disks[i]);
	pg->done_n = like;
	if (like < PEERS_MIN || median(v, like) < PEERS_MIN_SECONDS)
		return;
	pg->busy_median = median(v, like);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->peer.group != g || d->snap.c.state != STATE_DONE ||
		    slow[i] || busy(d) <= pg->busy_median / share)
			continue;
		judge_reason(&d->j, JUDGE_WARN, "slow to finish: %.0f s, where "
			     "the median of %d like disks took %.0f s "
			     "(slow-warn %u%%: over %.0f s)", busy(d), like,
			     pg->busy_median, r->s->slow_warn,
			     pg->busy_median / share);
	}
}

/* Alone, nothing else shares its path: a slow disk there is the disk. */
static void compare_solo(struct record *r, int g, double *v)
{
	struct peers_group *pg = &r->peers.groups[g];
	/* The default slow-fail follows a slow-warn set below it. */
	unsigned fail_pct = r->s->slow_fail < r->s->slow_warn ?
			    r->s->slow_fail : r->s->slow_warn;
	double warn = r->s->slow_warn / 100.0, fail = fail_pct / 100.0;
	int i, like = 0;

	for (i = 0; i < r->n; i++)
		if (r->disks[i].peer.group == g && solo_measured(&r->disks[i]))
			v[like++] = r->disks[i].solo.mbps;
	pg->solo_n = like;
	if (like < PEERS_MIN)
		return;
	pg->solo_median = median(v, like);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		double mine = d->solo.mbps;

		if (d->peer.group != g || !solo_measured(d))
			continue;
		d->peer.solo_median = pg->solo_median;
		d->peer.solo_ratio = mine / pg->solo_median;
		if (fail > 0 && mine < fail * pg->solo_median)
			judge_reason(&d->j, JUDGE_FAIL, "slow alone: %.0f MB/s "
				     "read alone, %.0f%% of the %.0f MB/s "
				     "median of %d like disks alone (slow-fail "
				     "%u%%)", mine, 100 * d->peer.solo_ratio,
				     pg->solo_median, like, fail_pct);
		else if (mine < warn * pg->solo_median)
			judge_reason(&d->j, JUDGE_WARN, "slow alone: %.0f MB/s "
				     "read alone, %.0f%% of the %.0f MB/s "
				     "median of %d like disks alone (slow-warn "
				     "%u%%)", mine, 100 * d->peer.solo_ratio,
				     pg->solo_median, like, r->s->slow_warn);
	}
}

/*
 * Guarded and consented disks side by side: only the guarded ones read
 * before they write and read on where their guard stopped, so their time
 * to finish and their read phases are not like the others'; their
 * writes are (the guard's reads have a phase and a time of their own).
 */
static int mixed_guard(const struct record *r, int g)
{
	int i, guarded = 0, not = 0;

	for (i = 0; i < r->n; i++) {
		if (r->disks[i].peer.group != g)
			continue;
		if (r->disks[i].ep.guard)
			guarded = 1;
		else
			not = 1;
	}
	return guarded && not;
}

static void compare_group(struct record *r, int g, double *v, int *slow)
{
	struct peers_group *pg = &r->peers.groups[g];
	int p, any = 0, mixed = mixed_guard(r, g);

	if (pg->n < PEERS_MIN) {
		snprintf(pg->note, sizeof(pg->note), "%s: %d disk%s, too few "
			 "to compare with peers (%d or more needed)", pg->name,
			 pg->n, pg->n == 1 ? "" : "s", PEERS_MIN);
		return;
	}
	for (p = 0; p < NCOMPARED; p++) {
		if (mixed && compared[p] != PHASE_WRITE)
			continue;
		compare_phase(r, g, compared[p], v, slow);
		any |= pg->median[compared[p]] > 0;
	}
	if (!mixed)
		compare_finish(r, g, v, slow);
	compare_solo(r, g, v);
	if (!any && !pg->busy_median && !pg->solo_median)
		snprintf(pg->note, sizeof(pg->note), "%s: %d disks, not "
			 "compared: too few ran a phase for %d s (or alone)",
			 pg->name, pg->n, PEERS_MIN_SECONDS);
}

/* What every judgement says, final or not: the disk's way up, alone. */
static void judge_paths(struct record *r)
{
	char pcie[64];
	int i, c;

	links_fastest(r);
	for (c = 0; c < r->links.n; c++)
		r->links.ctrls[c].solo_sum = 0;
	for (c = 0; c < r->links.n; c++) {
		struct links_ctrl *ct = &r->links.ctrls[c];

		for (i = 0; i < r->n; i++) {
			const struct record_disk *d = &r->disks[i];

			if (d->link.ctrl != c || d->failed[0])
				continue;
			if (!solo_measured(d)) {
				ct->solo_sum = 0;
				break;
			}
			ct->solo_sum += d->solo.mbps;
		}
	}
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		const struct pci_controller *pc;

		if (d->failed[0])
			continue;
		if (d->solo.io_errors)
			judge_reason(&d->j, JUDGE_FAIL, "%u I/O errors read "
				     "alone before the burn, the first at byte "
				     "%llu: %s", d->solo.io_errors,
				     (unsigned long long)d->solo.error_offset,
				     strerror(d->solo.error));
		c = d->link.ctrl;
		if (c < 0 || c >= r->links.n || !r->links.ctrls[c].pci.degraded)
			continue;
		pc = &r->links.ctrls[c].pci;
		links_pcie_text(pc, pcie, sizeof(pcie));
		if (!strcmp(d->link.kind, "pcie"))
			judge_reason(&d->j, JUDGE_WARN, "its PCIe link trained "
				     "below its maximum: %s", pcie);
		else
			judge_reason(&d->j, JUDGE_WARN, "its controller's PCIe "
				     "link (%s) trained below its maximum: %s",
				     pc->pci, pcie);
	}
}

void peers_judge(struct record *r, int final)
{
	double *v = NULL;
	int *slow = NULL, g, i;

	judge_paths(r);
	if (!final)
		return;
	free(r->peers.groups);
	r->peers.groups = NULL;
	r->peers.n = 0;
	for (i = 0; i < r->n; i++) {
		memset(&r->disks[i].peer, 0, sizeof(r->disks[i].peer));
		r->disks[i].peer.phase = -1;
	}
	v = calloc((size_t)r->n + 1, sizeof(*v));
	slow = calloc((size_t)r->n + 1, sizeof(*slow));
	if (v && slow && !make_groups(r))
		for (g = 0; g < r->peers.n; g++)
			compare_group(r, g, v, slow);
	free(v);
	free(slow);
}

void peers_free(struct peers *p)
{
	free(p->groups);
	p->groups = NULL;
	p->n = 0;
}
