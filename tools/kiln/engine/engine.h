/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENGINE_H
#define KILN_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "engine/latency.h"
#include "base/unit.h"

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
	ENGINE_NONE,		/* no pass: the disk gets its end step alone */
};

enum engine_phase {
	PHASE_START,
	PHASE_WRITE,
	PHASE_FLUSH,
	PHASE_VERIFY,
	PHASE_READ,
	PHASE_END,
	/*
	 * The guarded write's reads of what a span holds before it is
	 * written: beside a write phase, tallied apart so neither's rates
	 * take the other's bytes. After PHASE_END, so the phases a pass runs
	 * stay in order and loops from PHASE_WRITE to PHASE_READ leave it.
	 */
	PHASE_GUARD,
	PHASES
};

enum engine_state {
	STATE_RUNNING,
	STATE_DONE,		/* finished what it was asked */
	STATE_STOPPED,		/* stopped early: interrupted or out of time */
	STATE_STALLED,		/* a request outlived the deadline */
	STATE_VANISHED,		/* the device went away */
	STATE_BROKEN,		/* could not start: no memory, no ring */
	/* FAILed before its burn: missing, shrunk, stalled while opened */
	STATE_NOT_STARTED,
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
	/*
	 * The run's pass it belongs to, from 1: a verify past max-writes
	 * reads the last pass written (verified_pass, last_pass_written)
	 * and is listed as the pass it is.
	 */
	uint32_t pass;
	int phase;
	uint64_t bytes;		/* moved without error */
	uint64_t ns;
	uint64_t reached;	/* region position every request below tried */
	int complete;		/* covered its whole region */
	unsigned errors;	/* failed requests in it */
	unsigned bad_units;	/* bad units it found */
	uint64_t seq;		/* its number among its phase's runs, from 1 */
};

/*
 * A soak of a small region runs a phase thousands of times a minute, so
 * the record keeps a phase's every run only up to ENGINE_PASSES_WHOLE of
 * them; past that, its first and last ENGINE_PASS_EDGE runs stay, and of
 * the runs between them the ENGINE_PASS_WORST worst (engine_pass_worse()),
 * and the rest is folded into the phase's totals, which count every run.
 * A target's record is then bounded by its phases, not by time.
 */
#define ENGINE_PASSES_WHOLE 16
#define ENGINE_PASS_EDGE 8
#define ENGINE_PASS_WORST 8
#define ENGINE_PASSES_KEPT (PHASES * (2 * ENGINE_PASS_EDGE + ENGINE_PASS_WORST))

/* A phase over all its runs, folded ones included. */
struct engine_pass_total {
	uint64_t passes;	/* runs of the phase */
	uint64_t bytes, ns;
	uint64_t errors, bad_units;
};

/*
 * Whether run a is worse than run b of the same phase: more failed
 * requests and bad units, then (with as many) the lower rate; a flush
 * moves no bytes, so the longer one.
 */
int engine_pass_worse(const struct engine_pass *a, const struct engine_pass *b);

/*
 * Throughput where it happens: each phase's region in ENGINE_ZONES zones,
 * with the bytes moved in each and the time the disk was busy with them.
 * A moment of busy time is shared by the requests then in flight, so a
 * slow request makes its own zone slow, even on a disk that serves many
 * requests at once.
 */
#define ENGINE_ZONES 100
/* The phases whose zones are kept: the first two, then the latest. */
#define ENGINE_ZONE_PHASES 32

struct engine_zones {
	uint32_t pass;
	int phase;
	int ended;		/* the phase ended; else it is under way */
	uint64_t bytes[ENGINE_ZONES];
	uint64_t ns[ENGINE_ZONES];
};

/* The slowest requests of a target, kept for the confirming re-read. */
#define ENGINE_SLOWEST 20

struct engine_slow {
	uint64_t offset, length;	/* on the device */
	uint64_t ns;			/* from submit to completion */
	int phase;
	uint32_t pass;
};

