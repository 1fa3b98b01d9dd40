/* SPDX-License-Identifier: MIT */
/*
 * Description: every path to PASS, WARN or FAIL, from snapshots made by
 * hand: I/O errors and bad units fail a disk and name the first one; a
 * stall, a vanished or broken device fail it; a stop warns and marks the
 * run interrupted; a verify that found no pass on disk fails, and so
 * does a checking mode (verify, write-verify, read) that ended having read
 * nothing, whatever its record said its region was; a phase
 * whose slowest whole second fell far below its average warns (never
 * flush, never before ten seconds); SMART that failed or whose damage
 * rose fails, damage from before warns. A later WARN never lowers a
 * FAIL, and a reason past the cap still raises the verdict. (Like disks
 * are compared in tests/unit/peers.c.)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "judge/dips.h"
#include "judge/figures.h"
#include "judge/judge.h"

#define MB 1000000ull
#define SEC 1000000000ull

/* A clean snapshot: a write-verify that wrote and read 100 MB/s for 100 s. */
static void clean(struct engine_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->c.state = STATE_DONE;
	s->c.phase = PHASE_END;
	s->c.pass = 1;
	s->plan.mode = ENGINE_WRITE_VERIFY;
	s->c.bytes_written = s->c.bytes_read = 100 * 100 * MB;
	s->phase_bytes[PHASE_WRITE] = 100 * 100 * MB;
	s->phase_ns[PHASE_WRITE] = 100 * SEC;
	s->phase_bytes[PHASE_VERIFY] = 100 * 100 * MB;
	s->phase_ns[PHASE_VERIFY] = 100 * SEC;
}

/* What the monitor saw of that: 100 whole seconds a phase, all even. */
static void steady(struct monitor_target *mt)
{
	int p;

	memset(mt, 0, sizeof(*mt));
	for (p = 0; p < PHASES; p++)
		mt->min[p] = -1;
	mt->seconds[PHASE_WRITE] = mt->seconds[PHASE_VERIFY] = 100;
	mt->min[PHASE_WRITE] = mt->min[PHASE_VERIFY] = 95;
	mt->max[PHASE_WRITE] = mt->max[PHASE_VERIFY] = 105;
}

static void show(const struct judge *j)
{
	int i;

	tap_diag("%s, %d reasons%s", judge_name(j->verdict), j->nreasons,
		 j->interrupted ? ", interrupted" : "");
	for (i = 0; i < j->nreasons; i++)
		tap_diag("  %s", j->reasons[i]);
}

static int check(const struct judge *j, int verdict, int nreasons,
		 const char *text)
{
	int ok = j->verdict == verdict && j->nreasons == nreasons &&
		 (!text || tap_has_reason(j, text));

	if (!ok)
		show(j);
	return ok;
}

static void test_clean(void)
{
	struct engine_snap s;
	struct monitor_target mt;
	struct judge j;

	clean(&s);
	steady(&mt);
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL) && !j.interrupted &&
	       !strcmp(j.reasons[0], "no I/O errors, no bad units"),
	       "a clean run PASSes: \"no I/O errors, no bad units\"");
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors"),
	       "...and without the monitor's data too");

	/* judge_target starts afresh: nothing of an earlier verdict stays. */
	judge_reason(&j, JUDGE_FAIL, "left over");
	j.interrupted = 1;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL) && !j.interrupted,
	       "a judge reused for another snapshot keeps nothing of the last");
}

