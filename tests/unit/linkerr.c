/* SPDX-License-Identifier: MIT */
/*
 * Description: link error counters. The SAS phys of a hand-built sysfs
 * (an HBA, an expander, three disks; tests/fixtures/sysfs/sasexp) and of
 * the tree QEMU's mptsas1068 gave a guest are read, a phy that will not
 * read is said and the rest go on, and each disk gets the phys on its
 * path; smartctl's SATA phy events and SAS port log are read; growth is
 * folded over samples (a counter reset counts again from 0) and judged
 * on synthetic figures: on one disk's path it WARNs and FAILs at
 * link-errors-fail, on every phy of an expander, on a phy the disks
 * share or at the drive's end of every disk of a controller it is the
 * controller's or the backplane's, said on its line, and WARNs its disks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/jsonread.h"
#include "discover/discover.h"
#include "discover/inventory.h"
#include "judge/linkerr.h"
#include "judge/record.h"
#include "results/report_html.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

#define TARBALL "tests/fixtures/sysfs/sasexp/sasexp.tar.gz"

/* Where the hand-built tree is unpacked: its before/ and after/. */
static char sasexp[] = "/tmp/kiln-sasexp-XXXXXX";

static struct settings s;

/* The fixture's sysfs root of before or after. */
static const char *at(const char *when)
{
	static char path[2][64];
	int i = !strcmp(when, "after");

	snprintf(path[i], sizeof(path[i]), "%s/%s/sys", sasexp, when);
	return path[i];
}
static struct record r;

static void fresh(void)
{
	record_free(&r);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
}

static struct record_disk *disk(const char *name)
{
	struct record_disk *d = record_add(&r, name, SETTINGS_READ);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", name);
	d->t.kind = TARGET_BLOCK;
	d->link.ctrl = -1;
	return d;
}

static const struct sasphy *phy(const struct sasphy_set *set,
				const char *name)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->phys[i].name, name))
			return &set->phys[i];
	tap_bail("no phy %s", name);
	return NULL;
}

static int has_reason(const struct judge *j, const char *text)
{
	int i;

	for (i = 0; i < j->nreasons; i++)
		if (strstr(j->reasons[i], text))
			return 1;
	return 0;
}

static const char *reasons(const struct judge *j)
{
	static char buf[2000];
	size_t used = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < j->nreasons && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "[%s] ", j->reasons[i]);
	return buf;
}

static int notes_have(const char *text)
{
	int i;

	for (i = 0; i < r.nnotes; i++)
		if (strstr(r.notes[i], text))
			return 1;
	return 0;
}


/* The link reasons of a disk, joined: what a restore must say again. */
static void link_reasons(const struct judge *j, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < j->nreasons && used < len; i++)
		if (strstr(j->reasons[i], "link errors"))
			used += (size_t)snprintf(buf + used, len - used,
						 "[%s]", j->reasons[i]);
}

/*
 * The record through result.json and back, judged again as kiln finish
 * does: 1 when every disk's link reasons and verdict are the same and
 * the controller pci's line says the same.
 */
static int same_after_restore(const char *pci, const char *what)
{
	struct jsonread *doc = NULL;
	struct restored rs;
	char err[300] = "", a[2000], b[2000], ta[600] = "", tb[600] = "";
	size_t len;
	char *text = result_json(&r, &len);
	int i, same = 1;

	memset(&rs, 0, sizeof(rs));
	if (!text || jsonread_parse(&doc, text, len, NULL, err, sizeof(err)))
		tap_bail("result.json: %s", err);
	if (restore_record(jsonread_root(doc), &rs, err, sizeof(err)))
		tap_bail("restore: %s", err);
	signals_judge(&rs.r, 1, 1);
	same = rs.r.n == r.n;
	for (i = 0; same && i < r.n; i++) {
		link_reasons(&r.disks[i].j, a, sizeof(a));
		link_reasons(&rs.r.disks[i].j, b, sizeof(b));
		if (strcmp(a, b) || (a[0] && r.disks[i].j.verdict !=
				     rs.r.disks[i].j.verdict)) {
			tap_diag("%s: %s | restored: %s", r.disks[i].label,
				 a, b);
			same = 0;
		}
	}
	if (pci) {
		linkerr_ctrl_text(&r, pci, ta, sizeof(ta));
		linkerr_ctrl_text(&rs.r, pci, tb, sizeof(tb));
		if (strcmp(ta, tb)) {
			tap_diag("%s | restored: %s", ta, tb);
			same = 0;
		}
	}
	tap_ok(same && strstr(text, "\"link_errors\"") &&
	       strstr(text, "\"sas_phys\""), "restored from result.json, "
	       "%s is judged the same", what);
	restore_free(&rs);
	jsonread_free(doc);
	free(text);
	return same;
}

