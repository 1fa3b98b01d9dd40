/* SPDX-License-Identifier: MIT */
#ifndef KILN_ZONES_H
#define KILN_ZONES_H

#include <stdio.h>

#include "engine/engine.h"
#include "judge/judge.h"

/*
 * Throughput where it happens: the shape of a phase's 100 zone rates, as
 * the engineers in the seeds read it by eye. Thresholds (kiln(1),
 * VERDICTS):
 */
/* A zone (or a few) under half the rate on either side of it is a dip. */
#define ZONES_DIP_SHARE 0.5
/*
 * ...that cost at least this many seconds: a weak stretch of a real disk
 * costs it minutes, and less is a machine's hiccup (a busy host, another
 * disk pulled from the controller) in the tiny zones of a small disk or
 * a quick span, not the disk's surface.
 */
#define ZONES_DIP_MIN_S 0.5
/* Plateaus differ by 10% or more; a smaller step is no new plateau. */
#define ZONES_STEP_SHARE 0.1
/* A write that falls to 70% of its rate or less, for good, is a cliff. */
#define ZONES_CLIFF_SHARE 0.7
/* ...and one that falls under a tenth of it WARNs. */
#define ZONES_CLIFF_WARN 0.1
/*
 * The level before a cliff and the rest after it each took this many
 * seconds at least: a write cache fills over seconds, and a small region
 * written in milliseconds has levels that are noise.
 */
#define ZONES_CLIFF_MIN_S 1.0

/*
 * A phase's zones are judged only with enough behind them: each zone
 * this many requests of bs or more, and the phase this many busy seconds
 * or more. Less is one request's luck and the machine's moments: a 64
 * MiB region's 640 KiB zones are each a part of one 1 MiB request, and
 * a RAM-backed loop device's phase of a second has "plateaus" that are
 * the host's scheduling.
 */
#define ZONES_MIN_REQUESTS 4
#define ZONES_MIN_PHASE_S 10

#define ZONES_MAX_PLATEAUS 8
#define ZONES_MAX_DIPS 8

enum zones_kind {
	ZONES_UNKNOWN,		/* too few zones measured */
	ZONES_FLAT,		/* one plateau */
	ZONES_SLOPE,		/* a smooth fall or rise (an HDD's) */
	ZONES_STEPS,		/* plateaus, with sharp steps between */
	ZONES_SHORT,		/* too little data to judge (zones_short()) */
};

struct zones_plateau {
	int from, to;		/* zones, both included */
	double mbps;
};

struct zones_dip {
	int from, to;		/* zones, both included */
	int worst;		/* the slowest zone of them */
	double mbps;		/* its rate */
	double around;		/* the rate beside it (the lower side) */
	double lost_s;		/* seconds it cost over the rate beside it */
};

struct zones_shape {
	int kind;		/* enum zones_kind */
	int measured;		/* zones with a rate */
	/* a smooth fit at the first and the last zone measured */
	double first_mbps, last_mbps;
	int nplateaus;
	struct zones_plateau plateaus[ZONES_MAX_PLATEAUS];
	int ndips;		/* all found; the first ZONES_MAX_DIPS kept */
	struct zones_dip dips[ZONES_MAX_DIPS];
	int cliff;		/* the zone a cliff starts at; -1: none */
	double cliff_before, cliff_after;	/* MB/s */
};

/*
 * The shape of n zone rates (MB/s; 0 or less: not measured), secs the
 * busy seconds of each (for what a dip cost), cliffs: a write phase of a
 * disk not known to spin (zones_cliffs(): only they have write cliffs). A pure function: plateaus are runs of 3 zones or
 * more whose levels differ by ZONES_STEP_SHARE at least; when a smooth
 * curve fits the rates better than the plateaus do, the shape is a
 * slope (an HDD's outer-to-inner fall), with no plateaus and no cliff.
 */
void zones_shape(const double *mbps, const double *secs, int n, int cliffs,
		 struct zones_shape *z);

/*
 * Whether a phase's zones are too short to judge: zones of zone_bytes
 * hold fewer than ZONES_MIN_REQUESTS requests of bs, or the phase was
 * busy under ZONES_MIN_PHASE_S. A pure function of its figures.
 */
int zones_short(const struct engine_zones *e, uint64_t zone_bytes,
		uint64_t bs);

/*
 * The shape of one phase of a disk: its rates' (zones_shape()), or
 * ZONES_SHORT with nothing else when zones_short() says so.
 */
void zones_phase(const struct engine_zones *e, uint64_t zone_bytes,
		 uint64_t bs, int rotational, struct zones_shape *z);

/* Whether a phase of a disk (rotational: 1, 0, -1 not known) can have one. */
int zones_cliffs(int phase, int rotational);

/* The rates and busy seconds of a phase's zones. */
void zones_rates(const struct engine_zones *e, double *mbps, double *secs);

/*
 * WARNs from the zones of every phase that ended: on a rotational disk a
 * dip under ZONES_DIP_SHARE that cost ZONES_DIP_MIN_S or more; on any
 * disk a write cliff under ZONES_CLIFF_WARN. Every reason names its zone,
 * byte offset, figure and threshold.
 */
void zones_judge(const struct engine_snap *s, uint64_t bs, int rotational,
		 struct judge *j);

struct json;

/* "zones": every phase's rates and its shape, for result.json. */
void zones_json(struct json *j, const struct engine_snap *s, uint64_t bs,
		int rotational);

/*
 * summary.txt: of each kind of phase, the first judged: "steady at N
 * MB/s", its plateaus, dips or cliff; or, when every phase that ended was
 * too short to judge, one line that says so.
 */
void zones_summary(FILE *f, const struct engine_snap *s, uint64_t bs,
		   int rotational);

#endif
