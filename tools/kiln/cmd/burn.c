/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln burn, and the one walk of a burn-in that kiln run
 * takes too: open and check every target before any I/O (burn_open), then
 * start the engine and the monitor (burn_start), watch them (burn_loop),
 * then SMART after, judge, and write the results (burn_finish). This is
 * the only file that knows that order.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cmd/burn.h"
#include "base/crc32c.h"
#include "base/deadline.h"
#include "sense/health.h"
#include "base/complain.h"
#include "base/kiln.h"
#include "lab/lab.h"
#include "engine/memplan.h"
#include "results/ocptv.h"
#include "settings/options.h"
#include "results/report_html.h"
#include "discover/signature.h"
#include "judge/sampler.h"
#include "results/result.h"
#include "results/folder.h"
#include "cmd/gate.h"
#include "results/notes.h"
#include "results/summary.h"
#include "base/timing.h"

/* The largest request: registered buffers are capped at 1 GiB each anyway. */
#define MAX_BS (64u << 20)
/* How long iperf3 runs beside the burn. */
#define IPERF_SECONDS 30
/* How often the per-target table comes between status lines. */
#define TABLE_EVERY_S 300
/* How long smartctl may take, for all disks at once. */
#define SMART_TIMEOUT_S 60

static volatile sig_atomic_t interrupted;
static struct engine_job *signal_job;

static void on_signal(int sig)
{
	interrupted = 1;
	if (signal_job) {
		/* Lock-free: stops the confirming re-read too. */
		atomic_store(&signal_job->stop, 1);
		engine_wake(signal_job);
	}
	/* A second signal is the user insisting: let it kill. */
	signal(sig, SIG_DFL);
}

/* The machinery of one burn; the facts of the run are in the record. */
struct burn {
	struct record *r;
	struct settings *s;
	struct safety_env env;		/* the machine's /sys and /proc */
	struct engine_job job;
	/* disks that burn (not failed before) */
	int ne;
	struct engine_target **ets;	/* ne of them */
	struct record_disk **burning;	/* ...and their disks */
	struct engine_counters *counters;
	const char **labels;
	struct unit_ctx *ctx;
	struct monitor mon;
	struct sampler smp;		/* the machine's own signals */
	struct folder res;
	int have_results;
	struct lab *lab;		/* the lab's servers; NULL: none */
	/* the console: stdout, or stderr under --json */
	FILE *con;
	uint64_t t0;			/* the first I/O: solo or burn */
};

uint64_t burn_new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = timing_now_ns() ^ ((uint64_t)getpid() << 32) ^
		     (uint64_t)time(NULL);
	return id ? id : 1;
}

/* A closed console (kiln burn ... | head) ends the run like SIGTERM. */
static void console_check(struct burn *b)
{
	if (fflush(b->con) == EOF || ferror(b->con)) {
		interrupted = 1;
		clearerr(b->con);
	}
}

static void print_plan(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	char size[32], bs[32], hms[32];
	int i, e;

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
	/* Said first and last, so a run whose folder was chosen is found. */
	if (r->out)
		fprintf(b->con, "results: %s\n", r->lab.upload_only ?
			r->lab.upload : r->out);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct engine_plan *p = &d->ep;

		fprintf(b->con, "  %s  %s  %s\n", d->label,
			settings_fmt_size(d->t.size, size, sizeof(size)),
			d->t.id.identity);
		if (d->failed[0]) {
			fprintf(b->con,
				"  %s  %s\n    FAIL before the burn: %s\n",
				d->label, d->path, d->failed);
			continue;
		}
		fprintf(b->con, "    %s: %s; %s", settings_mode_name(d->mode),
			d->plan.why, settings_fmt_size(p->region, size,
						       sizeof(size)));
		if (p->mode == ENGINE_VERIFY && p->verify_pass)
			fprintf(b->con, ", pass %u of run %016llx%s%s",
				p->verify_pass, (unsigned long long)r->run_id,
				r->from ? " from " : "",
				r->from ? r->from : "");
		for (e = 0; e < p->next; e++)
			fprintf(b->con, "%s%llu", e ? ", " : " at ",
				(unsigned long long)p->ext[e].offset);
		fprintf(b->con, "%s\n",
			d->t.direct ? "" : " (no O_DIRECT here)");
	}
	notes_print(r->notes, r->nnotes, b->con);
	console_check(b);
}

