/* SPDX-License-Identifier: MIT */
/*
 * Description: one worker, one target: its ring and qd buffers, the passes
 * of its mode (write, flush, verify; or read), the check of every unit
 * read back, and what went wrong, kept under the target's lock. It fills
 * units into a buffer just before the buffer's write is queued and checks
 * a read buffer as soon as it lands, while the other qd-1 requests keep
 * the device busy.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/deadline.h"
#include "engine/engine_private.h"
#include "engine/guard.h"
#include "engine/memplan.h"
#include "engine/tally.h"
#include "engine/worker.h"

/* How long a worker sleeps in the ring before it looks at the clock. */
#define TICK_NS 250000000ull
/* -EAGAIN from a device is retried this often before it counts as an error. */
#define MAX_AGAIN 8

/* Where a slot's span is in the guarded write: read, checked, written. */
enum stage {
	STAGE_IO,		/* the phase's own request */
	STAGE_GUARD,		/* the guard's read of the span */
	STAGE_CHECKED,		/* overwritable: waits for the checked front */
	STAGE_WRITE,		/* its write, behind the checked front */
};

struct slot {
	unsigned char *buf;
	uint64_t lin;		/* position in the region */
	uint64_t off;		/* device offset */
	uint32_t len;
	uint32_t done;		/* bytes already transferred (short I/O) */
	int busy;
	int again;
	int stage;		/* enum stage */
	struct tally_req tr;
};

struct worker {
	struct engine_job *job;
	struct engine_target *et;
	const struct engine_disk *d;
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
	struct tally tally;	/* zones, request times, the slowest */
	struct guard guard;	/* plan.guard: the check before a write */
	int guarding;
	unsigned nbufs;		/* slots with a buffer: the first nbufs */
};

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

	/*
	 * A device that left answers ENODEV or ENXIO, or EIO and no sysfs;
	 * a SCSI disk being pulled has no capacity first, and its writes
	 * end with ENOSPC until its sysfs goes: each of those looks again.
	 */
	if (err == ENODEV || err == ENXIO ||
	    ((err == EIO || err == ENOSPC) && w->d->gone &&
	     w->d->gone(w->d->gone_arg))) {
		w->vanished = 1;
		if (leave_running(et, STATE_VANISHED))
			set_why(et, "the device went away during %s (%s)",
				engine_phase_name(phase), strerror(err));
	}
}

static void record_pass(struct engine_target *et, uint32_t pass, int phase,
			uint64_t bytes, uint64_t ns, uint64_t reached)
{
	struct engine_pass p = {
		.pass = pass, .phase = phase, .bytes = bytes, .ns = ns,
		.reached = reached, .complete = reached == et->plan.region,
	};
	unsigned errors = atomic_load(&et->io_errors);
	unsigned bad = atomic_load(&et->bad_units);

	/* A worker's phases run one after another: the growth is this run's. */
	pthread_mutex_lock(&et->lock);
	p.errors = errors - et->seen_errors;
	p.bad_units = bad - et->seen_bad;
	et->seen_errors = errors;
	et->seen_bad = bad;
	engine_pass_add(et, &p);
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

/*
 * A synchronous single-unit read, watched by the deadline like the rest;
 * made in a child (deadline.h), so a disk that never answers holds no
 * thread of kiln's in its uninterruptible sleep and kiln can still exit.
 */
static ssize_t read_unit(struct worker *w, uint64_t off)
{
	atomic_uint_fast64_t *since = &w->et->slot_since[w->job->qd];
	ssize_t n;

	atomic_store(since, job_now(w->job));
	n = deadline_pread(w->d->fd, w->scratch, UNIT_SIZE, (off_t)off, NULL);
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
	/*
	 * A later pass of this run, whole, at its own offset: only this run
	 * can have written it, after the record a verify was given (cut off
	 * after its last checkpoint). Newer data is no lost data. Only with
	 * a record: without one the pass expected is a guess from three
	 * units, which lost writes there would make one too low.
	 */
	if (et->plan.mode == ENGINE_VERIFY && et->plan.verify_pass &&
	    b.v.class == UNIT_STALE &&
	    b.v.found.run_id == key.run_id && b.v.found.ident == key.ident &&
	    b.v.found.offset == key.offset && b.v.found.pass > key.pass &&
	    unit_good(job->ctx, u, b.v.found)) {
		pthread_mutex_lock(&et->lock);
		et->later_pass++;
		pthread_mutex_unlock(&et->lock);
		return;
	}

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
	struct unit_key key = { w->job->ctx->run_id, w->d->ident, 0, pass };
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

static void queue(struct worker *w, struct slot *s, int idx, int phase)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);
	unsigned char *buf = s->buf + s->done;
	unsigned len = s->len - s->done;
	uint64_t off = s->off + s->done;
	uint64_t now = job_now(w->job);
	int fd = w->fixed_file ? 0 : w->d->fd;

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
	s->tr.side = phase == PHASE_GUARD;
	tally_submit(&w->tally, &s->tr, now);
	atomic_store(&w->et->slot_since[idx], now);
}

