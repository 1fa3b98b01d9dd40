/* SPDX-License-Identifier: MIT */
/*
 * Description: the burn engine (see engine.h). Each worker owns one target,
 * one ring and qd buffers; it fills units into a buffer just before the
 * buffer's write is queued and checks a read buffer as soon as it lands,
 * while the other qd-1 requests keep the device busy.
 *
 * The monitor (the main thread) reads the live counters without locks and
 * decides stalls: a worker can itself be stuck in the kernel when a device
 * hangs, so it cannot be the one to notice.
 */
#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "timing.h"

/* How long a worker sleeps in the ring before it looks at the clock. */
#define TICK_NS 250000000ull
/* -EAGAIN from a device is retried this often before it counts as an error. */
#define MAX_AGAIN 8

struct slot {
	unsigned char *buf;
	uint64_t lin;		/* position in the region */
	uint64_t off;		/* device offset */
	uint32_t len;
	uint32_t done;		/* bytes already transferred (short I/O) */
	int busy;
	int again;
};

/* A failed write's stretch of the region: its units are not checked. */
struct hole {
	uint64_t lin, len;
};

/* Holes kept a pass; past this a disk is failing everywhere anyway. */
#define MAX_HOLES 65536

struct engine_target {
	struct target *t;
	struct engine_plan plan;

	/* Live, read without a lock by the monitor while the worker runs. */
	atomic_uint_fast64_t bytes_written, bytes_read;
	atomic_uint_fast64_t phase_done;	/* bytes done in this phase */
	atomic_int phase;
	atomic_uint pass;
	atomic_int state;
	atomic_uint io_errors, bad_units;
	atomic_uint_fast64_t *slot_since;	/* submit time per slot; 0 idle */
	unsigned nslots;

	/* Results: under lock, written by the worker, copied by snapshots. */
	pthread_mutex_t lock;
	struct engine_pass *passes;
	unsigned npasses, passes_cap;
	struct engine_error *errors;
	unsigned nerrors;
	struct engine_bad *bad;
	unsigned nbad;
	unsigned bad_by_class[UNIT_CLASSES];
	unsigned bad_transient;
	unsigned not_written;
	struct engine_saved *saved;
	unsigned nsaved;
	uint32_t verified_pass;
	int pass_found;
	unsigned region_writes;
	uint32_t last_written;
	uint64_t last_reached;
	char why[200];

	/* The worker's own: failed writes of the pass being verified. */
	struct hole *holes;
	unsigned nholes;
	int holes_full;

	pthread_t thread;
	int started;
	struct engine_job *job;
};

struct worker {
	struct engine_job *job;
	struct engine_target *et;
	struct target *t;
	struct io_uring ring;
	int ring_ok;
	int fixed_bufs;
	int fixed_file;
	struct slot *slots;
	unsigned char *mem;
	unsigned char *scratch;
	unsigned retried;
	uint64_t end_ns;	/* when --duration runs out; 0: never */
	int out_of_time;
	int vanished;
};

static const char *const phase_names[PHASES] = {
	"start", "write", "flush", "verify", "read", "end"
};

const char *engine_phase_name(int phase)
{
	return phase >= 0 && phase < PHASES ? phase_names[phase] : "unknown";
}

const char *engine_mode_name(int mode)
{
	switch (mode) {
	case ENGINE_WRITE_VERIFY: return "write-verify";
	case ENGINE_WRITE: return "write";
	case ENGINE_VERIFY: return "verify";
	case ENGINE_READ: return "read";
	}
	return "unknown";
}

const char *engine_state_name(int state)
{
	switch (state) {
	case STATE_RUNNING: return "running";
	case STATE_DONE: return "done";
	case STATE_STOPPED: return "stopped";
	case STATE_STALLED: return "stalled";
	case STATE_VANISHED: return "vanished";
	case STATE_BROKEN: return "broken";
	}
	return "unknown";
}