static void test_io_errors(void)
{
	struct engine_error e = { .phase = PHASE_VERIFY, .pass = 2,
				  .offset = 1048576, .length = 131072,
				  .err = EIO, .count = 2 };
	struct engine_snap s;
	struct judge j;
	char want[240];

	clean(&s);
	s.c.io_errors = 3;
	s.errors = &e;
	s.nerrors = 1;
	judge_target(&s, NULL, &j);
	snprintf(want, sizeof(want), "3 I/O errors, the first in verify at "
		 "byte 1048576 (+131072): %s", strerror(EIO));
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) && !strcmp(j.reasons[0], want),
	       "I/O errors FAIL, the first named: phase, offset, length, "
	       "errno text");

	e.phase = PHASE_WRITE;
	e.err = ENOSPC;
	judge_target(&s, NULL, &j);
	snprintf(want, sizeof(want), "the first in write at byte 1048576 "
		 "(+131072): %s", strerror(ENOSPC));
	tap_ok(check(&j, JUDGE_FAIL, 1, want), "...in the phase it happened, "
	       "with its own errno");

	{
		/*
		 * At qd 4 the request at 12 MiB ended before the one at the
		 * bad sector, 10 MiB; a later pass's lower error is not it.
		 */
		struct engine_error es[3] = {
			{ .phase = PHASE_WRITE, .pass = 1, .offset = 12582912,
			  .length = 1048576, .err = EIO, .count = 1 },
			{ .phase = PHASE_WRITE, .pass = 1, .offset = 10485760,
			  .length = 1048576, .err = EIO, .count = 1 },
			{ .phase = PHASE_WRITE, .pass = 2, .offset = 0,
			  .length = 1048576, .err = EIO, .count = 1 },
		};

		s.errors = es;
		s.nerrors = 3;
		judge_target(&s, NULL, &j);
		tap_ok(check(&j, JUDGE_FAIL, 1, "the first in write at byte "
			     "10485760 (+1048576)"),
		       "the first error is named by offset, not by when its "
		       "request completed: %s", j.reasons[0]);
	}

	s.nerrors = 0;
	s.errors = NULL;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "3 I/O errors"),
	       "I/O errors past the detail cap still FAIL, counted");
}

static void test_bad_units(void)
{
	struct engine_bad bad = { .offset = 8192, .pass = 1,
				  .retry = RETRY_SAME };
	struct engine_snap s;
	struct judge j;
	int c;

	clean(&s);
	s.c.bad_units = 6;
	s.bad_by_class[UNIT_BITFLIP] = 2;
	s.bad_by_class[UNIT_ZEROED] = 1;
	s.bad_by_class[UNIT_STALE] = 1;
	s.bad_by_class[UNIT_TORN] = 2;
	s.bad = &bad;
	s.nbad = 1;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "6 bad units (2 bitflip, 1 zeroed, "
		       "1 stale, 2 torn), the first at byte 8192"),
	       "bad units FAIL, counted by class, the first one's offset");

	{
		struct engine_bad two[3] = {
			{ .offset = 12582912, .pass = 1 },
			{ .offset = 10485760, .pass = 1 },
			{ .offset = 4096, .pass = 2 },
		};

		s.bad = two;
		s.nbad = 3;
		judge_target(&s, NULL, &j);
		tap_ok(check(&j, JUDGE_FAIL, 1, "the first at byte 10485760"),
		       "the first bad unit by offset, of its pass: %s",
		       j.reasons[0]);
		s.bad = &bad;
		s.nbad = 1;
	}

	memset(s.bad_by_class, 0, sizeof(s.bad_by_class));
	s.c.bad_units = 1;
	s.bad_by_class[UNIT_MISDIRECTED] = 1;
	bad.retry = RETRY_GOOD;
	s.bad_transient = 1;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "1 bad unit (1 misdirected), the "
		     "first at byte 8192, each good on a second read"),
	       "a bad unit that reads back good is said, and left to "
	       "blame.c to place (tests/unit/blame.c)");
	s.c.bad_units = 3;
	s.bad_by_class[UNIT_MISDIRECTED] = 3;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, "3 bad units (3 misdirected), the "
		     "first at byte 8192: 2 bad again on a second read "
		     "(the media), 1 good"),
	       "...beside units bad twice, the disk FAILs for its media");

	s.c.bad_units = 4294967295u;
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		s.bad_by_class[c] = 4294967295u;
	s.bad_transient = 0;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, "4294967295 foreign)"),
	       "every class at its largest count still fits the reason");
}