/*
 * SMART before or after the run, for the disks that have it: not loop
 * devices and files. Without smartctl (a host without smartmontools) the
 * results say there is none.
 */
static void read_health(struct burn *b, int after)
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

/* Writes one results file; a failure is said and remembered, never silent. */
static void keep(struct burn *b, const char *name, const void *data,
		 size_t len)
{
	int ret = data ? folder_write(&b->res, name, data, len) : -ENOMEM;

	if (data)
		lab_put(b->lab, name, data, len);
	if (ret) {
		b->r->results_lost = 1;
		complain("cannot write the results: %s/%s: %s", b->res.dir,
			 name, strerror(-ret));
	}
}

static void save_health(struct burn *b)
{
	char name[300];
	int i;

	for (i = 0; i < b->r->n; i++) {
		const struct record_disk *d = &b->r->disks[i];

		if (d->before.text) {
			snprintf(name, sizeof(name), "smart-%s-before.txt",
				 d->label);
			keep(b, name, d->before.text, d->before.len);
		}
		if (d->after.text) {
			snprintf(name, sizeof(name), "smart-%s-after.txt",
				 d->label);
			keep(b, name, d->after.text, d->after.len);
		}
	}
}

static void upload_progress(struct burn *b);

static void checkpoint(struct burn *b)
{
	char *doc;
	size_t len;
	int ret;

	if (!b->have_results)
		return;
	b->r->elapsed_ns = timing_now_ns() - b->t0;
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
	if (b->lab && !ret)
		upload_progress(b);
}

/* The newest checkpoint and the summary so far, to the lab's server. */
static void upload_progress(struct burn *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	lab_put_file(b->lab, folder_checkpoints[b->res.good - 1]);
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	summary_text(b->r, mem);
	if (fclose(mem) == 0)
		lab_put(b->lab, "summary.txt", text, len);
	free(text);
}

