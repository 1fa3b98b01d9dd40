/* SPDX-License-Identifier: MIT */
/*
 * Description: a burn while its workers run: a sample a second (the
 * engine's counters, the monitor, links), status lines, the per-disk
 * table every table-interval (each disk's MB/s written and read, done
 * and time left), the guard's finds said at once, and checkpoints of the
 * record, each sent to the lab's server.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/kiln.h"
#include "base/timing.h"
#include "cmd/burn_private.h"
#include "discover/signature.h"
#include "judge/links.h"
#include "lab/lab.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

static void upload_progress(struct burn *b);

/*
 * The per-disk table between status lines, its disks by controller
 * (links_read() named them), so a 60-disk soak stays a readable log.
 */
static void say_table(struct burn *b, uint64_t now)
{
	struct links *l = &b->r->links;
	struct disktable_row *rows = calloc((size_t)b->ne + 1, sizeof(*rows));
	char (*names)[80] = calloc((size_t)l->n + 1, sizeof(*names));
	const char **groups = calloc((size_t)l->n + 1, sizeof(*groups));
	char hms[32];
	int i;

	if (!rows || !names || !groups)
		goto out;
	monitor_table_rows(&b->mon, now, rows);
	for (i = 0; i < b->ne; i++)
		rows[i].group = b->burning[i]->link.ctrl;
	for (i = 0; i < l->n; i++) {
		const struct pci_controller *c = &l->ctrls[i].pci;

		snprintf(names[i], sizeof(names[i]), "%s%s%s", c->pci,
			 c->kind[0] ? " " : "", c->kind);
		groups[i] = names[i];
	}
	timing_fmt_hms((now - b->r->t0_ns) / TIMING_SEC, hms, sizeof(hms));
	fputc('\n', b->con);
	disktable_write(b->con, hms, rows, b->ne, groups, l->n, 80);
	fputc('\n', b->con);
out:
	free(rows);
	free(names);
	free(groups);
}

void burn_loop_checkpoint(struct burn *b)
{
	char *doc;
	size_t len;
	int ret;

	if (!b->have_results)
		return;
	/*
	 * Once the run has ended its duration is said: a checkpoint after
	 * report.html must not give summary.txt a longer one.
	 */
	if (!b->r->ended)
		b->r->elapsed_ns = timing_now_ns() - b->r->t0_ns;
	doc = result_json(b->r, &len);
	ret = doc ? folder_checkpoint(&b->res, doc, len) : -ENOMEM;
	if (!ret)
		ret = folder_sync(&b->res);
	if (ret) {
		b->r->results_lost = 1;
		complain("cannot write the results: a checkpoint in %s: %s",
			 b->res.dir, strerror(-ret));
	}
	free(doc);
	if (!ret)
		burn_checkpointed(b->r);
	if (b->lab && !ret)
		upload_progress(b);
}

/* The newest checkpoint and the summary so far, to the lab's server. */
static void upload_progress(struct burn *b)
{
	char *text = NULL;
	size_t len = 0;

	text = summary_string(b->r, &len);
	lab_progress(b->lab, b->res.seq, folder_checkpoints[b->res.good - 1],
		     text, len);
	free(text);
}

/*
 * The guard found data on a disk written for its class alone: said at
 * once, naming what is there from the bytes the engine kept (the disk is
 * not asked again), so a person can stop the run before anything else.
 */
static void guard_said(struct burn *b, int i)
{
	struct record_disk *d = b->burning[i];
	struct engine_snap snap;
	struct signature_scan sig;
	unsigned char *buf = malloc(ENGINE_GUARD_KEEP);
	size_t n = buf ? engine_guard_found(b->ets[i], buf,
					    ENGINE_GUARD_KEEP) : 0;
	char what[sizeof(d->guard_found)];

	/* Only its lists can fail to copy: the guard's figures are there. */
	engine_snapshot(b->ets[i], &snap);
	memset(&sig, 0, sizeof(sig));
	if (snap.guard_err) {
		/* Not read is not proven blank, and no data either. */
		snprintf(d->guard_found, sizeof(d->guard_found),
			 "could not be read (%s)", strerror(snap.guard_err));
		fprintf(b->con, "kiln: %s could not be read at byte %llu (%s): "
			"not written past it, tested read-only from there\n",
			d->label, (unsigned long long)snap.guard_at,
			strerror(snap.guard_err));
		engine_snap_free(&snap);
		free(buf);
		return;
	}
	if (n >= 2 * UNIT_SIZE)
		signature_scan_offsets(buf, n, snap.guard_at ? snap.guard_at :
					       UNIT_SIZE, &sig);
	if (sig.n)
		signature_describe(&sig, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "unknown data at byte %llu",
			 (unsigned long long)snap.guard_at);
	snprintf(d->guard_found, sizeof(d->guard_found), "%s", what);
	fprintf(b->con, "kiln: %s holds data from byte %llu (%s): not written "
		"past it, tested read-only from there\n", d->label,
		(unsigned long long)snap.guard_at, what);
	engine_snap_free(&snap);
	free(buf);
}

static void sample(struct burn *b, uint64_t now)
{
	int i;

	for (i = 0; i < b->ne; i++) {
		int was = b->counters[i].guard_stopped;

		engine_counters(b->ets[i], &b->counters[i]);
		/* Again when it was found lower down: the lowest counts. */
		if (b->counters[i].guard_stopped != was)
			guard_said(b, i);
	}
	monitor_sample(&b->mon, now, b->counters);
	links_sample(&b->r->links, b->burning, b->counters, b->ne, now);
}