const char *engine_retry_name(int retry)
{
	switch (retry) {
	case RETRY_NONE: return "not re-read";
	case RETRY_SAME: return "same on re-read";
	case RETRY_GOOD: return "good on re-read";
	case RETRY_CHANGED: return "different on re-read";
	case RETRY_FAILED: return "error on re-read";
	}
	return "unknown";
}

struct engine_target *engine_target_new(struct target *t,
					const struct engine_plan *plan)
{
	struct engine_target *et = calloc(1, sizeof(*et));

	if (!et)
		return NULL;
	et->t = t;
	et->plan = *plan;
	atomic_init(&et->state, STATE_RUNNING);
	atomic_init(&et->phase, PHASE_START);
	if (pthread_mutex_init(&et->lock, NULL)) {
		free(et);
		return NULL;
	}
	return et;
}

void engine_target_free(struct engine_target *et)
{
	unsigned i;

	/*
	 * A stalled worker may still run, and its buffers may still be
	 * DMA'd: its engine is left to it, a small leak at the run's end.
	 */
	if (!et || atomic_load(&et->state) == STATE_STALLED)
		return;
	for (i = 0; i < et->nsaved; i++) {
		free(et->saved[i].read);
		free(et->saved[i].expected);
	}
	free(et->saved);
	free(et->passes);
	free(et->errors);
	free(et->bad);
	free(et->holes);
	free(et->slot_since);
	pthread_mutex_destroy(&et->lock);
	free(et);
}

/* The clock request ages are told by: time the process did not run is out. */
static uint64_t job_now(struct engine_job *job)
{
	return timing_now_ns() - atomic_load(&job->paused_ns);
}

void engine_counters(const struct engine_target *et, struct engine_counters *c)
{
	/* The atomics are written by the worker; reading them is safe. */
	struct engine_target *m = (struct engine_target *)et;

	c->state = atomic_load(&m->state);
	c->phase = atomic_load(&m->phase);
	c->pass = atomic_load(&m->pass);
	c->bytes_written = atomic_load(&m->bytes_written);
	c->bytes_read = atomic_load(&m->bytes_read);
	c->phase_done = atomic_load(&m->phase_done);
	c->io_errors = atomic_load(&m->io_errors);
	c->bad_units = atomic_load(&m->bad_units);
}

static void *copy_of(const void *p, size_t n, size_t size, int *failed)
{
	void *c;

	if (!n)
		return NULL;
	c = malloc(n * size);
	if (!c)
		*failed = 1;
	else
		memcpy(c, p, n * size);
	return c;
}

int engine_snapshot(struct engine_target *et, struct engine_snap *s)
{
	int failed = 0;
	unsigned i;

	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&et->lock);
	engine_counters(et, &s->c);
	s->plan = et->plan;
	memcpy(s->bad_by_class, et->bad_by_class, sizeof(s->bad_by_class));
	s->bad_transient = et->bad_transient;
	s->not_written = et->not_written;
	s->verified_pass = et->verified_pass;
	s->pass_found = et->pass_found;
	s->region_writes = et->region_writes;
	s->last_written = et->last_written;
	s->last_reached = et->last_reached;
	memcpy(s->why, et->why, sizeof(s->why));
	for (i = 0; i < et->npasses; i++) {
		s->phase_bytes[et->passes[i].phase] += et->passes[i].bytes;
		s->phase_ns[et->passes[i].phase] += et->passes[i].ns;
	}
	s->passes = copy_of(et->passes, et->npasses, sizeof(*et->passes),
			    &failed);
	s->npasses = s->passes ? et->npasses : 0;
	s->errors = copy_of(et->errors, et->nerrors, sizeof(*et->errors),
			    &failed);
	s->nerrors = s->errors ? et->nerrors : 0;
	s->bad = copy_of(et->bad, et->nbad, sizeof(*et->bad), &failed);
	s->nbad = s->bad ? et->nbad : 0;
	pthread_mutex_unlock(&et->lock);
	return failed ? -ENOMEM : 0;
}

void engine_snap_free(struct engine_snap *s)
{
	free(s->passes);
	free(s->errors);
	free(s->bad);
	s->passes = NULL;
	s->errors = NULL;
	s->bad = NULL;
	s->npasses = s->nerrors = s->nbad = 0;
}