static void save_units(struct burn *b)
{
	char name[300];
	int i;
	unsigned k, n;

	for (i = 0; i < b->r->n; i++) {
		const struct record_disk *d = &b->r->disks[i];
		const struct engine_saved *sv;

		n = d->et ? engine_saved(d->et, &sv) : 0;
		for (k = 0; k < n; k++) {
			snprintf(name, sizeof(name), "bad-unit-%s-%llu.read",
				 d->label, (unsigned long long)sv[k].offset);
			keep(b, name, sv[k].read, UNIT_SIZE);
			snprintf(name, sizeof(name),
				 "bad-unit-%s-%llu.expected", d->label,
				 (unsigned long long)sv[k].offset);
			keep(b, name, sv[k].expected, UNIT_SIZE);
		}
	}
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

/* Each disk read alone first (setting solo), a checkpoint after each. */
static void solo_phase(struct burn *b)
{
	int i;

	if (!b->s->solo)
		return;
	b->t0 = timing_now_ns();
	b->r->started = time(NULL);
	for (i = 0; i < b->r->n && !interrupted; i++) {
		solo_read(b->r, &b->r->disks[i], &b->job, &interrupted, b->con);
		console_check(b);
		record_judge(b->r, 0, 0);
		checkpoint(b);
	}
}

/* "767 MiB (MemAvailable 23.0 GiB, 1023 MiB under the cgroup's limit, ...)" */
static void mem_figures(const struct memplan *p, char *buf, size_t len)
{
	char budget[32], avail[32], room[32], keep[32];

	settings_fmt_size(p->budget, budget, sizeof(budget));
	if (p->avail == UINT64_MAX)
		snprintf(avail, sizeof(avail), "unknown");
	else
		settings_fmt_size(p->avail, avail, sizeof(avail));
	settings_fmt_size(p->cg_room, room, sizeof(room));
	settings_fmt_size(p->keep, keep, sizeof(keep));
	snprintf(buf, len, "%s (MemAvailable %s%s%s%s, less %s kept back)",
		 budget, avail, p->cg_room == UINT64_MAX ? "" : ", ",
		 p->cg_room == UINT64_MAX ? "" : room,
		 p->cg_room == UINT64_MAX ? "" : " under the cgroup's limit",
		 keep);
}

/*
 * The buffers every worker will pin, held against the memory kiln has,
 * before any write: a smaller qd for all targets when they do not fit
 * (like disks are compared at one qd), exit 3 when not even qd 1 does.
 * Killed by the OOM killer mid-burn, kiln would leave no result at all.
 */
static int plan_memory(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	struct memplan_target *t;
	uint64_t avail, room;
	char fig[200], pins[32], asked[32], bs[32];
	int i, n = 0, ret;

	t = calloc((size_t)r->n + 1, sizeof(*t));
	if (!t) {
		complain("out of memory");
		return KILN_EXIT_CANNOT;
	}
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		if (d->failed[0])
			continue;
		t[n].plan = &d->ep;
		t[n++].align = d->t.lbs > 4096 ? d->t.lbs : 4096;
	}
	memplan_read(b->env.procroot, b->env.sysroot, &avail, &room);
	ret = memplan_choose(avail, room, t, n, s->bs, s->qd, &r->mem);
	free(t);
	mem_figures(&r->mem, fig, sizeof(fig));
	settings_fmt_size(r->mem.pins, pins, sizeof(pins));
	settings_fmt_size(r->mem.pins_asked, asked, sizeof(asked));
	if (ret) {
		complain("cannot run: %d target%s at qd 1 and bs %s would pin "
			 "%s of buffers; kiln may pin %s: give a smaller --bs "
			 "or fewer targets", n, n == 1 ? "" : "s",
			 settings_fmt_size(s->bs, bs, sizeof(bs)), pins, fig);
		return KILN_EXIT_CANNOT;
	}
	if (r->mem.qd < s->qd) {
		record_note(r, "memory: qd %u would pin %s of buffers; kiln "
			    "may pin %s: every target runs at qd %u, pinning "
			    "%s", s->qd, asked, fig, r->mem.qd, pins);
		s->qd = r->mem.qd;
	}
	return 0;
}

/* Results folder, plan, SMART before, then the engine: 0 or an exit code. */
static int burn_start(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	int i, ret;

	print_plan(b);
	lab_start(&b->lab, r, b->con);

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

	/* A mark in the kernel's log: boot-to-first-I/O is read off it. */
	if (r->kmsg) {
		FILE *k = fopen("/dev/kmsg", "we");

		if (k) {
			fprintf(k, "<6>kiln: burn-in I/O starts, run %016llx\n",
				(unsigned long long)r->run_id);
			fclose(k);
		}
	}
	read_health(b, 0);
	sampler_start(&b->smp, r, NULL);
	solo_phase(b);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->failed[0])
			continue;
		d->et = engine_target_new(&d->t, &d->ep);
		if (!d->et) {
			complain("out of memory");
			return KILN_EXIT_CANNOT;
		}
		b->burning[b->ne] = d;
		b->labels[b->ne] = d->label;
		b->ets[b->ne++] = d->et;
	}
	signal_job = &b->job;
	ret = engine_start(&b->job, b->ets, b->ne);
	if (ret < 0) {
		complain("cannot start the workers: %s", strerror(-ret));
		atomic_store(&b->job.stop, 1);
		engine_join(b->ets, b->ne);
		return KILN_EXIT_CANNOT;
	}
	if (!b->t0) {
		b->t0 = b->job.start_ns;
		r->started = time(NULL);
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
	links_start(&r->links, b->job.start_ns);
	/* The network beside the disks, while they are busy. */
	if (s->iperf) {
		r->have_net = 1;
		if (iperf_start(&r->net, IPERF_IPERF3, s->iperf,
				IPERF_SECONDS) == 0)
			fprintf(b->con,
				"kiln: iperf3 to %s for %u s beside the "
				"burn\n",
				s->iperf, IPERF_SECONDS);
		else
			r->net.done = 1;
	}
	for (i = 0; i < b->ne; i++) {
		struct record_disk *d = b->burning[i];
		unsigned p = settings_passes(s);

		d->mt = &b->mon.mt[i];
		b->mon.mt[i].planned = (uint64_t)p * d->ep.region *
			(d->ep.mode == ENGINE_WRITE_VERIFY ? 2 : 1);
	}
	record_judge(r, 0, 0);
	checkpoint(b);
	/* A dashboard sees the run from its first second. */
	lab_tick(b->lab, r);
	return 0;
}

