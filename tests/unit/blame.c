/* SPDX-License-Identifier: MIT */
/*
 * Description: transfer errors (bad units that read back good) placed on
 * records made by hand and judged as a run judges them (record_judge):
 * on one disk alone that disk FAILs, "not the media"; on two disks of one
 * controller the controller FAILs (in the machine's failure, naming it)
 * and the disks WARN; on disks of two controllers, on several disks with
 * no controller (loop devices), or beside a memory error (EDAC), the
 * machine FAILs and the disks WARN; a disk whose re-read confirmed its
 * bad units FAILs for its media whatever the others; units past the
 * re-read's cap go with those that read back good. result.json says the
 * place, and a record restored from it (kiln finish, kiln report) places
 * them the same and says it once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "base/jsonread.h"
#include "judge/blame.h"
#include "judge/record.h"
#include "results/report_html.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

/* A record's blame: the blame signal's slot (NULL: none judged). */
#define BLAME(r) ((struct blame *)record_slot((r), BLAME_SLOT))

#define MB 1000000ull
#define SEC 1000000000ull

static struct settings s;
static struct record r;
static struct monitor_target mts[8];

static void fresh(void)
{
	record_free(&r);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
}

static int ctrl(const char *pci)
{
	struct pci_controller c;
	int k;

	memset(&c, 0, sizeof(c));
	snprintf(c.pci, sizeof(c.pci), "%s", pci);
	snprintf(c.kind, sizeof(c.kind), "SATA AHCI");
	snprintf(c.driver, sizeof(c.driver), "ahci");
	k = links_add_ctrl(&r.links, &c);
	if (k < 0)
		tap_bail("out of memory");
	return k;
}

/*
 * A disk behind controller c (-1: none) that wrote and verified 64 MiB,
 * with good units read bad once and confirmed ones read bad twice.
 */
static struct record_disk *disk(const char *name, int c, unsigned good,
				unsigned confirmed)
{
	struct record_disk *d = record_add(&r, name, SETTINGS_WRITE_VERIFY);
	struct engine_snap *e;
	int p;

	if (!d)
		tap_bail("out of memory");
	e = &d->snap;
	snprintf(d->label, sizeof(d->label), "%s", name);
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", name);
	snprintf(d->t.id.model, sizeof(d->t.id.model), "KILN DISK");
	d->t.kind = TARGET_BLOCK;
	d->t.size = 64 << 20;
	d->ep.mode = ENGINE_WRITE_VERIFY;
	d->ep.ext[0].length = d->ep.region = 64 << 20;
	d->ep.next = 1;
	d->link.ctrl = c;
	if (c >= 0)
		r.links.ctrls[c].ndisks++;
	e->plan = d->ep;
	e->c.state = STATE_DONE;
	e->c.phase = PHASE_END;
	e->c.pass = 1;
	e->c.bytes_written = e->c.bytes_read = 64 << 20;
	e->phase_bytes[PHASE_WRITE] = e->phase_bytes[PHASE_VERIFY] = 64 << 20;
	e->phase_ns[PHASE_WRITE] = e->phase_ns[PHASE_VERIFY] = SEC;
	e->c.bad_units = good + confirmed;
	e->bad_transient = good;
	e->bad_by_class[UNIT_BITFLIP] = good + confirmed;
	d->mt = &mts[r.n - 1];
	memset(d->mt, 0, sizeof(*d->mt));
	for (p = 0; p < PHASES; p++)
		d->mt->min[p] = -1;
	return d;
}

/* EDAC's mc0 and its DIMM, corrected errors from ce0 to ce1. */
static void edac(long ce0, long ce1)
{
	struct vitals_edac *e = calloc(2, sizeof(*e));

	if (!e)
		tap_bail("out of memory");
	snprintf(e[0].where, sizeof(e[0].where), "mc0");
	snprintf(e[1].where, sizeof(e[1].where), "mc0/dimm0");
	snprintf(e[1].label, sizeof(e[1].label), "CPU0_DIMM_A1");
	e[0].ce_start = e[1].ce_start = ce0;
	e[0].ce_end = e[1].ce_end = ce1;
	e[0].ue_start = e[0].ue_end = e[1].ue_start = e[1].ue_end = 0;
	free(r.sig.edac);
	r.sig.edac = e;
	r.sig.nedac = 2;
	r.sig.edac_mcs = 1;
}