unsigned engine_saved(const struct engine_target *et,
		      const struct engine_saved **saved)
{
	*saved = et->saved;
	return et->nsaved;
}

__attribute__((format(printf, 2, 3)))
static void set_why(struct engine_target *et, const char *fmt, ...)
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
static int leave_running(struct engine_target *et, int state)
{
	int running = STATE_RUNNING;

	return atomic_compare_exchange_strong(&et->state, &running, state);
}

static int stalled(struct engine_target *et)
{
	return atomic_load(&et->state) == STATE_STALLED;
}

static void record_error(struct worker *w, int phase, uint32_t pass,
			 uint64_t off, uint64_t len, int err)
{
	struct engine_target *et = w->et;

	struct engine_error *last;

	atomic_fetch_add(&et->io_errors, 1);
	pthread_mutex_lock(&et->lock);
	last = et->nerrors ? &et->errors[et->nerrors - 1] : NULL;
	/* A dead stretch of disk is one range, not a list of requests. */
	if (last && last->phase == phase && last->pass == pass &&
	    last->err == err && last->offset + last->length == off) {
		last->length += len;
		last->count++;
	} else if (et->nerrors < w->job->max_detail) {
		struct engine_error *e = &et->errors[et->nerrors++];

		e->phase = phase;
		e->pass = pass;
		e->offset = off;
		e->length = len;
		e->err = err;
		e->count = 1;
	}
	pthread_mutex_unlock(&et->lock);

	/* A device that left answers ENODEV or ENXIO, or EIO and no sysfs. */
	if (err == ENODEV || err == ENXIO ||
	    (err == EIO && target_check(w->t) == -ENODEV)) {
		w->vanished = 1;
		if (leave_running(et, STATE_VANISHED))
			set_why(et, "the device went away during %s (%s)",
				engine_phase_name(phase), strerror(err));
	}
}

static void record_pass(struct engine_target *et, uint32_t pass, int phase,
			uint64_t bytes, uint64_t ns, uint64_t reached)
{
	struct engine_pass *p;

	pthread_mutex_lock(&et->lock);
	if (et->npasses == et->passes_cap) {
		unsigned cap = et->passes_cap ? et->passes_cap * 2 : 16;

		p = realloc(et->passes, cap * sizeof(*p));
		if (p) {
			et->passes = p;
			et->passes_cap = cap;
		}
	}
	if (et->npasses < et->passes_cap) {
		p = &et->passes[et->npasses++];
		p->pass = pass;
		p->phase = phase;
		p->bytes = bytes;
		p->ns = ns;
		p->reached = reached;
		p->complete = reached == et->plan.region;
	}
	pthread_mutex_unlock(&et->lock);
}

/* A failed write leaves a hole: verifying its units would count it twice. */
static void add_hole(struct engine_target *et, uint64_t lin, uint64_t len)
{
	if (et->nholes == MAX_HOLES) {
		et->holes_full = 1;
		return;
	}
	if (!et->holes) {
		et->holes = malloc(MAX_HOLES * sizeof(*et->holes));
		if (!et->holes) {
			et->holes_full = 1;
			return;
		}
	}
	et->holes[et->nholes].lin = lin;
	et->holes[et->nholes].len = len;
	et->nholes++;
}

static int cmp_hole(const void *a, const void *b)
{
	const struct hole *x = a, *y = b;

	return x->lin < y->lin ? -1 : x->lin > y->lin;
}

/* Bytes of [lin, lin + len) that lie in a hole (holes sorted, apart). */
static uint64_t in_hole(const struct engine_target *et, uint64_t lin,
			uint64_t len)
{
	unsigned lo = 0, hi = et->nholes;
	uint64_t n = 0;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (et->holes[mid].lin + et->holes[mid].len <= lin)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < et->nholes && et->holes[lo].lin < lin + len; lo++) {
		uint64_t a = et->holes[lo].lin > lin ? et->holes[lo].lin : lin;
		uint64_t b = et->holes[lo].lin + et->holes[lo].len;

		if (b > lin + len)
			b = lin + len;
		n += b - a;
	}
	return n;
}