static void test_states(void)
{
	struct engine_snap s;
	struct judge j;

	clean(&s);
	s.c.state = STATE_STALLED;
	snprintf(s.why, sizeof(s.why), "a read at byte 0 outlived the 60 s "
		 "deadline");
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) && !j.interrupted &&
	       !strcmp(j.reasons[0], "stalled: a read at byte 0 outlived the "
		       "60 s deadline"), "a stalled disk FAILs, saying why");

	s.c.state = STATE_VANISHED;
	snprintf(s.why, sizeof(s.why), "sdb is gone from sysfs");
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "vanished: sdb is gone from sysfs"),
	       "a vanished disk FAILs");

	s.c.state = STATE_BROKEN;
	snprintf(s.why, sizeof(s.why), "no io_uring: Operation not permitted");
	s.c.io_errors = 5;
	s.c.bad_units = 5;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "could not be tested: no io_uring: "
		       "Operation not permitted"),
	       "a target that could not start FAILs with that one reason");

	clean(&s);
	s.c.state = STATE_STOPPED;
	snprintf(s.why, sizeof(s.why), "interrupted");
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, NULL) && j.interrupted &&
	       !strcmp(j.reasons[0], "stopped before the end: interrupted"),
	       "a stopped disk WARNs and marks the run interrupted");

	s.c.io_errors = 1;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 2, "1 I/O errors") && j.interrupted,
	       "a stopped disk that had I/O errors FAILs, still interrupted");

	clean(&s);
	s.c.state = STATE_RUNNING;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors") && !j.interrupted,
	       "a running disk without errors is so far PASS");
}

static void test_verify(void)
{
	struct engine_snap s;
	struct judge j;

	clean(&s);
	s.plan.mode = ENGINE_VERIFY;
	s.pass_found = 0;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, "no unit of this run and disk at its "
		     "start, middle or end"),
	       "a verify that found no pass of this run on disk FAILs");

	s.pass_found = 1;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors"),
	       "...and PASSes when it found one");

	s.pass_found = 0;
	s.plan.verify_pass = 3;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "a verify told its pass by the run record looks for none");

	clean(&s);
	s.plan.mode = ENGINE_WRITE_VERIFY;
	s.pass_found = 0;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "a write-verify never asks for a pass found on disk");
}

/* A checking mode that read nothing checked nothing: never a PASS. */
static void test_nothing_checked(void)
{
	static const int modes[] = { ENGINE_VERIFY, ENGINE_WRITE_VERIFY,
				     ENGINE_READ };
	static const char *const names[] = { "verify", "write-verify",
					      "read" };
	struct engine_snap s;
	struct judge j;
	unsigned m;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		clean(&s);
		s.plan.mode = modes[m];
		s.plan.verify_pass = 1;
		s.c.bytes_read = 0;
		s.phase_bytes[PHASE_VERIFY] = s.phase_ns[PHASE_VERIFY] = 0;
		judge_target(&s, NULL, &j);
		tap_ok(check(&j, JUDGE_FAIL, 1, "nothing was checked: 0 bytes "
			     "read"),
		       "a %s that ended having read 0 bytes FAILs: nothing "
		       "was checked", names[m]);
	}

	clean(&s);
	s.plan.mode = ENGINE_WRITE;
	s.c.bytes_read = 0;
	s.phase_bytes[PHASE_VERIFY] = s.phase_ns[PHASE_VERIFY] = 0;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors"),
	       "a write, which checks nothing, PASSes having read nothing");

	clean(&s);
	s.plan.mode = ENGINE_VERIFY;
	s.plan.verify_pass = 1;
	s.c.bytes_read = 0;
	s.c.state = STATE_RUNNING;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors"),
	       "...nor is a verify still running FAILed for what it has not "
	       "read yet");

	s.c.state = STATE_STOPPED;
	snprintf(s.why, sizeof(s.why), "interrupted");
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, "stopped before the end") &&
	       j.interrupted,
	       "...and one stopped before it read anything WARNs as "
	       "stopped, never a PASS");

	clean(&s);
	s.plan.mode = ENGINE_READ;
	s.c.bytes_read = 0;
	s.c.io_errors = 3;
	judge_target(&s, NULL, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, "3 I/O errors"),
	       "a read whose every request failed FAILs for its errors alone");
}

