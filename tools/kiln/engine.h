/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENGINE_H
#define KILN_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "target.h"
#include "unit.h"

/*
 * The burn engine: one worker thread and one io_uring per target, all
 * targets at once, streaming whole-unit requests with O_DIRECT through
 * registered buffers and files. It writes, reads and checks units and
 * keeps counts and the first details of what went wrong; it knows nothing
 * of reports, verdicts or the console.
 */
enum engine_mode {
	ENGINE_WRITE_VERIFY,	/* each pass: write, flush, read and check */
	ENGINE_WRITE,		/* each pass: write, flush */
	ENGINE_VERIFY,		/* each pass: read and check an earlier write */
	ENGINE_READ,		/* each pass: read, check nothing */
};

enum engine_phase {
	PHASE_START,
	PHASE_WRITE,
	PHASE_FLUSH,
	PHASE_VERIFY,
	PHASE_READ,
	PHASE_END,
	PHASES
};

enum engine_state {
	STATE_RUNNING,
	STATE_DONE,		/* finished what it was asked */
	STATE_STOPPED,		/* stopped early: interrupted or out of time */
	STATE_STALLED,		/* a request outlived the deadline */
	STATE_VANISHED,		/* the device went away */
	STATE_BROKEN,		/* could not start: no memory, no ring */
};

/* A region is up to a few extents: whole, or start, middle and end. */
#define ENGINE_MAX_EXTENTS 3

struct engine_extent {
	uint64_t offset, length;
};

/* Failed requests; neighbours with the same error share one entry. */
struct engine_error {
	int phase;
	uint32_t pass;
	uint64_t offset;
	uint64_t length;
	int err;		/* errno */
	unsigned count;		/* requests in this range */
};

enum engine_retry {
	RETRY_NONE,		/* not read again (past the detail cap) */
	RETRY_SAME,		/* read again, the same bad bytes: the medium */
	RETRY_GOOD,		/* read again, good: bus, cache or memory */
	RETRY_CHANGED,		/* read again, different bad bytes: unstable */
	RETRY_FAILED,		/* read again, an I/O error */
};

struct engine_bad {
	uint64_t offset;
	uint32_t pass;		/* the pass expected */
	int retry;		/* enum engine_retry */
	struct unit_verdict v;
};

/* A bad unit kept whole, with what should have been there. */
struct engine_saved {
	uint64_t offset;
	uint32_t pass;
	unsigned char *read;
	unsigned char *expected;
};

struct engine_pass {
	uint32_t pass;
	int phase;
	uint64_t bytes;
	uint64_t ns;
	int complete;		/* covered its whole region */
};

struct engine_job {
	uint64_t bs;
	unsigned qd;
	unsigned passes;		/* 0: until duration */
	uint64_t duration_ns;		/* 0: until passes */
	uint64_t deadline_ns;		/* a request older than this is stalled */
	unsigned max_detail;		/* errors and bad units listed a target */
	unsigned save_units;		/* bad units kept whole a target */
	const struct unit_ctx *ctx;	/* the run's unit format */
	atomic_int stop;		/* set to stop all targets now */
	uint64_t start_ns;
	int wake_fd;			/* eventfd: a worker ended, or a signal */
};

struct engine_target {
	/* Set by the caller. */
	struct target *t;
	int mode;			/* enum engine_mode */
	struct engine_extent ext[ENGINE_MAX_EXTENTS];
	int next;
	uint64_t region;		/* bytes in all extents */
	unsigned write_passes;		/* region writes allowed; 0: no cap */
	uint32_t verify_pass;		/* ENGINE_VERIFY: 0 reads it off disk */

	/* Live, read by the monitor while the worker runs. */
	atomic_uint_fast64_t bytes_written, bytes_read;
	atomic_uint_fast64_t phase_done;	/* bytes done in this phase */
	atomic_int phase;
	atomic_uint pass;
	atomic_int state;
	atomic_uint io_errors, bad_units;
	atomic_uint_fast64_t *slot_since;	/* submit time per slot; 0 idle */
	unsigned nslots;

	/* Results: under lock while the worker runs. */
	pthread_mutex_t lock;
	struct engine_pass *passes;
	unsigned npasses;
	struct engine_error *errors;
	unsigned nerrors;
	struct engine_bad *bad;
	unsigned nbad;
	unsigned bad_by_class[UNIT_CLASSES];
	unsigned bad_transient;
	struct engine_saved *saved;
	unsigned nsaved;
	uint32_t verified_pass;		/* the pass the last check expected */
	int pass_found;			/* ENGINE_VERIFY: pass read off disk */
	unsigned region_writes;		/* whole-region writes done */
	char why[200];			/* why it stopped, when it did */

	pthread_t thread;
	int started;
	struct engine_job *job;
};

/* Prepares et for t: the caller then sets the region and limits. */
int engine_target_init(struct engine_target *et, struct target *t);
void engine_target_free(struct engine_target *et);

/* Starts a worker per target. Returns 0 or -errno (none started then). */
int engine_start(struct engine_job *job, struct engine_target *ets, int n);

/*
 * Marks targets whose oldest request is older than the deadline as stalled
 * and returns how many targets are still running. Call about once a second.
 */
int engine_poll(struct engine_job *job, struct engine_target *ets, int n);

/*
 * Sleeps until a worker ends, engine_wake() is called, or timeout_ns pass.
 */
void engine_wait(struct engine_job *job, uint64_t timeout_ns);

/* Wakes engine_wait(); safe in a signal handler. */
void engine_wake(struct engine_job *job);

/* Waits for the workers that can still finish; leaves stalled ones be. */
void engine_join(struct engine_target *ets, int n);

/* Bytes moved and nanoseconds spent in one phase, over all passes. */
void engine_phase_totals(const struct engine_target *et, int phase,
			 uint64_t *bytes, uint64_t *ns);

const char *engine_mode_name(int mode);
const char *engine_phase_name(int phase);
const char *engine_state_name(int state);
const char *engine_retry_name(int retry);

#endif