/* The controllers' line: each one's disks' rates on the status line. */
static void status_ctrls(struct burn *b, uint64_t now, char *out,
			 size_t len)
{
	double *mbps = calloc((size_t)b->ne + 1, sizeof(*mbps));
	int i;

	if (!mbps) {
		links_status(&b->r->links, now, out, len);
		return;
	}
	for (i = 0; i < b->ne; i++)
		mbps[i] = b->mon.mt[i].rate;
	links_status_of(&b->r->links, b->burning, mbps, b->ne, now, out, len);
	free(mbps);
}

/*
 * The kernel's error lines of each disk under test (the sampler reads
 * /dev/kmsg every second): their sum, lines naming a disk itself, for the
 * status line, and when a disk's count grew since the last status line,
 * one line of 80 columns at most that says whose ("kernel error lines:
 * sdb 152, sdc 3"); the image keeps the kernel's console quiet, so this
 * is where a person watching sees them. kmsg.log has every line.
 */
static void kernel_lines(struct burn *b)
{
	struct sampler *sp = &b->smp;
	char line[MONITOR_WIDTH + 1], cell[64];
	unsigned sum = 0;
	int k, more = 0;
	size_t at;

	if (!sp->have_kw)
		return;
	if (!b->kernel_said) {
		b->kernel_said = calloc((size_t)sp->nkd + 1,
					sizeof(*b->kernel_said));
		if (!b->kernel_said)
			return;
	}
	at = (size_t)snprintf(line, sizeof(line), "kernel error lines:");
	for (k = 0; k < sp->nkd; k++) {
		const struct kmsgwatch_tally *t = &sp->kw.tally[k];

		sum += t->direct;
		if (t->total == b->kernel_said[k])
			continue;
		b->kernel_said[k] = t->total;
		snprintf(cell, sizeof(cell), "%s %s %u", more ||
			 at > strlen("kernel error lines:") ? "," : "",
			 b->r->disks[sp->kd_disk[k]].label, t->total);
		if (!more && at + strlen(cell) + strlen(", +999 more") <=
		    MONITOR_WIDTH) {
			snprintf(line + at, sizeof(line) - at, "%s", cell);
			at += strlen(cell);
		} else {
			more++;
		}
	}
	b->mon.kernel = sum;
	if (at == strlen("kernel error lines:"))
		return;
	if (more)
		snprintf(line + at, sizeof(line) - at, ", +%d more", more);
	fprintf(b->con, "%s\n", line);
}

/* Watches the workers: samples, status lines, the table, checkpoints. */
void burn_loop(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	uint64_t next_sample, next_status, next_table, next_checkpoint, now;
	char line[160], ctrls[2 * 160];
	int running, i;

	now = timing_now_ns();
	next_sample = now + TIMING_SEC;
	next_status = now + s->interval * TIMING_SEC;
	next_table = s->table_interval ?
		     now + s->table_interval * TIMING_SEC : UINT64_MAX;
	next_checkpoint = now + s->checkpoint * TIMING_SEC;
	do {
		now = timing_now_ns();
		/* Cut short when a worker ends or a signal comes. */
		if (next_sample > now)
			engine_wait(&b->job, next_sample - now);
		if (*b->stop)
			atomic_store(&b->job.stop, 1);
		running = engine_poll(&b->job, b->ets, b->ne);
		now = timing_now_ns();
		if (now < next_sample && running && !*b->stop)
			continue;
		sample(b, now);
		b->sig.now = now;
		signals_burn(&b->sig, SIGNAL_TICK);
		/* On a grid of whole seconds: no drift, whatever the work. */
		while (next_sample <= now)
			next_sample += TIMING_SEC;
		if (now >= next_status && running) {
			kernel_lines(b);
			monitor_status(&b->mon, now, 0, line, sizeof(line));
			fprintf(b->con, "%s\n", line);
			status_ctrls(b, now, ctrls, sizeof(ctrls));
			if (ctrls[0])
				fprintf(b->con, "%s\n", ctrls);
			if (b->lab) {
				/* The metrics' elapsed time is the line's. */
				r->elapsed_ns = now - r->t0_ns;
				signals_judge(r, 0, 0);
				lab_tick(b->lab, r);
			}
			burn_console_check(b);
			while (next_status <= now)
				next_status += s->interval * TIMING_SEC;
		}
		if (now >= next_table && running) {
			say_table(b, now);
			burn_console_check(b);
			while (next_table <= now)
				next_table += s->table_interval * TIMING_SEC;
		}
		if (now >= next_checkpoint && running) {
			signals_judge(r, 0, 0);
			burn_loop_checkpoint(b);
			while (next_checkpoint <= now)
				next_checkpoint += s->checkpoint * TIMING_SEC;
		}
	} while (running);

	engine_join(b->ets, b->ne);
	now = timing_now_ns();
	sample(b, now);
	/* The last line's passes are those every other output says. */
	signals_judge(r, 0, 0);
	for (i = 0; i < b->ne; i++)
		b->mon.mt[i].made = (int64_t)figures_passes(
			&b->burning[i]->snap, b->burning[i]->ep.mode);
	kernel_lines(b);
	monitor_status(&b->mon, now, *b->stop, line, sizeof(line));
	fprintf(b->con, "%s\n", line);
	burn_console_check(b);
}
