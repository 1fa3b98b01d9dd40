/* SPDX-License-Identifier: MIT */
/*
 * Description: the drives' own self-tests after the burn (see
 * smarttest.h). A test that fails FAILs its disk; a drive without one, or
 * that refuses to start it, is a note; a test still running at kiln's
 * bound is aborted and WARNs. smartctl's JSON says how far it got: a
 * running percentage while it runs, a new entry in the drive's self-test
 * log when it ends (a drive that finishes before the first look, as
 * QEMU's does, is read off that entry).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/smarttest.h"
#include "settings/settings.h"
#include "base/subproc.h"
#include "base/timing.h"

/* How long one smartctl may take, for every drive at once. */
#define SELFTEST_SMART_MS 60000
/* Seconds between looks at a running test. */
#define SELFTEST_POLL_S 10
/* Looks that show neither progress nor a new log entry: it is gone. */
#define SELFTEST_IDLE 3

/*
 * smartctl -j ARGS... on the drives picked, side by side: each answer
 * read into sj[i] (answered[i] set), 0 or -errno.
 */
static int smartctl_each(const char *smartctl, struct smarttest_drive *drv,
			 int n, const int *pick, const char *a1,
			 const char *a2, struct smartjson *sj, int *answered)
{
	struct subproc_job *jobs = calloc((size_t)n + 1, sizeof(*jobs));
	char *(*argv)[8] = calloc((size_t)n + 1, sizeof(*argv));
	int i, k;

	if (!jobs || !argv) {
		free(jobs);
		free(argv);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		answered[i] = 0;
		if (!pick[i])
			continue;
		k = 0;
		argv[i][k++] = (char *)smartctl;
		argv[i][k++] = "-j";
		argv[i][k++] = (char *)a1;
		if (a2)
			argv[i][k++] = (char *)a2;
		if (drv[i].type && drv[i].type[0]) {
			argv[i][k++] = "-d";
			argv[i][k++] = (char *)drv[i].type;
		}
		argv[i][k++] = (char *)drv[i].dev;
		jobs[i].argv = argv[i];
		jobs[i].err = SUBPROC_STDERR_NULL;
	}
	subproc_many(jobs, n, SELFTEST_SMART_MS);
	for (i = 0; i < n; i++) {
		if (jobs[i].done && jobs[i].out &&
		    smartjson_parse(jobs[i].out, jobs[i].len, &sj[i]) == 0)
			answered[i] = 1;
		free(jobs[i].out);
	}
	free(jobs);
	free(argv);
	return 0;
}

int smarttest_ended(const struct smartjson *before, const struct smartjson *now,
		    int seen_running, int *result, char *text, size_t len)
{
	int newer;

	if (now->selftest_running >= 0)
		return 0;
	/* A new entry: more of them, or a newest one unlike the last. */
	newer = now->selftest_last[0] &&
		(now->selftest_count != before->selftest_count ||
		 now->selftest_last_hours != before->selftest_last_hours ||
		 strcmp(now->selftest_last, before->selftest_last) ||
		 strcmp(now->selftest_last_type, before->selftest_last_type));
	if (!newer && !seen_running)
		return 0;
	snprintf(text, len, "%s", now->selftest_last[0] ? now->selftest_last :
		 "no entry in the drive's self-test log");
	if (!now->selftest_last[0])
		*result = VITALS_ST_UNKNOWN;
	else if (now->selftest_last_passed == 1)
		*result = VITALS_ST_PASSED;
	else if (now->selftest_last_passed == 0)
		*result = VITALS_ST_FAILED;
	else
		*result = VITALS_ST_ABORTED;
	return 1;
}

/* The drive's estimate in minutes, with room: kiln's bound. */
static uint64_t bound_of(const struct smartjson *sj, int kind)
{
	long long est = kind == SETTINGS_SELFTEST_LONG ? sj->long_minutes :
			sj->short_minutes;

	if (kind == SETTINGS_SELFTEST_LONG)
		est = (est > 0 ? est : 120) * 3 / 2 + 10;
	else
		est = (est > 0 ? est : 2) * 2 + 5;
	return (uint64_t)est * 60 * TIMING_SEC;
}