static void test_read(void)
{
	struct sasphy_set set = { 0 };
	const struct sasphy *p;
	char path[512];

	tap_ok(sasphy_read(at("before"), &set) == 0 && set.n == 16,
	       "16 phys: eight of the HBA, eight of its expander");
	p = phy(&set, "phy-7:0:5");
	tap_ok(!strcmp(p->owner, "expander-7:0") &&
	       !strcmp(p->ctrl, "0000:03:00.0") && sasphy_in_use(p) &&
	       strstr(p->port, "/expander-7:0/port-7:0:5") &&
	       !strcmp(p->rate, "12.0 Gbit") && p->count[0] == 0 &&
	       p->count[1] == 0, "an expander's phy: its owner, controller, "
	       "port and counters (%s, %s, %s)", p->owner, p->ctrl, p->port);
	p = phy(&set, "phy-7:2");
	tap_ok(!strcmp(p->owner, "host7") && sasphy_in_use(p) &&
	       p->to_expander && p->count[0] == 1 && p->count[1] == 1 &&
	       p->count[2] == 0 && !phy(&set, "phy-7:0:5")->to_expander,
	       "an HBA's phy in the wide port to the expander leads to it; "
	       "the expander's phy to a disk does not");
	tap_ok(!sasphy_in_use(phy(&set, "phy-7:5")) &&
	       !sasphy_in_use(phy(&set, "phy-7:0:1")),
	       "a phy in no port is not in use");
	p = phy(&set, "phy-7:0:7");
	tap_ok(p->count[0] == SASPHY_NONE && p->err[0] == EISDIR &&
	       p->err[3] == EISDIR && !strcmp(p->owner, "expander-7:0"),
	       "a phy whose counters will not read keeps the errno, and the "
	       "rest of it is read");
	tap_ok(sasphy_devpath(at("before"), "sdc", path,
			      sizeof(path)) == 0 &&
	       sasphy_on_path(phy(&set, "phy-7:0:5"), path) &&
	       sasphy_on_path(phy(&set, "phy-7:0"), path) &&
	       sasphy_on_path(phy(&set, "phy-7:3"), path) &&
	       !sasphy_on_path(phy(&set, "phy-7:0:4"), path) &&
	       !sasphy_on_path(phy(&set, "phy-7:0:0"), path) &&
	       !sasphy_on_path(phy(&set, "phy-7:5"), path),
	       "sdc's path: the HBA's wide port and its own expander phy, "
	       "no other disk's");
	tap_ok(sasphy_devpath(at("before"), "sdz", path,
			      sizeof(path)) < 0, "a disk not in sysfs has no "
	       "path");
	sasphy_free(&set);
	tap_ok(sasphy_read("/nonexistent", &set) == 0 && set.n == 0,
	       "no SAS transport class: no phys, no error");
}

