/* SPDX-License-Identifier: MIT */
/*
 * Description: one worker, one target: its ring and qd buffers, set up
 * and torn down, and the passes of its mode (write, flush, verify; or
 * read) run to their end, until the job stops it or the duration runs
 * out. Each phase's requests are worker_phase.c's; the checks of what
 * came back, worker_check.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "engine/memplan.h"
#include "engine/worker.h"
#include "engine/worker_private.h"

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

		if (worker_check_read_unit(w, off) != UNIT_SIZE ||
		    !unit_parse(w->scratch, &h))
			continue;
		if (h.key.run_id == w->job->ctx->run_id &&
		    h.key.ident == w->d->ident && h.key.offset == off &&
		    h.key.pass > best)
			best = h.key.pass;
	}
	return best;
}

/* A transparent huge page: the size the buffers are aligned to. */
#define HUGE_PAGE (2u << 20)
/* The most io_uring registers as one buffer. */
#define ONE_BUFFER_MAX (1ull << 30)

/*
 * The buffers, len bytes in all, aligned to align, and on huge pages
 * where the kernel can give them (it may compact memory for them, once,
 * as the ring pins them). A request of 1 MiB over 4 KiB pages is 256
 * segments, more than a loop device's 128 (and many a controller's): the
 * block layer splits it, and a split request that must not wait goes back
 * to io_uring, which makes it again in a worker thread of its own. Over
 * 2 MiB pages its segments are few, and it is made where it was sent.
 * Where the kernel has no huge page to give they are 4 KiB pages, as
 * before. Only where they can be registered as one buffer (setup()).
 */
static int buffers_alloc(unsigned char **mem, size_t align, uint64_t len)
{
	int huge = len >= HUGE_PAGE && len <= ONE_BUFFER_MAX;

	if (huge && align < HUGE_PAGE)
		align = HUGE_PAGE;
	if (posix_memalign((void **)mem, align, len))
		return -1;
	if (huge)
		(void)madvise(*mem, len / HUGE_PAGE * HUGE_PAGE,
			      MADV_HUGEPAGE);
	return 0;
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
	    buffers_alloc(&w->mem, align, w->nbufs * buflen) ||
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
	/*
	 * Registration saves a page walk per request; without it, still run.
	 * All the slots are one buffer where io_uring takes that many bytes:
	 * it begins where its first huge page does. A registered buffer that
	 * begins inside a huge page (a slot's, past the first) is the case
	 * the kernel's merge of huge pages (Linux 6.10 on) has needed fixes
	 * for; the slots' own buffers are registered only past 1 GiB, where
	 * they are on 4 KiB pages (buffers_alloc()).
	 */
	if (w->nbufs * buflen <= ONE_BUFFER_MAX) {
		iov[0].iov_len = w->nbufs * buflen;
		w->one_buffer = 1;
	}
	w->fixed_bufs = io_uring_register_buffers(
		&w->ring, iov, w->one_buffer ? 1 : w->nbufs) == 0;
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
	r = worker_phase_run(w, PHASE_WRITE, pass, 0, et->plan.region, 1, 0);
	if (r < 0)
		return r;
	if (worker_phase_flush(w, pass) < 0)
		return -ETIMEDOUT;
	worker_check_sort_holes(et);
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
	r = worker_phase_run(w, PHASE_VERIFY, pass, 0, cut, 1, 0);
	/* Past where a cut-short pass stopped, the pass before it is there. */
	if (r == (int64_t)cut && cut < p->region && pass > 1 &&
	    !atomic_load(&w->job->stop) && !w->vanished && !w->out_of_time)
		r = worker_phase_run(w, PHASE_VERIFY, pass - 1, cut,
				     p->region, 1, 0);
	return r;
}

/*
 * The thread's name is its disk's: "kiln:sda" in top -H and ps -L, so
 * a person (or a test) finds one disk's worker and its wait for a CPU.
 */
static void name_thread(int fd)
{
	char link[32], dev[PATH_MAX], name[16];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, dev, sizeof(dev) - 1);
	if (n <= 0)
		return;
	dev[n] = 0;
	base = strrchr(dev, '/');
	snprintf(name, sizeof(name), "kiln:%s", base ? base + 1 : dev);
	prctl(PR_SET_NAME, name);
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

	name_thread(et->disk.fd);
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
	worker_held_open(&w);

	for (iter = 1;; iter++) {
		uint64_t limit = p->region;

		w.iter = iter;
		atomic_store(&et->run_pass, iter);

		switch (p->mode) {
		case ENGINE_WRITE_VERIFY:
		case ENGINE_WRITE:
			/* The guard found data: tested read-only from here. */
			if (atomic_load(&et->guard_stopped)) {
				r = worker_phase_run(&w, PHASE_READ, 0, 0,
						     p->region, 1, 0);
				break;
			}
			if (!p->write_passes ||
			    et->region_writes < p->write_passes) {
				r = write_pass(&w, iter);
				if (r < 0) {
					worker_held_close(&w);
					return NULL;
				}
				limit = (uint64_t)r;
				written = iter;
			}
			if (p->mode == ENGINE_WRITE_VERIFY && written &&
			    limit && !atomic_load(&job->stop) && !w.vanished) {
				/* What it wrote is checked, out of time too. */
				set_verified(et, written, -1);
				r = worker_phase_run(&w, PHASE_VERIFY, written,
						     0, limit, 0,
						     written == iter &&
						     et->nholes);
			}
			/* Past where the guard stopped, this pass reads. */
			if (r >= 0 && atomic_load(&et->guard_stopped) &&
			    written == iter && limit < p->region &&
			    !atomic_load(&job->stop) && !w.vanished &&
			    !w.out_of_time)
				r = worker_phase_run(&w, PHASE_READ, 0, limit,
						     p->region, 1, 0);
			break;
		case ENGINE_VERIFY:
			r = verify_pass(&w);
			break;
		case ENGINE_NONE:
			/* Nothing to write or read: the end step is all. */
			break;
		default:
			r = worker_phase_run(&w, PHASE_READ, 0, 0, p->region,
					     1, 0);
			break;
		}
		if (r < 0) {
			worker_held_close(&w);
			return NULL;
		}
		if (done_passes(&w, iter))
			break;
	}

	atomic_store(&et->phase, PHASE_END);
	if (atomic_load(&job->stop))
		set_why(et, "interrupted");
	else if (w.out_of_time)
		set_why(et, "the duration ran out in pass %u", iter);
	worker_held_close(&w);
	leave_running(et, atomic_load(&job->stop) ? STATE_STOPPED : STATE_DONE);
	guard_free(&w.guard);
	teardown(&w);
	engine_wake(job);
	return NULL;
}