static void end_one(struct smarttest_drive *dv, int result, const char *text,
		    FILE *con, const char *kind)
{
	dv->running = 0;
	dv->d->st_result = result;
	snprintf(dv->d->st_text, sizeof(dv->d->st_text), "%s", text);
	fprintf(con, "kiln: %s self-test: %s %s%s%s\n", kind, dv->label,
		result == VITALS_ST_FAILED ? "FAILED" :
		vitals_selftest_name(result), text[0] ? ": " : "", text);
}

/* Starts every drive's test: 0 or -errno; those that cannot, noted. */
static int start_all(const char *smartctl, int kind,
		     struct smarttest_drive *drv, int n, FILE *con, int *pick,
		     struct smartjson *sj, int *answered)
{
	const char *name = kind == SETTINGS_SELFTEST_LONG ? "long" : "short";
	uint64_t now;
	int i, ret;

	for (i = 0; i < n; i++)
		pick[i] = 1;
	/* What the log says before, and whether the drive has a test. */
	ret = smartctl_each(smartctl, drv, n, pick, "-a", NULL, sj, answered);
	for (i = 0; !ret && i < n; i++) {
		drv[i].d->selftest = kind;
		drv[i].before = sj[i];
		pick[i] = answered[i] && sj[i].selftest_supported != 0;
		/*
		 * smartctl 7.3 (Debian 12's) neither runs an NVMe self-test
		 * nor says whether a drive has one; 7.4 does both.
		 */
		if (pick[i] && !strcmp(sj[i].protocol, "NVMe") &&
		    sj[i].selftest_supported < 0) {
			pick[i] = 0;
			end_one(&drv[i], VITALS_ST_UNSUPPORTED,
				"this smartctl runs no NVMe self-test (7.4 "
				"and later do)", con, name);
		} else if (!answered[i]) {
			end_one(&drv[i], VITALS_ST_UNKNOWN, "smartctl did not "
				"answer", con, name);
		} else if (!pick[i]) {
			end_one(&drv[i], VITALS_ST_UNSUPPORTED, "", con, name);
		}
	}
	if (!ret)
		ret = smartctl_each(smartctl, drv, n, pick, "-t", name, sj,
				    answered);
	now = timing_now_ns();
	for (i = 0; !ret && i < n; i++) {
		if (!pick[i])
			continue;
		/* smartctl's bit 2: the drive refused the command. */
		if (!answered[i] || sj[i].exit_status < 0 ||
		    (sj[i].exit_status & 7)) {
			end_one(&drv[i], VITALS_ST_UNSUPPORTED,
				answered[i] && sj[i].message[0] ?
				sj[i].message : "it would not start", con,
				name);
			continue;
		}
		drv[i].running = 1;
		drv[i].bound_ns = now + bound_of(&drv[i].before, kind);
	}
	return ret;
}

/* Each test still running: its progress, its end, kiln's bound. */
static void look(const char *smartctl, int kind, struct smarttest_drive *drv,
		 int n, FILE *con, int *pick, struct smartjson *sj,
		 int *answered)
{
	const char *name = kind == SETTINGS_SELFTEST_LONG ? "long" : "short";
	char text[96];
	int i, result;

	for (i = 0; i < n; i++)
		pick[i] = drv[i].running;
	smartctl_each(smartctl, drv, n, pick, "-a", NULL, sj, answered);
	for (i = 0; i < n; i++) {
		struct smarttest_drive *dv = &drv[i];

		if (!pick[i])
			continue;
		if (answered[i] && sj[i].selftest_running >= 0) {
			dv->seen_running = 1;
			dv->pct = sj[i].selftest_running;
			dv->idle = 0;
		} else if (answered[i] &&
			   smarttest_ended(&dv->before, &sj[i],
					   dv->seen_running, &result, text,
					   sizeof(text))) {
			end_one(dv, result, text, con, name);
			continue;
		} else if (++dv->idle >= SELFTEST_IDLE) {
			end_one(dv, VITALS_ST_UNKNOWN, "neither running nor "
				"in the drive's log", con, name);
			continue;
		}
	}
}