/* inventory.json: the counters at discovery, the phys on each path. */
static void test_inventory(void)
{
	struct discover_options o = { .sysroot = at("after"),
				      .procroot = "/nonexistent",
				      .devroot = "/nonexistent" };
	struct discover_inventory inv;
	struct jsonread *doc = NULL;
	const struct jsonread_node *root, *p, *d;
	char *text;
	size_t len, i;
	int found = 0;

	if (discover_tree(&o, &inv))
		tap_bail("discover_tree failed");
	text = inventory_json(&inv, &len);
	if (!text || jsonread_parse(&doc, text, len, NULL, NULL, 0))
		tap_bail("inventory.json does not parse");
	root = jsonread_root(doc);
	p = jsonread_get(root, "sas_phys");
	for (i = 0; i < jsonread_count(p); i++) {
		const struct jsonread_node *e = jsonread_at(p, i);
		const struct jsonread_node *c = jsonread_get(e, "counters");

		if (!strcmp(jsonread_str(e, "phy", ""), "phy-7:0:5"))
			found += jsonread_i64(c, "invalid_dword_count", -1) ==
				 250 && jsonread_bool(e, "in_use", 0) &&
				 !strcmp(jsonread_str(e, "owner", ""),
					 "expander-7:0");
		if (!strcmp(jsonread_str(e, "phy", ""), "phy-7:0:7"))
			found += !strcmp(jsonread_str(c, "invalid_dword_count",
						      ""), "Is a directory");
	}
	tap_ok(jsonread_count(p) == 16 && found == 2, "inventory.json: each "
	       "phy with its counters at discovery, one that will not read "
	       "says why");
	d = jsonread_at(jsonread_get(root, "disks"), 1);
	p = jsonread_get(d, "sas_phys");
	tap_ok(!strcmp(jsonread_str(d, "name", ""), "sdc") &&
	       jsonread_count(p) == 5 &&
	       !strcmp(jsonread_str(jsonread_at(p, 1), NULL, ""), "phy-7:0:5"),
	       "...and each disk the phys on its path");
	jsonread_free(doc);
	free(text);
	discover_free(&inv);
}

/* The tree a guest with QEMU's mptsas1068 showed: what QEMU gives. */
static void test_qemu(void)
{
	char dir[] = "/tmp/kiln-linkerr-XXXXXX", sys[64];
	struct sasphy_set set = { 0 };
	struct record_disk *a, *b;
	int i, zero = 1, used = 0;

	if (access("tests/fixtures/sysfs/mptsas.tar.gz", R_OK) ||
	    !mkdtemp(dir)) {
		tap_skip("tests/fixtures/sysfs/mptsas.tar.gz not found");
		return;
	}
	tap_sh("tar xzf tests/fixtures/sysfs/mptsas.tar.gz -C %s", dir);
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	tap_ok(sasphy_read(sys, &set) == 0 && set.n == 8,
	       "QEMU's mptsas1068: eight phys of its host");
	for (i = 0; i < set.n; i++) {
		used += sasphy_in_use(&set.phys[i]);
		zero &= set.phys[i].count[0] == 0 &&
			set.phys[i].count[3] == 0 &&
			!strcmp(set.phys[i].owner, "host0");
	}
	tap_ok(used == 2 && zero && sasphy_in_use(phy(&set, "phy-0:0")) &&
	       sasphy_in_use(phy(&set, "phy-0:1")),
	       "two in a port, a disk each; every counter 0, no expander");
	fresh();
	disk("sda");
	disk("sdb");
	a = &r.disks[0];
	b = &r.disks[1];
	tap_ok(linkerr_start(&r, &set, sys) == 0 &&
	       linkerr_disk_of(a)->n == 4 &&
	       !strcmp(linkerr_disk_of(a)->c[0].src, "phy-0:0") &&
	       linkerr_disk_of(b)->n == 4 &&
	       !strcmp(linkerr_disk_of(b)->c[0].src, "phy-0:1"),
	       "each disk on its own phy of the HBA");
	sasphy_free(&set);
	tap_sh("rm -rf %s", dir);
}