/* A write phase's guard: where it stands, kept across a batch. */
struct guarded {
	uint64_t from;		/* spans ending past here are read first */
	uint64_t stop_lin;	/* the first unit not to overwrite; ~0 */
	uint64_t wrote_to;	/* the end of the writes queued */
	uint64_t read_ok;	/* guard bytes read */
	uint64_t t0;
};

/*
 * The guard found what it may not overwrite at s's byte k (or could not
 * read it: err): the disk writes nothing more. The lowest such unit is
 * the one said, with the bytes from it, so the burn can name them
 * without another read.
 */
static void guard_stop(struct worker *w, struct guarded *g, struct slot *s,
		       uint32_t k, int err)
{
	struct engine_target *et = w->et;
	size_t n = s->len - k < ENGINE_GUARD_KEEP ? s->len - k :
						    ENGINE_GUARD_KEEP;

	if (s->lin + k >= g->stop_lin)
		return;
	g->stop_lin = s->lin + k;
	pthread_mutex_lock(&et->lock);
	et->guard_at = s->off + k;
	et->guard_err = err;
	if (!et->guard_found)
		et->guard_found = malloc(ENGINE_GUARD_KEEP);
	et->nguard_found = 0;
	if (et->guard_found && !err) {
		memcpy(et->guard_found, s->buf + k, n);
		et->nguard_found = n;
	}
	pthread_mutex_unlock(&et->lock);
	/* Counted: a lower one found later is said again. */
	atomic_fetch_add(&et->guard_stopped, 1);
}

/*
 * After a batch: the checked front is the lowest span still being read
 * (or the next to be read); every checked span below it is written, in
 * no particular order, since all below it were read and found blank or
 * kiln's. Once the guard stopped nothing more is written.
 */
static void guard_advance(struct worker *w, struct guarded *g, uint32_t pass,
			  uint64_t next)
{
	struct engine_target *et = w->et;
	struct engine_job *job = w->job;
	uint64_t front = next;
	unsigned i;

	for (i = 0; i < w->nbufs; i++)
		if (w->slots[i].busy && w->slots[i].stage == STAGE_GUARD &&
		    w->slots[i].lin < front)
			front = w->slots[i].lin;
	if (front > g->stop_lin)
		front = g->stop_lin;
	pthread_mutex_lock(&et->lock);
	if (front > et->guard_checked)
		et->guard_checked = front;
	pthread_mutex_unlock(&et->lock);
	for (i = 0; i < w->nbufs; i++) {
		struct slot *s = &w->slots[i];
		struct unit_key key = { job->ctx->run_id, w->d->ident, s->off,
					pass };

		if (!s->busy || s->stage != STAGE_CHECKED)
			continue;
		if (g->stop_lin != UINT64_MAX) {
			s->busy = 0;
			continue;
		}
		if (s->lin + s->len > front)
			continue;
		unit_fill(job->ctx, s->buf, s->len, key);
		s->stage = STAGE_WRITE;
		s->done = 0;
		s->again = 0;
		queue(w, s, (int)i, PHASE_WRITE);
		if (s->lin + s->len > g->wrote_to)
			g->wrote_to = s->lin + s->len;
	}
}

/* A guard read came back whole: checked, or the guard stops there. */
static void guard_read(struct worker *w, struct guarded *g, struct slot *s)
{
	size_t k = guard_check(&w->guard, s->buf, s->len, s->off);

	/* Not bytes_read: those are the test's reads; these its guard's. */
	g->read_ok += s->len;
	if (k < s->len) {
		guard_stop(w, g, s, (uint32_t)k, 0);
		s->busy = 0;
		return;
	}
	s->stage = STAGE_CHECKED;
}

