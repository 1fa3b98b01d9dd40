/* SPDX-License-Identifier: MIT */
#ifndef KILN_WORKER_PRIVATE_H
#define KILN_WORKER_PRIVATE_H

/*
 * The worker's own, as its files share it: its slots and ring (worker.c
 * sets them up and runs the passes), one phase's requests filled and
 * reaped (worker_phase.c), and the checks of what came back, with what
 * went wrong (worker_check.c). Nobody else includes this file.
 */
#include <liburing.h>
#include <sys/types.h>

#include "engine/engine_private.h"
#include "engine/guard.h"
#include "engine/tally.h"

/* Where a slot's span is in the guarded write: read, checked, written. */
enum stage {
	STAGE_IO,		/* the phase's own request */
	STAGE_GUARD,		/* the guard's read of the span (or again) */
	STAGE_CHECKED,		/* overwritable: waits for the checked front */
	STAGE_WRITE,		/* its write, behind the checked front */
};

/* One request's buffer and where it stands: a slot per qd. */
struct slot {
	unsigned char *buf;
	uint64_t lin;		/* position in the region */
	uint64_t off;		/* device offset */
	uint32_t len;
	uint32_t done;		/* bytes already transferred (short I/O) */
	int busy;
	int again;
	int stage;		/* enum stage */
	uint64_t checked_in;	/* the batch whose reap checked the span */
	struct tally_req tr;
};

struct worker {
	struct engine_job *job;
	struct engine_target *et;
	const struct engine_disk *d;
	struct io_uring ring;
	int ring_ok;
	int fixed_bufs;
	int one_buffer;		/* the slots registered as buffer 0 */
	int fixed_file;
	struct slot *slots;
	unsigned char *mem;
	unsigned char *scratch;
	unsigned retried;
	uint64_t end_ns;	/* when --duration runs out; 0: never */
	int out_of_time;
	int vanished;
	struct tally tally;	/* zones, request times, the slowest */
	struct guard guard;	/* plan.guard: the check before a write */
	int guarding;
	uint32_t iter;		/* the run's pass under way */
	unsigned nbufs;		/* slots with a buffer: the first nbufs */
	/*
	 * The thread's /proc/thread-self/schedstat could be read, its wait
	 * for a CPU when the worker began, and when it last looked (held.c).
	 */
	int held_ok;
	uint64_t held_base, held_look;
};

/*
 * One phase over region positions [from, limit) (worker_phase.c).
 * Returns the position every request below has been tried at, or
 * -ETIMEDOUT when the target stalled. timed: the duration may end it.
 * holes: skip checking units whose write failed in this pass. A write
 * phase of a guarded plan reads each span past what the guard checked
 * before it writes it; where the guard stops, it returns where its
 * writes ended.
 */
int64_t worker_phase_run(struct worker *w, int phase, uint32_t pass,
			 uint64_t from, uint64_t limit, int timed, int holes);

/* The flush, in a child: 0, or -ETIMEDOUT when the target stalled. */
int worker_phase_flush(struct worker *w, uint32_t pass);

/*
 * A request failed (worker_check.c): kept, neighbours with the same error
 * as one range, and the worker told to stop when the device went away.
 */
void worker_check_error(struct worker *w, int phase, uint32_t pass,
			uint64_t off, uint64_t len, int err);

/* A failed write leaves a hole: verifying its units would count it twice. */
void worker_check_hole(struct engine_target *et, uint64_t lin, uint64_t len);

/* The pass's holes, sorted for the verify that follows. */
void worker_check_sort_holes(struct engine_target *et);

/*
 * The units of a read that came back whole, each against what pass
 * wrote there; a bad one is read again and kept. holes: units in a hole
 * are counted unwritten instead.
 */
void worker_check_units(struct worker *w, const struct slot *s, uint32_t pass,
			int holes);

/*
 * A synchronous single-unit read into w->scratch, watched by the deadline
 * like the rest; made in a child (deadline.h), so a disk that never
 * answers holds no thread of kiln's in its uninterruptible sleep.
 */
ssize_t worker_check_read_unit(struct worker *w, uint64_t off);

/*
 * The host's hold on the worker (held.c): worker_held_open() in the
 * worker's own thread, before its first request; worker_held_look() as
 * it goes (it reads the kernel's figure at most every HELD_LOOK_NS, or
 * now when forced) and publishes engine_counters' held_ns and held_at;
 * worker_held_close() at its end, after a last forced look.
 */
void worker_held_open(struct worker *w);
void worker_held_look(struct worker *w, int force);
void worker_held_close(struct worker *w);

#endif