/* A synchronous single-unit read, watched by the deadline like the rest. */
static ssize_t read_unit(struct worker *w, uint64_t off)
{
	atomic_uint_fast64_t *since = &w->et->slot_since[w->job->qd];
	ssize_t n;

	atomic_store(since, job_now(w->job));
	n = pread(w->t->fd, w->scratch, UNIT_SIZE, (off_t)off);
	atomic_store(since, 0);
	return n;
}

static void handle_bad(struct worker *w, const unsigned char *u,
		       struct unit_key key)
{
	struct engine_target *et = w->et;
	struct engine_job *job = w->job;
	struct engine_bad b = { .offset = key.offset, .pass = key.pass };
	ssize_t n;

	unit_classify(job->ctx, u, key, &b.v);
	if (b.v.class == UNIT_GOOD)
		return;

	/* Read it again once: a fault on the medium reads the same twice. */
	if (w->retried < job->max_detail) {
		w->retried++;
		n = read_unit(w, key.offset);
		if (n != UNIT_SIZE)
			b.retry = RETRY_FAILED;
		else if (unit_good(job->ctx, w->scratch, key))
			b.retry = RETRY_GOOD;
		else if (!memcmp(w->scratch, u, UNIT_SIZE))
			b.retry = RETRY_SAME;
		else
			b.retry = RETRY_CHANGED;
	}

	atomic_fetch_add(&et->bad_units, 1);
	pthread_mutex_lock(&et->lock);
	et->bad_by_class[b.v.class]++;
	if (b.retry == RETRY_GOOD)
		et->bad_transient++;
	if (et->nbad < job->max_detail)
		et->bad[et->nbad++] = b;
	if (et->nsaved < job->save_units) {
		struct engine_saved *s = &et->saved[et->nsaved];

		s->read = malloc(UNIT_SIZE);
		s->expected = malloc(UNIT_SIZE);
		if (s->read && s->expected) {
			s->offset = key.offset;
			s->pass = key.pass;
			memcpy(s->read, u, UNIT_SIZE);
			unit_fill(job->ctx, s->expected, UNIT_SIZE, key);
			et->nsaved++;
		} else {
			free(s->read);
			free(s->expected);
		}
	}
	pthread_mutex_unlock(&et->lock);
}

static void check_buffer(struct worker *w, const struct slot *s,
			 uint32_t pass, int holes)
{
	struct engine_target *et = w->et;
	struct unit_key key = { w->job->ctx->run_id, w->t->ident, 0, pass };
	uint32_t i;

	for (i = 0; i + UNIT_SIZE <= s->len; i += UNIT_SIZE) {
		if (holes && in_hole(et, s->lin + i, UNIT_SIZE)) {
			pthread_mutex_lock(&et->lock);
			et->not_written++;
			pthread_mutex_unlock(&et->lock);
			continue;
		}
		key.offset = s->off + i;
		if (!unit_good(w->job->ctx, s->buf + i, key))
			handle_bad(w, s->buf + i, key);
	}
}

/* Where region position lin lies on the device, and how much follows. */
static uint64_t locate(const struct engine_plan *p, uint64_t lin,
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

static void queue(struct worker *w, struct slot *s, int idx, int phase)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);
	unsigned char *buf = s->buf + s->done;
	unsigned len = s->len - s->done;
	uint64_t off = s->off + s->done;
	int fd = w->fixed_file ? 0 : w->t->fd;

	/* The ring has an entry for every slot, so this cannot fail. */
	if (phase == PHASE_WRITE) {
		if (w->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, len, off, idx);
		else
			io_uring_prep_write(sqe, fd, buf, len, off);
	} else {
		if (w->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, len, off, idx);
		else
			io_uring_prep_read(sqe, fd, buf, len, off);
	}
	if (w->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, (uint64_t)idx);
	atomic_store(&w->et->slot_since[idx], job_now(w->job));
}