/* The hand-built HBA and expander, read before and after the burn. */
static void test_fixture(void)
{
	struct sasphy_set set = { 0 };
	struct record_disk *b, *c, *d;
	const struct linkerr_count *k;

	fresh();
	disk("sdb");
	disk("sdc");
	disk("sdd");
	b = &r.disks[0];
	c = &r.disks[1];
	d = &r.disks[2];
	if (sasphy_read(at("before"), &set))
		tap_bail("cannot read the fixture");
	tap_ok(linkerr_start(&r, &set, at("before")) == 0 &&
	       linkerr_of(&r)->nphys == 16 && linkerr_disk_of(c)->n == 20 &&
	       linkerr_disk_of(b)->n == 20,
	       "each disk: four phys of the wide port and its own, four "
	       "counters each");
	tap_ok(notes_have("SAS phy phy-7:0:7: invalid_dword_count, "
			  "running_disparity_error_count, "
			  "loss_of_dword_sync_count, phy_reset_problem_count "
			  "cannot be read (Is a directory): not judged"),
	       "a phy that will not read is said once, not fatal");
	linkerr_fold_phys(&r, &set);
	sasphy_free(&set);
	if (sasphy_read(at("after"), &set))
		tap_bail("cannot read the fixture");
	linkerr_fold_phys(&r, &set);
	sasphy_free(&set);
	k = linkerr_disk_count(linkerr_disk_make(c), "phy-7:0:5",
			       "invalid_dword_count");
	tap_ok(k && k->before == 0 && k->after == 250 && k->growth == 250,
	       "sdc's phy: 0 before, 250 after, +250");
	k = linkerr_disk_count(linkerr_disk_make(c), "phy-7:2",
			       "invalid_dword_count");
	tap_ok(k && k->before == 1 && k->after == 1 && k->growth == 0,
	       "the wide port's phy: 1 before and after, no growth");
	signals_judge(&r, 0, 0);
	tap_ok(c->j.verdict == JUDGE_FAIL &&
	       has_reason(&c->j, "link errors grew on its own path: "
			  "phy-7:0:5 invalid_dword_count +250, and 2 more "
			  "counters (link-errors-fail 100): its cable or slot"),
	       "sdc FAILs: its cable or slot (%s)", reasons(&c->j));
	tap_ok(d->j.verdict == JUDGE_WARN &&
	       has_reason(&d->j, "phy-7:0:6 running_disparity_error_count "
			  "+7 (link-errors-fail 100)"),
	       "sdd WARNs, under the limit (%s)", reasons(&d->j));
	tap_ok(!has_reason(&b->j, "link errors"), "sdb: nothing grew, "
	       "nothing said (%s)", reasons(&b->j));
	same_after_restore(NULL, "the expander's disks");
	{
		size_t len;
		char *text = summary_string(&r, &len);

		tap_ok(text && strstr(text, "link error counters grown: "
				      "phy-7:0:5 invalid_dword_count 0 -> 250 "
				      "(+250)"), "summary.txt shows the grown "
		       "counters");
		free(text);
		text = report_html(&r, &len);
		tap_ok(text && strstr(text, "link error counters grown: "
				      "phy-7:0:5 invalid_dword_count 0 -&gt; "
				      "250 (+250)"), "...and so does "
		       "report.html");
		free(text);
	}
}

static void test_fold(void)
{
	struct linkerr_count c;
	struct linkerr_disk d;

	memset(&d, 0, sizeof(d));
	c = *linkerr_disk_count(&d, "phy-1:0", "invalid_dword_count");
	tap_ok(c.before == LINKERR_NONE && c.growth == LINKERR_NONE,
	       "a counter never read has no figures");
	linkerr_count_fold(&c, 5, 0);
	linkerr_count_fold(&c, 8, 0);
	linkerr_count_fold(&c, 0, EINVAL);
	tap_ok(c.before == 5 && c.after == 8 && c.growth == 3 &&
	       c.err == EINVAL, "a read that fails keeps the figures");
	linkerr_count_fold(&c, 2, 0);
	linkerr_count_fold(&c, 4, 0);
	tap_ok(c.before == 5 && c.after == 4 && c.growth == 7 && !c.err,
	       "a counter reset during the run: what it counted since "
	       "counts too (+3, then 2 from 0, then +2: %lld)", c.growth);
}

/* A machine by hand: phys of an owner under a controller. */
static void add_phy(const char *name, const char *owner, int in_use,
		    long long before, long long after)
{
	struct linkerr_phy *p;
	int k;

	struct linkerr *m = linkerr_make(&r);

	p = m ? realloc(m->phys, (size_t)(m->nphys + 1) * sizeof(*p)) : NULL;
	if (!p)
		tap_bail("out of memory");
	m->phys = p;
	p = &m->phys[m->nphys++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->owner, sizeof(p->owner), "%s", owner);
	snprintf(p->ctrl, sizeof(p->ctrl), "0000:03:00.0");
	p->in_use = in_use;
	for (k = 0; k < SASPHY_COUNTERS; k++) {
		snprintf(p->c[k].src, sizeof(p->c[k].src), "%s", name);
		snprintf(p->c[k].name, sizeof(p->c[k].name), "%s",
			 sasphy_counter[k]);
		p->c[k].before = p->c[k].after = p->c[k].growth = 0;
	}
	p->c[0].before = before;
	p->c[0].after = after;
	p->c[0].growth = after - before;
}