/* The disks' verdicts as letters, then M and the machine's: "FPP M:P". */
static const char *verdicts(const struct record *x)
{
	static char out[32];
	int i, n = 0;

	for (i = 0; i < x->n && n < 20; i++)
		out[n++] = judge_name(x->disks[i].j.verdict)[0];
	snprintf(out + n, sizeof(out) - n, " M:%c", judge_name(
		 x->sig.j.verdict)[0]);
	return out;
}

/* 1 when a reason of j holds text, quietly: for what must not be said. */
static int said(const struct judge *j, const char *text)
{
	int i;

	for (i = 0; i < j->nreasons; i++)
		if (strstr(j->reasons[i], text))
			return 1;
	return 0;
}

/* How many times text holds what. */
static int times(const char *text, const char *what)
{
	int n = 0;

	for (; (text = strstr(text, what)); text++)
		n++;
	return n;
}

static int is(const char *got, const char *want)
{
	if (strcmp(got, want))
		tap_diag("got '%s', want '%s'", got, want);
	return !strcmp(got, want);
}

static void test_one_disk(void)
{
	int a;

	fresh();
	a = ctrl("0000:00:17.0");
	disk("sda", a, 3, 0);
	disk("sdb", a, 0, 0);
	disk("sdc", a, 0, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "FPP M:P") && BLAME(&r)->place == BLAME_DISK &&
	       tap_has_reason(&r.disks[0].j, "3 bad units read back good: a "
			      "transfer error of its path") &&
	       tap_has_reason(&r.disks[0].j, "not the media") &&
	       r.exit_code == 1 && !r.failure[0],
	       "one disk alone: it FAILs for a transfer error, not its "
	       "media; nothing else");
	tap_ok(tap_has_reason(&r.disks[0].j, "each good on a second read") &&
	       r.disks[1].j.verdict == JUDGE_PASS &&
	       tap_has_reason(&r.disks[1].j, "no I/O errors, no bad units"),
	       "...its bad units are said as read back good, the others "
	       "are clean");
}

/* What the signals said on a controller's line, each in [...]. */
static char lines[2000];

static void say(void *arg, const char *text)
{
	size_t n = strlen(arg);

	snprintf((char *)arg + n, sizeof(lines) - n, "[%s]", text);
}

static void test_one_controller(void)
{
	int a, b;

	fresh();
	a = ctrl("0000:00:17.0");
	b = ctrl("0000:3b:00.0");
	disk("sda", a, 2, 0);
	disk("sdb", a, 5, 0);
	disk("sdc", a, 0, 0);
	disk("sdd", b, 0, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WWPP M:F") &&
	       BLAME(&r)->place == BLAME_CONTROLLER && BLAME(&r)->ctrl == a &&
	       BLAME(&r)->units == 7 && BLAME(&r)->ndisks == 2 &&
	       tap_has_reason(&r.disks[1].j, "placed on controller "
			      "0000:00:17.0") &&
	       tap_has_reason(&r.sig.j, "controller 0000:00:17.0 (SATA AHCI "
			      "ahci): 7 bad units read back good on 2 of its "
			      "disks (sda-sdb)") &&
	       strstr(r.failure, "controller 0000:00:17.0") &&
	       r.verdict == JUDGE_FAIL && r.exit_code == 1,
	       "two disks of one controller: the controller FAILs (the "
	       "run's failure names it), its disks WARN");
	signals_judge(&r, 1, 0);
	tap_ok(times(r.failure, "controller 0000:00:17.0 (") == 1,
	       "...judged again, the failure says it once: %s", r.failure);
	lines[0] = 0;
	signals_ctrl(&r, b, say, lines);
	signals_ctrl(&r, a, say, lines);
	tap_ok(!strncmp(lines, "[FAIL: controller 0000:00:17.0 (SATA AHCI ",
			41) && times(lines, "[") == 1,
	       "on the controllers' lines: the FAIL on its own, nothing on "
	       "the other's (%s)", lines);
	{
		size_t len;
		char *text = summary_string(&r, &len);
		char *html = report_html(&r, &len);

		tap_ok(text && html &&
		       times(text, "\n    FAIL: controller 0000:00:17.0 (") ==
		       1 && times(html, "<br>FAIL: controller 0000:00:17.0 (") ==
		       1, "summary.txt and report.html each say it under the "
		       "controller, once");
		free(text);
		free(html);
	}
}

