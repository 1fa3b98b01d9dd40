/* SPDX-License-Identifier: MIT */
/*
 * Description: one phase of a worker (see worker_private.h): its requests
 * filled into the free slots and queued, submitted with one wait, and
 * reaped, each completion on its own (a short or -EAGAIN transfer asked
 * again, a read's units checked as soon as it lands, a failure kept),
 * while the other qd-1 requests keep the device busy; as fio splits a
 * request's prep, the wait for events and each event. A write fills its
 * units just before its buffer is queued. In a guarded write each span is
 * read and checked first and written behind the checked front, read and
 * checked again first when it had to wait for the front. Then the flush,
 * and the run of each phase kept under the target's lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/deadline.h"
#include "engine/worker_private.h"

/* How long a worker sleeps in the ring before it looks at the clock. */
#define TICK_NS 250000000ull
/* -EAGAIN from a device is retried this often before it counts as an error. */
#define MAX_AGAIN 8

static void record_pass(struct worker *w, int phase, uint64_t bytes,
			uint64_t ns, uint64_t reached)
{
	struct engine_target *et = w->et;
	struct engine_pass p = {
		.pass = w->iter, .phase = phase, .bytes = bytes, .ns = ns,
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

/* What is left of s's request, into the ring: it goes with the batch. */
static void queue(struct worker *w, struct slot *s, int idx, int phase)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);
	unsigned char *buf = s->buf + s->done;
	unsigned len = s->len - s->done;
	uint64_t off = s->off + s->done;
	uint64_t now = job_now(w->job);
	int fd = w->fixed_file ? 0 : w->d->fd;
	int reg = w->one_buffer ? 0 : idx;	/* its registered buffer */

	/* The ring has an entry for every slot, so this cannot fail. */
	if (phase == PHASE_WRITE) {
		if (w->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, len, off, reg);
		else
			io_uring_prep_write(sqe, fd, buf, len, off);
	} else {
		if (w->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, len, off, reg);
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
	uint64_t read_ok;	/* guard bytes read, again ones too */
	uint64_t batch;		/* the reaps so far: a check's age */
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
 *
 * A span may be written only on a check of this very batch: between its
 * reap and the write's queueing the worker waits for nothing. One that
 * was checked in an earlier batch waited in the ring for the front, as
 * long as the slowest read below it took (up to the deadline), and
 * another writer may have written it meanwhile: it is read and checked
 * again first, and the front holds at it until then, so nothing above a
 * span being read again is written either.
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
	/* The stale checks below the front first: the front holds at them. */
	for (i = 0; i < w->nbufs; i++) {
		struct slot *s = &w->slots[i];

		if (!s->busy || s->stage != STAGE_CHECKED ||
		    g->stop_lin != UINT64_MAX || s->lin + s->len > front ||
		    s->checked_in == g->batch)
			continue;
		s->stage = STAGE_GUARD;
		s->done = 0;
		s->again = 0;
		queue(w, s, (int)i, PHASE_GUARD);
	}
	for (i = 0; i < w->nbufs; i++)
		if (w->slots[i].busy && w->slots[i].stage == STAGE_GUARD &&
		    w->slots[i].lin < front)
			front = w->slots[i].lin;
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
	s->checked_in = g->batch;
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

/* A phase under way: what filling and reaping its requests share. */
struct phase_run {
	int phase;
	uint32_t pass;
	uint64_t lin;		/* the next region position to ask for */
	uint64_t limit;
	uint64_t ok;		/* bytes moved without error */
	unsigned inflight;
	int holes;		/* skip checking units in a hole */
	int stop;		/* ask for nothing more; reap what is out */
	struct guarded gd;
	struct guarded *g;	/* &gd in a guarded write; else NULL */
};

/* A free slot takes the next span: the guard reads it first if it must. */
static void prep(struct worker *w, struct phase_run *ph, struct slot *s,
		 int idx)
{
	struct engine_job *job = w->job;
	uint64_t left, off;

	off = engine_locate(&w->et->plan, ph->lin, &left);
	if (left > ph->limit - ph->lin)
		left = ph->limit - ph->lin;
	s->busy = 1;
	s->lin = ph->lin;
	s->off = off;
	s->len = (uint32_t)(left < job->bs ? left : job->bs);
	s->done = 0;
	s->again = 0;
	s->stage = STAGE_IO;
	ph->lin += s->len;
	ph->inflight++;
	if (ph->g && s->lin + s->len > ph->g->from) {
		s->stage = STAGE_GUARD;
		queue(w, s, idx, PHASE_GUARD);
		return;
	}
	if (ph->phase == PHASE_WRITE) {
		struct unit_key key = { job->ctx->run_id, w->d->ident, off,
					ph->pass };

		unit_fill(job->ctx, s->buf, s->len, key);
		if (s->lin + s->len > ph->gd.wrote_to)
			ph->gd.wrote_to = s->lin + s->len;
	}
	queue(w, s, idx, ph->phase);
}

/* Every free slot takes a request, up to qd, until the phase's end. */
static void fill(struct worker *w, struct phase_run *ph)
{
	unsigned i;

	for (i = 0; i < w->nbufs && !ph->stop && ph->inflight < w->job->qd &&
		    ph->lin < ph->limit; i++)
		if (!w->slots[i].busy)
			prep(w, ph, &w->slots[i], (int)i);
}

/* A guard read ended: checked, or the guard stops there. */
static void guard_event(struct worker *w, struct phase_run *ph,
			struct slot *s, int res)
{
	int err;

	if (res > 0) {
		s->done = s->len;
		guard_read(w, ph->g, s);
		return;
	}
	/* Not read is not proven: no write there. */
	err = res ? -res : EIO;
	worker_check_error(w, PHASE_GUARD, ph->pass, s->off + s->done,
			   s->len - s->done, err);
	guard_stop(w, ph->g, s, s->done & ~(UNIT_SIZE - 1u), err);
	s->busy = 0;
}

/* One completion, res as the ring gave it, at now (the batch's clock). */
static void event(struct worker *w, struct phase_run *ph, int idx, int res,
		  uint64_t now)
{
	struct engine_target *et = w->et;
	struct slot *s = &w->slots[idx];
	int sphase = s->stage == STAGE_GUARD ? PHASE_GUARD : ph->phase;

	atomic_store(&et->slot_since[idx], 0);
	tally_done(&w->tally, &s->tr, now, s->lin + s->done, s->off + s->done,
		   s->len - s->done, res > 0 ? (uint64_t)res : 0);
	if (res == -EAGAIN && ++s->again < MAX_AGAIN) {
		queue(w, s, idx, sphase);
		return;
	}
	if (res > 0 && s->done + (uint32_t)res < s->len) {
		/* Short transfer: ask for the rest. */
		s->done += (uint32_t)res;
		queue(w, s, idx, sphase);
		return;
	}
	ph->inflight--;
	if (sphase == PHASE_GUARD) {
		guard_event(w, ph, s, res);
		return;
	}
	if (res <= 0) {
		/* 0 is no progress at all: EIO, not a loop. */
		worker_check_error(w, ph->phase, ph->pass, s->off + s->done,
				   s->len - s->done, res ? -res : EIO);
		if (ph->phase == PHASE_WRITE)
			worker_check_hole(et, s->lin, s->len);
	} else {
		if (ph->phase == PHASE_VERIFY)
			worker_check_units(w, s, ph->pass, ph->holes);
		if (ph->phase == PHASE_WRITE)
			atomic_fetch_add(&et->bytes_written, s->len);
		else
			atomic_fetch_add(&et->bytes_read, s->len);
		ph->ok += s->len;
	}
	atomic_fetch_add(&et->phase_done, s->len);
	s->busy = 0;
}

/*
 * Every completion the ring holds, then the ring told at once how many
 * were seen; returns the batch's clock: one read, they all came back by
 * now.
 */
static uint64_t reap(struct worker *w, struct phase_run *ph)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	uint64_t now = job_now(w->job);

	io_uring_for_each_cqe(&w->ring, head, cqe) {
		seen++;
		event(w, ph, (int)io_uring_cqe_get_data64(cqe), cqe->res, now);
	}
	io_uring_cq_advance(&w->ring, seen);
	return now;
}

/* The phase starts: what a reader sees of it, its tally, its guard. */
static void phase_begin(struct worker *w, struct phase_run *ph)
{
	struct engine_target *et = w->et;

	atomic_store(&et->pass, ph->pass);
	atomic_store(&et->phase_done, 0);
	atomic_store(&et->phase, ph->phase);
	tally_begin(&w->tally, ph->phase, ph->pass);
	if (ph->phase != PHASE_WRITE || !w->guarding)
		return;
	pthread_mutex_lock(&et->lock);
	ph->gd.from = et->guard_checked;
	pthread_mutex_unlock(&et->lock);
	if (ph->gd.from < ph->limit) {
		ph->g = &ph->gd;
		tally_begin_side(&w->tally, PHASE_GUARD, ph->pass);
	}
}

/* The phase, begun at t0, ended: its run kept, and the guard's beside it. */
static int64_t phase_end(struct worker *w, struct phase_run *ph, uint64_t t0)
{
	uint64_t lin = ph->lin, ns;

	tally_end(&w->tally);
	ns = timing_now_ns() - t0;
	if (ph->g) {
		/* Each its share of the time, as the zones have it. */
		uint64_t gns = share_of(ns, &w->tally.side, &w->tally.cur);
		int cut = ph->gd.stop_lin != UINT64_MAX;

		record_pass(w, PHASE_GUARD, ph->gd.read_ok, gns,
			    cut ? ph->gd.stop_lin : lin);
		ns -= gns;
		if (cut)
			lin = ph->gd.wrote_to;
	}
	record_pass(w, ph->phase, ph->ok, ns, lin);
	return (int64_t)lin;
}

int64_t worker_phase_run(struct worker *w, int phase, uint32_t pass,
			 uint64_t from, uint64_t limit, int timed, int holes)
{
	struct engine_target *et = w->et;
	struct engine_job *job = w->job;
	struct phase_run ph = {
		.phase = phase, .pass = pass, .lin = from, .limit = limit,
		.holes = holes,
		.gd = { .stop_lin = UINT64_MAX, .wrote_to = from },
	};
	uint64_t t0 = timing_now_ns(), now;
	unsigned i;

	phase_begin(w, &ph);
	for (;;) {
		struct __kernel_timespec ts = { 0, (long long)TICK_NS };
		struct io_uring_cqe *cqe;

		fill(w, &ph);
		if (!ph.inflight)
			break;
		io_uring_submit_and_wait_timeout(&w->ring, &cqe, 1, &ts, NULL);
		/* A new batch: the checks it reaps are the ones of now. */
		ph.gd.batch++;
		now = reap(w, &ph);
		worker_held_look(w, 0);
		if (ph.g) {
			guard_advance(w, ph.g, pass, ph.lin);
			/* Every slot still busy has a request out again. */
			for (i = 0, ph.inflight = 0; i < w->nbufs; i++)
				ph.inflight += w->slots[i].busy;
			if (ph.g->stop_lin != UINT64_MAX)
				ph.stop = 1;
		}
		tally_tick(&w->tally, now);

		/* Its buffers may be the kernel's still: leave them. */
		if (stalled(et)) {
			tally_end(&w->tally);
			return -ETIMEDOUT;
		}
		if (atomic_load(&job->stop) || w->vanished)
			ph.stop = 1;
		if (timed && w->end_ns && timing_now_ns() >= w->end_ns) {
			w->out_of_time = 1;
			ph.stop = 1;
		}
	}
	return phase_end(w, &ph, t0);
}

/* In a child, as worker_check_read_unit() reads: a dead disk is left there. */
int worker_phase_flush(struct worker *w, uint32_t pass)
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
		worker_check_error(w, PHASE_FLUSH, pass, 0, 0, -ret);
	record_pass(w, PHASE_FLUSH, 0, timing_now_ns() - t0,
		    ret == 0 ? et->plan.region : 0);
	return stalled(et) ? -ETIMEDOUT : 0;
}
