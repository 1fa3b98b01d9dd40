/* SPDX-License-Identifier: MIT */
/*
 * Description: one figure, one value (judge/figures.c). Each figure on
 * synthetic runs, and what the outputs say of it: a rate is bytes over
 * busy time and says its direction, and a share of a link is of that
 * same rate; a controller's total is the sum of its disks'; a table's
 * slowest and fastest pass bracket every pass; passes are each disk's,
 * never a sum; the first bad byte is the lowest, however many were
 * listed and in whatever order they came.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/figures.h"
#include "judge/judge.h"
#include "judge/record.h"
#include "results/peers_out.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/summary.h"
#include "base/jsonread.h"

#define MB 1000000ull
#define SEC 1000000000ull

static struct settings s;

/* A phase run: bytes at mbps, so its busy time follows. */
static void pass(struct engine_snap *sn, int phase, uint32_t n, double mbps,
		 uint64_t bytes)
{
	struct engine_pass *p = &sn->passes[sn->npasses++];

	p->pass = n;
	p->phase = phase;
	p->bytes = bytes;
	p->ns = (uint64_t)((double)bytes / (mbps * MB) * SEC);
	p->reached = bytes;
	p->complete = 1;
	sn->phase_bytes[phase] += p->bytes;
	sn->phase_ns[phase] += p->ns;
	sn->totals[phase].passes++;
	sn->totals[phase].bytes += p->bytes;
	sn->totals[phase].ns += p->ns;
	if (phase == PHASE_WRITE)
		sn->c.bytes_written += bytes;
	else
		sn->c.bytes_read += bytes;
}

static struct record_disk *disk(struct record *r, const char *name)
{
	struct record_disk *d = record_add(r, name, 0);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", name + 5);
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", name + 5);
	d->t.kind = TARGET_BLOCK;
	d->t.size = 64 * MB;
	d->ep.mode = ENGINE_WRITE_VERIFY;
	d->link.ctrl = -1;
	d->snap.c.state = STATE_DONE;
	d->snap.passes = calloc(64, sizeof(*d->snap.passes));
	if (!d->snap.passes)
		tap_bail("out of memory");
	d->j.verdict = JUDGE_PASS;
	return d;
}

static char *text_of(const struct record *r,
		     void (*fn)(const struct record *, FILE *))
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		tap_bail("out of memory");
	fn(r, f);
	fclose(f);
	return text;
}

static void table(const struct record *r, FILE *f)
{
	summary_table(r, f, 1);
}

/* A rate is bytes over busy time, and its direction. */
static void rates(void)
{
	struct engine_snap sn = { 0 };
	struct engine_pass p[4];
	double v;

	sn.passes = p;
	pass(&sn, PHASE_WRITE, 1, 100, 400 * MB);
	pass(&sn, PHASE_VERIFY, 1, 400, 400 * MB);
	tap_ok(figures_rate(&sn, PHASE_WRITE) > 99.99 &&
	       figures_rate(&sn, PHASE_WRITE) < 100.01 &&
	       figures_dir_rate(&sn, FIGURES_READ) > 399.9 &&
	       figures_dir_rate(&sn, FIGURES_READ) < 400.1,
	       "a rate is bytes over busy time: write %.1f, read %.1f",
	       figures_rate(&sn, PHASE_WRITE),
	       figures_dir_rate(&sn, FIGURES_READ));
	tap_ok(figures_top_rate(&sn, &v) == FIGURES_READ && v > 399.9 &&
	       v < 400.1 && !strcmp(figures_dir_name(FIGURES_READ), "read"),
	       "the rate a disk ran at is its faster direction, named");
}

/* The table's min and max are the slowest and fastest pass. */
static void pass_range(void)
{
	struct record r;
	struct record_disk *d;
	double min = 0, max = 0, avg;
	char *text, row[200];
	static const double w[] = { 8, 118, 153, 140, 126 };
	unsigned i;

	record_init(&r, "burn", 0, NULL, &s);
	d = disk(&r, "/dev/loop28");
	for (i = 0; i < 5; i++) {
		pass(&d->snap, PHASE_WRITE, i + 1, w[i], 64 * MB);
		pass(&d->snap, PHASE_VERIFY, i + 1, 2000, 64 * MB);
	}
	avg = figures_rate(&d->snap, PHASE_WRITE);
	i = (unsigned)figures_pass_range(&d->snap, PHASE_WRITE, &min, &max);
	tap_ok(i && min > 7.99 && min < 8.01 && max > 152.99 && max < 153.01 &&
	       min <= avg && avg <= max,
	       "pass range: %.0f/%.0f/%.0f avg/min/max of passes at 8-153",
	       avg, min, max);
	text = text_of(&r, table);
	snprintf(row, sizeof(row), "%5.0f %5.0f %5.0f ", avg, 8.0, 153.0);
	tap_ok(text && strstr(text, row),
	       "the table's write avg/min/max are the passes' (want '%s'):\n%s",
	       row, text ? text : "");
	free(text);
	free(d->snap.passes);
	d->snap.passes = NULL;
	record_free(&r);
}

