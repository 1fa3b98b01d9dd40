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
#include "settings/iperfspec.h"
#include "sense/health.h"
#include "sense/bmc.h"
#include "sense/netport.h"
#include "sense/stress.h"

/* How long smartctl may take, for all disks at once. */
#define SMART_TIMEOUT_S 60
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

/*
 * SMART before or after the run, for the disks that have it: not loop
 * devices and files. Without smartctl (a host without smartmontools) the
 * results say there is none.
 */
void burn_start_health(struct burn *b, int after)
{
	struct record *r = b->r;
	const char **devs;
	struct health *h;
	int i;

	if (access(HEALTH_SMARTCTL, X_OK) < 0)
		return;
	devs = calloc((size_t)r->n + 1, sizeof(*devs));
	h = calloc((size_t)r->n + 1, sizeof(*h));
	if (!devs || !h)
		goto out;
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] &&
		    r->disks[i].t.kind == TARGET_BLOCK &&
		    !r->disks[i].t.id.backing[0])
			devs[i] = r->disks[i].path;
	if (health_read_many(HEALTH_SMARTCTL, devs, r->n, SMART_TIMEOUT_S,
			     h) == -ETIMEDOUT)
		for (i = 0; i < r->n; i++)
			if (devs[i] && !h[i].len)
				record_note(r,
					    "%s: smartctl did not answer in "
					    "%u s (%s the run)",
					    r->disks[i].label, SMART_TIMEOUT_S,
					    after ? "after" : "before");
	for (i = 0; i < r->n; i++) {
		struct health *to = after ? &r->disks[i].after :
				    &r->disks[i].before;

		health_free(to);
		*to = h[i];
	}
out:
	free(devs);
	free(h);
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
		record_judge(b->r, 0, 0);
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
 * The network beside the disks, for as long as they burn: every NIC with
 * a link and an address, each to its own iperf3 server port.
 */
static void start_iperf(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	const char *sysroot = s->sysfs_root ? s->sysfs_root : b->env.sysroot;
	char host[256], err[240];
	unsigned port;
	int i, n;

	if (!s->iperf)
		return;
	r->have_net = 1;
	r->net = calloc(NETPORT_MAX, sizeof(*r->net));
	if (!r->net) {
		complain("out of memory: no iperf3 beside the burn");
		return;
	}
	n = netport_find(sysroot, r->net, NETPORT_MAX);
	if (n <= 0) {
		record_note(r, "iperf: no NIC with a link and an address: "
			    "no network load");
		return;
	}
	for (i = 0; i < n; i++) {
		struct netport *p = &r->net[r->nnet];

		if (iperfspec_server(s->iperf, i, host, sizeof(host), &port,
				     err, sizeof(err))) {
			record_note(r, "iperf: %s not loaded: %s", p->nic, err);
			continue;
		}
		if (p != &r->net[i])
			*p = r->net[i];
		netport_start(p, sysroot, IPERF_IPERF3, host, port,
			      b->job.start_ns);
		r->nnet++;
		fprintf(b->con, "kiln: iperf3 on %s to %s port %u for the "
			"whole burn\n", p->nic, host, port);
	}
}

/*
 * The memory and CPUs loaded beside the disks (setting stress): the
 * memory is what kiln's plan leaves once its buffers and its margin are
 * held, stress-memory of it; too little is a CPU stress alone, or none.
 */
static void start_stress(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	struct stress *st = &r->stress;
	uint64_t left = memplan_left(&r->mem), bytes = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int what = s->stress;
	char note[240] = "";

	if (!what)
		return;
	r->have_stress = 1;
	if (what & SETTINGS_STRESS_MEMORY) {
		/* Nothing known of the memory: a size given is taken. */
		if (r->mem.usable == UINT64_MAX && !s->stress_memory.bytes)
			snprintf(note, sizeof(note), "the machine's memory is "
				 "not known: no memory stress");
		else
			bytes = stress_memory(left, s->stress_memory.bytes,
					      s->stress_memory.percent, note,
					      sizeof(note));
		if (!bytes)
			what &= ~SETTINGS_STRESS_MEMORY;
	}
	if (!what) {
		stress_not_started(st, s->stress, "%s", note);
		fprintf(b->con, "kiln: no memory stress: %s\n", note);
		return;
	}
	if (stress_start(st, what, bytes, cpus > 0 ? (unsigned)cpus : 1)) {
		fprintf(b->con, "kiln: no stress beside the burn: %s\n",
			st->problem);
		return;
	}
	st->what = s->stress;
	snprintf(st->note, sizeof(st->note), "%s", note);
	if (note[0])
		record_note(r, "stress: %s", note);
	fprintf(b->con, "kiln: %s beside the burn (%s): %llu MiB, %u copy "
		"threads, %u CPU threads, below the disks in priority\n",
		st->tool, stress_what_name(what),
		(unsigned long long)(st->memory_bytes >> 20), st->copy_threads,
		st->cpu_threads);
}

/*
 * The BMC's event log before the burn (setting bmc), so what the burn
 * adds to it is told at the end; no BMC is said once and nothing judged.
 */
static void start_bmc(struct burn *b)
{
	struct bmc *m = &b->r->bmc;

	if (!b->s->bmc)
		return;
	bmc_start(m, "/dev");
	if (m->state == BMC_ABSENT)
		fprintf(b->con, "kiln: no BMC (no IPMI device): its event log "
			"is not read\n");
	else if (m->state == BMC_UNREAD)
		fprintf(b->con, "kiln: the BMC's event log cannot be read: %s\n",
			m->problem);
	else
		fprintf(b->con, "kiln: the BMC's event log holds %u entr%s "
			"before the burn (BMC at %s)\n", m->start_entries,
			m->start_entries == 1 ? "y" : "ies",
			m->address[0] ? m->address : "an address not known");
}

/* Results folder, plan, SMART before, then the engine: 0 or an exit code. */
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
	burn_start_health(b, 0);
	burn_fault_logs(b, 0);
	start_bmc(b);
	sampler_start(&b->smp, r, NULL);
	solo_phase(b);
	ret = start_workers(b);
	if (ret)
		return ret;
	links_start(&r->links, b->job.start_ns);
	/* profile=erase: no burn, so no load beside it either. */
	if (b->s->profile != SETTINGS_ERASE) {
		start_iperf(b);
		start_stress(b);
	}
	for (i = 0; i < b->ne; i++) {
		struct record_disk *d = b->burning[i];
		unsigned p = settings_passes(b->s);

		d->mt = &b->mon.mt[i];
		b->mon.mt[i].planned = d->ep.mode == ENGINE_NONE ? 0 :
			(uint64_t)p * d->ep.region *
			(d->ep.mode == ENGINE_WRITE_VERIFY ? 2 : 1);
		b->mon.mt[i].write_passes = d->ep.write_passes;
	}
	record_judge(r, 0, 0);
	burn_loop_checkpoint(b);
	/* A dashboard sees the run from its first second. */
	lab_tick(b->lab, r);
	return 0;
}