/* A disk's copy of a machine phy's counters, as folding makes it. */
static void on_path(struct record_disk *d, const char *name)
{
	const struct linkerr_phy *p = linkerr_phy_of(linkerr_of(&r), name);
	int k;

	for (k = 0; k < SASPHY_COUNTERS; k++)
		*linkerr_disk_count(linkerr_disk_make(d), name,
				    sasphy_counter[k]) =
			p->c[k];
}

static void test_owner(void)
{
	struct record_disk *d[3];
	char text[600];
	int i;

	/* An expander whose three disk phys all grew: its backplane. */
	fresh();
	add_phy("phy-7:0", "host7", 1, 0, 0);
	add_phy("phy-7:0:4", "expander-7:0", 1, 0, 1000);
	add_phy("phy-7:0:5", "expander-7:0", 1, 2, 40);
	add_phy("phy-7:0:6", "expander-7:0", 1, 0, 3);
	add_phy("phy-7:0:7", "expander-7:0", 0, 0, 0);
	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "sd%c", 'b' + i);
		disk(name);
	}
	for (i = 0; i < 3; i++) {
		char p[16];

		d[i] = &r.disks[i];
		snprintf(p, sizeof(p), "phy-7:0:%d", 4 + i);
		on_path(d[i], "phy-7:0");
		on_path(d[i], p);
	}
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN &&
	       has_reason(&d[0]->j, "link errors grew on every phy in use of "
			  "expander-7:0 (phy-7:0:4 invalid_dword_count +1000): "
			  "the controller's or the backplane's, not this "
			  "disk's, see controller 0000:03:00.0") &&
	       !has_reason(&d[0]->j, "its cable or slot"),
	       "every phy in use of the expander grew: its disk WARNs, not "
	       "FAILs, past link-errors-fail (%s)", reasons(&d[0]->j));
	tap_ok(d[1]->j.verdict == JUDGE_WARN &&
	       d[2]->j.verdict == JUDGE_WARN, "...and so do the others");
	linkerr_ctrl_text(&r, "0000:03:00.0", text, sizeof(text));
	tap_ok(!strcmp(text, "link errors grew on every phy in use of "
		       "expander-7:0 (3 phys, +1000 at most): the "
		       "controller's or the backplane's"),
	       "said once on its controller's line: %s", text);
	linkerr_ctrl_text(&r, "0000:04:00.0", text, sizeof(text));
	tap_ok(!text[0], "another controller's line says nothing");
	same_after_restore("0000:03:00.0", "growth on every phy of the "
			   "expander");

	/* One phy in use did not grow: each grown one is its disk's. */
	linkerr_make(&r)->phys[3].c[0].growth = 0;
	linkerr_disk_make(d[2])->c[4].growth = 0;
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_FAIL &&
	       has_reason(&d[0]->j, "phy-7:0:4 invalid_dword_count +1000 "
			  "(link-errors-fail 100): its cable or slot") &&
	       d[1]->j.verdict == JUDGE_WARN && d[2]->j.verdict == JUDGE_PASS,
	       "not every phy grew: each disk's own path (%s)",
	       reasons(&d[0]->j));
	linkerr_ctrl_text(&r, "0000:03:00.0", text, sizeof(text));
	tap_ok(!text[0], "...and its controller's line says nothing (%s)",
	       text);

	/* An expander with one phy in use is no proof of its backplane. */
	fresh();
	add_phy("phy-8:0:4", "expander-8:0", 1, 0, 100);
	add_phy("phy-8:0:5", "expander-8:0", 0, 0, 9);
	disk("sdb");
	d[0] = &r.disks[0];
	on_path(d[0], "phy-8:0:4");
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_FAIL &&
	       has_reason(&d[0]->j, "+100 (link-errors-fail 100)"),
	       "one phy in use: its disk's path, FAIL at the limit (%s)",
	       reasons(&d[0]->j));
	linkerr_make(&r)->phys[0].c[0].growth = 99;
	linkerr_disk_make(d[0])->c[0].growth = 99;
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN, "one under it: WARN");
	s.link_errors_fail = 50;
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_FAIL &&
	       has_reason(&d[0]->j, "(link-errors-fail 50)"),
	       "link-errors-fail 50: FAIL");
}