/*
 * One phase over region positions [from, limit). Returns the position
 * every request below has been tried at, or -ETIMEDOUT when the target
 * stalled. holes: skip checking units whose write failed in this pass.
 */
static int64_t run_phase(struct worker *w, int phase, uint32_t pass,
			 uint64_t from, uint64_t limit, int timed, int holes)
{
	struct engine_target *et = w->et;
	struct engine_job *job = w->job;
	uint64_t lin = from, ok = 0, t0 = timing_now_ns();
	unsigned inflight = 0, i;
	int stop = 0;

	atomic_store(&et->pass, pass);
	atomic_store(&et->phase_done, 0);
	atomic_store(&et->phase, phase);

	for (;;) {
		struct __kernel_timespec ts = { 0, (long long)TICK_NS };
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;

		for (i = 0; i < job->qd && !stop && inflight < job->qd &&
			    lin < limit; i++) {
			struct slot *s = &w->slots[i];
			uint64_t left, off;

			if (s->busy)
				continue;
			off = locate(&et->plan, lin, &left);
			if (left > limit - lin)
				left = limit - lin;
			s->busy = 1;
			s->lin = lin;
			s->off = off;
			s->len = (uint32_t)(left < job->bs ? left : job->bs);
			s->done = 0;
			s->again = 0;
			if (phase == PHASE_WRITE) {
				struct unit_key key = { job->ctx->run_id,
							w->t->ident, off, pass };

				unit_fill(job->ctx, s->buf, s->len, key);
			}
			queue(w, s, (int)i, phase);
			lin += s->len;
			inflight++;
		}
		if (!inflight)
			break;

		io_uring_submit_and_wait_timeout(&w->ring, &cqe, 1, &ts, NULL);
		io_uring_for_each_cqe(&w->ring, head, cqe) {
			int idx = (int)io_uring_cqe_get_data64(cqe);
			struct slot *s = &w->slots[idx];
			int res = cqe->res;

			seen++;
			atomic_store(&et->slot_since[idx], 0);
			if (res == -EAGAIN && ++s->again < MAX_AGAIN) {
				queue(w, s, idx, phase);
				continue;
			}
			if (res > 0 && s->done + (uint32_t)res < s->len) {
				/* Short transfer: ask for the rest. */
				s->done += (uint32_t)res;
				queue(w, s, idx, phase);
				continue;
			}
			if (res <= 0) {
				/* 0 is no progress at all: say EIO, not loop. */
				record_error(w, phase, pass, s->off + s->done,
					     s->len - s->done, res ? -res : EIO);
				if (phase == PHASE_WRITE)
					add_hole(et, s->lin, s->len);
			} else {
				if (phase == PHASE_VERIFY)
					check_buffer(w, s, pass, holes);
				if (phase == PHASE_WRITE)
					atomic_fetch_add(&et->bytes_written, s->len);
				else
					atomic_fetch_add(&et->bytes_read, s->len);
				ok += s->len;
			}
			atomic_fetch_add(&et->phase_done, s->len);
			s->busy = 0;
			inflight--;
		}
		io_uring_cq_advance(&w->ring, seen);

		/* Its buffers may still be in the kernel's hands: leave them. */
		if (stalled(et))
			return -ETIMEDOUT;
		if (atomic_load(&job->stop) || w->vanished)
			stop = 1;
		if (timed && w->end_ns && timing_now_ns() >= w->end_ns) {
			w->out_of_time = 1;
			stop = 1;
		}
	}
	record_pass(et, pass, phase, ok, timing_now_ns() - t0, lin);
	return (int64_t)lin;
}

static int flush(struct worker *w, uint32_t pass)
{
	struct engine_target *et = w->et;
	atomic_uint_fast64_t *since = &et->slot_since[w->job->qd];
	uint64_t t0 = timing_now_ns();
	int ret;

	atomic_store(&et->phase, PHASE_FLUSH);
	atomic_store(since, job_now(w->job));
	ret = fdatasync(w->t->fd);
	atomic_store(since, 0);
	if (ret < 0)
		record_error(w, PHASE_FLUSH, pass, 0, 0, errno);
	record_pass(et, pass, PHASE_FLUSH, 0, timing_now_ns() - t0,
		    ret == 0 ? et->plan.region : 0);
	return stalled(et) ? -ETIMEDOUT : 0;
}