/* Watches the workers: samples, status lines, the table, checkpoints. */
static void burn_loop(struct burn *b)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	uint64_t next_sample, next_status, next_table, next_checkpoint, now;
	char line[160], ctrls[2 * 160];
	int running;

	now = timing_now_ns();
	next_sample = now + TIMING_SEC;
	next_status = now + s->interval * TIMING_SEC;
	next_table = now + TABLE_EVERY_S * TIMING_SEC;
	next_checkpoint = now + s->checkpoint * TIMING_SEC;
	do {
		now = timing_now_ns();
		/* Cut short when a worker ends or a signal comes. */
		if (next_sample > now)
			engine_wait(&b->job, next_sample - now);
		if (interrupted)
			atomic_store(&b->job.stop, 1);
		running = engine_poll(&b->job, b->ets, b->ne);
		now = timing_now_ns();
		if (now < next_sample && running && !interrupted)
			continue;
		sample(b, now);
		sampler_tick(&b->smp);
		if (r->have_net)
			iperf_poll(&r->net);
		/* On a grid of whole seconds: no drift, whatever the work. */
		while (next_sample <= now)
			next_sample += TIMING_SEC;
		if (now >= next_status && running) {
			monitor_status(&b->mon, now, 0, line, sizeof(line));
			fprintf(b->con, "%s\n", line);
			links_status(&r->links, now, ctrls, sizeof(ctrls));
			if (ctrls[0])
				fprintf(b->con, "%s\n", ctrls);
			if (b->lab) {
				record_judge(r, 0, 0);
				lab_tick(b->lab, r);
			}
			console_check(b);
			while (next_status <= now)
				next_status += s->interval * TIMING_SEC;
		}
		if (now >= next_table && running) {
			record_judge(r, 0, 0);
			fputc('\n', b->con);
			summary_table(r, b->con, 0);
			fputc('\n', b->con);
			console_check(b);
			while (next_table <= now)
				next_table += TABLE_EVERY_S * TIMING_SEC;
		}
		if (now >= next_checkpoint && running) {
			record_judge(r, 0, 0);
			checkpoint(b);
			while (next_checkpoint <= now)
				next_checkpoint += s->checkpoint * TIMING_SEC;
		}
	} while (running);

	engine_join(b->ets, b->ne);
	now = timing_now_ns();
	sample(b, now);
	monitor_status(&b->mon, now, interrupted, line, sizeof(line));
	fprintf(b->con, "%s\n", line);
	console_check(b);
}