static void test_shared(void)
{
	struct record_disk *d[3];
	char text[600];
	int i;

	/* The HBA's wide port to the expander: on every disk's path. */
	fresh();
	add_phy("phy-7:0", "host7", 1, 0, 500);
	add_phy("phy-7:1", "host7", 1, 0, 0);
	add_phy("phy-7:0:4", "expander-7:0", 1, 0, 0);
	add_phy("phy-7:0:5", "expander-7:0", 1, 0, 0);
	add_phy("phy-7:0:6", "expander-7:0", 1, 0, 0);
	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "sd%c", 'b' + i);
		disk(name);
	}
	for (i = 0; i < 3; i++) {
		char p[16];

		d[i] = &r.disks[i];
		snprintf(p, sizeof(p), "phy-7:0:%d", 4 + i);
		on_path(d[i], "phy-7:0");
		on_path(d[i], "phy-7:1");
		on_path(d[i], p);
	}
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN && d[2]->j.verdict == JUDGE_WARN &&
	       has_reason(&d[1]->j, "link errors grew on phy-7:0, shared by 3 "
			  "disks (phy-7:0 invalid_dword_count +500)"),
	       "a phy three disks share grew: they WARN, none FAILs (%s)",
	       reasons(&d[1]->j));
	linkerr_ctrl_text(&r, "0000:03:00.0", text, sizeof(text));
	tap_ok(!strcmp(text, "link errors grew on phy-7:0 of host7 (+500), "
		       "shared by 3 disks of the run: the controller's, its "
		       "cable's or the expander's"), "said on the controller: "
	       "%s", text);

	/* One disk of the run behind an expander: its link is still shared. */
	fresh();
	add_phy("phy-7:0", "host7", 1, 0, 500);
	add_phy("phy-7:0:4", "expander-7:0", 1, 0, 0);
	linkerr_make(&r)->phys[0].to_expander = 1;
	disk("sdb");
	d[0] = &r.disks[0];
	on_path(d[0], "phy-7:0");
	on_path(d[0], "phy-7:0:4");
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN &&
	       has_reason(&d[0]->j, "link errors grew on phy-7:0, the link to "
			  "an expander (phy-7:0 invalid_dword_count +500)"),
	       "the link to an expander grew, one disk of the run behind it: "
	       "it WARNs, not FAILs (%s)", reasons(&d[0]->j));
	linkerr_ctrl_text(&r, "0000:03:00.0", text, sizeof(text));
	tap_ok(!strcmp(text, "link errors grew on phy-7:0 of host7 (+500), "
		       "the link to an expander, behind it 1 disk of the run: "
		       "the controller's, its cable's or the expander's"),
	       "...said on its controller: %s", text);
	same_after_restore("0000:03:00.0", "the link to an expander");
}

static struct smartjson *parse(const char *name)
{
	static struct smartjson sj[2];
	static int which;
	char path[200];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "tests/fixtures/smartjson/%s", name);
	text = tap_read_file(path, &len);
	if (!text)
		tap_bail("%s cannot be read", path);
	which ^= 1;
	if (smartjson_parse(text, len, &sj[which]))
		tap_bail("%s: not smartctl's JSON", path);
	free(text);
	return &sj[which];
}

static long long value(const struct smartjson *sj, const char *src,
		       const char *name)
{
	int i;

	for (i = 0; i < sj->nlinks; i++)
		if (!strcmp(sj->links[i].src, src) &&
		    !strcmp(sj->links[i].name, name))
			return sj->links[i].value;
	return LINKERR_NONE;
}

