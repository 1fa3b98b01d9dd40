/* SPDX-License-Identifier: MIT */
/*
 * Description: the confirming re-read. On a real file: the regions of a
 * disk's slowest requests are read again 4 KiB at a time, each read on
 * the scanners' grid and in the histogram, the slowest of each region
 * found; a stop cuts it short, saying why (tests/host/zones.t has the
 * deadline cut it, on a slow disk); a disk whose burn did not end as
 * asked is not re-read. Judged from records made by
 * hand: a rotational disk with a read of 500 ms or more WARNs, naming the
 * offsets; an SSD whose p99 is over 10x the median of its like SSDs (3 or
 * more, one model and size) WARNs, and not without enough like ones; a
 * failed read and a stall FAIL. And what result.json and summary.txt say.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "base/json.h"
#include "judge/record.h"
#include "engine/tally.h"

#define MiB 1048576ull
#define MS 1000000ull

static struct settings settings;
static char path[] = "/tmp/kiln-reread-XXXXXX";

/* A record of one disk over a 4 MiB file whose burn found slow requests. */
static void burnt(struct record *r, int state)
{
	struct engine_plan plan = { .mode = ENGINE_READ, .next = 1,
				    .region = 4 * MiB };
	struct record_disk *d;
	struct engine_disk disk;
	struct tally t;
	struct tally_req q;

	record_init(r, "burn", 0, NULL, &settings);
	d = record_add(r, path, 0);
	d->t.fd = open(path, O_RDONLY);
	d->t.kind = TARGET_FILE;
	d->t.lbs = 512;
	plan.ext[0].length = 4 * MiB;
	d->ep = plan;
	plan_disk(&d->t, &disk);
	d->et = engine_target_new(&disk, &plan);
	if (d->t.fd < 0 || !d->et)
		tap_bail("cannot set up a disk over %s", path);
	tally_init(&t, d->et);
	tally_begin(&t, PHASE_READ, 1);
	tally_submit(&t, &q, 0);
	tally_done(&t, &q, 90 * MS, MiB, MiB, MiB, MiB);
	tally_submit(&t, &q, 90 * MS);
	tally_done(&t, &q, 100 * MS, 3 * MiB, 3 * MiB, 65536, 65536);
	tally_end(&t);
	atomic_store(&d->et->state, state);
}

static void done_with(struct record *r)
{
	close(r->disks[0].t.fd);
	r->disks[0].t.fd = -1;
	record_free(r);
}

static void test_run(void)
{
	FILE *null = fopen("/dev/null", "w");
	struct record r;
	struct reread *rr;
	atomic_int stop = 0;
	unsigned g, sum = 0;
	char *text = NULL;
	size_t len;
	FILE *con = open_memstream(&text, &len);

	burnt(&r, STATE_DONE);
	reread_run(&r, 10 * TIMING_SEC, &stop, con);
	fclose(con);
	rr = &r.disks[0].rr;
	for (g = 0; g < REREAD_GRID; g++)
		sum += rr->grid[g];
	tap_ok(rr->state == REREAD_DONE && rr->n == 2 && rr->size == 4096 &&
	       !rr->errors, "a finished burn's two slowest requests are read "
	       "again, 4 KiB at a time");
	tap_ok(rr->regions[0].offset == MiB && rr->regions[0].reads == 256 &&
	       rr->regions[0].burn_ns == 90 * MS &&
	       rr->regions[1].offset == 3 * MiB && rr->regions[1].reads == 16,
	       "slowest first: 256 reads of the 1 MiB one, 16 of the 64 KiB");
	tap_ok(sum == 272 && rr->times.n == 272 && rr->grid[0] > 0,
	       "each read is on the grid and in the histogram");
	tap_ok(rr->regions[0].max_at >= MiB && rr->regions[0].max_at < 2 * MiB &&
	       rr->regions[1].max_at >= 3 * MiB &&
	       rr->times.max_ns == (rr->regions[0].max_ns > rr->regions[1].max_ns ?
				    rr->regions[0].max_ns : rr->regions[1].max_ns),
	       "each region's slowest read is found in it");
	tap_ok(text && strstr(text, "reading the slowest requests of 1 disk "
			      "again, alone, at qd 1"), "the console says so");
	free(text);
	done_with(&r);

	stop = 1;
	burnt(&r, STATE_DONE);
	reread_run(&r, 10 * TIMING_SEC, &stop, null);
	rr = &r.disks[0].rr;
	tap_ok(rr->state == REREAD_CUT && !rr->times.n &&
	       !strcmp(rr->why, "interrupted"), "a signal stops it");
	done_with(&r);

	stop = 0;
	burnt(&r, STATE_STALLED);
	reread_run(&r, 10 * TIMING_SEC, &stop, null);
	tap_ok(r.disks[0].rr.state == REREAD_NOT_RUN,
	       "a stalled disk is not read again");
	atomic_store(&r.disks[0].et->state, STATE_DONE);
	done_with(&r);
	fclose(null);
}