static void test_unstable(void)
{
	struct engine_snap s;
	struct monitor_target mt;
	struct judge j;

	clean(&s);
	steady(&mt);
	mt.min[PHASE_WRITE] = 15;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, NULL) &&
	       !strcmp(j.reasons[0], "unstable write: its slowest second ran "
		       "15 MB/s, 15% of its 100 MB/s average"),
	       "a whole second under 20%% of its phase's average WARNs");

	mt.min[PHASE_WRITE] = 25;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "a slowest second at 25%% of the average does not");

	steady(&mt);
	mt.min[PHASE_VERIFY] = 3;
	mt.seconds[PHASE_VERIFY] = 10;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, "unstable verify: its slowest second "
		     "ran 3 MB/s, 3%"),
	       "verify is judged the same, after 10 whole seconds");

	mt.seconds[PHASE_VERIFY] = 9;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "...and not before 10 whole seconds");

	steady(&mt);
	s.phase_bytes[PHASE_FLUSH] = 100 * MB;
	s.phase_ns[PHASE_FLUSH] = 100 * SEC;
	mt.seconds[PHASE_FLUSH] = 100;
	mt.min[PHASE_FLUSH] = 0;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "flush is never unstable: it waits, it does not stream");

	clean(&s);
	steady(&mt);
	s.phase_bytes[PHASE_READ] = 0;
	s.phase_ns[PHASE_READ] = 0;
	mt.seconds[PHASE_READ] = 50;
	mt.min[PHASE_READ] = 0;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_PASS, 1, NULL),
	       "a phase that did not run (no average) is never unstable");

	steady(&mt);
	mt.min[PHASE_WRITE] = 15;
	s.c.state = STATE_STALLED;
	snprintf(s.why, sizeof(s.why), "stuck");
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_FAIL, 2, "unstable write"),
	       "an unstable WARN after a stall's FAIL leaves it FAIL");
}

/*
 * Disks writing 100 MB/s for 100 whole seconds, sampled as the monitor
 * does; a disk of dip[] runs 10 MB/s in those seconds.
 */
#define SHARED_DISKS 8

static void series(struct monitor_target *mt, const unsigned *dip,
		   unsigned ndip)
{
	unsigned t, k;

	steady(mt);
	mt->min[PHASE_WRITE] = mt->min[PHASE_VERIFY] = -1;
	mt->seconds[PHASE_WRITE] = 0;
	mt->seconds[PHASE_VERIFY] = 0;
	for (t = 1; t <= 100; t++) {
		double rate = 100;

		for (k = 0; k < ndip; k++)
			if (dip[k] == t)
				rate = 10;
		mt->seconds[PHASE_WRITE]++;
		if (mt->min[PHASE_WRITE] < 0 || rate < mt->min[PHASE_WRITE])
			mt->min[PHASE_WRITE] = rate;
		monitor_slow_add(mt, PHASE_WRITE, t * 1000, rate);
	}
}

static int count_warned(struct monitor_target *mt, int n, int *warned)
{
	struct engine_snap s;
	struct judge j;
	int i, w = 0;

	clean(&s);
	s.plan.mode = ENGINE_WRITE;
	for (i = 0; i < n; i++) {
		judge_target(&s, &mt[i], &j);
		warned[i] = j.verdict == JUDGE_WARN &&
			    strstr(j.reasons[0], "unstable write");
		w += warned[i];
	}
	return w;
}

static void find(struct monitor_target *mt, const int *ctrl, int n,
		 struct dips *out)
{
	struct dips_disk d[SHARED_DISKS];
	int i;

	memset(d, 0, sizeof(d));
	for (i = 0; i < n; i++) {
		d[i].mt = &mt[i];
		d[i].avg[PHASE_WRITE] = 100;
		d[i].ctrl = ctrl ? ctrl[i] : -1;
	}
	dips_find(d, n, out);
}