static void test_two_controllers(void)
{
	int a, b;

	fresh();
	a = ctrl("0000:00:17.0");
	b = ctrl("0000:3b:00.0");
	disk("sda", a, 1, 0);
	disk("sdb", b, 1, 0);
	disk("sdc", b, 0, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WWP M:F") && BLAME(&r)->place == BLAME_MACHINE &&
	       BLAME(&r)->ngroups == 2 &&
	       tap_has_reason(&r.sig.j, "behind different controllers") &&
	       tap_has_reason(&r.sig.j, "memory suspected") &&
	       tap_has_reason(&r.disks[0].j, "placed on the machine") &&
	       r.exit_code == 1,
	       "disks of two controllers: the machine FAILs, the disks WARN");
}

static void test_memory(void)
{
	int a;

	fresh();
	a = ctrl("0000:00:17.0");
	disk("sda", a, 4, 0);
	disk("sdb", a, 0, 0);
	edac(0, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "FP M:P") && BLAME(&r)->place == BLAME_DISK,
	       "EDAC counts that did not rise are no memory error");
	edac(10, 13);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WP M:F") && BLAME(&r)->place == BLAME_MACHINE &&
	       BLAME(&r)->memory &&
	       tap_has_reason(&r.sig.j, "EDAC counted 3 corrected and 0 "
			      "uncorrected memory errors during the run: "
			      "memory suspected") &&
	       tap_has_reason(&r.sig.j, "corrected memory errors at "
			      "mc0/dimm0 (CPU0_DIMM_A1) rose from 10 to 13") &&
	       r.exit_code == 1,
	       "one disk and a memory error: the machine FAILs with the "
	       "counts (each DIMM's once), the disk WARNs");
	edac(0, 0);
	r.sig.cpu.mce.uncorrected = 2;
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WP M:F") && BLAME(&r)->place == BLAME_MACHINE &&
	       tap_has_reason(&r.sig.j, "2 uncorrected machine checks in the "
			      "kernel's log: memory suspected"),
	       "an uncorrected machine check is a memory error too: the "
	       "machine FAILs, the disk WARNs");
	r.sig.cpu.mce.uncorrected = 0;
}

static void test_confirmed(void)
{
	int a;

	fresh();
	a = ctrl("0000:00:17.0");
	disk("sda", a, 2, 0);
	disk("sdb", a, 2, 0);
	disk("sdc", a, 0, 3);
	disk("sdd", a, 1, 2);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WWFF M:F") &&
	       BLAME(&r)->place == BLAME_CONTROLLER && BLAME(&r)->ndisks == 3 &&
	       tap_has_reason(&r.disks[2].j, "3 bad units (3 bitflip)") &&
	       !said(&r.disks[2].j, "read back good") &&
	       tap_has_reason(&r.disks[3].j, "3 bad units (3 bitflip), the "
			      "first at byte 0: 2 bad again on a second read "
			      "(the media), 1 good"),
	       "bad twice is the media: that disk FAILs beside a failed "
	       "controller, one with both kinds FAILs for the confirmed");
	fresh();
	disk("sda", -1, 0, 5);
	disk("sdb", -1, 0, 1);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "FF M:P") && BLAME(&r)->place == BLAME_NONE,
	       "confirmed bad units alone blame no one but their disks");
}