/* A disk made by hand, its re-read as given. */
static struct record_disk *disk(struct record *r, const char *model,
				int rotational, uint64_t p99_ms)
{
	struct record_disk *d = record_add(r, "/dev/sdx", 0);
	struct reread *rr = &d->rr;
	unsigned i;

	d->t.kind = TARGET_BLOCK;
	d->t.size = 960197124096ull;
	d->t.id.rotational = rotational;
	snprintf(d->t.id.model, sizeof(d->t.id.model), "%s", model);
	rr->state = REREAD_DONE;
	rr->size = 4096;
	rr->n = 1;
	rr->regions[0].offset = 1 << 30;
	rr->regions[0].length = MiB;
	for (i = 0; i < 256; i++) {
		uint64_t ns = i < 250 ? 80000 : p99_ms * MS;
		unsigned g = 0;

		while (g < REREAD_GRID - 1 && ns >= reread_grid_ms[g] * MS)
			g++;
		latency_add(&rr->times, ns);
		rr->grid[g]++;
		if (ns > rr->regions[0].max_ns) {
			rr->regions[0].max_ns = ns;
			rr->regions[0].max_at = (1 << 30) + i * 4096;
		}
	}
	return d;
}

static void judge_all(struct record *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		reread_judge(r, &r->disks[i]);
}

/* Four like SSDs, the third far slower to re-read: it, returned. */
static struct record_disk *four_ssds(struct record *r)
{
	record_init(r, "burn", 0, NULL, &settings);
	disk(r, "SSD 960", 0, 2);
	disk(r, "SSD 960", 0, 3);
	disk(r, "SSD 960", 0, 40);
	disk(r, "SSD 960", 0, 2);
	/* record_add() moves the disks: one only once they are all in. */
	return &r->disks[2];
}

static void test_judge(void)
{
	struct pci_controller c = { .numa = -1 };
	struct record r;
	struct record_disk *d;
	struct reread *rr;
	int i;

	record_init(&r, "burn", 0, NULL, &settings);
	d = disk(&r, "HDD", 1, 2);
	rr = &d->rr;
	rr->grid[0] -= 3;
	rr->grid[REREAD_GRID - 1] = 3;
	rr->n = 3;
	rr->regions[1] = rr->regions[2] = rr->regions[0];
	rr->regions[0].max_ns = 612 * MS;
	rr->regions[0].max_at = 134217728;
	rr->regions[1].max_ns = 505 * MS;
	rr->regions[1].max_at = 201326592;
	rr->regions[2].max_ns = 490 * MS;
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_WARN &&
	       tap_has_reason(&d->j, "slow reads confirmed: 3 of 256 re-reads (4 KiB, "
		   "qd 1, alone) took 500 ms or more, the slowest 612 ms, at "
		   "bytes 134217728, 201326592 (a rotational disk WARNs at 500 "
		   "ms)"), "a rotational disk's reads of 500 ms or more WARN, "
	       "by offset, with figure and threshold");
	d->t.id.rotational = 0;
	memset(&d->j, 0, sizeof(d->j));
	judge_all(&r);
	tap_ok(!d->j.nreasons, "...an SSD alone is not judged on them");
	record_free(&r);

	d = four_ssds(&r);
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_WARN && r.disks[0].j.verdict == JUDGE_PASS &&
	       r.disks[1].j.verdict == JUDGE_PASS &&
	       tap_has_reason(&d->j, "slow re-reads for its kind: p99 40.00 ms, 13x the "
		   "3.00 ms median of 4 like SSDs (over 10x WARNs)"),
	       "an SSD with a p99 13x its like SSDs' median WARNs");
	record_free(&r);

	record_init(&r, "burn", 0, NULL, &settings);
	disk(&r, "SSD 960", 0, 2);
	disk(&r, "SSD 960", 0, 40);
	disk(&r, "SSD 960", 0, 2);
	d = &r.disks[1];
	r.disks[2].t.size /= 2;
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_PASS, "two like SSDs are too few (the "
	       "third is half the size)");
	record_free(&r);

	/* Like as peers.h groups them: firmware and controller too. */
	d = four_ssds(&r);
	snprintf(d->link.firmware, sizeof(d->link.firmware), "2B6Q");
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_PASS, "an SSD of other firmware is not "
	       "judged against the others");
	memset(&d->j, 0, sizeof(d->j));
	d->link.firmware[0] = 0;
	snprintf(c.pci, sizeof(c.pci), "0000:01:00.0");
	links_add_ctrl(&r.links, &c);
	snprintf(c.pci, sizeof(c.pci), "0000:02:00.0");
	links_add_ctrl(&r.links, &c);
	for (i = 0; i < r.n; i++)
		r.disks[i].link.ctrl = i == 2;
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_PASS, "...nor one on another controller");
	record_free(&r);

	record_init(&r, "burn", 0, NULL, &settings);
	disk(&r, "HDD", 1, 2);
	disk(&r, "HDD", 1, 2);
	d = &r.disks[0];
	d->rr.errors = 2;
	d->rr.regions[0].err = 5;
	d->rr.regions[0].err_at = 1073745920;
	r.disks[1].rr.state = REREAD_STALLED;
	snprintf(r.disks[1].rr.why, sizeof(r.disks[1].rr.why),
		 "a re-read at byte 4096 got no answer in 60 s");
	judge_all(&r);
	tap_ok(d->j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&d->j, "2 re-reads failed, the first at byte 1073745920: "),
	       "a re-read that fails FAILs, naming where");
	tap_ok(r.disks[1].j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.disks[1].j, "stalled: a re-read at byte 4096 got no "
		   "answer in 60 s"), "a stalled re-read FAILs");
	record_free(&r);
}