/*
 * Of ns, the part a's requests had of the busy time they shared with b's:
 * the guarded write's reads and writes go at once, and each phase's rate
 * is its bytes over its own share, as if it had had the disk alone.
 */
static uint64_t share_of(uint64_t ns, const struct engine_zones *a,
			 const struct engine_zones *b)
{
	double x = 0, y = 0;
	int z;

	for (z = 0; z < ENGINE_ZONES; z++) {
		x += (double)a->ns[z];
		y += (double)b->ns[z];
	}
	return x + y > 0 ? (uint64_t)((double)ns * x / (x + y)) : 0;
}

/*
 * One phase over region positions [from, limit). Returns the position
 * every request below has been tried at, or -ETIMEDOUT when the target
 * stalled. holes: skip checking units whose write failed in this pass.
 * A write phase of a guarded plan reads each span past what the guard
 * checked before it writes it (guard_advance); where the guard stops, it
 * returns where its writes ended.
 */
static int64_t run_phase(struct worker *w, int phase, uint32_t pass,
			 uint64_t from, uint64_t limit, int timed, int holes)
{
	struct engine_target *et = w->et;
	struct engine_job *job = w->job;
	uint64_t lin = from, ok = 0, t0 = timing_now_ns(), ns;
	struct guarded gd = { .stop_lin = UINT64_MAX, .wrote_to = from },
		       *g = NULL;
	unsigned inflight = 0, i;
	int stop = 0;

	atomic_store(&et->pass, pass);
	atomic_store(&et->phase_done, 0);
	atomic_store(&et->phase, phase);
	tally_begin(&w->tally, phase, pass);
	if (phase == PHASE_WRITE && w->guarding) {
		pthread_mutex_lock(&et->lock);
		gd.from = et->guard_checked;
		pthread_mutex_unlock(&et->lock);
		if (gd.from < limit) {
			g = &gd;
			tally_begin_side(&w->tally, PHASE_GUARD, pass);
		}
	}

	for (;;) {
		struct __kernel_timespec ts = { 0, (long long)TICK_NS };
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now;

		for (i = 0; i < w->nbufs && !stop && inflight < job->qd &&
			    lin < limit; i++) {
			struct slot *s = &w->slots[i];
			uint64_t left, off;

			if (s->busy)
				continue;
			off = engine_locate(&et->plan, lin, &left);
			if (left > limit - lin)
				left = limit - lin;
			s->busy = 1;
			s->lin = lin;
			s->off = off;
			s->len = (uint32_t)(left < job->bs ? left : job->bs);
			s->done = 0;
			s->again = 0;
			s->stage = STAGE_IO;
			if (g && lin + s->len > g->from) {
				s->stage = STAGE_GUARD;
				queue(w, s, (int)i, PHASE_GUARD);
				lin += s->len;
				inflight++;
				continue;
			}
			if (phase == PHASE_WRITE) {
				struct unit_key key = {job->ctx->run_id,
						       w->d->ident, off, pass};

				unit_fill(job->ctx, s->buf, s->len, key);
				if (lin + s->len > gd.wrote_to)
					gd.wrote_to = lin + s->len;
			}
			queue(w, s, (int)i, phase);
			lin += s->len;
			inflight++;
		}
		if (!inflight)
			break;

		io_uring_submit_and_wait_timeout(&w->ring, &cqe, 1, &ts, NULL);
		/* One clock read for the batch: they all came back by now. */
		now = job_now(job);
		io_uring_for_each_cqe(&w->ring, head, cqe) {
			int idx = (int)io_uring_cqe_get_data64(cqe);
			struct slot *s = &w->slots[idx];
			int res = cqe->res, err;
			int sphase = s->stage == STAGE_GUARD ? PHASE_GUARD :
				     phase;

			seen++;
			atomic_store(&et->slot_since[idx], 0);
			tally_done(&w->tally, &s->tr, now, s->lin + s->done,
				   s->off + s->done, s->len - s->done,
				   res > 0 ? (uint64_t)res : 0);
			if (res == -EAGAIN && ++s->again < MAX_AGAIN) {
				queue(w, s, idx, sphase);
				continue;
			}
			if (res > 0 && s->done + (uint32_t)res < s->len) {
				/* Short transfer: ask for the rest. */
				s->done += (uint32_t)res;
				queue(w, s, idx, sphase);
				continue;
			}
			if (sphase == PHASE_GUARD) {
				inflight--;
				if (res > 0) {
					s->done = s->len;
					guard_read(w, g, s);
					continue;
				}
				/* Not read is not proven: no write there. */
				err = res ? -res : EIO;
				record_error(w, PHASE_GUARD, pass,
					     s->off + s->done, s->len - s->done,
					     err);
				guard_stop(w, g, s, s->done & ~(UNIT_SIZE - 1u),
					   err);
				s->busy = 0;
				continue;
			}
			if (res <= 0) {
				/* 0 is no progress at all: EIO, not a loop. */
				record_error(w, phase, pass, s->off + s->done,
					     s->len - s->done,
					     res ? -res : EIO);
				if (phase == PHASE_WRITE)
					add_hole(et, s->lin, s->len);
			} else {
				if (phase == PHASE_VERIFY)
					check_buffer(w, s, pass, holes);
				if (phase == PHASE_WRITE)
					atomic_fetch_add(&et->bytes_written,
							 s->len);
				else
					atomic_fetch_add(&et->bytes_read,
							 s->len);
				ok += s->len;
			}
			atomic_fetch_add(&et->phase_done, s->len);
			s->busy = 0;
			inflight--;
		}
		io_uring_cq_advance(&w->ring, seen);
		if (g) {
			guard_advance(w, g, pass, lin);
			/* Every slot still busy has a request out again. */
			for (i = 0, inflight = 0; i < w->nbufs; i++)
				inflight += w->slots[i].busy;
			if (g->stop_lin != UINT64_MAX)
				stop = 1;
		}
		tally_tick(&w->tally, now);

		/* Its buffers may be the kernel's still: leave them. */
		if (stalled(et)) {
			tally_end(&w->tally);
			return -ETIMEDOUT;
		}
		if (atomic_load(&job->stop) || w->vanished)
			stop = 1;
		if (timed && w->end_ns && timing_now_ns() >= w->end_ns) {
			w->out_of_time = 1;
			stop = 1;
		}
	}
	tally_end(&w->tally);
	ns = timing_now_ns() - t0;
	if (g) {
		/* Each its share of the time, as the zones have it. */
		uint64_t gns = share_of(ns, &w->tally.side, &w->tally.cur);

		record_pass(et, pass, PHASE_GUARD, gd.read_ok, gns,
			    gd.stop_lin != UINT64_MAX ? gd.stop_lin : lin);
		ns -= gns;
		if (gd.stop_lin != UINT64_MAX)
			lin = gd.wrote_to;
	}
	record_pass(et, pass, phase, ok, ns, lin);
	return (int64_t)lin;
}