/* Reads the pass an earlier write left: the newest found at start, middle, end. */
static uint32_t find_pass(struct worker *w)
{
	struct engine_target *et = w->et;
	uint64_t region = et->plan.region;
	uint64_t probes[3] = { 0, region / 2, region - UNIT_SIZE };
	uint32_t best = 0;
	int i;

	for (i = 0; i < 3; i++) {
		struct unit_header h;
		uint64_t left, off = locate(&et->plan,
					    probes[i] / UNIT_SIZE * UNIT_SIZE,
					    &left);

		if (read_unit(w, off) != UNIT_SIZE ||
		    !unit_parse(w->scratch, &h))
			continue;
		if (h.key.run_id == w->job->ctx->run_id &&
		    h.key.ident == w->t->ident && h.key.offset == off &&
		    h.key.pass > best)
			best = h.key.pass;
	}
	return best;
}

static int setup(struct worker *w)
{
	struct engine_job *job = w->job;
	struct engine_target *et = w->et;
	struct io_uring_params p;
	struct iovec *iov;
	size_t align = w->t->lbs > 4096 ? w->t->lbs : 4096;
	unsigned i;
	int ret;

	w->slots = calloc(job->qd, sizeof(*w->slots));
	iov = calloc(job->qd, sizeof(*iov));
	if (!w->slots || !iov ||
	    posix_memalign((void **)&w->mem, align, job->qd * job->bs) ||
	    posix_memalign((void **)&w->scratch, align, UNIT_SIZE)) {
		free(iov);
		set_why(et, "cannot allocate %u buffers of %llu bytes", job->qd,
			(unsigned long long)job->bs);
		return -ENOMEM;
	}
	for (i = 0; i < job->qd; i++) {
		w->slots[i].buf = w->mem + (size_t)i * job->bs;
		iov[i].iov_base = w->slots[i].buf;
		iov[i].iov_len = job->bs;
	}

	memset(&p, 0, sizeof(p));
	/* Both flags cut overhead where the kernel has them (6.0, 5.19). */
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
	ret = io_uring_queue_init_params(job->qd, &w->ring, &p);
	if (ret == -EINVAL) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params(job->qd, &w->ring, &p);
	}
	if (ret < 0) {
		free(iov);
		set_why(et, "cannot set up io_uring: %s", strerror(-ret));
		return ret;
	}
	w->ring_ok = 1;
	/* Registration saves a page walk per request; without it, still run. */
	w->fixed_bufs = io_uring_register_buffers(&w->ring, iov, job->qd) == 0;
	w->fixed_file = io_uring_register_files(&w->ring, &w->t->fd, 1) == 0;
	free(iov);
	return 0;
}

static void teardown(struct worker *w)
{
	/*
	 * A ring is torn down asynchronously after its fd closes, and until
	 * then its registered file keeps the device claimed (O_EXCL): a kiln
	 * run straight after would find the device busy. Unregistering waits.
	 */
	if (w->ring_ok && w->fixed_file)
		io_uring_unregister_files(&w->ring);
	if (w->ring_ok && w->fixed_bufs)
		io_uring_unregister_buffers(&w->ring);
	if (w->ring_ok)
		io_uring_queue_exit(&w->ring);
	free(w->slots);
	free(w->mem);
	free(w->scratch);
}

static int done_passes(struct worker *w, unsigned iter)
{
	struct engine_job *job = w->job;

	if (atomic_load(&job->stop) || w->vanished || w->out_of_time)
		return 1;
	if (w->end_ns && timing_now_ns() >= w->end_ns)
		return 1;
	if (job->passes)
		return iter >= job->passes;
	/* No passes given: one, or as many as the duration allows. */
	return !job->duration_ns;
}

