/* SPDX-License-Identifier: MIT */
/*
 * Description: the solo phase (see solo.h): one disk at a time, read alone
 * by the same engine as the burn (a one-target job in read mode with a
 * duration), so a slow drive is told from a busy controller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/record.h"
#include "judge/solo.h"
#include "base/timing.h"

/*
 * A stalled worker still holds its job and engine: both live on the heap
 * and are left to it, as the burn leaves a stalled disk's engine.
 */
struct solo_run {
	struct engine_job job;
	struct engine_target *et;
};

static void solo_job(struct engine_job *job, const struct engine_job *like,
		     uint64_t seconds)
{
	job->bs = like->bs;
	job->qd = like->qd;
	job->passes = 0;
	job->duration_ns = seconds * TIMING_SEC;
	job->deadline_ns = like->deadline_ns;
	job->max_detail = like->max_detail;
	job->save_units = 0;
	job->ctx = like->ctx;
	atomic_init(&job->stop, 0);
	atomic_init(&job->paused_ns, 0);
	job->wake_fd = -1;
}

/* What the read alone left: a rate, an error, or a disk not to burn. */
static void solo_outcome(struct record_disk *d, const struct engine_snap *s)
{
	struct solo_disk *so = &d->solo;

	if (s->c.state == STATE_STALLED)
		snprintf(d->failed, sizeof(d->failed), "stalled while read "
			 "alone before the burn: %s", s->why);
	else if (s->c.state == STATE_VANISHED)
		snprintf(d->failed, sizeof(d->failed), "vanished while read "
			 "alone before the burn: %s", s->why);
	if (d->failed[0])
		return;
	so->ran = 1;
	so->mbps = figures_rate(s, PHASE_READ);
	so->seconds = timing_secs(s->phase_ns[PHASE_READ]);
	so->io_errors = s->c.io_errors;
	if (s->nerrors) {
		so->error_offset = s->errors[0].offset;
		so->error = s->errors[0].err;
	}
}

int solo_read(struct record *r, struct record_disk *d,
	      const struct engine_job *job, volatile sig_atomic_t *stop,
	      FILE *con)
{
	struct engine_plan plan = d->ep;
	struct engine_disk disk;
	struct engine_snap snap;
	struct solo_run *sr;
	int ret, stalled;

	if (d->failed[0] || !r->s->solo)
		return 0;
	plan.mode = ENGINE_READ;
	plan.write_passes = 0;
	plan.verify_pass = 0;
	plan.verify_cut = 0;
	plan_disk(&d->t, &disk);
	sr = calloc(1, sizeof(*sr));
	if (sr)
		sr->et = engine_target_new(&disk, &plan);
	if (!sr || !sr->et) {
		free(sr);
		fprintf(con, "solo: %s: out of memory\n", d->label);
		return -ENOMEM;
	}
	solo_job(&sr->job, job, r->s->solo);
	ret = engine_start(&sr->job, &sr->et, 1);
	if (ret < 0) {
		atomic_store(&sr->job.stop, 1);
	} else {
		/* About once a second, as the stall checks want. */
		while (engine_poll(&sr->job, &sr->et, 1)) {
			engine_wait(&sr->job, TIMING_SEC);
			if (*stop)
				atomic_store(&sr->job.stop, 1);
		}
	}
	engine_join(&sr->et, 1);
	if (engine_snapshot(sr->et, &snap) == 0 && ret == 0 &&
	    snap.c.state != STATE_BROKEN) {
		solo_outcome(d, &snap);
		if (d->failed[0])
			fprintf(con, "solo: %s %s\n", d->label, d->failed);
		else
			fprintf(con, "solo: %s %.0f MB/s (%.0f s)\n", d->label,
				d->solo.mbps, d->solo.seconds);
	} else {
		fprintf(con, "solo: %s could not be read alone: %s\n",
			d->label, ret < 0 ? strerror(-ret) :
			snap.why[0] ? snap.why : "out of memory");
		if (!ret)
			ret = -EIO;
	}
	stalled = snap.c.state == STATE_STALLED;
	engine_snap_free(&snap);
	if (sr->job.wake_fd >= 0 && !stalled)
		close(sr->job.wake_fd);
	engine_target_free(sr->et);
	if (!stalled)
		free(sr);
	return ret;
}
