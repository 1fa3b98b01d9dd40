/* SPDX-License-Identifier: MIT */
/*
 * Description: the start of a burn, once every target passed the gate:
 * the plan said on the console, SMART before, each disk read alone when
 * asked (solo), then the engine's workers, the monitor and iperf3 beside
 * them, and the first checkpoint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/kiln.h"
#include "base/names.h"
#include "base/timing.h"
#include "cmd/burn_private.h"
#include "cmd/leds_use.h"
#include "base/crc32c.h"
#include "judge/solo.h"
#include "lab/lab.h"
#include "results/notes.h"
#include "results/result.h"
#include "results/signal.h"

/* A disk's plan line, its why and its extents' offsets included. */
#define PLAN_WORDS 512

/* What is done to a disk, in words: the plan line under its name. */
static void plan_words(const struct record *r, const struct record_disk *d,
		       char *buf, size_t len)
{
	const struct engine_plan *p = &d->ep;
	char size[32];
	size_t at;
	int e;

	/* profile erase: no pass; the end step alone, where consent is. */
	if (p->mode == ENGINE_NONE) {
		if (plan_writes_mode(d->mode) &&
		    d->plan.action == PLAN_WRITE && !d->plan.guarded)
			snprintf(buf, len, "erase (end=%s): %s",
				 endstep_method_name(r->s->end), d->plan.why);
		else
			snprintf(buf, len, "not erased (destroy-data does "
				 "not name it): %s", d->plan.why);
		return;
	}
	snprintf(buf, len, "%s: %s; %s", settings_mode_name(d->mode),
		 d->plan.why, settings_fmt_size(p->region, size, sizeof(size)));
	at = strlen(buf);
	if (p->mode == ENGINE_VERIFY && p->verify_pass && at < len)
		at += (size_t)snprintf(buf + at, len - at,
				       ", pass %u of run %016llx%s%s",
				       p->verify_pass,
				       (unsigned long long)r->run_id,
				       r->from ? " from " : "",
				       r->from ? r->from : "");
	for (e = 0; e < p->next && at < len; e++)
		at += (size_t)snprintf(buf + at, len - at, "%s%llu",
				       e ? ", " : " at ",
				       (unsigned long long)p->ext[e].offset);
	if (!d->t.direct && at < len)
		snprintf(buf + at, len - at, " (no O_DIRECT here)");
}

/*
 * Like disks with like plans said once ("loop0-59  60 disks, 128 MiB
 * each" and their one plan line), so 60 disks fit a screen; a disk
 * alone, or failed before the burn, has its own lines and its identity.
 */
static void print_disks(struct burn *b)
{
	struct record *r = b->r;
	char (*words)[PLAN_WORDS] = calloc((size_t)r->n + 1, sizeof(*words));
	const char **names = calloc((size_t)r->n + 1, sizeof(*names));
	char *said = calloc((size_t)r->n + 1, 1);
	char size[32];
	int i, j, n;

	if (!words || !names || !said)
		goto out;
	for (i = 0; i < r->n; i++)
		plan_words(r, &r->disks[i], words[i], sizeof(words[i]));
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		if (said[i])
			continue;
		settings_fmt_size(d->t.size, size, sizeof(size));
		for (n = 0, j = i; j < r->n && !d->failed[0]; j++)
			if (!said[j] && !r->disks[j].failed[0] &&
			    r->disks[j].t.size == d->t.size &&
			    !strcmp(words[j], words[i])) {
				names[n++] = r->disks[j].label;
				said[j] = 1;
			}
		if (n > 1) {
			int need = names_ranges(names, (size_t)n, NULL, 0);
			char *list = need >= 0 ? malloc((size_t)need + 1) :
				     NULL;

			if (list)
				names_ranges(names, (size_t)n, list,
					     (size_t)need + 1);
			fprintf(b->con, "  %s  %d disks, %s each\n    %s\n",
				list ? list : names[0], n, size, words[i]);
			free(list);
			continue;
		}
		/* Failed before the burn: its path, and what is known of it. */
		if (d->failed[0])
			fprintf(b->con, "  %s  %s%s%s\n    FAIL before the "
				"burn: %s\n", d->label, d->path,
				d->t.id.identity[0] ? "  " : "",
				d->t.id.identity, d->failed);
		else
			fprintf(b->con, "  %s  %s  %s\n    %s\n", d->label,
				size, d->t.id.identity, words[i]);
	}