/* What a worker is asked to do with one target (plan.c fills it). */
struct engine_plan {
	int mode;			/* enum engine_mode */
	struct engine_extent ext[ENGINE_MAX_EXTENTS];
	int next;
	uint64_t region;		/* bytes in all extents */
	unsigned write_passes;		/* region writes allowed; 0: no cap */
	uint32_t verify_pass;		/* ENGINE_VERIFY: 0 reads it off disk */
	/*
	 * ENGINE_VERIFY of a pass that was cut short: region positions from
	 * here on hold verify_pass - 1 (or nothing, when that is 0).
	 */
	uint64_t verify_cut;
	/*
	 * The guarded write: no byte is written that this run has not read
	 * and found blank (guard_byte; -1: 0x00 or 0xff) or this disk's kiln
	 * units. On anything else the disk writes nothing more and is read
	 * from there on (engine_snap.guard_*).
	 */
	int guard;
	int guard_byte;
};

struct engine_job {
	uint64_t bs;
	unsigned qd;
	unsigned passes;		/* 0: until duration */
	uint64_t duration_ns;		/* 0: until passes */
	/* a request older than this is stalled */
	uint64_t deadline_ns;
	/* errors and bad units listed a target */
	unsigned max_detail;
	unsigned save_units;		/* bad units kept whole a target */
	const struct unit_ctx *ctx;	/* the run's unit format */
	atomic_int stop;		/* set to stop all targets now */
	uint64_t start_ns;
	/*
	 * Time the process did not run (SIGSTOP, a paused VM), as the main
	 * thread saw it: not a disk's stall, so request ages leave it out.
	 */
	atomic_uint_fast64_t paused_ns;
	uint64_t polled_ns;		/* the last engine_poll() */
	/* eventfd: a worker ended, or a signal */
	int wake_fd;
};

/* A target's engine: the worker's, private; readers take snapshots. */
struct engine_target;

/* The counters, read without a lock: each only grows or is a state. */
struct engine_counters {
	int state;			/* enum engine_state */
	int phase;			/* enum engine_phase */
	uint32_t pass;			/* the pass its units carry */
	uint32_t run_pass;		/* the run's pass it is in, from 1 */
	uint64_t bytes_written, bytes_read;
	uint64_t phase_done;		/* bytes done in this phase */
	unsigned io_errors, bad_units;
	/* the guard found data: no more writes; counts each lower find */
	int guard_stopped;
	/*
	 * The time the host kept the worker's thread waiting, runnable, for
	 * a CPU (the kernel's schedstat run_delay, since the worker began),
	 * as the worker last saw it, and when it looked (timing_now_ns()):
	 * time the disk was not asked for anything, the host's and not the
	 * disk's. The kernel counts a wait only once the thread runs again,
	 * so a long wait shows up after the seconds it took: the monitor
	 * gives it back to them (monitor_held()). 0, 0: unknown (no
	 * schedstat, or not seen yet).
	 */
	uint64_t held_ns, held_at;
};

/* A consistent copy of everything a target's engine knows, at one time. */
struct engine_snap {
	struct engine_counters c;
	struct engine_plan plan;
	unsigned bad_by_class[UNIT_CLASSES];
	unsigned bad_transient;		/* bad units that read back good */
	unsigned bad_unchecked;		/* ...not read again (past the cap) */
	/* units unchecked: their write failed */
	unsigned not_written;
	/*
	 * ENGINE_VERIFY: units of a later pass of this run than the one
	 * expected, whole and at their own offset: written after the record
	 * the verify came from (a run cut off after its last checkpoint).
	 */
	unsigned later_pass;
	uint32_t verified_pass;		/* the pass the last check expected */
	int pass_found;			/* ENGINE_VERIFY: pass read off disk */
	unsigned region_writes;		/* whole-region writes done */
	uint32_t last_written;		/* the last pass written, 0: none */
	uint64_t last_reached;		/* where that pass stopped */
	/*
	 * The guard: region bytes read and found overwritable, from 0; and
	 * when it stopped, the device offset of the first unit that was not,
	 * and the errno when that unit could not be read (0: it holds data).
	 */
	uint64_t guard_checked;
	int guard_stopped;
	uint64_t guard_at;
	int guard_err;
	char why[200];			/* why it stopped, when it did */
	uint64_t phase_bytes[PHASES], phase_ns[PHASES];	/* over all passes */
	struct engine_pass *passes;
	unsigned npasses;
	struct engine_error *errors;
	unsigned nerrors;
	struct engine_bad *bad;
	unsigned nbad;
	/*
	 * The first bad unit, kept past max_detail: the lowest offset of the
	 * first pass that found any (figures_first_bad()).
	 */
	int has_first_bad;
	uint32_t first_bad_pass;
	uint64_t first_bad;
	/* Request times by phase, and the slowest requests, slowest first. */
	struct latency_hist latency[PHASES];
	struct engine_slow slowest[ENGINE_SLOWEST];
	unsigned nslowest;
	struct engine_zones *zones;	/* in the order the phases ran */
	unsigned nzones;
	/* Every run of each phase; passes holds only those kept. */
	struct engine_pass_total totals[PHASES];
	uint64_t folded;		/* runs left out of passes */
};

