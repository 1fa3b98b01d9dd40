/* SPDX-License-Identifier: MIT */
/*
 * Description: how a burn leaves its disks (end=discard, zero or
 * sanitize): who
 * may have it (a whole disk this run wrote, under consent or its class,
 * that PASSed or WARNed; kiln burn refuses a target that cannot before
 * any I/O), the step on each such disk at once, a thread each, watched
 * for a dead disk and an interrupt; then the certificates.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/kiln.h"
#include "base/sha256.h"
#include "base/sysfs.h"
#include "base/thread.h"
#include "base/timing.h"
#include "cmd/burn_private.h"
#include "discover/dealloc.h"
#include "discover/hidden.h"
#include "engine/sancmd.h"
#include "results/cert.h"
#include "results/signal.h"

/* How often the watch looks at the steps: a status, not a measure. */
#define END_LOOK_NS 100000000L

/*
 * Why a target cannot be left as end= asks, before any I/O; NULL: it can.
 * With profile=erase (no pass) the end step writes without a guard, so a
 * disk written for its class alone is not erased.
 */
static const char *cannot(const struct record_disk *d)
{
	if (d->t.kind != TARGET_BLOCK)
		return "a file, not a disk";
	if (!plan_writes_mode(d->mode) || d->plan.action != PLAN_WRITE)
		return "this run does not write it";
	if (d->ep.next != 1 || d->ep.ext[0].offset ||
	    d->ep.ext[0].length != d->t.size)
		return "this run does not write the whole disk (offset, span)";
	/* No guarded pass reads it first: only consent erases it. */
	if (d->ep.mode == ENGINE_NONE && d->plan.guarded)
		return "profile erase: destroy-data does not name it";
	return NULL;
}

/*
 * Why end=sanitize cannot be sent for d; NULL: it can. A drive's own
 * sanitize erases the whole drive (all of an NVMe namespace, all of an
 * ATA or SCSI disk): the kernel passes SG_IO and the NVMe admin ioctl
 * from a partition, and from a device-mapper or md device, down to the
 * disk under it, so a target that is less than a whole disk would erase
 * what it does not hold (its other partitions, mounted or not).
 */
static const char *not_whole(const char *sysroot, const struct record_disk *d)
{
	char path[PATH_MAX];
	DIR *dir;
	struct dirent *e;
	int stacked = 0;

	if (d->t.id.partition)
		return "a partition: the disk's own sanitize erases the whole "
		       "disk, its other partitions too";
	snprintf(path, sizeof(path), "%s/class/block/%s/partition", sysroot,
		 d->t.id.name);
	if (!access(path, F_OK))
		return "a partition: the disk's own sanitize erases the whole "
		       "disk, its other partitions too";
	snprintf(path, sizeof(path), "%s/class/block/%s/slaves", sysroot,
		 d->t.id.name);
	dir = opendir(path);
	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.')
			stacked = 1;
	if (dir)
		closedir(dir);
	if (stacked || !strncmp(d->t.id.name, "dm-", 3) ||
	    !strncmp(d->t.id.name, "md", 2))
		return "a device stacked on others (device-mapper, md): a "
		       "sanitize would erase the whole disks under it";
	return NULL;
}

int burn_end_check(struct burn *b)
{
	struct record *r = b->r;
	const char *why;
	int i;

	if (b->s->end == SETTINGS_END_KEEP)
		return 0;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		d->end.method = b->s->end;
		why = cannot(d);
		if (!why && b->s->end == SETTINGS_END_SANITIZE &&
		    d->t.kind == TARGET_BLOCK)
			why = not_whole(b->env.sysroot, d);
		if (d->failed[0] || !why)
			continue;
		if (!strcmp(r->command, "burn")) {
			complain("end=%s: %s: %s; %s",
				 endstep_method_name(b->s->end), d->path, why,
				 b->s->end == SETTINGS_END_SANITIZE &&
				 !cannot(d) ? "give end=zero for it (its own "
				 "bytes alone)" : d->ep.mode == ENGINE_NONE ?
				 "name it in destroy-data, or leave it out" :
				 "give end=keep for it");
			return KILN_EXIT_USAGE;
		}
		d->end.state = ENDSTEP_SKIPPED;
		snprintf(d->end.why, sizeof(d->end.why), "left as it is: %s",
			 why);
		record_note(r, "end=%s: %s %s", endstep_method_name(b->s->end),
			    d->label, d->end.why);
	}
	return 0;
}

