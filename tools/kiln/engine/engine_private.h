/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENGINE_PRIVATE_H
#define KILN_ENGINE_PRIVATE_H

/*
 * The engine's own: a target's engine as engine.c, engine_share.c and
 * the workers share it.
 * Nobody else includes this file; readers take snapshots (engine.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "engine/engine.h"
#include "base/timing.h"

/* A failed write's stretch of the region: its units are not checked. */
struct hole {
	uint64_t lin, len;
};

/* Holes kept a pass; past this a disk is failing everywhere anyway. */
#define MAX_HOLES 65536

struct engine_target {
	struct engine_disk disk;
	struct engine_plan plan;

	/* Live, read without a lock by the monitor while the worker runs. */
	atomic_uint_fast64_t bytes_written, bytes_read;
	atomic_uint_fast64_t phase_done;	/* bytes done in this phase */
	atomic_int phase;
	atomic_uint pass;
	atomic_uint run_pass;
	atomic_int state;
	atomic_uint io_errors, bad_units;
	/* engine_counters' held_ns and held_at (worker_held_look()) */
	atomic_uint_fast64_t held_ns, held_at;
	/* submit time per slot; 0 idle */
	atomic_uint_fast64_t *slot_since;
	unsigned nslots;

	/* Results: under lock, written by the worker, copied by snapshots. */
	pthread_mutex_t lock;
	struct engine_pass *passes;
	unsigned npasses, passes_cap;
	struct engine_error *errors;
	unsigned nerrors;
	struct engine_bad *bad;
	unsigned nbad;
	/* the first bad unit: engine_snap's, kept whatever nbad holds */
	int has_first_bad;
	uint32_t first_bad_pass;
	uint64_t first_bad;
	unsigned bad_by_class[UNIT_CLASSES];
	unsigned bad_transient;
	unsigned bad_unchecked;
	unsigned not_written;
	unsigned later_pass;
	struct engine_saved *saved;
	unsigned nsaved;
	uint32_t verified_pass;
	int pass_found;
	unsigned region_writes;
	uint32_t last_written;
	uint64_t last_reached;
	char why[200];
	/* What the worker's tally (tally.c) published: zones, latency. */
	struct engine_zones *zones;
	unsigned nzones, zones_cap;
	struct latency_hist latency[PHASES];
	struct engine_slow slowest[ENGINE_SLOWEST];
	unsigned nslowest;

	/* The worker's own: failed writes of the pass being verified. */
	struct hole *holes;
	unsigned nholes;
	int holes_full;

	pthread_t thread;
	int started;
	struct engine_job *job;

	/*
	 * The guard (under lock but for the flag): region bytes checked from
	 * 0, and where it stopped, with the bytes it found there.
	 */
	uint64_t guard_checked;
	atomic_int guard_stopped;	/* times it stopped lower: 0 none */
	uint64_t guard_at;
	int guard_err;		/* it could not read guard_at: errno; 0 */
	unsigned char *guard_found;
	size_t nguard_found;
	/* Under lock: every run of each phase, and the runs folded. */
	struct engine_pass_total totals[PHASES];
	uint64_t folded;
	/* Counters when the last run ended: the next run's are past them. */
	unsigned seen_errors, seen_bad;
};

/*
 * Adds a run of a phase (its seq is set) under the target's lock, keeping
 * the first, last and worst runs of its phase (engine.h) and its totals.
 */
void engine_pass_add(struct engine_target *et, struct engine_pass *p);

/* The clock request ages are told by: time the process did not run is out. */
static inline uint64_t job_now(struct engine_job *job)
{
	return timing_now_ns() - atomic_load(&job->paused_ns);
}

__attribute__((format(printf, 2, 3)))
static inline void set_why(struct engine_target *et, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&et->lock);
	if (!et->why[0]) {
		va_start(ap, fmt);
		vsnprintf(et->why, sizeof(et->why), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&et->lock);
}

/* Moves the state on from running, unless the monitor got there first. */
static inline int leave_running(struct engine_target *et, int state)
{
	int running = STATE_RUNNING;

	return atomic_compare_exchange_strong(&et->state, &running, state);
}

static inline int stalled(struct engine_target *et)
{
	return atomic_load(&et->state) == STATE_STALLED;
}

#endif