static void test_no_controller(void)
{
	fresh();
	disk("loop0", -1, 2, 0);
	disk("loop1", -1, 0, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "FP M:P") && BLAME(&r)->place == BLAME_DISK,
	       "one loop device alone: its own path");
	fresh();
	disk("loop0", -1, 2, 0);
	disk("loop1", -1, 1, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WW M:F") && BLAME(&r)->place == BLAME_MACHINE &&
	       tap_has_reason(&r.sig.j, "with no controller (loop devices "
			      "or files)"),
	       "several loop devices: they share only the host, so the "
	       "machine's");
	fresh();
	disk("loop0", -1, 2, 0);
	disk("sda", ctrl("0000:00:17.0"), 1, 0);
	signals_judge(&r, 1, 0);
	tap_ok(is(verdicts(&r), "WW M:F") && BLAME(&r)->place == BLAME_MACHINE,
	       "a loop device and a disk of a controller: the machine's");
}

static void test_cap(void)
{
	struct engine_snap e;

	memset(&e, 0, sizeof(e));
	e.c.bad_units = 150;
	e.bad_transient = 100;
	e.bad_unchecked = 50;
	tap_ok(blame_confirmed(&e) == 0 && blame_transfer(&e) == 150,
	       "units past the re-read's cap go with those that read back "
	       "good");
	e.bad_transient = 0;
	tap_ok(blame_confirmed(&e) == 150,
	       "...and with none that read back good, they are confirmed");
	e.c.bad_units = 2;
	e.bad_transient = 7;
	tap_ok(blame_confirmed(&e) == 0 && blame_transfer(&e) == 2,
	       "a record that says more than it counted stays in its counts");
}

static void test_restore(void)
{
	struct jsonread *doc = NULL;
	struct restored back, shown;
	char err[256], *json, before[32];
	const struct jsonread_node *b;
	size_t len;
	int a, ok;

	fresh();
	a = ctrl("0000:00:17.0");
	disk("sda", a, 2, 0);
	disk("sdb", a, 1, 0);
	disk("sdc", a, 0, 2);
	signals_judge(&r, 1, 0);
	snprintf(before, sizeof(before), "%s", verdicts(&r));
	json = result_json(&r, &len);
	if (!json || jsonread_parse(&doc, json, len, NULL, err, sizeof(err)))
		tap_bail("result.json does not parse: %s", err);
	b = jsonread_get(jsonread_root(doc), "blame");
	tap_ok(!strcmp(jsonread_str(b, "place", ""), "controller") &&
	       !strcmp(jsonread_str(b, "controller", ""), "0000:00:17.0") &&
	       jsonread_u64(b, "units_good_on_reread", 0) == 3 &&
	       jsonread_count(jsonread_get(b, "disks")) == 2 &&
	       strstr(jsonread_str(b, "reason", ""), "controller or its "
		      "backplane"),
	       "result.json's blame says the place, the controller, the "
	       "disks and why");
	ok = restore_record(jsonread_root(doc), &back, err, sizeof(err)) == 0;
	if (ok)
		signals_judge(&back.r, 1, 0);
	tap_ok(ok && is(verdicts(&back.r), before) &&
	       BLAME(&back.r)->place == BLAME_CONTROLLER &&
	       BLAME(&back.r)->ctrl == 0 && !strcmp(back.r.failure, r.failure),
	       "restored and judged again (kiln finish): the same verdicts "
	       "and failure (%s)", ok ? back.r.failure : err);
	if (ok)
		restore_free(&back);
	ok = restore_record(jsonread_root(doc), &shown, err,
			    sizeof(err)) == 0;
	if (ok)
		restore_verdicts(jsonread_root(doc), &shown);
	tap_ok(ok && BLAME(&shown.r)->place == BLAME_CONTROLLER &&
	       !strcmp(BLAME(&shown.r)->reason, BLAME(&r)->reason),
	       "...and read for kiln report, the same place");
	if (ok)
		restore_free(&shown);
	jsonread_free(doc);
	free(json);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_one_disk);
	TAP_RUN(test_one_controller);
	TAP_RUN(test_two_controllers);
	TAP_RUN(test_memory);
	TAP_RUN(test_confirmed);
	TAP_RUN(test_no_controller);
	TAP_RUN(test_cap);
	TAP_RUN(test_restore);
	record_free(&r);
	return tap_done();
}