static int burn_finish(struct burn *b)
{
	struct record *r = b->r;
	char *text = NULL, *doc;
	size_t tlen = 0, dlen = 0;
	FILE *mem;
	int i;

	if (!interrupted)
		reread_run(r, b->job.deadline_ns, &b->job.stop, b->con);
	sampler_finish(&b->smp, b->con, &interrupted);
	read_health(b, 1);
	if (r->have_net)
		iperf_finish(&r->net, IPERF_SECONDS + 30);
	r->ended = time(NULL);
	r->elapsed_ns = timing_now_ns() - b->t0;
	for (i = 0; i < r->n; i++)
		if (r->disks[i].t.fd >= 0 &&
		    !target_path_current(&r->disks[i].t))
			record_note(r, "%s no longer names the device kiln "
				    "opened (%s): the results are for that "
				    "device", r->disks[i].path,
				    r->disks[i].t.id.identity);
	if (b->have_results && (folder_sync(&b->res) || b->res.samples_lost)) {
		r->results_lost = 1;
		complain("cannot write the results: samples.csv in %s is "
			 "incomplete", b->res.dir);
	}
	record_judge(r, 1, interrupted);
	for (i = 0; i < r->n; i++)
		if (r->disks[i].snap.later_pass)
			record_note(r, "%s: %u units hold a later pass of this "
				    "run than pass %u, where its record ends: "
				    "written after the record's last "
				    "checkpoint (the run was cut off), they "
				    "are the run's own and not a loss",
				    r->disks[i].label,
				    r->disks[i].snap.later_pass,
				    r->disks[i].snap.verified_pass);

	if (b->have_results) {
		char *html;
		size_t hlen;

		/* The room held since the start is for these. */
		folder_release(&b->res);
		save_units(b);
		html = report_html(r, &hlen);
		keep(b, "report.html", html, hlen);
		free(html);
		save_health(b);
		if (r->net.out)
			keep(b, "iperf3.json", r->net.out, r->net.len);
		if (r->inventory)
			keep(b, "inventory.json", r->inventory,
			     r->inventory_len);
		if (r->kmsg && folder_write_kmsg(&b->res, "/dev/kmsg"))
			complain("cannot write kmsg.log in %s", b->res.dir);
		checkpoint(b);
		/* What was lost so far is in the record: judge it in. */
		record_judge(r, 1, interrupted);
	}
	/* All but the last files at the lab's server, the verdict pushed. */
	lab_settle(b->lab, r);
	mem = open_memstream(&text, &tlen);
	if (mem) {
		summary_text(r, mem);
		fclose(mem);
	}
	doc = result_json(r, &dlen);
	if (b->have_results) {
		char *jl;
		size_t jlen;

		/* The run in OCP Test & Validation's format, for pipelines. */
		jl = ocptv_jsonl(r, &jlen);
		keep(b, "ocptv.jsonl", jl, jlen);
		free(jl);
		keep(b, "result.json", doc, dlen);
		keep(b, "summary.txt", text, tlen);
		if (r->results_lost) {
			/* The exit says it; the console must too. */
			record_judge(r, 1, interrupted);
			free(doc);
			doc = result_json(r, &dlen);
		}
		folder_close(&b->res);
		b->have_results = 0;
	}
	if (b->lab) {
		int lost = r->results_lost;

		lab_finish(b->lab, r);
		/* Without a stick, a file lost there is a result lost. */
		if (r->results_lost != lost)
			record_judge(r, 1, interrupted);
	}
	fputc('\n', b->con);
	if (text)
		fwrite(text, 1, tlen, b->con);
	if (r->out)
		fprintf(b->con, "results: %s%s\n", r->lab.upload_only ?
			r->lab.upload : r->out, r->results_lost ?
			" (INCOMPLETE: some files could not be written)" : "");
	console_check(b);
	/* Without --out, standard output is where the results are. */
	if (r->s->json && doc &&
	    (fwrite(doc, 1, dlen, stdout) != dlen || fflush(stdout) ||
	     ferror(stdout))) {
		complain("cannot write the results to standard output: %s%s%s",
			 strerror(errno), r->out ? "; they are in " : "",
			 r->out ? r->out : "");
		if (!r->out) {
			r->results_lost = 1;
			record_judge(r, 1, interrupted);
		}
	}
	free(text);
	free(doc);
	return r->exit_code;
}

static void burn_free(struct burn *b, int keep_created)
{
	struct record *r = b->r;
	int i;

	monitor_free(&b->mon);
	lab_free(b->lab);
	b->lab = NULL;
	sampler_free(&b->smp);
	if (b->have_results)
		folder_close(&b->res);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->t.fd >= 0 && d->t.created && !keep_created)
			unlink(d->path);
		target_close(&d->t);
		d->mt = NULL;
	}
	free(b->ets);
	free(b->burning);
	free(b->counters);
	free(b->labels);
	free(b->ctx);
	signal_job = NULL;
}

/* One target held against the run folder; its own copies of the paths. */
struct overlap {
	const char *sysroot;
	char dir[PATH_MAX], path[PATH_MAX];
	int hit;
	char why[PATH_MAX * 2 + 200];
};

static void overlap_one(void *arg)
{
	struct overlap *o = arg;

	o->hit = o->path[0] && folder_overlaps(o->sysroot, o->dir, o->path,
					       o->why, sizeof(o->why));
}