out:
	free(words);
	free(names);
	free(said);
}

static void print_plan(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	char bs[32], hms[32];

	if (s->profile == SETTINGS_ERASE) {
		fprintf(b->con, "kiln %s: run %016llx, profile erase: no burn "
			"pass, each disk destroy-data names is left by "
			"end=%s and read back\n", r->command,
			(unsigned long long)r->run_id,
			endstep_method_name(s->end));
		goto disks;
	}
	fprintf(b->con, "kiln %s: run %016llx, bs %s, qd %u", r->command,
		(unsigned long long)r->run_id,
		settings_fmt_size(s->bs, bs, sizeof(bs)), s->qd);
	if (settings_passes(s))
		fprintf(b->con, ", %u pass%s", s->passes,
			s->passes == 1 ? "" : "es");
	if (s->duration)
		fprintf(b->con, ", for %s",
			timing_fmt_hms(s->duration, hms, sizeof(hms)));
	fprintf(b->con, ", crc32c %s\n", crc32c_name());
disks:
	/* Said first and last, so a run whose folder was chosen is found. */
	if (r->out)
		fprintf(b->con, "results: %s\n", r->lab.upload_only ?
			r->lab.upload : r->out);
	print_disks(b);
	notes_print(r->notes, r->nnotes, b->con);
	burn_console_check(b);
}

/* Each disk read alone first (setting solo), a checkpoint after each. */
static void solo_phase(struct burn *b)
{
	int i;

	if (!b->s->solo || b->s->profile == SETTINGS_ERASE)
		return;
	for (i = 0; i < b->r->n && !*b->stop; i++) {
		solo_read(b->r, &b->r->disks[i], &b->job, b->stop,
			  b->con);
		burn_console_check(b);
		signals_judge(b->r, 0, 0);
		burn_loop_checkpoint(b);
	}
}

/* The job every worker shares: its buffers, request sizes and bounds. */
static int job_init(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;

	b->ctx = malloc(sizeof(*b->ctx));
	b->ets = calloc((size_t)r->n + 1, sizeof(*b->ets));
	b->burning = calloc((size_t)r->n + 1, sizeof(*b->burning));
	b->counters = calloc((size_t)r->n + 1, sizeof(*b->counters));
	b->labels = calloc((size_t)r->n + 1, sizeof(*b->labels));
	if (!b->ctx || !b->ets || !b->burning || !b->counters || !b->labels) {
		complain("out of memory");
		return KILN_EXIT_CANNOT;
	}
	unit_ctx_init(b->ctx, r->run_id);
	b->job.bs = s->bs;
	b->job.qd = s->qd;
	b->job.passes = settings_passes(s);
	b->job.duration_ns = s->duration * TIMING_SEC;
	b->job.deadline_ns = (uint64_t)s->deadline * TIMING_SEC;
	/* Shared among the disks, so the record stays one its readers take. */
	b->job.max_detail = result_max_detail(s->max_detail, r->n);
	if (b->job.max_detail < s->max_detail)
		record_note(r, "max-detail %u is %u a disk here: a run lists "
			    "%u errors and as many bad units in all, and "
			    "counts every one", s->max_detail,
			    b->job.max_detail, RESULT_DETAIL_BUDGET);
	b->job.save_units = s->save_units;
	b->job.ctx = b->ctx;
	b->job.wake_fd = -1;
	return 0;
}