/* One write pass and its flush: the region position it reached, or < 0. */
static int64_t write_pass(struct worker *w, uint32_t pass)
{
	struct engine_target *et = w->et;
	int64_t r;

	et->nholes = 0;
	et->holes_full = 0;
	r = run_phase(w, PHASE_WRITE, pass, 0, et->plan.region, 1, 0);
	if (r < 0)
		return r;
	if (flush(w, pass) < 0)
		return -ETIMEDOUT;
	if (et->nholes)
		qsort(et->holes, et->nholes, sizeof(*et->holes), cmp_hole);
	pthread_mutex_lock(&et->lock);
	if ((uint64_t)r == et->plan.region)
		et->region_writes++;
	et->last_written = pass;
	et->last_reached = (uint64_t)r;
	pthread_mutex_unlock(&et->lock);
	return r;
}

static void set_verified(struct engine_target *et, uint32_t pass, int found)
{
	pthread_mutex_lock(&et->lock);
	et->verified_pass = pass;
	if (found >= 0)
		et->pass_found = found;
	pthread_mutex_unlock(&et->lock);
}

/* ENGINE_VERIFY: what the plan says was written, or the pass on disk. */
static int64_t verify_pass(struct worker *w)
{
	struct engine_target *et = w->et;
	const struct engine_plan *p = &et->plan;
	uint32_t pass = p->verify_pass;
	uint64_t cut = p->verify_cut && p->verify_cut < p->region ?
		       p->verify_cut : p->region;
	int64_t r;

	if (!pass) {
		pass = find_pass(w);
		set_verified(et, pass ? pass : 1, pass != 0);
		if (!pass)
			pass = 1;
	} else {
		set_verified(et, pass, -1);
	}
	r = run_phase(w, PHASE_VERIFY, pass, 0, cut, 1, 0);
	/* Past where a cut-short pass stopped, the pass before it is there. */
	if (r == (int64_t)cut && cut < p->region && pass > 1 &&
	    !atomic_load(&w->job->stop) && !w->vanished && !w->out_of_time)
		r = run_phase(w, PHASE_VERIFY, pass - 1, cut, p->region, 1, 0);
	return r;
}

static void *worker_main(void *arg)
{
	struct engine_target *et = arg;
	struct engine_job *job = et->job;
	struct worker w = { .job = job, .et = et, .t = et->t };
	const struct engine_plan *p = &et->plan;
	uint32_t written = 0;
	unsigned iter;
	int64_t r = 0;

	if (job->duration_ns)
		w.end_ns = job->start_ns + job->duration_ns;
	if (setup(&w) < 0) {
		leave_running(et, STATE_BROKEN);
		teardown(&w);
		engine_wake(job);
		return NULL;
	}

	for (iter = 1;; iter++) {
		uint64_t limit = p->region;

		switch (p->mode) {
		case ENGINE_WRITE_VERIFY:
		case ENGINE_WRITE:
			if (!p->write_passes || et->region_writes < p->write_passes) {
				r = write_pass(&w, iter);
				if (r < 0)
					return NULL;
				limit = (uint64_t)r;
				written = iter;
			}
			if (p->mode == ENGINE_WRITE || !written || !limit ||
			    atomic_load(&job->stop) || w.vanished)
				break;
			/* What this pass wrote is checked even when time is up. */
			set_verified(et, written, -1);
			r = run_phase(&w, PHASE_VERIFY, written, 0, limit, 0,
				      written == iter && et->nholes);
			break;
		case ENGINE_VERIFY:
			r = verify_pass(&w);
			break;
		default:
			r = run_phase(&w, PHASE_READ, 0, 0, p->region, 1, 0);
			break;
		}
		if (r < 0)
			return NULL;
		if (done_passes(&w, iter))
			break;
	}

	atomic_store(&et->phase, PHASE_END);
	if (atomic_load(&job->stop))
		set_why(et, "interrupted");
	else if (w.out_of_time)
		set_why(et, "the duration ran out in pass %u", iter);
	leave_running(et, atomic_load(&job->stop) ? STATE_STOPPED : STATE_DONE);
	teardown(&w);
	engine_wake(job);
	return NULL;
}