static void test_drive(void)
{
	struct smartjson *sj;
	struct record_disk *d[2];
	struct pci_controller ahci;
	const struct linkerr_count *k;
	char text[600];
	int i;

	sj = parse("sataphy-after.json");
	tap_ok(sj->nlinks == 11 && value(sj, "drive", "icrc_errors") == 37 &&
	       value(sj, "drive", "comresets") == 5 &&
	       value(sj, "drive", "phy_rdy_to_phy_nrdy") == 5 &&
	       value(sj, "drive", "d2h_non_data_fis_retries") == LINKERR_NONE,
	       "SATA phy events by name; one at its ceiling and a vendor's "
	       "left out (%d)", sj->nlinks);
	sj = parse("sasphy.json");
	tap_ok(sj->nlinks == 8 &&
	       value(sj, "drive port0 phy0", "invalid_dword_count") == 12 &&
	       value(sj, "drive port0 phy0",
		     "running_disparity_error_count") == 11 &&
	       value(sj, "drive port0 phy0", "loss_of_dword_sync_count") ==
	       2 && value(sj, "drive port1 phy0", "phy_reset_problem_count") ==
	       0, "a SAS drive's port log, each port and phy (%d)",
	       sj->nlinks);
	sj = parse("qemu-ata.json");
	tap_ok(sj->nlinks == 0, "QEMU's ATA disk has no phy event log");

	fresh();
	memset(&ahci, 0, sizeof(ahci));
	snprintf(ahci.pci, sizeof(ahci.pci), "0000:00:1f.2");
	disk("sda");
	disk("sdb");
	for (i = 0; i < 2; i++) {
		d[i] = &r.disks[i];
		d[i]->link.ctrl = links_add_ctrl(&r.links, &ahci);
		linkerr_fold_drive(d[i], parse("sataphy-before.json"));
	}
	linkerr_fold_drive(d[0], parse("sataphy-after.json"));
	linkerr_fold_drive(d[1], parse("sataphy-before.json"));
	k = linkerr_disk_count(linkerr_disk_make(d[0]), "drive",
			       "icrc_errors");
	tap_ok(k && k->before == 0 && k->after == 37 && k->growth == 37,
	       "a SATA drive's ICRC errors: 0, 37, +37");
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN &&
	       has_reason(&d[0]->j, "link errors grew on its own path: drive "
			  "icrc_errors +37, and 2 more counters") &&
	       d[1]->j.verdict == JUDGE_PASS,
	       "one disk of the controller grew at its end: its cable or "
	       "slot (%s)", reasons(&d[0]->j));
	linkerr_fold_drive(d[1], parse("sataphy-after.json"));
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN && d[1]->j.verdict == JUDGE_WARN &&
	       has_reason(&d[1]->j, "on every disk of its controller"),
	       "both disks of one controller grew: its or the backplane's "
	       "(%s)", reasons(&d[1]->j));
	same_after_restore("0000:00:1f.2", "growth at both drives' ends");
	{
		size_t len;
		char *sum = summary_string(&r, &len);

		tap_ok(sum && strstr(sum, "\n    link errors grew at the "
				     "drive's end of every disk of it (2 "
				     "disks)"), "summary.txt says it on the "
		       "controller's line");
		free(sum);
	}
	linkerr_ctrl_text(&r, "0000:00:1f.2", text, sizeof(text));
	tap_ok(!strcmp(text, "link errors grew at the drive's end of every "
		       "disk of it (2 disks): the controller's or the "
		       "backplane's"), "said on its line: %s", text);
	s.link_errors_fail = 30;
	signals_judge(&r, 0, 0);
	tap_ok(d[0]->j.verdict == JUDGE_WARN, "...not FAILed past the limit "
	       "(%s)", reasons(&d[0]->j));
}

/*
 * The record holds a slot where something was counted, nothing where
 * nothing was: a machine of many disks with no phys pays nothing.
 */
