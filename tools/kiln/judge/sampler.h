/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAMPLER_H
#define KILN_SAMPLER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "sense/kmsgwatch.h"
#include "judge/record.h"

/*
 * The machine's own signals sampled during a burn, at its start, every
 * `sensors` seconds and at its end: smartctl's JSON of every disk and of
 * every drive hidden behind a RAID controller, all at once, and the
 * sensors of sysfs (hwmon, EDAC, AER), in a thread of its own, so that a
 * drive that hangs smartctl or its hwmon never holds the burn's loop; and
 * the kernel's log, read without blocking at each tick of that loop. The
 * main thread folds what they say into the record (vitals.h).
 */

/* Where the machine's things are: its own, or a test's. */
struct sampler_env {
	const char *sysroot;	/* "/sys" */
	const char *smartctl;	/* NULL or missing: no SMART */
	const char *kmsg;	/* "/dev/kmsg"; NULL: not read */
};

struct sampler_shared;

struct sampler {
	struct record *r;
	struct sampler_shared *sh;	/* with the thread; NULL: none */
	struct kmsgwatch kw;
	int have_kw;
	struct kmsgwatch_disk *kd;	/* each disk as the log names it */
	int *kd_disk;			/* ...and its index in the record */
	int nkd;
	uint64_t folded;		/* samples folded into the record */
	uint64_t lines;			/* log lines folded */
	int lerr_lost;			/* drives' link counters not kept */
};

/*
 * Before the burn (env NULL: the machine's own, under sysfs-root when it
 * is set): finds the drives hidden behind RAID controllers, opens
 * the kernel's log at its end, starts the thread and folds its first
 * sample (waiting a bounded time for it). 0, or -errno when nothing can
 * be sampled (said in the record's notes; the burn goes on).
 */
int sampler_start(struct sampler *sp, struct record *r,
		  const struct sampler_env *env);

/* Every tick of the burn's loop: the log read, a new sample folded. */
void sampler_tick(struct sampler *sp);

/*
 * After the burn: the self-tests, if asked for (progress on con; stop
 * ends them early), then a last sample and the log's last lines.
 */
void sampler_finish(struct sampler *sp, FILE *con,
		    volatile sig_atomic_t *stop);

void sampler_free(struct sampler *sp);

#endif