/* smartctl -X on the drives picked: their tests end, with why. */
static void abort_some(const char *smartctl, int kind,
		       struct smarttest_drive *drv, int n, FILE *con, int *pick,
		       struct smartjson *sj, int *answered, int result,
		       const char *why)
{
	const char *name = kind == SETTINGS_SELFTEST_LONG ? "long" : "short";
	char text[96];
	int i, any = 0;

	for (i = 0; i < n; i++)
		any |= pick[i];
	if (!any)
		return;
	smartctl_each(smartctl, drv, n, pick, "-X", NULL, sj, answered);
	for (i = 0; i < n; i++) {
		if (!pick[i])
			continue;
		snprintf(text, sizeof(text), "%s, at %d%%, aborted", why,
			 drv[i].pct);
		end_one(&drv[i], result, text, con, name);
	}
}

static void status(int kind, const struct smarttest_drive *drv, int n,
		   uint64_t ns, FILE *con)
{
	char hms[32];
	int i, running = 0, least = 100;

	for (i = 0; i < n; i++) {
		if (!drv[i].running)
			continue;
		running++;
		if (drv[i].pct < least)
			least = drv[i].pct;
	}
	fprintf(con, "kiln: %s self-test: %d running (the slowest %d%% "
		"done), %d ended, %s\n",
		kind == SETTINGS_SELFTEST_LONG ? "long" : "short", running,
		least, n - running, timing_fmt_hms(ns / TIMING_SEC, hms,
						   sizeof(hms)));
}

void smarttest_run(const char *smartctl, int kind, struct smarttest_drive *drv,
		   int n, FILE *con, unsigned interval,
		   volatile sig_atomic_t *stop, void (*tick)(void *), void *arg)
{
	struct smartjson *sj = calloc((size_t)n + 1, sizeof(*sj));
	int *pick = calloc((size_t)n + 1, sizeof(*pick));
	int *answered = calloc((size_t)n + 1, sizeof(*answered));
	uint64_t t0 = timing_now_ns(), now, next_look, next_line;
	int i, running;

	if (!sj || !pick || !answered || !n)
		goto out;
	fprintf(con, "kiln: %s self-test on %d drive%s\n",
		kind == SETTINGS_SELFTEST_LONG ? "long" : "short", n,
		n == 1 ? "" : "s");
	if (start_all(smartctl, kind, drv, n, con, pick, sj, answered))
		goto out;
	/* A drive may end a short test at once (QEMU's does): look soon. */
	next_look = timing_now_ns() + 2 * TIMING_SEC;
	next_line = t0 + (uint64_t)interval * TIMING_SEC;
	for (;;) {
		for (i = 0, running = 0; i < n; i++)
			running += drv[i].running;
		if (!running)
			break;
		if (*stop) {
			for (i = 0; i < n; i++)
				pick[i] = drv[i].running;
			abort_some(smartctl, kind, drv, n, con, pick, sj,
				   answered, VITALS_ST_ABORTED,
				   "the run was stopped");
			break;
		}
		tick(arg);
		sleep(1);
		now = timing_now_ns();
		if (now >= next_look) {
			look(smartctl, kind, drv, n, con, pick, sj, answered);
			for (i = 0; i < n; i++)
				pick[i] = drv[i].running &&
					  timing_now_ns() >= drv[i].bound_ns;
			abort_some(smartctl, kind, drv, n, con, pick, sj,
				   answered, VITALS_ST_TIMEOUT,
				   "still running at kiln's bound");
			next_look = timing_now_ns() + SELFTEST_POLL_S *
				    TIMING_SEC;
		}
		if (now >= next_line) {
			status(kind, drv, n, now - t0, con);
			while (next_line <= now)
				next_line += (uint64_t)interval * TIMING_SEC;
		}
		fflush(con);
	}
out:
	fflush(con);
	free(sj);
	free(pick);
	free(answered);
}