/*
 * A target inside the run folder, or the folder on a target: exit 2. The
 * paths are resolved under the deadline, each in a child process (a file
 * on a dead filesystem does not answer, and a thread asleep there would
 * keep kiln from exiting); one that does not answer is left to the gate,
 * which fails it as stalled. 0, or an exit code.
 */
static int check_overlaps(struct burn *b)
{
	struct record *r = b->r;
	struct overlap *o = calloc((size_t)r->n + 1, sizeof(*o));
	int *done = calloc((size_t)r->n + 1, sizeof(*done));
	int i, late = 0, ret = 0;

	for (i = 0; o && done && i < r->n; i++) {
		o[i].sysroot = b->env.sysroot;
		snprintf(o[i].dir, sizeof(o[i].dir), "%s", r->out);
		if (!r->disks[i].failed[0])
			snprintf(o[i].path, sizeof(o[i].path), "%s",
				 r->disks[i].path);
	}
	if (!o || !done ||
	    deadline_apart(overlap_one, o, sizeof(*o), r->n, -1,
			   (uint64_t)b->s->deadline * TIMING_SEC, done)) {
		complain("out of memory");
		free(o);
		free(done);
		return KILN_EXIT_CANNOT;
	}
	for (i = 0; i < r->n; i++) {
		late |= !done[i];
		if (done[i] && o[i].hit && !ret) {
			complain("%s", o[i].why);
			ret = KILN_EXIT_USAGE;
		}
	}
	/* An item still in use by its thread is left to it. */
	if (!late)
		free(o);
	free(done);
	return ret;
}

/*
 * The run folder, before any disk is touched: absent or empty, writable,
 * with room held for the files written at the end and free for the rest.
 * A target inside it, or it on a target, is refused first: the results
 * would be written over the disk, or the disk over the results.
 */
static int open_folder(struct burn *b)
{
	uint64_t reserve, more;
	char err[PATH_MAX + 200];
	int ret;

	if (!b->r->out)
		return 0;
	ret = check_overlaps(b);
	if (ret)
		return ret;
	folder_room(b->r->n, b->s->duration, &reserve, &more);
	ret = folder_open(&b->res, b->r->out, reserve, more, err, sizeof(err));
	if (ret) {
		complain("%s", err);
		return ret == -EEXIST ? KILN_EXIT_USAGE : KILN_EXIT_CANNOT;
	}
	b->have_results = 1;
	return 0;
}

int burn_run(struct record *r)
{
	struct burn b;
	int ret, code;

	memset(&b, 0, sizeof(b));
	b.r = r;
	b.s = r->s;
	b.env.sysroot = "/sys";
	b.env.procroot = "/proc";
	b.con = r->s->json ? stderr : stdout;
	ret = crc32c_init();
	if (ret) {
		complain("cannot use KILN_CRC32C=%s: %s", getenv("KILN_CRC32C"),
			 ret == -EINVAL ? "no such implementation" :
			 "this CPU lacks it");
		return KILN_EXIT_CANNOT;
	}
	snprintf(r->crc32c, sizeof(r->crc32c), "%s", crc32c_name());
	/* The record is bounded by its disks: so are they (result.h). */
	if (r->n > RESULT_MAX_TARGETS) {
		complain("%d targets: a run takes %d at most", r->n,
			 RESULT_MAX_TARGETS);
		return KILN_EXIT_USAGE;
	}
	/* Each ends the run the same way: I/O stops, results are written. */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);
	machine_firmware_read(b.env.sysroot, &r->firmware);
	if (!r->run_id)
		r->run_id = burn_new_run_id();

	code = open_folder(&b);
	if (!code)
		code = gate_open(r, b.s, &b.env);
	/* Controllers and links: what the results hold the rates against. */
	if (!code)
		links_read(r, b.env.sysroot);
	if (!code)
		code = plan_memory(&b);
	if (code) {
		/* Nothing was written: files created for this run go again. */
		if (b.have_results)
			folder_discard(&b.res);
		b.have_results = 0;
		burn_free(&b, 0);
		return code;
	}
	code = burn_start(&b);
	if (code) {
		burn_free(&b, 1);
		return code;
	}
	burn_loop(&b);
	code = burn_finish(&b);
	burn_free(&b, 1);
	return code;
}