static void test_shared_dips(void)
{
	static struct monitor_target mt[SHARED_DISKS];
	const unsigned together[] = { 12, 13, 40 }, alone[] = { 70 };
	const int ctrl[SHARED_DISKS] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	int warned[SHARED_DISKS], i;
	struct engine_snap s;
	struct dips d;
	struct judge j;
	char text[300];

	for (i = 0; i < SHARED_DISKS; i++)
		series(&mt[i], together, 3);
	tap_ok(count_warned(mt, SHARED_DISKS, warned) == SHARED_DISKS,
	       "unjudged, every disk that dipped with the others WARNs");
	find(mt, NULL, SHARED_DISKS, &d);
	dips_text(&d, -1, NULL, text, sizeof(text));
	tap_ok(count_warned(mt, SHARED_DISKS, warned) == 0 && d.n == 3 &&
	       d.s[0].ctrl == -1 && d.s[0].dipped == SHARED_DISKS &&
	       !strcmp(text, "the machine's: most of its disks slowed "
		       "together in seconds 12, 13 and 40 (up to 8 of 8 busy "
		       "disks), not counted against any disk"),
	       "all disks dipping in the same seconds: no disk WARNs, the "
	       "machine's dip is said once with its seconds");
	tap_diag("said: %s", text);

	/* Its edges: three of eight resumed a second later than the rest. */
	{
		const unsigned late[] = { 12, 13, 14 }, early[] = { 11, 12, 13 };

		for (i = 0; i < SHARED_DISKS; i++)
			series(&mt[i], i < 3 ? late : i == 3 ? early :
			       together, i < 4 ? 3 : 2);
		find(mt, NULL, SHARED_DISKS, &d);
		tap_ok(count_warned(mt, SHARED_DISKS, warned) == 0 &&
		       d.n == 2,
		       "...and at its edges, a second before or after it, "
		       "though fewer than half dipped then");
		series(&mt[6], alone, 1);
		find(mt, NULL, SHARED_DISKS, &d);
		tap_ok(count_warned(mt, SHARED_DISKS, warned) == 1 &&
		       warned[6],
		       "...never further from it");
	}

	series(&mt[5], alone, 1);
	for (i = 0; i < SHARED_DISKS; i++)
		if (i != 5)
			series(&mt[i], NULL, 0);
	find(mt, NULL, SHARED_DISKS, &d);
	tap_ok(count_warned(mt, SHARED_DISKS, warned) == 1 && warned[5] &&
	       d.n == 0,
	       "a disk that dips alone WARNs, and nothing is the machine's");

	/* A disk dipping alone beside the machine's dips still WARNs. */
	{
		const unsigned both[] = { 12, 13, 40, 70 };

		for (i = 0; i < SHARED_DISKS; i++)
			series(&mt[i], together, 3);
		series(&mt[2], both, 4);
		find(mt, NULL, SHARED_DISKS, &d);
		count_warned(mt, SHARED_DISKS, warned);
		clean(&s);
		s.plan.mode = ENGINE_WRITE;
		judge_target(&s, &mt[2], &j);
		tap_ok(count_warned(mt, SHARED_DISKS, warned) == 1 &&
		       warned[2] && strstr(j.reasons[0], "ran 10 MB/s") &&
		       d.n == 3,
		       "...also beside the machine's dips, for its own second");
	}

	for (i = 0; i < SHARED_DISKS; i++)
		series(&mt[i], ctrl[i] == 0 ? together : NULL,
		       ctrl[i] == 0 ? 3 : 0);
	find(mt, ctrl, SHARED_DISKS, &d);
	dips_text(&d, 0, "controller 0000:00:17.0", text, sizeof(text));
	tap_ok(count_warned(mt, SHARED_DISKS, warned) == 0 && d.n == 3 &&
	       d.s[0].ctrl == 0 && d.s[0].dipped == 4 && d.s[0].busy == 4 &&
	       strstr(text, "controller 0000:00:17.0: ") &&
	       strstr(text, "seconds 12, 13 and 40"),
	       "half the disks dipping together, all behind one controller: "
	       "the controller's, said so, and no disk WARNs for it");
	tap_diag("said: %s", text);
	dips_text(&d, -1, NULL, text, sizeof(text));
	tap_ok(!text[0], "...and nothing said of the machine");

	series(&mt[0], NULL, 0);
	clean(&s);
	s.plan.mode = ENGINE_WRITE;
	s.phase_bytes[PHASE_WRITE] = 100 * 15 * MB;
	judge_target(&s, &mt[0], &j);
	tap_ok(check(&j, JUDGE_PASS, 1, "no I/O errors") &&
	       !strcmp(j.stability, "write steady at 15 MB/s"),
	       "a flat disk says it: \"write steady at 15 MB/s\"");
	tap_diag("stability: %s", j.stability);
}

