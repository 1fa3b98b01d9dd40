/* SPDX-License-Identifier: MIT */
#ifndef KILN_MONITOR_H
#define KILN_MONITOR_H

#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "judge/disktable.h"

/*
 * A target's throughput over the whole run in at most MONITOR_POINTS
 * points, for the report's plots: when it is full, neighbours merge and
 * each point covers twice as many seconds, so a 12-hour soak of 60 disks
 * takes as little memory as a minute's.
 */
#define MONITOR_POINTS 480

struct monitor_series {
	float write[MONITOR_POINTS], read[MONITOR_POINTS];	/* MB/s */
	unsigned n;		/* points kept */
	unsigned step;		/* seconds a point covers */
	double acc_w, acc_r;	/* the point being filled */
	unsigned acc_n;
};

/*
 * A second's MB/s written and read, added to s as the monitor adds each
 * sample (merging neighbours when full): also for a series read back from
 * samples.csv.
 */
void monitor_series_add(struct monitor_series *s, double w, double r);

/*
 * A target keeps its MONITOR_SLOW slowest whole seconds of each moving
 * phase, with their times, so that the judge can tell a dip of its own
 * from one most disks shared (dips.h) without keeping every second.
 */
#define MONITOR_SLOW 32

struct monitor_slow {
	uint32_t ms;		/* the sample's time since the burn's start */
	float mbps;
	int shared;		/* most disks dipped then (dips.h) */
	/*
	 * The part of the second the host kept the target's worker waiting
	 * for a CPU (engine_counters' held_ns), in ms: the disk was asked
	 * for nothing then, so its own rate is over the rest of the second
	 * (monitor_own_rate()).
	 */
	uint32_t held_ms;
};

/*
 * A second the host kept the worker waiting for nine tenths of is the
 * host's and not judged: too little of it is left to rate the disk by.
 */
#define MONITOR_HELD_SHARE 0.9

/*
 * A run of a moving phase as the monitor saw it: the pass it belongs to,
 * the samples it spanned, and the seconds by which those samples came
 * late (the monitor, a thread of the same process, was held up with the
 * workers: the process frozen, the machine stalled). The latest
 * MONITOR_RUNS runs of each phase are kept, latest first, so the judge
 * can tell the seconds the machine took from a run it compares zone by
 * zone (monitor_stalled()).
 */
#define MONITOR_RUNS 2
/* A sample this long after the one before came late (they are a second apart). */
#define MONITOR_LATE_S 1.5

struct monitor_run {
	uint32_t pass;		/* 0: none */
	uint32_t from_ms, to_ms;
	float late_s;
};

/* What the monitor learns of one target from its per-second samples. */
struct monitor_target {
	uint64_t last_w, last_r;	/* counters at the last sample */
	int last_phase;
	uint64_t status_bytes;		/* counters at the last status line */
	uint64_t status_w, status_r;	/* ...each direction's */
	uint64_t table_bytes;		/* ...and at the last table */
	uint64_t table_w, table_r;	/* ...each direction's */
	double rate;			/* MB/s in the last status interval */
	double rate_w, rate_r;		/* ...written, read */
	/* Per phase, over seconds spent wholly in that phase. */
	double min[PHASES], max[PHASES];
	unsigned seconds[PHASES];
	/* ...its slowest of them, slowest first */
	struct monitor_slow slow[PHASES][MONITOR_SLOW];
	unsigned nslow[PHASES];
	/*
	 * The slowest (by its own rate) of the seconds not kept, when one
	 * was left out: every second not kept ran at least so fast, when the
	 * host's hold came back to it (it is held in the same way)
	 */
	struct monitor_slow unkept[PHASES];
	int has_unkept[PHASES];
	/* seconds left out as the host's (MONITOR_HELD_SHARE) */
	unsigned held[PHASES];
	uint64_t last_held;		/* held_ns at the last sample */
	/* the first and last whole second it was busy in any of them */
	uint32_t busy_from_ms, busy_to_ms;
	int busy;		/* it had one */
	struct monitor_run runs[PHASES][MONITOR_RUNS];
	uint64_t planned;		/* bytes the plan moves; 0: unknown */
	unsigned write_passes;		/* passes it may write; 0: all */
	uint64_t done_ns;		/* when it left running */
	/*
	 * Passes made whole (figures_passes()), set by the caller once the
	 * burn is over, for the last status line; -1 until then.
	 */
	int64_t made;
	struct monitor_series series;
};

/*
 * The monitor samples the engine's counters once a second into
 * samples.csv, keeps each target's slowest and fastest second, and writes
 * the status line a person watches.
 */