int engine_start(struct engine_job *job, struct engine_target **ets, int n)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int i, ret = 0;

	for (i = 0; i < n; i++) {
		struct engine_target *et = ets[i];

		et->job = job;
		et->nslots = job->qd + 1;
		et->slot_since = calloc(et->nslots, sizeof(*et->slot_since));
		et->errors = calloc(job->max_detail + 1, sizeof(*et->errors));
		et->bad = calloc(job->max_detail + 1, sizeof(*et->bad));
		et->saved = calloc(job->save_units + 1, sizeof(*et->saved));
		if (!et->slot_since || !et->errors || !et->bad || !et->saved)
			return -ENOMEM;
	}

	job->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	/* Without it engine_wait() would spin: a poll of -1 returns at once. */
	if (job->wake_fd < 0)
		return -errno;
	/* Workers take no signals: the main thread stops them through job. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	job->start_ns = timing_now_ns();
	job->polled_ns = job->start_ns;
	for (i = 0; i < n && !ret; i++) {
		ret = -pthread_create(&ets[i]->thread, &attr, worker_main, ets[i]);
		ets[i]->started = !ret;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		atomic_store(&job->stop, 1);
	return ret;
}

void engine_wake(struct engine_job *job)
{
	uint64_t one = 1;

	if (job->wake_fd >= 0 && write(job->wake_fd, &one, sizeof(one)) < 0) {
		/* Full or closed: the waiter wakes on its timeout anyway. */
	}
}

void engine_wait(struct engine_job *job, uint64_t timeout_ns)
{
	struct pollfd p = { .fd = job->wake_fd, .events = POLLIN };
	uint64_t count;

	if (job->wake_fd < 0) {
		struct timespec ts = { (time_t)(timeout_ns / 1000000000ull),
				       (long)(timeout_ns % 1000000000ull) };

		nanosleep(&ts, NULL);
		return;
	}
	if (poll(&p, 1, (int)(timeout_ns / 1000000)) <= 0)
		return;
	if (read(job->wake_fd, &count, sizeof(count)) < 0) {
		/* Nothing to read: someone else drained it. */
	}
}

/*
 * The main thread polls about once a second; a much longer gap means the
 * whole process did not run (SIGSTOP, a VM paused, the host swapping), and
 * that time is no disk's stall. Longer than this between polls is a pause.
 */
#define PAUSE_GAP_NS 3000000000ull

int engine_poll(struct engine_job *job, struct engine_target **ets, int n)
{
	uint64_t real = timing_now_ns(), now;
	int i, running = 0;
	unsigned s;

	if (real - job->polled_ns > PAUSE_GAP_NS)
		atomic_fetch_add(&job->paused_ns,
				 real - job->polled_ns - 1000000000ull);
	job->polled_ns = real;
	now = job_now(job);
	for (i = 0; i < n; i++) {
		struct engine_target *et = ets[i];
		uint64_t oldest = 0;

		if (atomic_load(&et->state) != STATE_RUNNING)
			continue;
		for (s = 0; s < et->nslots; s++) {
			uint64_t since = atomic_load(&et->slot_since[s]);

			if (since && (!oldest || since < oldest))
				oldest = since;
		}
		if (oldest && now > oldest && now - oldest > job->deadline_ns &&
		    leave_running(et, STATE_STALLED)) {
			set_why(et, "a request during %s got no answer in %llu s",
				engine_phase_name(atomic_load(&et->phase)),
				(unsigned long long)(job->deadline_ns / 1000000000ull));
			continue;
		}
		running++;
	}
	return running;
}

void engine_join(struct engine_target **ets, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!ets[i] || !ets[i]->started)
			continue;
		if (atomic_load(&ets[i]->state) == STATE_STALLED)
			pthread_detach(ets[i]->thread);
		else
			pthread_join(ets[i]->thread, NULL);
		ets[i]->started = 0;
	}
}