static void health_none(struct smart_counters *h)
{
	memset(h, 0, sizeof(*h));
	h->have = 1;
	h->passed = 1;
	h->realloc = h->pending = h->uncorrectable = h->crc_errors = -1;
	h->media_errors = h->critical_warning = h->grown_defects = -1;
}

static void test_health(void)
{
	struct smart_counters b, a;
	struct judge j;

	health_none(&b);
	health_none(&a);
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_PASS, 0, NULL),
	       "SMART that passed and reports no counters adds nothing");

	a.passed = 0;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, "SMART overall health: FAILED"),
	       "SMART's own FAILED assessment FAILs");

	health_none(&a);
	b.realloc = 0;
	a.realloc = 8;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "SMART reallocated sectors rose from 0 to "
		       "8 during the burn-in"),
	       "reallocated sectors that rose during the run FAIL");

	b.realloc = 8;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, NULL) &&
	       !strcmp(j.reasons[0], "SMART reallocated sectors is 8 (from "
		       "before the run)"),
	       "...present before and not risen: WARN");

	b.realloc = a.realloc = -1;
	b.pending = 0;
	a.pending = 1;
	b.uncorrectable = 2;
	a.uncorrectable = 3;
	b.crc_errors = 0;
	a.crc_errors = 40;
	b.media_errors = 0;
	a.media_errors = 1;
	b.grown_defects = 10;
	a.grown_defects = 12;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_FAIL, 5, "pending sectors rose from 0 to 1") &&
	       tap_has_reason(&j, "offline uncorrectable sectors rose from 2 to 3") &&
	       tap_has_reason(&j, "link CRC errors (cable, backplane or connector) rose "
		   "from 0 to 40") &&
	       tap_has_reason(&j, "media and data integrity errors rose from 0 to 1") &&
	       tap_has_reason(&j, "grown defects rose from 10 to 12"),
	       "every damage counter that rose FAILs, each named");

	health_none(&b);
	health_none(&a);
	a.critical_warning = 4;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_FAIL, 1, NULL) &&
	       !strcmp(j.reasons[0], "NVMe critical warning 0x04: NVM "
		       "subsystem reliability degraded"),
	       "an NVMe critical warning FAILs");
	a.critical_warning = 0;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_PASS, 0, NULL),
	       "...and a critical warning of 0 is none");

	a.passed = 0;
	a.have = 0;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_PASS, 0, NULL),
	       "no smartctl answer after the run: nothing judged");
	memset(&j, 0, sizeof(j));
	judge_health(&b, NULL, &j);
	tap_ok(check(&j, JUDGE_PASS, 0, NULL),
	       "no SMART after the run at all: nothing judged");

	health_none(&a);
	a.realloc = 3;
	b.have = 0;
	b.realloc = 0;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, "reallocated sectors is 3"),
	       "no answer before the run: damage cannot be said to have "
	       "risen, only WARNs");
	memset(&j, 0, sizeof(j));
	judge_health(NULL, &a, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, "reallocated sectors is 3"),
	       "...the same without a before at all");

	b.have = 1;
	b.realloc = 5;
	a.realloc = -1;
	memset(&j, 0, sizeof(j));
	judge_health(&b, &a, &j);
	tap_ok(check(&j, JUDGE_PASS, 0, NULL),
	       "a counter not reported after the run is not judged");

	/* The verdict of the burn and SMART's add up: FAIL stays FAIL. */
	{
		struct engine_snap s;

		clean(&s);
		s.c.io_errors = 1;
		judge_target(&s, NULL, &j);
		health_none(&b);
		health_none(&a);
		b.realloc = a.realloc = 2;
		judge_health(&b, &a, &j);
		tap_ok(check(&j, JUDGE_FAIL, 2, "from before the run"),
		       "a SMART WARN after an I/O error's FAIL leaves it FAIL");
	}
}

