/* SPDX-License-Identifier: MIT */
/*
 * Description: the burn engine (see engine.h): a target's engine, its
 * snapshots and counters, and the workers' lives (start, wait, stall
 * checks, join). What a worker does is worker.c's.
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

#include "engine/engine.h"
#include "engine/engine_private.h"
#include "base/timing.h"
#include "engine/worker.h"

struct engine_target *engine_target_new(const struct engine_disk *disk,
					const struct engine_plan *plan)
{
	struct engine_target *et = calloc(1, sizeof(*et));

	if (!et)
		return NULL;
	et->disk = *disk;
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
	free(et->zones);
	free(et->holes);
	free(et->guard_found);
	free(et->slot_since);
	pthread_mutex_destroy(&et->lock);
	free(et);
}

void engine_counters(const struct engine_target *et, struct engine_counters *c)
{
	/* The atomics are written by the worker; reading them is safe. */
	struct engine_target *m = (struct engine_target *)et;

	c->state = atomic_load(&m->state);
	c->phase = atomic_load(&m->phase);
	c->pass = atomic_load(&m->pass);
	c->run_pass = atomic_load(&m->run_pass);
	c->bytes_written = atomic_load(&m->bytes_written);
	c->bytes_read = atomic_load(&m->bytes_read);
	c->phase_done = atomic_load(&m->phase_done);
	c->io_errors = atomic_load(&m->io_errors);
	c->bad_units = atomic_load(&m->bad_units);
	c->guard_stopped = atomic_load(&m->guard_stopped);
	c->held_ns = atomic_load(&m->held_ns);
	c->held_at = atomic_load(&m->held_at);
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
	s->bad_unchecked = et->bad_unchecked;
	s->not_written = et->not_written;
	s->later_pass = et->later_pass;
	s->verified_pass = et->verified_pass;
	s->pass_found = et->pass_found;
	s->region_writes = et->region_writes;
	s->last_written = et->last_written;
	s->last_reached = et->last_reached;
	s->guard_checked = et->guard_checked;
	s->guard_stopped = atomic_load(&et->guard_stopped);
	s->guard_at = et->guard_at;
	s->guard_err = et->guard_err;
	memcpy(s->why, et->why, sizeof(s->why));
	for (i = 0; i < PHASES; i++) {
		s->phase_bytes[i] = et->totals[i].bytes;
		s->phase_ns[i] = et->totals[i].ns;
	}
	memcpy(s->totals, et->totals, sizeof(s->totals));
	s->folded = et->folded;
	s->passes = copy_of(et->passes, et->npasses, sizeof(*et->passes),
			    &failed);
	s->npasses = s->passes ? et->npasses : 0;
	s->errors = copy_of(et->errors, et->nerrors, sizeof(*et->errors),
			    &failed);
	s->nerrors = s->errors ? et->nerrors : 0;
	s->bad = copy_of(et->bad, et->nbad, sizeof(*et->bad), &failed);
	s->nbad = s->bad ? et->nbad : 0;
	s->has_first_bad = et->has_first_bad;
	s->first_bad_pass = et->first_bad_pass;
	s->first_bad = et->first_bad;
	memcpy(s->latency, et->latency, sizeof(s->latency));
	memcpy(s->slowest, et->slowest, sizeof(s->slowest));
	s->nslowest = et->nslowest;
	s->zones = copy_of(et->zones, et->nzones, sizeof(*et->zones), &failed);
	s->nzones = s->zones ? et->nzones : 0;
	pthread_mutex_unlock(&et->lock);
	return failed ? -ENOMEM : 0;
}

void engine_snap_free(struct engine_snap *s)
{
	free(s->passes);
	free(s->errors);
	free(s->bad);
	free(s->zones);
	s->passes = NULL;
	s->errors = NULL;
	s->bad = NULL;
	s->zones = NULL;
	s->npasses = s->nerrors = s->nbad = s->nzones = 0;
	memset(s->totals, 0, sizeof(s->totals));
	s->folded = 0;
}

size_t engine_guard_found(struct engine_target *et, unsigned char *buf,
			  size_t len)
{
	size_t n;

	pthread_mutex_lock(&et->lock);
	n = et->nguard_found < len ? et->nguard_found : len;
	if (n)
		memcpy(buf, et->guard_found, n);
	pthread_mutex_unlock(&et->lock);
	return n;
}

unsigned engine_saved(const struct engine_target *et,
		      const struct engine_saved **saved)
{
	*saved = et->saved;
	return et->nsaved;
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
		ret = -pthread_create(&ets[i]->thread, &attr, worker_run,
				      ets[i]);
		ets[i]->started = !ret;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		atomic_store(&job->stop, 1);
	return ret;
}

void engine_wait(struct engine_job *job, uint64_t timeout_ns)
{
	struct pollfd p = { .fd = job->wake_fd, .events = POLLIN };
	uint64_t count;

	if (job->wake_fd < 0) {
		struct timespec ts = { (time_t)(timeout_ns / TIMING_SEC),
				       (long)(timeout_ns % TIMING_SEC) };

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
				 real - job->polled_ns - TIMING_SEC);
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
			set_why(et,
				"a request during %s got no answer in %llu s",
				engine_phase_name(atomic_load(&et->phase)),
				(unsigned long long)(job->deadline_ns /
						     TIMING_SEC));
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