struct monitor {
	int n;
	const char *const *names;	/* each target's label */
	struct engine_counters *c;	/* the last counters of each target */
	struct monitor_target *mt;
	FILE *csv;		/* NULL: no samples file */
	uint64_t t0;
	/* what the status line's clock counts from: t0, or earlier */
	uint64_t clock0;
	uint64_t last_ns;	/* last sample */
	uint64_t next_ms;	/* the earliest time a new row may carry */
	uint64_t status_ns;	/* last status line */
	uint64_t table_ns;	/* last per-disk table */
	uint64_t duration_ns;	/* the run's time limit, for the ETA */
	/*
	 * The kernel's error lines naming the disks under test, so far: the
	 * caller's count (the kernel's log is no counter of the engine).
	 */
	unsigned kernel;
};

/* names: a label per target, kept (the caller's); csv: NULL or samples.csv. */
int monitor_init(struct monitor *m, const char *const *names, int n,
		 FILE *csv, uint64_t t0);
void monitor_free(struct monitor *m);

/*
 * Takes a sample of the counters c (one per target, copied): call once a
 * second, and once at the end. The monitor reads nothing else: it is a
 * function of the counters it is given.
 */
void monitor_sample(struct monitor *m, uint64_t now,
		    const struct engine_counters *c);

/* The columns a status line keeps within: the serial console's. */
#define MONITOR_WIDTH 80

/*
 * Writes the status line for the interval since the last one, within
 * MONITOR_WIDTH columns: the pass, the MB/s written and read by all
 * targets, the slowest, the disks done, errors, the kernel's error
 * lines (m->kernel) and the ETA, the phase and when max-writes has
 * stopped the writes; what does not fit is left out, the least needed
 * first (the per-disk table says it). The last line says the bytes
 * written and read instead of rates; stopped: the run was interrupted
 * (it says so, not "done").
 */
void monitor_status(struct monitor *m, uint64_t now, int stopped, char *line,
		    size_t len);

/*
 * The per-disk table's rows, one per target, since the last table: its
 * MB/s, the share of its work done and the seconds it has left (by the
 * bytes planned or the duration, whichever ends it first), its state
 * once it left running; group -1 (the caller knows the controllers).
 */
void monitor_table_rows(struct monitor *m, uint64_t now,
			struct disktable_row *rows);

/*
 * A whole second of phase p at ms ran mbps: kept when among the slowest
 * (monitor_sample() calls it; a test may too).
 */
void monitor_slow_add(struct monitor_target *mt, int p, uint32_t ms,
		      double mbps);

/*
 * The host kept the target's worker waiting for a CPU from from_ms to
 * to_ms (times since the burn's start): each kept second that overlaps
 * it has that much of it taken off (its held_ms), and one held for
 * MONITOR_HELD_SHARE of it is left out, counted in held[] (monitor_sample()
 * calls it with what the worker said; the kernel says a wait only after
 * it, so it comes back to seconds already kept; a test may call it too).
 */
void monitor_held(struct monitor_target *mt, uint32_t from_ms,
		  uint32_t to_ms);

/*
 * A kept second's own rate: its MB/s over the part of it the host did not
 * hold the worker; -1 for a second the host held (MONITOR_HELD_SHARE).
 */
double monitor_own_rate(const struct monitor_slow *sl);

/*
 * Its slowest second of phase p of its own, leaving out those most disks
 * shared, each over the part of it the host did not hold the worker
 * (monitor_own_rate()); -1 when it has none. A second not kept ran no
 * slower than the slowest of them (unkept): with all of its kept seconds
 * shared or held, that, its own slowest being no slower.
 */
double monitor_own_min(const struct monitor_target *mt, int p);

/*
 * Whether its slowest second of phase p was not all its own: one most
 * disks shared, or one the host held its worker in (left out, or kept
 * with part of it held). Then monitor_own_min() is what is judged.
 */
int monitor_slowest_not_own(const struct monitor_target *mt, int p);

/*
 * The seconds the machine took from run pass of phase p: the seconds its
 * samples came late, and for each second most disks dipped together
 * (marked shared by dips.h) within the run, the part of it lost against
 * avg, the target's average MB/s in p. 0 when the run was not seen.
 */
double monitor_stalled(const struct monitor_target *mt, int p,
		       uint32_t pass, double avg);

/* The seconds the run has left, by the slowest target; -1 unknown. */
int64_t monitor_eta(const struct monitor *m, uint64_t now);

#endif
