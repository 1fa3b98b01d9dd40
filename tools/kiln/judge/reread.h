/* SPDX-License-Identifier: MIT */
#ifndef KILN_REREAD_H
#define KILN_REREAD_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/latency.h"

/*
 * The confirming re-read: a request's time under load (qd 8, 1 MiB, 60
 * disks on one controller) is not the drive's latency, so after the burn
 * the regions of each disk's slowest requests are read again, alone, at
 * qd 1, 4 KiB at a time, and timed on the surface scanners' grid. The
 * thresholds (kiln(1), VERDICTS):
 */
/* A rotational disk with a read this slow WARNs. */
#define REREAD_SLOW_MS 500
/* An SSD whose re-read p99 is over this many times its like SSDs'... */
#define REREAD_LIKE_TIMES 10
/* ...median, of at least this many like SSDs (peers.h), WARNs. */
#define REREAD_LIKE_MIN 3

/* Under 5, 20, 50, 150, 500 ms, and 500 ms or more. */
#define REREAD_GRID 6

enum reread_state {
	REREAD_NOT_RUN,
	REREAD_DONE,
	REREAD_CUT,		/* the deadline or a signal ended it early */
	REREAD_STALLED,		/* a read got no answer within the deadline */
};

struct reread_region {
	uint64_t offset, length;	/* the slow request's */
	uint64_t burn_ns;		/* its time in the burn */
	int phase;
	uint32_t pass;
	unsigned reads;			/* made again */
	uint64_t max_ns, max_at;	/* the slowest of them, and where */
	int err;			/* errno of the first that failed */
	uint64_t err_at;
};

struct reread {
	int state;			/* enum reread_state */
	char why[160];			/* cut short or stalled: why */
	unsigned size;			/* bytes a read */
	int direct;			/* O_DIRECT: past the page cache */
	double seconds;
	unsigned grid[REREAD_GRID];
	struct latency_hist times;
	unsigned errors;
	unsigned n;
	struct reread_region regions[ENGINE_SLOWEST];
};

/* The upper ends of the grid's buckets but the last, in ms. */
extern const unsigned reread_grid_ms[REREAD_GRID - 1];

/* Bucket g's name in result.json's grid: "under_5_ms" ... "from_500_ms". */
void reread_grid_key(int g, char *key, size_t len);

struct record;

/*
 * Re-reads the slowest requests of every disk whose burn ended as asked,
 * all disks at once, each alone at qd 1, into its record's rr. A disk's
 * re-read stops after deadline_ns (or when *stop is set); one whose read
 * gets no answer deadline_ns after that is left to its thread and marked
 * stalled: kiln never hangs on one disk. Says on con what it does.
 */
void reread_run(struct record *r, uint64_t deadline_ns, atomic_int *stop,
		FILE *con);

struct record_disk;

/*
 * Judges disk d's re-read (d is one of r's): an error FAILs, a stall
 * FAILs; a rotational disk with a read of REREAD_SLOW_MS or more WARNs,
 * naming the offsets; an SSD whose p99 is over REREAD_LIKE_TIMES the
 * median of its like SSDs in r (REREAD_LIKE_MIN or more, same model and
 * size) WARNs. Every re-read is done before any is judged.
 */
void reread_judge(const struct record *r, struct record_disk *d);

struct json;

/* "latency" (each phase's histogram, the slowest requests) and "reread". */
void reread_json(struct json *j, const struct engine_snap *s,
		 const struct reread *rr);

/* summary.txt: each phase's request times, p50 to the slowest. */
void latency_summary(FILE *f, const struct engine_snap *s);

/* summary.txt: a line when a re-read was slow, failed or cut short. */
void reread_summary(FILE *f, const struct reread *rr);

#endif
