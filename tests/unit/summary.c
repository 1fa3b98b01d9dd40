/* SPDX-License-Identifier: MIT */
/*
 * Description: summary.txt of many disks: names said as ranges
 * ("loop0-59"), like disks with like outcomes said once in the table and
 * below it, each exception on its own, passes and bytes for each disk
 * and the run; a run of a few disks says each one alone. kiln report
 * renders made-up records of 60 disks in tests/host/report.t.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/sancmd.h"
#include "judge/record.h"
#include "results/signal.h"
#include "results/summary.h"
#include "results/summary_groups.h"

static struct settings s;

static void names(const char *want, int n, ...)
{
	const char *list[16];
	char buf[200];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		list[i] = va_arg(ap, const char *);
	va_end(ap);
	summary_names(list, n, buf, sizeof(buf));
	tap_ok(!strcmp(buf, want), "names as ranges: %s (want %s)", buf,
	       want);
}

static void disks(struct record *r, int n)
{
	char path[64];
	int i;

	for (i = 0; i < n; i++) {
		struct record_disk *d;

		snprintf(path, sizeof(path), "/dev/loop%d", i);
		d = record_add(r, path, 0);
		if (!d)
			tap_bail("out of memory");
		snprintf(d->label, sizeof(d->label), "loop%d", i);
		d->t.size = 128 << 20;
		d->t.safety.class = SAFETY_BLANK;
		d->j.verdict = JUDGE_PASS;
		d->j.nreasons = 1;
		snprintf(d->j.reasons[0], sizeof(d->j.reasons[0]),
			 "no I/O errors, no bad units");
		d->snap.c.state = STATE_DONE;
		d->snap.totals[PHASE_WRITE].passes = 101 + (unsigned)i % 7;
		d->snap.totals[PHASE_VERIFY].passes = 101 + (unsigned)i % 7;
		d->snap.c.bytes_written = d->snap.c.bytes_read =
			(101 + (uint64_t)(i % 7)) << 27;
	}
}

static char *summary_of(const struct record *r, int *lines)
{
	char *text = NULL, *p;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		tap_bail("out of memory");
	summary_text(r, f);
	fclose(f);
	for (*lines = 0, p = text; p && (p = strchr(p, '\n')); p++)
		(*lines)++;
	return text;
}

/*
 * Profile erase: only an end step DONE is "erased"; one interrupted,
 * never made or refused is "not erased", WARN or FAIL, everywhere.
 */
static void erase_one(enum endstep_state st, int unreached, int loose,
		      enum judge_verdict want, const char *what)
{
	struct record r;
	char *text;
	int lines, ok, profile = s.profile;

	s.profile = SETTINGS_ERASE;
	record_init(&r, "burn", 0, NULL, &s);
	disks(&r, 1);
	r.disks[0].ep.mode = ENGINE_NONE;
	r.disks[0].j.nreasons = 0;
	r.disks[0].end.method = SETTINGS_END_ZERO;
	r.disks[0].end.state = st;
	if (unreached)
		endstep_unreached(&r.disks[0].end, "2 GiB past an HPA");
	if (loose) {
		r.disks[0].end.method = SETTINGS_END_SANITIZE;
		r.disks[0].end.san_method = SANCMD_CRYPTO;
		r.disks[0].end.promise = ENDSTEP_PROMISE_NONE;
	}
	if (st == ENDSTEP_ERROR)
		snprintf(r.disks[0].end.why, sizeof(r.disks[0].end.why),
			 "Input/output error");
	signals_judge(&r, 1, st == ENDSTEP_STOPPED);
	text = summary_of(&r, &lines);
	if (st == ENDSTEP_DONE && !unreached && !loose)
		ok = tap_ok(r.verdict == JUDGE_PASS && text &&
		       strstr(text, "loop0 (/dev/loop0): erased\n") &&
		       strstr(text, "erased, no burn"),
		       "profile erase, %s: PASS erased (%s)", what,
		       judge_name(r.verdict));
	else
		ok = tap_ok(r.verdict == (int)want && text &&
		       strstr(text, loose ? "not proven erased (end=sanitize):"
				      " the read-back cannot tell" :
				    unreached ? "not erased whole (end=zero)"
				    : "not erased (end=zero)") &&
		       !strstr(text, ": erased") &&
		       !strstr(text, "erased, no burn") &&
		       !strstr(text, "ERASED"),
		       "profile erase, %s: %s, not erased (%s)", what,
		       judge_name(want), judge_name(r.verdict));
	if (!ok)
		fprintf(stderr, "%s", text ? text : "");
	free(text);
	record_free(&r);
	s.profile = profile;
}

