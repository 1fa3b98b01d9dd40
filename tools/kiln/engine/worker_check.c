/* SPDX-License-Identifier: MIT */
/*
 * Description: a worker's checks of what came back (see worker_private.h):
 * every unit of a read checked against what its pass wrote there, a bad
 * one read again once (the medium reads the same twice) and kept; failed
 * requests kept as ranges, and a device that went away told apart; the
 * holes failed writes leave, so their units are not counted twice. All
 * of it kept under the target's lock for snapshots.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/deadline.h"
#include "engine/worker_private.h"

void worker_check_error(struct worker *w, int phase, uint32_t pass,
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

void worker_check_hole(struct engine_target *et, uint64_t lin, uint64_t len)
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

void worker_check_sort_holes(struct engine_target *et)
{
	if (et->nholes)
		qsort(et->holes, et->nholes, sizeof(*et->holes), cmp_hole);
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

ssize_t worker_check_read_unit(struct worker *w, uint64_t off)
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
		n = worker_check_read_unit(w, key.offset);
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
	else if (b.retry == RETRY_NONE)
		et->bad_unchecked++;
	if (et->nbad < job->max_detail)
		et->bad[et->nbad++] = b;
	/*
	 * Requests end out of order and the list fills with whichever end
	 * first: the first bad byte is kept apart, of the first pass.
	 */
	if (!et->has_first_bad || b.pass < et->first_bad_pass ||
	    (b.pass == et->first_bad_pass && b.offset < et->first_bad)) {
		et->has_first_bad = 1;
		et->first_bad_pass = b.pass;
		et->first_bad = b.offset;
	}
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

void worker_check_units(struct worker *w, const struct slot *s, uint32_t pass,
			int holes)
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