static void test_rate(void)
{
	struct engine_snap s;

	memset(&s, 0, sizeof(s));
	s.phase_bytes[PHASE_WRITE] = 1000 * MB;
	s.phase_ns[PHASE_WRITE] = 2 * SEC;
	s.phase_bytes[PHASE_READ] = 5 * MB;
	tap_ok(figures_rate(&s, PHASE_WRITE) == 500,
	       "figures_rate: 1000 MB in 2 s is 500 MB/s");
	tap_ok(figures_rate(&s, PHASE_READ) == 0 &&
	       figures_rate(&s, PHASE_VERIFY) == 0,
	       "...and 0 for a phase that took no time");
}

static void test_order_and_cap(void)
{
	struct judge j;
	char longer[400];
	int i;

	memset(&j, 0, sizeof(j));
	judge_reason(&j, JUDGE_FAIL, "bad");
	judge_reason(&j, JUDGE_WARN, "meh");
	judge_reason(&j, JUDGE_PASS, "fine");
	tap_ok(j.verdict == JUDGE_FAIL && j.nreasons == 3,
	       "a WARN or PASS reason never lowers a FAIL");
	memset(&j, 0, sizeof(j));
	judge_reason(&j, JUDGE_WARN, "meh");
	judge_reason(&j, JUDGE_PASS, "fine");
	tap_ok(j.verdict == JUDGE_WARN, "...nor a PASS a WARN");

	memset(&j, 0, sizeof(j));
	for (i = 0; i < JUDGE_MAX_REASONS + 2; i++)
		judge_reason(&j, JUDGE_WARN, "reason %d", i);
	tap_ok(j.nreasons == JUDGE_MAX_REASONS &&
	       !strcmp(j.reasons[JUDGE_MAX_REASONS - 1], "reason 7") &&
	       j.verdict == JUDGE_WARN,
	       "reasons stop at %d: the first ones are kept",
	       JUDGE_MAX_REASONS);
	judge_reason(&j, JUDGE_FAIL, "one too many");
	tap_ok(j.nreasons == JUDGE_MAX_REASONS && j.verdict == JUDGE_FAIL,
	       "a reason past the cap still raises the verdict");

	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = 0;
	memset(&j, 0, sizeof(j));
	judge_reason(&j, JUDGE_WARN, "%s", longer);
	tap_ok(strlen(j.reasons[0]) == sizeof(j.reasons[0]) - 1,
	       "a reason longer than its room is cut, never overruns");

	tap_ok(!strcmp(judge_name(JUDGE_PASS), "PASS") &&
	       !strcmp(judge_name(JUDGE_WARN), "WARN") &&
	       !strcmp(judge_name(JUDGE_FAIL), "FAIL") &&
	       !strcmp(judge_name(7), "?"), "judge_name names each verdict");
}

/*
 * A disk that dips alone in seconds the host held its worker in is not
 * blamed: the seconds are left out, and its stability says how many.
 */
static void test_held(void)
{
	static struct monitor_target mt;
	const unsigned alone[] = { 70, 71 };
	struct engine_snap s;
	struct judge j;

	series(&mt, alone, 2);
	clean(&s);
	s.plan.mode = ENGINE_WRITE;
	judge_target(&s, &mt, &j);
	tap_ok(check(&j, JUDGE_WARN, 1, "unstable write"),
	       "a dip of its own, the host's hold not said: WARN unstable");
	monitor_held(&mt, 69000, 71000);
	judge_target(&s, &mt, &j);
	tap_ok(j.verdict == JUDGE_PASS &&
	       strstr(j.stability, "write: 2 of its slowest seconds held by "
			       "the host (kiln's worker waited for a CPU), "
			       "not judged") &&
	       strstr(j.stability, "write steady at"),
	       "the host held its worker then: PASS, said (%s)", j.stability);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_clean);
	TAP_RUN(test_io_errors);
	TAP_RUN(test_bad_units);
	TAP_RUN(test_states);
	TAP_RUN(test_verify);
	TAP_RUN(test_nothing_checked);
	TAP_RUN(test_unstable);
	TAP_RUN(test_shared_dips);
	TAP_RUN(test_held);
	TAP_RUN(test_health);
	TAP_RUN(test_rate);
	TAP_RUN(test_order_and_cap);
	return tap_done();
}
