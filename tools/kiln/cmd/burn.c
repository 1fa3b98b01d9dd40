/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln burn, and the one walk of a burn-in that kiln run
 * takes too: open and check every target before any I/O (the run folder,
 * the gate, memory), then start the engine and the monitor (burn_start.c),
 * watch them (burn_loop.c), then SMART after, judge, and write the results
 * (burn_finish.c). This is the only file that knows that order.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/crc32c.h"
#include "base/deadline.h"
#include "base/kiln.h"
#include "base/timing.h"
#include "cmd/burn.h"
#include "cmd/burn_private.h"
#include "cmd/expect_use.h"
#include "cmd/gate.h"
#include "engine/memplan.h"
#include "lab/lab.h"
#include "results/folder.h"
#include "results/result.h"

uint64_t burn_new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = timing_now_ns() ^ ((uint64_t)getpid() << 32) ^
		     (uint64_t)time(NULL);
	return id ? id : 1;
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
		/* A file's close may wait for its filesystem: bounded. */
		if (d->t.fd >= 0 && d->t.kind == TARGET_FILE &&
		    deadline_close(d->t.fd, b->job.deadline_ns ?
				   b->job.deadline_ns :
				   (uint64_t)b->s->deadline * TIMING_SEC) ==
			    -ETIMEDOUT)
			complain("%s: its close gave no answer (its filesystem "
				 "stopped answering): left behind", d->path);
		if (d->t.kind == TARGET_FILE)
			d->t.fd = -1;
		target_close(&d->t);
		d->mt = NULL;
	}
	free(b->ets);
	free(b->burning);
	free(b->counters);
	free(b->labels);
	free(b->kernel_said);
	free(b->ctx);
	burn_catch(NULL);
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
		return ret == -EEXIST || ret == -EPERM ? KILN_EXIT_USAGE :
		       KILN_EXIT_CANNOT;
	}
	b->have_results = 1;
	return 0;
}

/*
 * Descriptors a target holds at most: its device, its ring, and while it
 * is opened the socket its opener answers on; the rest is the run's own
 * (the folder, the monitor, the sensors).
 */
#define BURN_FILES_A_TARGET 3
#define BURN_FILES_RUN 256

/*
 * Each target holds descriptors for the whole burn, and an image's PID 1
 * starts with the kernel's soft limit of 1,024 files: the soft limit is
 * raised to the hard one, and a hard limit too low for the targets is
 * said before anything is opened. 0, or an exit code.
 */
static int raise_files(int targets)
{
	rlim_t need = (rlim_t)targets * BURN_FILES_A_TARGET + BURN_FILES_RUN;
	struct rlimit l;

	if (getrlimit(RLIMIT_NOFILE, &l))
		return 0;
	if (l.rlim_cur != l.rlim_max) {
		l.rlim_cur = l.rlim_max;
		setrlimit(RLIMIT_NOFILE, &l);
		getrlimit(RLIMIT_NOFILE, &l);
	}
	if (l.rlim_cur != RLIM_INFINITY && l.rlim_cur < need) {
		complain("cannot run: %d targets need %llu open files, and the "
			 "limit is %llu (RLIMIT_NOFILE's hard limit): raise it "
			 "(ulimit -Hn) or give fewer targets", targets,
			 (unsigned long long)need,
			 (unsigned long long)l.rlim_cur);
		return KILN_EXIT_CANNOT;
	}
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
	ret = raise_files(r->n);
	if (ret)
		return ret;
	/* Each ends the run the same way: I/O stops, results are written. */
	b.stop = burn_signals();
	machine_firmware_read(b.env.sysroot, &r->firmware);
	/* Whatever the folder it is in, kiln fleet groups runs by this. */
	lab_machine_read(r);
	if (!r->run_id)
		r->run_id = burn_new_run_id();

	/* A bad expect file stops the burn before anything is touched. */
	code = expect_use_burn(r, b.env.sysroot);
	if (!code)
		code = open_folder(&b);
	if (!code)
		code = gate_open(r, b.s, &b.env);
	if (!code)
		code = burn_end_check(&b);
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