static void test_slots(void)
{
	struct sasphy_set none = { 0 };
	struct jsonread *doc = NULL;
	struct restored rs;
	struct record_disk *a, *b;
	char err[300] = "";
	size_t len;
	char *text;

	fresh();
	disk("sda");
	disk("sdb");
	a = &r.disks[0];
	b = &r.disks[1];
	tap_ok(linkerr_start(&r, &none, "/nonexistent") == 0 &&
	       record_slot(&r, LINKERR_SLOT) &&
	       !record_disk_slot(a, LINKERR_SLOT) &&
	       !record_disk_slot(b, LINKERR_SLOT) && !linkerr_of(&r)->nphys,
	       "no phys: the run's slot, empty, and no disk's");
	linkerr_fold_drive(a, parse("qemu-ata.json"));
	tap_ok(!record_disk_slot(a, LINKERR_SLOT) && !linkerr_disk_of(a)->n,
	       "a drive with no phy event log: still no slot");
	linkerr_fold_drive(a, parse("sataphy-before.json"));
	tap_ok(record_disk_slot(a, LINKERR_SLOT) && linkerr_disk_of(a)->n &&
	       !record_disk_slot(b, LINKERR_SLOT),
	       "its drive's counters: a slot of its own, not its "
	       "neighbour's (%d counters)", linkerr_disk_of(a)->n);
	text = result_json(&r, &len);
	memset(&rs, 0, sizeof(rs));
	if (!text || jsonread_parse(&doc, text, len, NULL, err, sizeof(err)) ||
	    restore_record(jsonread_root(doc), &rs, err, sizeof(err)))
		tap_bail("result.json: %s", err);
	tap_ok(rs.r.n == 2 &&
	       linkerr_disk_of(&rs.r.disks[0])->n == linkerr_disk_of(a)->n &&
	       !record_disk_slot(&rs.r.disks[1], LINKERR_SLOT) &&
	       !record_slot(&rs.r, LINKERR_SLOT),
	       "read back: the counted disk's slot, none for the other nor "
	       "for no phys");
	restore_free(&rs);
	jsonread_free(doc);
	free(text);
}

/* Every slot of d taken by other signals. */
static void fill_slots(struct record_disk *d)
{
	static const char *names[] = { "a", "b", "c", "d", "e", "f", "g",
				       "h", "i" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		record_disk_slot_make(d, names[i], 8, NULL);
}

/*
 * A disk whose counters cannot be kept (every slot of it taken, as out
 * of memory): said, never a judging without them.
 */
static void test_no_room(void)
{
	struct sasphy_set set = { 0 };
	struct jsonread *doc = NULL;
	const struct signal_ops *sig = signal_find("link_errors");
	struct record_disk *c;
	char err[300] = "";
	size_t len;
	char *text;
	int ret;

	fresh();
	disk("sdb");
	disk("sdc");
	c = &r.disks[1];
	snprintf(c->label, sizeof(c->label), "sdc");
	fill_slots(c);
	if (sasphy_read(at("before"), &set))
		tap_bail("cannot read the fixture");
	ret = linkerr_start(&r, &set, at("before"));
	tap_ok(!ret && linkerr_of(&r)->nphys == 16 &&
	       linkerr_disk_of(&r.disks[0])->n &&
	       !record_disk_slot(c, LINKERR_SLOT) &&
	       notes_have("sdc: the link error counters of its path are not "
			  "kept: no room in the record"),
	       "its path's counters not kept: said in the notes, the "
	       "machine's phys and the other disk's kept");
	sasphy_free(&set);
	tap_ok(linkerr_fold_drive(c, parse("sataphy-before.json")) == -ENOMEM &&
	       linkerr_fold_drive(c, parse("qemu-ata.json")) == 0,
	       "its drive's counters not kept: -ENOMEM (none to keep: 0)");
	text = result_json(&r, &len);
	if (!text || jsonread_parse(&doc, text, len, NULL, err, sizeof(err)))
		tap_bail("result.json: %s", err);
	tap_ok(sig && sig->read_disk(jsonread_path(jsonread_root(doc),
						   "/targets/0"), c) == -ENOMEM,
	       "read back: counters it cannot keep fail the read (-ENOMEM), "
	       "not a disk judged without them");
	jsonread_free(doc);
	free(text);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	if (access(TARBALL, R_OK))
		tap_skip_all("run from the top of the tree");
	if (!mkdtemp(sasexp))
		tap_skip_all("no temporary folder");
	tap_sh("tar xzf %s -C %s", TARBALL, sasexp);
	tap_plan(58);
	test_read();
	test_inventory();
	test_qemu();
	test_fixture();
	test_fold();
	test_owner();
	test_shared();
	test_drive();
	test_slots();
	test_no_room();
	record_free(&r);
	tap_sh("rm -rf %s", sasexp);
	return tap_done();
}