static void test_told(void)
{
	struct record r;
	struct record_disk *d;
	struct json j;
	char *doc, *text = NULL;
	size_t len;
	FILE *f;

	record_init(&r, "burn", 0, NULL, &settings);
	d = disk(&r, "HDD", 1, 200);
	d->snap.latency[PHASE_WRITE] = d->rr.times;
	d->snap.nslowest = 1;
	d->snap.slowest[0].offset = 1 << 30;
	d->snap.slowest[0].length = MiB;
	d->snap.slowest[0].ns = 700 * MS;
	d->snap.slowest[0].phase = PHASE_VERIFY;
	d->snap.slowest[0].pass = 1;
	json_init(&j);
	json_begin(&j, NULL);
	reread_json(&j, &d->snap, &d->rr);
	json_end(&j);
	doc = json_take(&j, &len);
	tap_ok(doc && strstr(doc, "\"latency\": {") &&
	       strstr(doc, "\"write\": {") && !strstr(doc, "\"verify\": {") &&
	       strstr(doc, "\"ms\": 700.000") &&
	       strstr(doc, "\"phase\": \"verify\"") &&
	       strstr(doc, "\"reread\": {") &&
	       strstr(doc, "\"under_5_ms\": 250") &&
	       strstr(doc, "\"under_500_ms\": 6") &&
	       strstr(doc, "\"from_500_ms\": 0") &&
	       strstr(doc, "\"max_at\": 1074765824"),
	       "result.json: latency by phase, the slowest requests, the "
	       "re-read's grid and regions");
	free(doc);
	f = open_memstream(&text, &len);
	reread_summary(f, &d->rr);
	fclose(f);
	tap_ok(text && !strcmp(text, "  re-read at qd 1: 250 <5 ms, 6 <500 "
			       "ms, the slowest 200 ms at byte 1074765824\n"),
	       "summary.txt: one line for a slow re-read");
	if (text && !strstr(text, "250 <5"))
		tap_diag("%s", text);
	free(text);
	text = NULL;
	d->rr.grid[4] = 0;
	f = open_memstream(&text, &len);
	reread_summary(f, &d->rr);
	fclose(f);
	tap_ok(text && !text[0], "...and none for a quick one");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	latency_summary(f, &d->snap);
	fclose(f);
	tap_ok(text && strstr(text, "  request times, write: p50 ") &&
	       strstr(text, " ms, p99 ") && strstr(text, " ms, p99.9 ") &&
	       strstr(text, " ms (256 requests)\n") &&
	       !strstr(text, "verify"),
	       "summary.txt: each phase's request times, p50 to the slowest");
	if (text && !strstr(text, "p99.9"))
		tap_diag("%s", text);
	free(text);
	record_free(&r);
}

int main(int argc, char **argv)
{
	int fd = mkstemp(path);
	char buf[4096];
	int i;

	tap_args(argc, argv);
	if (fd < 0)
		tap_bail("cannot make %s", path);
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < 1024; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			tap_bail("cannot write %s", path);
	close(fd);
	settings_defaults(&settings, SCOPE_BURN);
	TAP_RUN(test_run);
	TAP_RUN(test_judge);
	TAP_RUN(test_told);
	unlink(path);
	return tap_done();
}