/* The flush, in a child as read_unit() reads: a dead disk is left there. */
static int flush(struct worker *w, uint32_t pass)
{
	struct engine_target *et = w->et;
	atomic_uint_fast64_t *since = &et->slot_since[w->job->qd];
	uint64_t t0 = timing_now_ns();
	int ret;

	atomic_store(&et->phase, PHASE_FLUSH);
	atomic_store(since, job_now(w->job));
	ret = deadline_fdatasync(w->d->fd);
	atomic_store(since, 0);
	if (ret < 0)
		record_error(w, PHASE_FLUSH, pass, 0, 0, -ret);
	record_pass(et, pass, PHASE_FLUSH, 0, timing_now_ns() - t0,
		    ret == 0 ? et->plan.region : 0);
	return stalled(et) ? -ETIMEDOUT : 0;
}

/* The pass an earlier write left: the newest at start, middle, end. */
static uint32_t find_pass(struct worker *w)
{
	struct engine_target *et = w->et;
	uint64_t region = et->plan.region;
	uint64_t probes[3] = { 0, region / 2, region - UNIT_SIZE };
	uint32_t best = 0;
	int i;

	for (i = 0; i < 3; i++) {
		struct unit_header h;
		uint64_t left, off = engine_locate(&et->plan,
						   probes[i] / UNIT_SIZE *
						   UNIT_SIZE, &left);

		if (read_unit(w, off) != UNIT_SIZE ||
		    !unit_parse(w->scratch, &h))
			continue;
		if (h.key.run_id == w->job->ctx->run_id &&
		    h.key.ident == w->d->ident && h.key.offset == off &&
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
	size_t align = w->d->lbs > 4096 ? w->d->lbs : 4096;
	uint64_t buflen;
	unsigned i;
	int ret;

	/*
	 * A region with fewer requests than qd never has more in flight, and
	 * none is longer than its widest extent: only those buffers are
	 * pinned, as the memory plan (memplan.c) counted.
	 */
	memplan_buffers(&et->plan, job->bs, job->qd, align, &w->nbufs,
			&buflen);
	w->slots = calloc(job->qd, sizeof(*w->slots));
	iov = calloc(w->nbufs, sizeof(*iov));
	if (!w->slots || !iov ||
	    posix_memalign((void **)&w->mem, align, w->nbufs * buflen) ||
	    posix_memalign((void **)&w->scratch, align, UNIT_SIZE)) {
		free(iov);
		set_why(et, "cannot allocate %u buffers of %llu bytes",
			w->nbufs, (unsigned long long)buflen);
		return -ENOMEM;
	}
	for (i = 0; i < job->qd; i++) {
		if (i >= w->nbufs) {
			/*
			 * Slots are taken lowest first and these are never
			 * reached (the phase runs out of requests first):
			 * marked busy, they could not be taken anyway.
			 */
			w->slots[i].busy = 1;
			continue;
		}
		w->slots[i].buf = w->mem + (size_t)i * buflen;
		iov[i].iov_base = w->slots[i].buf;
		iov[i].iov_len = buflen;
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
	w->fixed_bufs =
		io_uring_register_buffers(&w->ring, iov, w->nbufs) == 0;
	w->fixed_file = io_uring_register_files(&w->ring, &w->d->fd, 1) == 0;
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

void *worker_run(void *arg)
{
	struct engine_target *et = arg;
	struct engine_job *job = et->job;
	struct worker w = { .job = job, .et = et, .d = &et->disk };
	const struct engine_plan *p = &et->plan;
	uint32_t written = 0;
	unsigned iter;
	int64_t r = 0;

	if (job->duration_ns)
		w.end_ns = job->start_ns + job->duration_ns;
	tally_init(&w.tally, et);
	if (setup(&w) < 0 || (p->guard &&
			      guard_init(&w.guard, job->ctx, w.d->ident,
					 p->guard_byte) < 0)) {
		set_why(et, "cannot allocate the guard's buffers");
		leave_running(et, STATE_BROKEN);
		guard_free(&w.guard);
		teardown(&w);
		engine_wake(job);
		return NULL;
	}
	w.guarding = p->guard;

	for (iter = 1;; iter++) {
		uint64_t limit = p->region;

		switch (p->mode) {
		case ENGINE_WRITE_VERIFY:
		case ENGINE_WRITE:
			/* The guard found data: tested read-only from here. */
			if (atomic_load(&et->guard_stopped)) {
				r = run_phase(&w, PHASE_READ, 0, 0, p->region,
					      1, 0);
				break;
			}
			if (!p->write_passes ||
			    et->region_writes < p->write_passes) {
				r = write_pass(&w, iter);
				if (r < 0)
					return NULL;
				limit = (uint64_t)r;
				written = iter;
			}
			if (p->mode == ENGINE_WRITE_VERIFY && written &&
			    limit && !atomic_load(&job->stop) && !w.vanished) {
				/* What it wrote is checked, even out of time. */
				set_verified(et, written, -1);
				r = run_phase(&w, PHASE_VERIFY, written, 0,
					      limit, 0,
					      written == iter && et->nholes);
			}
			/* Past where the guard stopped, this pass reads. */
			if (r >= 0 && atomic_load(&et->guard_stopped) &&
			    written == iter && limit < p->region &&
			    !atomic_load(&job->stop) && !w.vanished &&
			    !w.out_of_time)
				r = run_phase(&w, PHASE_READ, 0, limit,
					      p->region, 1, 0);
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
	guard_free(&w.guard);
	teardown(&w);
	engine_wake(job);
	return NULL;
}