/* Why a disk the burn is over with is left as it is; NULL: it is not. */
static const char *left(const struct burn *b, const struct record_disk *d,
			char *buf, size_t len)
{
	if (d->failed[0])
		return "never burnt";
	if (*b->stop)
		return "the run was interrupted";
	if (d->snap.guard_stopped) {
		snprintf(buf, len, "its guarded write stopped at byte %llu: "
			 "not written whole",
			 (unsigned long long)d->snap.guard_at);
		return buf;
	}
	if (!d->snap.region_writes && d->ep.mode != ENGINE_NONE)
		return "its write did not cover the whole disk";
	if (d->j.verdict == JUDGE_FAIL && !b->s->end_failed)
		return "FAILed: kept as it is for its RMA (end-failed=1 "
		       "applies end to it)";
	if (d->t.fd < 0)
		return "not open";
	return NULL;
}

/* One disk's step, on a thread of its own; left behind when stalled. */
struct end_job {
	struct endstep e;
	struct endstep_disk d;
	/*
	 * The disk, for its promise: copies, as a stalled job is left
	 * running after the record it came from is freed.
	 */
	char sysroot[512], name[64];
	const atomic_int *stop;
	pthread_t t;
	int started, over;
};

static void *end_thread(void *arg)
{
	struct end_job *job = arg;

	/* Asked here, watched: an NVMe drive is asked by an admin command. */
	if (job->d.method == SETTINGS_END_DISCARD)
		job->d.promise = dealloc_promise(job->sysroot, job->name,
						 job->d.fd, job->e.promise_why,
						 sizeof(job->e.promise_why)) ?
				 ENDSTEP_PROMISE_ZEROS : ENDSTEP_PROMISE_NONE;
	endstep_run(&job->e, &job->d, job->stop);
	return NULL;
}

/* Whether the device has write-zeroes of its own (else the kernel writes). */
static int offload_of(const struct burn *b, const struct record_disk *d)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/class/block/%s/queue", b->env.sysroot,
		 d->t.id.name);
	return sysfs_attr_long(dir, "write_zeroes_max_bytes", 0) > 0;
}

/* The watch: every step to its end, a stall, or an interrupt. */
static void watch(struct burn *b, struct end_job **jobs, atomic_int *stop)
{
	struct record *r = b->r;
	uint64_t limit = (uint64_t)b->s->deadline * TIMING_SEC, now, wait;
	struct timespec nap = { 0, END_LOOK_NS };
	int i, running;

	do {
		running = 0;
		if (*b->stop)
			atomic_store(stop, 1);
		now = timing_now_ns();
		for (i = 0; i < r->n; i++) {
			struct end_job *job = jobs[i];
			struct record_disk *d = &r->disks[i];

			if (!job || job->over)
				continue;
			if (atomic_load(&job->e.finished)) {
				pthread_join(job->t, NULL);
				job->over = 1;
				d->end = job->e;
				continue;
			}
			/*
			 * Interrupted: the piece a child has in the disk
			 * cannot be called back, and the user wants out.
			 */
			if (atomic_load(stop)) {
				pthread_detach(job->t);
				job->over = 1;
				jobs[i] = NULL;
				d->end.state = ENDSTEP_STOPPED;
				d->end.started = time(NULL);
				d->end.ended = time(NULL);
				snprintf(d->end.why, sizeof(d->end.why),
					 "interrupted after %llu bytes: the "
					 "disk is left part done",
					 (unsigned long long)
					 atomic_load(&job->e.done));
				continue;
			}
			wait = atomic_load(&job->e.wait_ns);
			if (endstep_stalled(now, atomic_load(&job->e.beat),
					    wait > limit ? wait : limit)) {
				/* Its thread waits in the disk: left. */
				pthread_detach(job->t);
				job->over = 1;
				jobs[i] = NULL;
				d->end.state = ENDSTEP_STALLED;
				d->end.started = time(NULL);
				d->end.ended = time(NULL);
				snprintf(d->end.why, sizeof(d->end.why),
					 "the disk gave no answer in %u s after "
					 "%llu bytes: stalled, left as it is",
					 b->s->deadline, (unsigned long long)
					 atomic_load(&job->e.done));
				continue;
			}
			running++;
		}
		if (running)
			nanosleep(&nap, NULL);
	} while (running);
}