/* Passes are each disk's: three disks of 4 passes made 4, not 12. */
static void passes(void)
{
	struct record r;
	char buf[200];
	int i, k;

	record_init(&r, "burn", 0, NULL, &s);
	for (i = 0; i < 3; i++) {
		struct record_disk *d;
		char name[32];

		snprintf(name, sizeof(name), "/dev/loop%d", i);
		d = disk(&r, name);
		for (k = 0; k < 4 + (i == 2) * 3; k++) {
			pass(&d->snap, PHASE_WRITE, (uint32_t)k + 1, 100,
			     64 * MB);
			pass(&d->snap, PHASE_VERIFY, (uint32_t)k + 1, 100,
			     64 * MB);
		}
	}
	tap_ok(figures_passes(&r.disks[0].snap, ENGINE_WRITE_VERIFY) == 4,
	       "passes made: 4");
	summary_work_line(&r, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "work: 4-7 passes, ", 18),
	       "the run's passes are each disk's, as a range: %s", buf);
	r.disks[2].snap.totals[PHASE_VERIFY].passes = 4;
	summary_work_line(&r, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "work: 4 passes, ", 16) &&
	       strstr(buf, " in all (3 disks)"),
	       "...one count when they agree, bytes in all: %s", buf);
	figures_passes_text(101, 107, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "101-107 passes"), "figures_passes_text: %s", buf);
	for (i = 0; i < r.n; i++) {
		free(r.disks[i].snap.passes);
		r.disks[i].snap.passes = NULL;
	}
	record_free(&r);
}

/*
 * An NVMe drive read and wrote at 17 MB/s through a 250 MB/s link: it
 * ran at 17 MB/s one way, 7% of its link; its controller's total is the
 * sum of its disks', never below one of them.
 */
static void links(void)
{
	struct record r;
	struct pci_controller pc = { .pci = "0000:00:04.0", .kind = "NVMe",
				     .link_mbps = 250 };
	struct record_disk *a, *b;
	char text[300], *sum;
	int c;

	record_init(&r, "burn", 0, NULL, &s);
	disk(&r, "/dev/nvme0n1");
	disk(&r, "/dev/nvme1n1");
	/* record_add() may move the disks: taken once both are in. */
	a = &r.disks[0];
	b = &r.disks[1];
	c = links_add_ctrl(&r.links, &pc);
	if (c < 0)
		tap_bail("out of memory");
	r.links.ctrls[c].ndisks = 2;
	a->link.ctrl = b->link.ctrl = c;
	snprintf(a->link.kind, sizeof(a->link.kind), "pcie");
	snprintf(a->link.rate, sizeof(a->link.rate), "PCIe 1.0 x1");
	a->link.mbps = 250;
	b->link = a->link;
	pass(&a->snap, PHASE_WRITE, 1, 17, 170 * MB);
	pass(&a->snap, PHASE_VERIFY, 1, 17, 170 * MB);
	pass(&b->snap, PHASE_WRITE, 1, 21, 210 * MB);
	pass(&b->snap, PHASE_VERIFY, 1, 61, 210 * MB);
	/* What the burn's busiest seconds said, before the figures. */
	a->link.write_mbps = a->link.read_mbps = 17;
	r.links.ctrls[c].write_mbps = 15;
	r.links.ctrls[c].read_mbps = 0;
	links_fastest(&r);
	peers_out_limit(&r, a, text, sizeof(text));
	tap_ok(!strncmp(text, "ran at 17 MB/s ", 15) &&
	       strstr(text, "7% of its PCIe link (PCIe 1.0 x1, 250 MB/s)"),
	       "a share of a link is of the rate said, one way: %s", text);
	tap_ok(!strncmp(text, "ran at 17 MB/s write", 20) ||
	       !strncmp(text, "ran at 17 MB/s read", 19),
	       "...and the rate says its direction: %s", text);
	tap_ok(figures_ctrl_rate(&r, c, FIGURES_WRITE) > 37.99 &&
	       figures_ctrl_rate(&r, c, FIGURES_WRITE) < 38.01 &&
	       figures_ctrl_rate(&r, c, FIGURES_READ) > 77.99 &&
	       figures_ctrl_rate(&r, c, FIGURES_READ) < 78.01,
	       "a controller's total is its disks' summed: %.1f write, "
	       "%.1f read", figures_ctrl_rate(&r, c, FIGURES_WRITE),
	       figures_ctrl_rate(&r, c, FIGURES_READ));
	sum = text_of(&r, peers_out_summary);
	tap_ok(sum && strstr(sum, ": together 38 MB/s write, 78 MB/s read"),
	       "summary.txt's controller says that sum:\n%s", sum ? sum : "");
	free(sum);
	free(a->snap.passes);
	free(b->snap.passes);
	a->snap.passes = b->snap.passes = NULL;
	record_free(&r);
}

