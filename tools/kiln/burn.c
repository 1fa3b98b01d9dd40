/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln burn, the one walk of a burn-in: read the settings,
 * open and check every target before any I/O, then run the engine while
 * the monitor samples, then judge, write the results and say the verdict.
 * This is the only file that knows that order.
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

#include "burn.h"
#include "crc32c.h"
#include "engine.h"
#include "health.h"
#include "judge.h"
#include "monitor.h"
#include "netcheck.h"
#include "outcome.h"
#include "plan.h"
#include "report.h"
#include "results.h"
#include "settings.h"
#include "target.h"
#include "timing.h"
#include "unit.h"

/* The largest request: registered buffers are capped at 1 GiB each anyway. */
#define MAX_BS (64u << 20)
/* How long iperf3 runs beside the burn. */
#define NETCHECK_SECONDS 30
/* How often the per-target table comes between status lines. */
#define TABLE_EVERY_NS (300ull * 1000000000ull)

static volatile sig_atomic_t interrupted;
static struct engine_job *signal_job;

static void on_signal(int sig)
{
	interrupted = 1;
	if (signal_job)
		engine_wake(signal_job);
	/* A second signal is the user insisting: let it kill. */
	signal(sig, SIG_DFL);
}

__attribute__((format(printf, 1, 2)))
static void complain(const char *fmt, ...)
{
	va_list ap;

	fputs("kiln: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 2, 3)))
static void note(struct outcome *o, const char *fmt, ...)
{
	va_list ap;

	if (o->nnotes == (int)(sizeof(o->notes) / sizeof(o->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(o->notes[o->nnotes++], sizeof(o->notes[0]), fmt, ap);
	va_end(ap);
}

struct burn {
	struct burn_request *r;
	struct settings *s;
	struct safety_env env;	/* the machine's /sys and /proc */
	struct outcome o;
	struct target *t;
	struct engine_target *et;
	struct outcome_target *ot;
	struct judge *judges;
	struct health *before, *after;	/* SMART, per target */
	struct netcheck net;		/* iperf3 beside the burn */
	struct engine_job job;
	struct unit_ctx *ctx;
	struct monitor mon;
	struct results res;
	int have_results;
	int n;
	FILE *con;		/* the console: stdout, or stderr under --json */
};

static int destructive(int mode)
{
	return mode == SETTINGS_WRITE_VERIFY || mode == SETTINGS_WRITE;
}

/* Settings that are wrong whatever the targets are. */
static int check_settings(struct burn *b)
{
	struct settings *s = b->s;
	int i;

	if (!s->bs || s->bs % UNIT_SIZE || s->bs > MAX_BS) {
		complain("bad value for --bs: %llu (want a multiple of 4 KiB up "
			 "to 64 MiB)", (unsigned long long)s->bs);
		return -EINVAL;
	}
	for (i = 0; i < b->n; i++)
		if (b->r->specs[i].mode == SETTINGS_VERIFY && !s->run_id_set) {
			complain("--mode verify needs the --run-id of the write "
				 "to check");
			return -EINVAL;
		}
	if (!s->passes && !s->duration)
		s->passes = 1;
	if (s->span && s->span < UNIT_SIZE) {
		complain("bad value for --span: %llu (want 4 KiB or more)",
			 (unsigned long long)s->span);
		return -EINVAL;
	}
	return 0;
}

static int open_targets(struct burn *b)
{
	struct settings *s = b->s;
	char err[PATH_MAX + 200];
	int i, k, ret;

	for (i = 0; i < b->n; i++) {
		ret = target_open(&b->t[i], &b->env, b->r->specs[i].path,
				  destructive(b->r->specs[i].mode), s->size, err,
				  sizeof(err));
		if (ret) {
			complain("%s", err);
			return ret == -ENOENT || ret == -ENOTBLK ||
			       ret == -EBUSY || ret == -EISDIR ? -EINVAL : ret;
		}
		for (k = 0; k < i; k++)
			if (target_same(&b->t[k], &b->t[i])) {
				complain("%s and %s are the same target, given "
					 "twice", b->t[k].path, b->t[i].path);
				return -EINVAL;
			}
	}
	return 0;
}

/* The region of a target: aligned, inside it, and big enough. */
static int plan_region(struct burn *b, int i)
{
	struct settings *s = b->s;
	struct target *t = &b->t[i];
	struct engine_target *et = &b->et[i];
	uint64_t end, len, piece;
	unsigned lbs = t->lbs;

	if (lbs > UNIT_SIZE) {
		complain("%s: logical block size %u is above 4096, which kiln "
			 "does not test yet", t->path, lbs);
		return -ENOTSUP;
	}
	if (s->offset % lbs || s->span % lbs) {
		complain("%s: --offset and --span must be multiples of its "
			 "logical block size, %u bytes", t->path, lbs);
		return -EINVAL;
	}
	if (s->offset >= t->size) {
		complain("%s is too small: %llu bytes, --offset is %llu",
			 t->path, (unsigned long long)t->size,
			 (unsigned long long)s->offset);
		return -EINVAL;
	}
	end = t->size;
	if (s->span && !s->quick) {
		if (s->span > t->size - s->offset) {
			complain("%s is too small: --offset %llu + --span %llu "
				 "is past its end at %llu", t->path,
				 (unsigned long long)s->offset,
				 (unsigned long long)s->span,
				 (unsigned long long)t->size);
			return -EINVAL;
		}
		end = s->offset + s->span;
	}
	len = (end - s->offset) / UNIT_SIZE * UNIT_SIZE;
	if (!len) {
		complain("%s is too small: %llu bytes from offset %llu, less "
			 "than one 4 KiB unit", t->path,
			 (unsigned long long)(end - s->offset),
			 (unsigned long long)s->offset);
		return -EINVAL;
	}

	et->next = 1;
	et->ext[0].offset = s->offset;
	et->ext[0].length = len;
	/* Quick: a third at the start, the middle and the end. */
	piece = s->span / 3 / UNIT_SIZE * UNIT_SIZE;
	if (s->quick && piece && 3 * piece < len) {
		et->next = 3;
		et->ext[0].length = piece;
		et->ext[1].offset = s->offset +
				    (len / 2 - piece / 2) / UNIT_SIZE * UNIT_SIZE;
		et->ext[1].length = piece;
		et->ext[2].offset = s->offset + len - piece;
		et->ext[2].length = piece;
		len = 3 * piece;
	}
	et->region = len;
	return 0;
}

/* Whether kiln may do what it was asked here, in words; NULL when not. */
static const char *safety(struct burn *b, int i)
{
	struct target *t = &b->t[i];
	struct safety *sf = &t->safety;
	int consent = plan_consent(b->s, &t->id);

	if (sf->class == SAFETY_IN_USE) {
		complain("refusing to touch %s: it is in use (%s)", t->path,
			 sf->why);
		return NULL;
	}
	if (!destructive(b->r->specs[i].mode))
		return "read only";
	if (t->kiln_data)
		return "kiln-data: written by kiln before";
	if (t->kind == TARGET_FILE) {
		if (t->created)
			return "created by kiln";
		if (!t->size)
			return "an empty file";
		if (consent)
			return "an existing file, overwritten with --destroy-data";
		complain("refusing to write %s: an existing file that does "
			 "not hold kiln data%s%s (give --destroy-data to "
			 "overwrite it)", t->path, sf->sig.n ? "; " : "",
			 sf->sig.n ? sf->why : "");
		return NULL;
	}
	if (sf->class == SAFETY_BLANK)
		return "blank: no signature at its start or end";
	if (consent)
		return "has data, overwritten with --destroy-data";
	complain("refusing to write %s: %s (give --destroy-data to "
		 "overwrite it)", t->path, sf->why);
	return NULL;
}

static void plan_writes(struct burn *b, int i)
{
	struct settings *s = b->s;
	struct target *t = &b->t[i];
	struct engine_target *et = &b->et[i];
	unsigned cap = s->max_writes;
	uint64_t passes;

	if (!destructive(b->r->specs[i].mode))
		return;
	/* Flash wears: a long soak must not use up an SSD's endurance. */
	if (!s->max_writes_set)
		cap = t->kind == TARGET_BLOCK && t->id.rotational == 0 ? 2 : 0;
	if (!cap)
		return;
	passes = (uint64_t)cap * t->size / et->region;
	et->write_passes = passes > 1000000 ? 1000000 : passes ? (unsigned)passes : 1;
	if (!s->max_writes_set)
		note(&b->o, "%s is not rotational: at most %u whole-disk writes "
		     "(--max-writes); passes beyond %u only verify",
		     t->id.name, cap, et->write_passes);
	else if (s->passes > et->write_passes || s->duration)
		note(&b->o, "%s: at most %u whole-disk writes (--max-writes); "
		     "passes beyond %u only verify", t->id.name, cap,
		     et->write_passes);
}

uint64_t burn_new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = timing_now_ns() ^ ((uint64_t)getpid() << 32) ^
		     (uint64_t)time(NULL);
	return id ? id : 1;
}

static int engine_mode(int mode)
{
	switch (mode) {
	case SETTINGS_WRITE: return ENGINE_WRITE;
	case SETTINGS_VERIFY: return ENGINE_VERIFY;
	case SETTINGS_READ: return ENGINE_READ;
	}
	return ENGINE_WRITE_VERIFY;
}

static void print_plan(struct burn *b)
{
	struct settings *s = b->s;
	char size[32], bs[32], hms[32];
	int i, e;

	fprintf(b->con, "kiln %s: run %016llx, bs %s, qd %u", b->r->command,
		(unsigned long long)b->o.run_id,
		settings_fmt_size(s->bs, bs, sizeof(bs)), s->qd);
	if (s->passes)
		fprintf(b->con, ", %u pass%s", s->passes, s->passes == 1 ? "" : "es");
	if (s->duration)
		fprintf(b->con, ", for %s",
			timing_fmt_hms(s->duration, hms, sizeof(hms)));
	fprintf(b->con, ", crc32c %s\n", crc32c_name());
	for (i = 0; i < b->n; i++) {
		struct target *t = &b->t[i];
		struct engine_target *et = &b->et[i];

		fprintf(b->con, "  %-10s %9s  %s\n", t->id.name,
			settings_fmt_size(t->size, size, sizeof(size)),
			t->id.identity);
		fprintf(b->con, "  %-10s %9s  %s: %s; %s", "", "",
			settings_mode_name(b->r->specs[i].mode), b->ot[i].safety,
			settings_fmt_size(et->region, size, sizeof(size)));
		for (e = 0; e < et->next; e++)
			fprintf(b->con, "%s%llu", e ? ", " : " at ",
				(unsigned long long)et->ext[e].offset);
		fprintf(b->con, "%s\n", t->direct ? "" : " (no O_DIRECT here)");
	}
	for (i = 0; i < b->o.nnotes; i++)
		fprintf(b->con, "note: %s\n", b->o.notes[i]);
	fflush(b->con);
}

static void set_verdict(struct burn *b, int final)
{
	struct outcome *o = &b->o;
	int i, stop = 0;

	for (i = 0; i < b->n; i++) {
		judge_target(&b->et[i], &b->mon.mt[i], &b->judges[i]);
		judge_health(&b->before[i], final ? &b->after[i] : NULL,
			     &b->judges[i]);
	}
	/* Like disks are compared once every disk has finished. */
	if (final)
		judge_peers(b->et, b->mon.mt, b->judges, b->n);
	o->verdict = JUDGE_PASS;
	for (i = 0; i < b->n; i++) {
		b->ot[i].j = b->judges[i];
		stop |= b->judges[i].interrupted;
		if (b->judges[i].verdict > o->verdict)
			o->verdict = b->judges[i].verdict;
	}
	/* A run that tested nothing, or missed a disk, proves nothing. */
	if (b->r->failure || !b->n)
		o->verdict = JUDGE_FAIL;
	if (o->verdict == JUDGE_FAIL)
		o->exit_code = BURN_EXIT_FAIL;
	else if (stop || interrupted)
		o->exit_code = BURN_EXIT_INTERRUPTED;
	else
		o->exit_code = BURN_EXIT_PASS;
	o->state = !final ? "running" : stop || interrupted ? "interrupted" :
		   "complete";
}

/*
 * SMART before or after the run, for the disks that have it: not loop
 * devices and files. Without smartctl (a host without smartmontools) the
 * results say there is none.
 */
static void read_health(struct burn *b, struct health *h, const char *when)
{
	const char **devs;
	int i;

	if (access(HEALTH_SMARTCTL, X_OK) < 0)
		return;
	devs = calloc((size_t)b->n + 1, sizeof(*devs));
	if (!devs)
		return;
	for (i = 0; i < b->n; i++)
		if (b->t[i].kind == TARGET_BLOCK && !b->t[i].id.backing[0])
			devs[i] = b->t[i].path;
	if (health_read_many(HEALTH_SMARTCTL, devs, b->n, 60, h) == -ETIMEDOUT)
		for (i = 0; i < b->n; i++)
			if (devs[i] && !h[i].ran)
				note(&b->o, "%s: smartctl did not answer in 60 s "
				     "(%s)", b->t[i].id.name, when);
	free(devs);
}

static void save_health(struct burn *b)
{
	char name[300];
	int i;

	for (i = 0; i < b->n; i++) {
		if (b->before[i].text) {
			snprintf(name, sizeof(name), "smart-%s-before.txt",
				 b->t[i].id.name);
			results_write(&b->res, name, b->before[i].text,
				      b->before[i].len);
		}
		if (b->after[i].text) {
			snprintf(name, sizeof(name), "smart-%s-after.txt",
				 b->t[i].id.name);
			results_write(&b->res, name, b->after[i].text,
				      b->after[i].len);
		}
	}
}

static void checkpoint(struct burn *b)
{
	char *doc;
	size_t len;
	int ret;

	if (!b->have_results)
		return;
	b->o.elapsed_ns = timing_now_ns() - b->job.start_ns;
	doc = outcome_json(&b->o, &len);
	if (!doc)
		return;
	ret = results_checkpoint(&b->res, doc, len);
	if (!ret)
		ret = results_sync(&b->res);
	if (ret)
		complain("cannot write a checkpoint in %s: %s", b->res.dir,
			 strerror(-ret));
	free(doc);
}

static void save_units(struct burn *b)
{
	char name[300];
	int i;
	unsigned k;

	for (i = 0; i < b->n; i++) {
		struct engine_target *et = &b->et[i];

		for (k = 0; k < et->nsaved; k++) {
			struct engine_saved *sv = &et->saved[k];

			snprintf(name, sizeof(name), "bad-unit-%s-%llu.read",
				 b->t[i].id.name, (unsigned long long)sv->offset);
			results_write(&b->res, name, sv->read, UNIT_SIZE);
			snprintf(name, sizeof(name), "bad-unit-%s-%llu.expected",
				 b->t[i].id.name, (unsigned long long)sv->offset);
			results_write(&b->res, name, sv->expected, UNIT_SIZE);
		}
	}
}

static int finish(struct burn *b)
{
	char *text = NULL, *doc;
	size_t tlen = 0, dlen = 0;
	FILE *mem;
	int i, ret;

	read_health(b, b->after, "after the run");
	if (b->o.net)
		netcheck_finish(&b->net, NETCHECK_SECONDS + 30);
	b->o.ended = time(NULL);
	b->o.elapsed_ns = timing_now_ns() - b->job.start_ns;
	set_verdict(b, 1);
	for (i = 0; i < b->n; i++)
		if (!target_path_current(&b->t[i]))
			note(&b->o, "%s no longer names the device kiln opened "
			     "(%s): the results are for that device",
			     b->t[i].path, b->t[i].id.identity);

	mem = open_memstream(&text, &tlen);
	if (mem) {
		outcome_summary(&b->o, mem);
		fclose(mem);
	}
	doc = outcome_json(&b->o, &dlen);
	if (b->have_results) {
		char *html;
		size_t hlen;

		save_units(b);
		html = report_html(&b->o, &hlen);
		if (html)
			results_write(&b->res, "report.html", html, hlen);
		free(html);
		save_health(b);
		if (b->net.out)
			results_write(&b->res, "iperf3.json", b->net.out,
				      b->net.len);
		if (b->r->inventory)
			results_write(&b->res, "inventory.json", b->r->inventory,
				      b->r->inventory_len);
		if (b->r->kmsg)
			results_write_kmsg(&b->res, "/dev/kmsg");
		ret = doc ? results_write(&b->res, "result.json", doc, dlen) :
			    -ENOMEM;
		if (!ret && text)
			ret = results_write(&b->res, "summary.txt", text, tlen);
		if (ret)
			complain("cannot write the results in %s: %s",
				 b->res.dir, strerror(-ret));
		checkpoint(b);
		results_close(&b->res);
	}
	fputc('\n', b->con);
	if (text)
		fwrite(text, 1, tlen, b->con);
	if (b->have_results)
		fprintf(b->con, "results: %s\n", b->r->out);
	fflush(b->con);
	if (b->s->json && doc)
		fwrite(doc, 1, dlen, stdout);
	free(text);
	free(doc);
	return b->o.exit_code;
}

static int run(struct burn *b)
{
	struct settings *s = b->s;
	uint64_t next_sample, next_status, next_table, next_checkpoint, now;
	char line[160];
	int i, running;

	b->ctx = malloc(sizeof(*b->ctx));
	if (!b->ctx) {
		complain("out of memory");
		return BURN_EXIT_CANNOT;
	}
	unit_ctx_init(b->ctx, b->o.run_id);
	b->job.bs = s->bs;
	b->job.qd = s->qd;
	b->job.passes = s->passes;
	b->job.duration_ns = s->duration * 1000000000ull;
	b->job.deadline_ns = (uint64_t)s->deadline * 1000000000ull;
	b->job.max_detail = s->max_detail;
	b->job.save_units = s->save_units;
	b->job.ctx = b->ctx;
	atomic_init(&b->job.stop, 0);
	b->job.wake_fd = -1;

	/* A mark in the kernel's log: boot-to-first-I/O is read off kmsg.log. */
	if (b->r->kmsg) {
		FILE *k = fopen("/dev/kmsg", "we");

		if (k) {
			fprintf(k, "<6>kiln: burn-in I/O starts, run %016llx\n",
				(unsigned long long)b->o.run_id);
			fclose(k);
		}
	}
	read_health(b, b->before, "before the run");
	signal_job = &b->job;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (engine_start(&b->job, b->et, b->n) < 0) {
		complain("cannot start the workers: %s", strerror(ENOMEM));
		engine_join(b->et, b->n);
		return BURN_EXIT_CANNOT;
	}
	b->o.started = time(NULL);
	if (monitor_init(&b->mon, b->et, b->n,
			 b->have_results ? b->res.samples : NULL,
			 b->job.start_ns) < 0) {
		atomic_store(&b->job.stop, 1);
		engine_join(b->et, b->n);
		complain("out of memory");
		return BURN_EXIT_CANNOT;
	}
	b->mon.duration_ns = b->job.duration_ns;
	/* The network beside the disks, while they are busy. */
	if (s->iperf) {
		b->o.net = &b->net;
		if (netcheck_start(&b->net, NETCHECK_IPERF3, s->iperf,
				   NETCHECK_SECONDS) == 0)
			fprintf(b->con, "kiln: iperf3 to %s for %u s beside the "
				"burn\n", s->iperf, NETCHECK_SECONDS);
		else
			b->net.done = 1;
	}
	for (i = 0; i < b->n; i++) {
		uint64_t per = b->et[i].region;
		unsigned p = s->passes ? s->passes : s->duration ? 0 : 1;

		b->ot[i].mt = &b->mon.mt[i];
		b->mon.mt[i].planned = (uint64_t)p * per *
			(b->et[i].mode == ENGINE_WRITE_VERIFY ? 2 : 1);
	}
	set_verdict(b, 0);
	checkpoint(b);

	now = timing_now_ns();
	next_sample = now + 1000000000ull;
	next_status = now + (uint64_t)s->interval * 1000000000ull;
	next_table = now + TABLE_EVERY_NS;
	next_checkpoint = now + (uint64_t)s->checkpoint * 1000000000ull;
	do {
		now = timing_now_ns();
		/* Cut short when a worker ends or a signal comes. */
		if (next_sample > now)
			engine_wait(&b->job, next_sample - now);
		if (interrupted)
			atomic_store(&b->job.stop, 1);
		running = engine_poll(&b->job, b->et, b->n);
		now = timing_now_ns();
		if (now < next_sample && running && !interrupted)
			continue;
		monitor_sample(&b->mon, now);
		if (b->o.net)
			netcheck_poll(&b->net);
		next_sample += 1000000000ull;
		if (next_sample < now)
			next_sample = now + 1000000000ull;
		if (now >= next_status && running) {
			monitor_status(&b->mon, now, line, sizeof(line));
			fprintf(b->con, "%s\n", line);
			fflush(b->con);
			next_status = now + (uint64_t)s->interval * 1000000000ull;
		}
		if (now >= next_table && running) {
			set_verdict(b, 0);
			fputc('\n', b->con);
			outcome_table(&b->o, b->con, 0);
			fputc('\n', b->con);
			next_table = now + TABLE_EVERY_NS;
		}
		if (now >= next_checkpoint && running) {
			set_verdict(b, 0);
			checkpoint(b);
			next_checkpoint = now + (uint64_t)s->checkpoint * 1000000000ull;
		}
	} while (running);

	engine_join(b->et, b->n);
	monitor_sample(&b->mon, timing_now_ns());
	monitor_status(&b->mon, timing_now_ns(), line, sizeof(line));
	fprintf(b->con, "%s\n", line);
	return finish(b);
}

static void cleanup(struct burn *b, int keep_created)
{
	int i;

	for (i = 0; b->t && i < b->n; i++) {
		if (b->t[i].fd >= 0 && b->t[i].created && !keep_created)
			unlink(b->t[i].path);
		target_close(&b->t[i]);
		if (b->et)
			engine_target_free(&b->et[i]);
	}
	monitor_free(&b->mon);
	for (i = 0; b->before && i < b->n; i++) {
		health_free(&b->before[i]);
		health_free(&b->after[i]);
	}
	free(b->before);
	free(b->after);
	netcheck_free(&b->net);
	free(b->t);
	free(b->et);
	free(b->ot);
	free(b->judges);
	free(b->ctx);
}

int burn_request(struct burn_request *r)
{
	struct burn b;
	char err[512];
	int i, ret, code = BURN_EXIT_USAGE;

	memset(&b, 0, sizeof(b));
	b.net.fd = -1;
	b.r = r;
	b.env.sysroot = "/sys";
	b.env.procroot = "/proc";
	b.s = r->s;
	b.n = r->n;
	b.con = r->s->json ? stderr : stdout;
	if (check_settings(&b))
		return BURN_EXIT_USAGE;
	ret = crc32c_init();
	if (ret) {
		complain("cannot use KILN_CRC32C=%s: %s", getenv("KILN_CRC32C"),
			 ret == -EINVAL ? "no such implementation" :
			 "this CPU lacks it");
		return BURN_EXIT_CANNOT;
	}

	b.t = calloc((size_t)b.n + 1, sizeof(*b.t));
	b.et = calloc((size_t)b.n + 1, sizeof(*b.et));
	b.ot = calloc((size_t)b.n + 1, sizeof(*b.ot));
	b.judges = calloc((size_t)b.n + 1, sizeof(*b.judges));
	b.before = calloc((size_t)b.n + 1, sizeof(*b.before));
	b.after = calloc((size_t)b.n + 1, sizeof(*b.after));
	if (!b.t || !b.et || !b.ot || !b.judges || !b.before || !b.after) {
		complain("out of memory");
		code = BURN_EXIT_CANNOT;
		goto out;
	}
	for (i = 0; i < b.n; i++)
		b.t[i].fd = -1;
	ret = open_targets(&b);
	if (ret) {
		code = ret == -EINVAL ? BURN_EXIT_USAGE : BURN_EXIT_CANNOT;
		goto out;
	}

	b.o.command = r->command;
	b.o.argc = r->argc;
	b.o.argv = r->argv;
	b.o.s = b.s;
	b.o.n = b.n;
	b.o.ot = b.ot;
	b.o.failure = r->failure;
	machine_firmware_read(b.env.sysroot, &b.o.firmware);
	b.o.run_id = r->run_id ? r->run_id : b.s->run_id_set ? b.s->run_id :
		     burn_new_run_id();
	for (i = 0; i < r->nnotes; i++)
		note(&b.o, "%s", r->notes[i]);
	for (i = 0; i < b.n; i++) {
		ret = engine_target_init(&b.et[i], &b.t[i]);
		if (ret) {
			complain("cannot set up %s: %s", b.t[i].path,
				 strerror(-ret));
			code = BURN_EXIT_CANNOT;
			goto out;
		}
		b.et[i].mode = engine_mode(r->specs[i].mode);
		ret = plan_region(&b, i);
		if (ret) {
			code = ret == -EINVAL ? BURN_EXIT_USAGE : BURN_EXIT_CANNOT;
			goto out;
		}
		b.ot[i].t = &b.t[i];
		b.ot[i].et = &b.et[i];
		b.ot[i].before = &b.before[i];
		b.ot[i].after = &b.after[i];
		b.ot[i].safety = safety(&b, i);
		if (!b.ot[i].safety)
			goto out;
		plan_writes(&b, i);
		if (b.t[i].created && b.s->size)
			note(&b.o, "%s created, %llu bytes", b.t[i].path,
			     (unsigned long long)b.s->size);
		if (b.s->size && !b.t[i].created && b.t[i].kind == TARGET_FILE)
			note(&b.o, "%s exists: --size does not resize it",
			     b.t[i].path);
	}

	if (r->out) {
		ret = results_open(&b.res, r->out, err, sizeof(err));
		if (ret) {
			complain("%s", err);
			code = BURN_EXIT_CANNOT;
			goto out;
		}
		b.have_results = 1;
	}
	print_plan(&b);
	code = run(&b);
	cleanup(&b, 1);
	return code;
out:
	if (b.have_results)
		results_close(&b.res);
	/* Nothing was written: files created for this run go again. */
	cleanup(&b, 0);
	return code;
}

int burn_main(int argc, char **argv)
{
	struct burn_request r;
	struct settings s;
	char err[512], **args;
	int i, n, ret;

	memset(&r, 0, sizeof(r));
	settings_defaults(&s);
	args = calloc((size_t)argc + 1, sizeof(*args));
	r.specs = calloc((size_t)argc + 1, sizeof(*r.specs));
	if (!args || !r.specs) {
		complain("out of memory");
		free(args);
		free(r.specs);
		return BURN_EXIT_CANNOT;
	}
	ret = settings_parse_argv(&s, argc - 1, argv + 1, args, &n, err,
				  sizeof(err));
	if (ret == 1) {
		ret = BURN_HELP;
		goto out;
	}
	if (ret) {
		complain("%s", err);
		ret = BURN_EXIT_USAGE;
		goto out;
	}
	if (!n) {
		complain("no target given (try kiln burn --help)");
		ret = BURN_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < n; i++) {
		r.specs[i].path = args[i];
		r.specs[i].mode = s.mode;
	}
	r.command = "burn";
	r.argc = argc;
	r.argv = argv;
	r.s = &s;
	r.n = n;
	r.out = s.out;
	ret = burn_request(&r);
out:
	settings_free(&s);
	free(args);
	free(r.specs);
	return ret;
}