void burn_end(struct burn *b)
{
	struct record *r = b->r;
	struct end_job **jobs;
	static atomic_int stop;
	char buf[240], size[32], hid[300];
	const char *why;
	int i, san;

	if (b->s->end == SETTINGS_END_KEEP)
		return;
	jobs = calloc((size_t)r->n + 1, sizeof(*jobs));
	if (!jobs) {
		complain("out of memory: end=%s not applied",
			 endstep_method_name(b->s->end));
		return;
	}
	atomic_store(&stop, 0);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		struct end_job *job;

		d->end.method = b->s->end;
		if (d->end.state == ENDSTEP_SKIPPED)
			continue;
		why = left(b, d, buf, sizeof(buf));
		if (why) {
			d->end.state = ENDSTEP_SKIPPED;
			snprintf(d->end.why, sizeof(d->end.why),
				 "left as it is: %s", why);
			fprintf(b->con, "end: %s %s\n", d->label, d->end.why);
			continue;
		}
		job = calloc(1, sizeof(*job));
		if (!job)
			continue;
		job->d.fd = d->t.fd;
		job->d.size = d->t.size;
		job->d.run_id = r->run_id;
		job->d.ident = d->t.ident;
		job->d.method = b->s->end;
		snprintf(job->sysroot, sizeof(job->sysroot), "%s",
			 b->env.sysroot);
		snprintf(job->name, sizeof(job->name), "%s", d->t.id.name);
		job->d.verify_pct = b->s->end_verify;
		job->d.fallback = b->s->sanitize_fallback;
		job->d.rotating = d->t.id.rotational == 1;
		/* For zeros; a sanitize that does not write them clears it. */
		job->e.offload = b->s->end != SETTINGS_END_DISCARD &&
				 offload_of(b, d);
		job->stop = &stop;
		atomic_store(&job->e.beat, timing_now_ns());
		if (thread_start(&job->t, end_thread, job)) {
			free(job);
			d->end.state = ENDSTEP_ERROR;
			snprintf(d->end.why, sizeof(d->end.why),
				 "no thread could be started for it");
			continue;
		}
		jobs[i] = job;
		fprintf(b->con, "end: %s %s, the whole disk (%s)\n",
			b->s->end == SETTINGS_END_DISCARD ? "discarding" :
			b->s->end == SETTINGS_END_ZERO ? "zeroing" :
			"sanitizing", d->label,
			settings_fmt_size(d->t.size, size, sizeof(size)));
	}
	burn_console_check(b);
	watch(b, jobs, &stop);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		/* A stalled step's job is its thread's: never freed. */
		free(jobs[i]);
		if (d->end.state > ENDSTEP_SKIPPED)
			fprintf(b->con, "end: %s %s\n", d->label, d->end.why);
		/*
		 * What the disk hides, which no step of kiln's reached but
		 * an NVMe Sanitize (every namespace and all NVM capacity
		 * of the subsystem; sanstep sends one only where no other
		 * namespace is allocated).
		 */
		san = endstep_applied(&d->end);
		hidden_found_text(&d->t.hidden, d->end.state == ENDSTEP_DONE &&
				  (san == SANCMD_CRYPTO || san == SANCMD_BLOCK ||
				   san == SANCMD_OVERWRITE), hid, sizeof(hid));
		if (hid[0]) {
			endstep_unreached(&d->end, hid);
			fprintf(b->con, "end: %s did not reach what it hides "
				"from the OS: %s\n", d->label, hid);
		} else if (d->t.hidden.state == HIDDEN_UNCHECKED) {
			/* Not known whole: never a plain "sanitized". */
			const char *why = d->t.hidden.said;

			if (!strncmp(why, "not checked: ", 13))
				why += 13;
			endstep_unchecked(&d->end, why);
		}
	}
	free(jobs);
	burn_console_check(b);
	signals_judge(r, 1, *b->stop);
}

void burn_end_certs(struct burn *b)
{
	struct record *r = b->r;
	char name[200], *doc;
	size_t len;
	int i, k;

	if (b->s->end == SETTINGS_END_KEEP || !b->have_results)
		return;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (!cert_made(d))
			continue;
		for (k = 0; k < 2; k++) {
			doc = k ? cert_disk_html(r, d, b->env.sysroot, &len) :
				  cert_disk_json(r, d, b->env.sysroot, &len);
			cert_name(r, i, k ? "html" : "json", name,
				  sizeof(name));
			if (doc)
				sha256_hex(doc, len, d->cert[k]);
			burn_keep(b, name, doc, len);
			free(doc);
		}
	}
	doc = cert_machine_html(r, &len);
	if (doc)
		sha256_hex(doc, len, r->cert_machine);
	burn_keep(b, "cert-machine.html", doc, len);
	free(doc);
}