static void erase_states(void)
{
	erase_one(ENDSTEP_DONE, 0, 0, JUDGE_PASS, "step done");
	erase_one(ENDSTEP_STOPPED, 0, 0, JUDGE_WARN, "step interrupted");
	erase_one(ENDSTEP_NONE, 0, 0, JUDGE_WARN, "step never made");
	erase_one(ENDSTEP_ERROR, 0, 0, JUDGE_FAIL, "step refused");
	erase_one(ENDSTEP_DONE, 1, 0, JUDGE_WARN, "done, an HPA not reached");
	erase_one(ENDSTEP_DONE, 0, 1, JUDGE_WARN, "crypto erase, no zeros "
		  "promised: cannot tell");
}

int main(int argc, char **argv)
{
	struct record r;
	char *text;
	int lines;

	tap_args(argc, argv);
	tap_plan(18);
	names("loop0-3", 4, "loop0", "loop1", "loop2", "loop3");
	names("loop0-2, loop5", 4, "loop0", "loop1", "loop2", "loop5");
	names("sda-sdc, sde", 4, "sda", "sdb", "sdc", "sde");
	/* base/names.c's ranges (tests/unit/names.c has the rest). */
	names("sdz, sdaa-sdab", 3, "sdz", "sdaa", "sdab");
	names("disk.img, nvme0n1-nvme1n1", 3, "disk.img", "nvme0n1",
	      "nvme1n1");
	names("loop01, loop02", 2, "loop01", "loop02");

	settings_defaults(&s, SCOPE_BURN);
	s.duration = 90;
	record_init(&r, "burn", 0, NULL, &s);
	disks(&r, 60);
	snprintf(r.disks[17].j.reasons[0], sizeof(r.disks[17].j.reasons[0]),
		 "slow write: 20 MB/s");
	r.disks[17].j.verdict = JUDGE_WARN;
	r.disks[42].snap.c.io_errors = 1;
	r.disks[42].j.verdict = JUDGE_FAIL;
	r.verdict = JUDGE_FAIL;
	text = summary_of(&r, &lines);
	tap_ok(text && lines <= 50, "60 disks, two exceptions: %d lines",
	       lines);
	tap_ok(text && strstr(text, "\nloop0-16, loop18-41, loop43-59\n"
			      "             128 MiB ") &&
	       strstr(text, "\nloop17       128 MiB ") &&
	       strstr(text, "\nloop42       128 MiB "),
	       "the table: the like disks a line, each exception its own");
	tap_ok(text && strstr(text, "\nloop0-16, loop18-41, loop43-59: blank, "
			      "128 MiB, write-verify, PASS (58 like disks)\n"
			      "  101-107 passes, 12.6-13.4 GiB written, "
			      "12.6-13.4 GiB read each\n"),
	       "the like disks said once, with their passes and bytes");
	tap_ok(text && strstr(text, "\nloop17 (/dev/loop17): WARN\n") &&
	       strstr(text, "\nloop42 (/dev/loop42): FAIL\n") &&
	       strstr(text, "  - slow write: 20 MB/s\n"),
	       "each exception said alone, with its reasons");
	tap_ok(text && strstr(text, "\nwork: 101-107 passes, 779.2 GiB "
			      "written, 779.2 GiB read in all (60 disks)\n"),
	       "the run's passes (each disk's) and bytes (in all)");
	free(text);
	record_free(&r);

	/* A few disks: each said alone, its passes and bytes under it. */
	record_init(&r, "burn", 0, NULL, &s);
	disks(&r, 3);
	text = summary_of(&r, &lines);
	/* Their identities are empty: no "identity" line with nothing. */
	tap_ok(text && strstr(text, "\nloop1 (/dev/loop1): PASS\n"
			      "  102 passes, 12.8 GiB written, "
			      "12.8 GiB read\n") &&
	       !strstr(text, "like disks)"),
	       "three disks: each alone");
	free(text);
	record_free(&r);

	erase_states();
	return tap_done();
}