/* Where region position lin lies on the device, and how much follows. */
static inline uint64_t engine_locate(const struct engine_plan *p, uint64_t lin,
				     uint64_t *left)
{
	int i;

	for (i = 0; i < p->next; i++) {
		if (lin < p->ext[i].length) {
			*left = p->ext[i].length - lin;
			return p->ext[i].offset + lin;
		}
		lin -= p->ext[i].length;
	}
	*left = 0;
	return 0;
}

/* Region bytes a zone covers: the last zone may cover fewer. */
static inline uint64_t engine_zone_size(const struct engine_plan *p)
{
	return (p->region + ENGINE_ZONES - 1) / ENGINE_ZONES;
}

/*
 * What a worker needs of its disk, and no more: the engine knows nothing
 * of how a disk was found, opened or classed (discover/); the caller
 * fills this from its target (plan_disk()).
 */
struct engine_disk {
	int fd;			/* open for the plan's mode, O_DIRECT if it can */
	uint64_t ident;		/* the identity's hash, as its units carry it */
	unsigned lbs;		/* logical block size: buffers align to it */
	/*
	 * After an error that may mean the device left (EIO, ENOSPC): 1 when
	 * it has gone. Called on the worker's thread, with gone_arg; NULL:
	 * only ENODEV and ENXIO say so.
	 */
	int (*gone)(const void *gone_arg);
	const void *gone_arg;
};

/*
 * A target's engine for disk and plan (both copied). NULL when out of
 * memory. The descriptor and gone_arg stay the caller's and must outlive
 * the engine.
 */
struct engine_target *engine_target_new(const struct engine_disk *disk,
					const struct engine_plan *plan);
void engine_target_free(struct engine_target *et);

/* Starts a worker per target. Returns 0 or -errno (none started then). */
int engine_start(struct engine_job *job, struct engine_target **ets, int n);

/*
 * Marks targets whose oldest request is older than the deadline as stalled
 * and returns how many targets are still running. Call about once a second:
 * a longer gap between calls is taken as time the process did not run.
 */
int engine_poll(struct engine_job *job, struct engine_target **ets, int n);

/* Sleeps until a worker ends, engine_wake() is called, or timeout_ns pass. */
void engine_wait(struct engine_job *job, uint64_t timeout_ns);

/* Wakes engine_wait(); safe in a signal handler. */
void engine_wake(struct engine_job *job);

/* Waits for the workers that can still finish; leaves stalled ones be. */
void engine_join(struct engine_target **ets, int n);

/* The live counters, without a lock (the monitor's once-a-second look). */
void engine_counters(const struct engine_target *et, struct engine_counters *c);

/*
 * Copies everything into s under the target's lock, so a reader never
 * sees a list mid-change: 0 or -ENOMEM (s is then empty but valid).
 * engine_snap_free() releases what a snapshot holds (also a zeroed one).
 */
int engine_snapshot(struct engine_target *et, struct engine_snap *s);
void engine_snap_free(struct engine_snap *s);

/*
 * The bytes the guard found at guard_at (up to ENGINE_GUARD_KEEP of them,
 * the rest of the span it read), so the burn can name what is there
 * without asking the disk again: how many were copied into buf.
 */
#define ENGINE_GUARD_KEEP (64u << 10)
size_t engine_guard_found(struct engine_target *et, unsigned char *buf,
			  size_t len);

/* The bad units kept whole; valid after engine_join(), until freed. */
unsigned engine_saved(const struct engine_target *et,
		      const struct engine_saved **saved);

const char *engine_mode_name(int mode);
const char *engine_phase_name(int phase);
const char *engine_state_name(int state);
const char *engine_retry_name(int retry);

#endif