/* A mark in the kernel's log: boot-to-first-I/O is read off it. */
static void mark_kmsg(const struct record *r)
{
	FILE *k;

	if (!r->kmsg)
		return;
	k = fopen("/dev/kmsg", "we");
	if (k) {
		fprintf(k, "<6>kiln: burn-in I/O starts, run %016llx\n",
			(unsigned long long)r->run_id);
		fclose(k);
	}
}

/* A worker for each disk not failed already, and the monitor of them. */
static int start_workers(struct burn *b)
{
	struct record *r = b->r;
	int i, ret;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		struct engine_disk disk;

		if (d->failed[0])
			continue;
		plan_disk(&d->t, &disk);
		d->et = engine_target_new(&disk, &d->ep);
		if (!d->et) {
			complain("out of memory");
			return KILN_EXIT_CANNOT;
		}
		b->burning[b->ne] = d;
		b->labels[b->ne] = d->label;
		b->ets[b->ne++] = d->et;
	}
	burn_catch(&b->job);
	ret = engine_start(&b->job, b->ets, b->ne);
	if (ret < 0) {
		complain("cannot start the workers: %s", strerror(-ret));
		atomic_store(&b->job.stop, 1);
		engine_join(b->ets, b->ne);
		return KILN_EXIT_CANNOT;
	}
	if (monitor_init(&b->mon, b->labels, b->ne,
			 b->have_results ? b->res.samples : NULL,
			 b->job.start_ns) < 0) {
		atomic_store(&b->job.stop, 1);
		engine_join(b->ets, b->ne);
		complain("out of memory");
		return KILN_EXIT_CANNOT;
	}
	b->mon.duration_ns = b->job.duration_ns;
	/* The status line's clock is the run's: from the command's start. */
	b->mon.clock0 = r->t0_ns;
	return 0;
}

/*
 * Results folder, plan, the signals before, then the engine, and the load
 * beside it: 0 or an exit code.
 */
int burn_start(struct burn *b)
{
	struct record *r = b->r;
	int i, ret;

	print_plan(b);
	lab_start(&b->lab, r, b->con);
	ret = job_init(b);
	if (ret)
		return ret;
	/* Bays found, this run's disks' fault LEDs cleared (leds=fail). */
	leds_use_start(r, r->s->sysfs_root ? r->s->sysfs_root :
		       b->env.sysroot, b->con);
	mark_kmsg(r);
	b->sig = (struct signal_burn){
		.r = r, .con = b->con, .sysroot = b->env.sysroot,
		.sysfs = b->s->sysfs_root ? b->s->sysfs_root :
			 b->env.sysroot,
		.smp = &b->smp, .stop = b->stop,
	};
	signals_burn(&b->sig, SIGNAL_BEFORE);
	signals_burn(&b->sig, SIGNAL_WATCH);
	solo_phase(b);
	ret = start_workers(b);
	if (ret)
		return ret;
	links_start(&r->links, b->job.start_ns);
	b->sig.start_ns = b->job.start_ns;
	/* profile=erase: no burn, so no load beside it either. */
	if (b->s->profile != SETTINGS_ERASE)
		signals_burn(&b->sig, SIGNAL_BESIDE);
	for (i = 0; i < b->ne; i++) {
		struct record_disk *d = b->burning[i];
		unsigned p = settings_passes(b->s);

		d->mt = &b->mon.mt[i];
		b->mon.mt[i].planned = d->ep.mode == ENGINE_NONE ? 0 :
			(uint64_t)p * d->ep.region *
			(d->ep.mode == ENGINE_WRITE_VERIFY ? 2 : 1);
		b->mon.mt[i].write_passes = d->ep.write_passes;
	}
	signals_judge(r, 0, 0);
	burn_loop_checkpoint(b);
	/* A dashboard sees the run from its first second. */
	lab_tick(b->lab, r);
	return 0;
}