/*
 * Every unit zeroed, byte 0 included, but the list holds only the units
 * of the request that ended first: the first bad byte is still 0.
 */
static void first_bad(void)
{
	struct engine_snap sn = { 0 };
	struct engine_bad bad[3] = {
		{ .offset = 3145728, .pass = 1, .v.class = UNIT_ZEROED },
		{ .offset = 3149824, .pass = 1, .v.class = UNIT_ZEROED },
		{ .offset = 3153920, .pass = 1, .v.class = UNIT_ZEROED },
	};
	struct judge j;
	int k, found = 0;

	sn.bad = bad;
	sn.nbad = 3;
	sn.c.state = STATE_DONE;
	sn.c.bad_units = 16384;
	sn.bad_by_class[UNIT_ZEROED] = 16384;
	sn.bad_unchecked = 16384;
	tap_ok(figures_first_bad(&sn) == 3145728,
	       "a record of an older kiln: the lowest listed");
	sn.has_first_bad = 1;
	sn.first_bad_pass = 1;
	sn.first_bad = 0;
	tap_ok(figures_first_bad(&sn) == 0, "the engine's first bad byte");
	judge_target(&sn, NULL, &j);
	for (k = 0; k < j.nreasons; k++)
		found |= strstr(j.reasons[k], "the first at byte 0") != NULL;
	tap_ok(found, "the verdict's reason says byte 0: %s",
	       j.nreasons ? j.reasons[0] : "");
}

/*
 * Read back from result.json (kiln report, kiln finish), a rate is the
 * rate that was printed: a pass of 7 ms said to the millisecond was 7%
 * off. Its seconds are kept whole.
 */
static void read_back(void)
{
	struct record r;
	struct record_disk *d;
	struct jsonread *doc = NULL;
	struct restored back;
	double min = 0, max = 0, bmin = 0, bmax = 0, dv = 1;
	char err[200], *json;
	size_t len;
	int ok;

	record_init(&r, "burn", 0, NULL, &s);
	d = disk(&r, "/dev/loop3");
	pass(&d->snap, PHASE_WRITE, 1, 2317.4, 16 * MB);
	pass(&d->snap, PHASE_WRITE, 2, 9123.7, 16 * MB);
	pass(&d->snap, PHASE_VERIFY, 1, 3001.9, 16 * MB);
	pass(&d->snap, PHASE_VERIFY, 2, 7034.3, 16 * MB);
	figures_pass_range(&d->snap, PHASE_WRITE, &min, &max);
	json = result_json(&r, &len);
	if (!json || jsonread_parse(&doc, json, len, NULL, err, sizeof(err)))
		tap_bail("result.json does not parse");
	ok = restore_record(jsonread_root(doc), &back, err, sizeof(err)) == 0;
	if (ok) {
		figures_pass_range(&back.r.disks[0].snap, PHASE_WRITE, &bmin,
				   &bmax);
		dv = figures_rate(&back.r.disks[0].snap, PHASE_VERIFY) -
		     figures_rate(&d->snap, PHASE_VERIFY);
	}
	tap_ok(ok && bmin > min - 1e-6 && bmin < min + 1e-6 &&
	       bmax > max - 1e-6 && bmax < max + 1e-6 && dv > -1e-6 &&
	       dv < 1e-6,
	       "read back, the passes' rates are the ones written "
	       "(%.4f-%.4f, %.4f-%.4f)", min, max, bmin, bmax);
	if (ok)
		restore_free(&back);
	jsonread_free(doc);
	free(json);
	free(d->snap.passes);
	d->snap.passes = NULL;
	record_free(&r);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	tap_plan(16);
	settings_defaults(&s, SCOPE_BURN);
	rates();
	pass_range();
	passes();
	links();
	first_bad();
	read_back();
	return tap_done();
}
