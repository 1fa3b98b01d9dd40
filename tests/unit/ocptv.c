/* SPDX-License-Identifier: MIT */
/*
 * Description: ocptv.jsonl from records made by hand, as burn.c would
 * leave them: a passing disk, a failing one (I/O errors, bad units, SMART
 * damage that rose), a warned one (an unstable second, old SMART damage),
 * a run interrupted, one still going, one with nothing to test, one whose
 * disks could not start, and one whose machine failed. The judge's own
 * functions give the verdicts, so a change of its words that would blur
 * the OCP verdict names fails here. With a folder as argument each run's
 * lines are also written there (NAME.jsonl), for tests/host/ocptv.t to
 * hold against the OCP schemas.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "discover/inventory.h"
#include "results/ocptv.h"
#include "results/ocptv_step.h"
#include "judge/record.h"
#include "judge/smartjudge.h"
#include "results/signal.h"

#define MB 1000000ull
#define SECONDS 30

static const char *outdir;
static char *argv_burn[] = { "burn", "--size", "16M", "/tmp/a b.img",
			     "--out", "/tmp/run" };

/* Throughput of disk i in second t (1..SECONDS): write, then verify. */
struct plan {
	double write, read;	/* MB/s */
	int dip;		/* a second of 1 MB/s in the write phase */
};

static struct monitor mon;
static const char *names[8];

static void start(struct record *r, struct settings *s)
{
	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 6, argv_burn, s);
	r->run_id = 0x0123456789abcdefull;
	r->started = 1767225600;	/* 2026-01-01T00:00:00Z */
	r->ended = r->started + SECONDS;
	r->elapsed_ns = SECONDS * 1000000000ull;
}

static struct record_disk *disk(struct record *r, const char *label,
				int state)
{
	struct record_disk *d = record_add(r, label, SETTINGS_WRITE_VERIFY);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", label);
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", label);
	snprintf(d->t.id.model, sizeof(d->t.id.model), "KILN TEST DISK");
	snprintf(d->t.id.serial, sizeof(d->t.id.serial), "SER-%s", label);
	snprintf(d->t.id.identity, sizeof(d->t.id.identity), "serial:SER-%s",
		 label);
	d->t.kind = TARGET_BLOCK;
	d->t.size = 16 << 20;
	d->ep.mode = ENGINE_WRITE_VERIFY;
	d->ep.ext[0].length = 16 << 20;
	d->ep.next = 1;
	d->ep.region = 16 << 20;
	d->snap.plan = d->ep;
	d->snap.c.state = state;
	d->snap.c.phase = PHASE_END;
	d->snap.c.pass = 1;
	return d;
}

/* Runs the monitor over the disks as a burn would, second by second. */
static void burn(struct record *r, const struct plan *p)
{
	struct engine_counters c[8] = { 0 };
	int i, t;

	for (i = 0; i < r->n; i++)
		names[i] = r->disks[i].label;
	if (monitor_init(&mon, names, r->n, NULL, 0))
		tap_bail("out of memory");
	for (t = 1; t <= SECONDS; t++) {
		for (i = 0; i < r->n; i++) {
			int w = t <= SECONDS / 2;
			double rate = w ? p[i].write : p[i].read;

			if (w && p[i].dip && t == 8)
				rate = 1;
			c[i].state = STATE_RUNNING;
			c[i].phase = w ? PHASE_WRITE : PHASE_VERIFY;
			if (w)
				c[i].bytes_written += (uint64_t)(rate * MB);
			else
				c[i].bytes_read += (uint64_t)(rate * MB);
		}
		monitor_sample(&mon, (uint64_t)t * 1000000000ull, c);
	}
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		struct engine_snap *s = &d->snap;

		d->mt = &mon.mt[i];
		s->c.bytes_written = c[i].bytes_written;
		s->c.bytes_read = c[i].bytes_read;
		s->phase_bytes[PHASE_WRITE] = c[i].bytes_written;
		s->phase_ns[PHASE_WRITE] = SECONDS / 2 * 1000000000ull;
		s->phase_bytes[PHASE_VERIFY] = c[i].bytes_read;
		s->phase_ns[PHASE_VERIFY] = SECONDS / 2 * 1000000000ull;
		s->phase_ns[PHASE_FLUSH] = 250000000ull;
		s->last_written = 1;
		s->last_reached = d->ep.region;
		s->region_writes = 1;
	}
}

/* The judge's verdicts, then the run's, as record_judge() makes them. */
static void judge(struct record *r, int final, int interrupted)
{
	int i;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		judge_target(&d->snap, d->mt, &d->j);
		judge_health(&smart_disk_of(d)->before.c,
			     final ? &smart_disk_of(d)->after.c : NULL, &d->j);
	}
	signals_judge(r, final, interrupted);
}

static void io_errors(struct record_disk *d)
{
	struct engine_snap *s = &d->snap;

	s->errors = calloc(2, sizeof(*s->errors));
	if (!s->errors)
		tap_bail("out of memory");
	s->errors[0] = (struct engine_error){ .phase = PHASE_WRITE, .pass = 1,
		.offset = 1 << 20, .length = 1 << 20, .err = 5, .count = 2 };
	s->errors[1] = (struct engine_error){ .phase = PHASE_VERIFY, .pass = 1,
		.offset = 8 << 20, .length = 4096, .err = 61, .count = 1 };
	s->nerrors = 2;
	s->c.io_errors = 3;
}

static void bad_units(struct record_disk *d)
{
	struct engine_snap *s = &d->snap;

	s->bad = calloc(1, sizeof(*s->bad));
	if (!s->bad)
		tap_bail("out of memory");
	s->bad[0].offset = 12288;
	s->bad[0].pass = 1;
	s->bad[0].retry = RETRY_SAME;
	s->bad[0].v.class = UNIT_BITFLIP;
	s->bad[0].v.nbits = 1;
	s->nbad = 1;
	s->bad_by_class[UNIT_BITFLIP] = 1;
	s->bad_by_class[UNIT_ZEROED] = 1;
	s->c.bad_units = 2;
}

static void smart(struct smart_counters *h, long long realloc,
		  long long pending)
{
	h->have = 1;
	h->passed = 1;
	h->realloc = realloc;
	h->pending = pending;
	h->uncorrectable = h->crc_errors = h->media_errors = -1;
	h->critical_warning = h->grown_defects = -1;
}

static char *doc;
static size_t doclen;

/* Makes the run's lines and checks they are lines of objects, in order. */
static void lines(const struct record *r, const char *name)
{
	const char *p, *nl;
	unsigned long long want = 0;
	int ok = 1;

	free(doc);
	doc = ocptv_jsonl(r, &doclen);
	if (!tap_ok(doc && doclen == strlen(doc), "%s: the lines are made",
		    name))
		tap_bail("no document");
	for (p = doc; *p && ok; p = nl + 1) {
		const char *seq;

		nl = strchr(p, '\n');
		ok = nl && *p == '{' && nl[-1] == '}';
		seq = ok ? strstr(p, "\"sequenceNumber\":") : NULL;
		ok = seq && seq < nl &&
		     strtoull(seq + 17, NULL, 10) == want++;
	}
	tap_ok(ok && doclen && doc[doclen - 1] == '\n',
	       "%s: one object a line, sequence numbers 0..%llu in order",
	       name, want - 1);
	tap_ok(!strncmp(doc, "{\"schemaVersion\":{\"major\":2,\"minor\":0}", 38),
	       "%s: the schema version comes first", name);
	if (outdir) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.jsonl", outdir, name);
		f = fopen(path, "w");
		if (!f || fwrite(doc, 1, doclen, f) != doclen || fclose(f))
			tap_bail("cannot write %s", path);
	}
}

static int has(const char *text)
{
	return doc && strstr(doc, text) != NULL;
}

static int count(const char *text)
{
	const char *p = doc;
	int n = 0;

	while (p && (p = strstr(p, text)) != NULL) {
		n++;
		p += strlen(text);
	}
	return n;
}

/* The line holding text (a copy), for checks within one artifact. */
static char line[65536];
static const char *line_with(const char *text)
{
	const char *p = doc ? strstr(doc, text) : NULL, *b, *e;

	line[0] = 0;
	if (!p)
		return line;
	for (b = p; b > doc && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(e - b), b);
	return line;
}

static void test_points(void)
{
	const float v[] = { 1, 2, 3, 4, 5 }, w[] = { 2, 4 };
	static float full[MONITOR_POINTS];
	static struct ocptv_point pts[MONITOR_POINTS + 1];
	unsigned n, i;

	n = ocptv_points(v, 5, 2, 12, 2, 3, pts);
	tap_ok(n == 3 && pts[0].mbps == 1.5 && pts[0].end == 4 &&
	       pts[1].mbps == 3.5 && pts[2].mbps == 5.5 && pts[2].end == 12 &&
	       pts[2].secs == 4,
	       "points: six become three, pairs averaged (the last point too)");
	n = ocptv_points(v, 5, 2, 12, 2, 2, pts);
	tap_ok(n == 2 && pts[0].mbps == 2.5 && pts[0].end == 8 &&
	       pts[0].secs == 8 && pts[1].mbps == 5.5 && pts[1].end == 12,
	       "points: an odd one out stays alone");
	n = ocptv_points(w, 2, 2, 10, 1, 1, pts);
	tap_ok(n == 1 && pts[0].mbps > 4.39 && pts[0].mbps < 4.41 &&
	       pts[0].end == 5 && pts[0].secs == 5,
	       "points: merged by the seconds each covers (%.2f)",
	       n ? pts[0].mbps : 0);
	for (i = 0; i < MONITOR_POINTS; i++)
		full[i] = (float)i;
	n = ocptv_points(full, MONITOR_POINTS, 8, 3, 1, OCPTV_MAX_POINTS, pts);
	tap_ok(n == MONITOR_POINTS + 1 && pts[n - 1].end == MONITOR_POINTS * 8 + 1,
	       "points: a full monitor series fits whole (%u points)", n);
}

/* A passing, a failing and a warned disk in one run. */
static void test_mixed(void)
{
	const struct plan p[] = { { 200, 300, 0 }, { 190, 290, 0 },
				  { 195, 310, 1 } };
	struct record_disk *bad, *warn;
	struct settings s;
	struct record r;

	start(&r, &s);
	/* record_add() moves the disks: pointers are taken after. */
	disk(&r, "sda", STATE_DONE);
	disk(&r, "sdb", STATE_DONE);
	disk(&r, "sdc", STATE_DONE);
	bad = &r.disks[1];
	warn = &r.disks[2];
	burn(&r, p);
	io_errors(bad);
	bad_units(bad);
	smart(&smart_disk_make(bad)->before.c, 0, 0);
	smart(&smart_disk_make(bad)->after.c, 8, 0);
	smart(&smart_disk_make(warn)->before.c, 0, 2);
	smart(&smart_disk_make(warn)->after.c, 0, 2);
	record_note(&r, "a note with \"quotes\"\nand a second line");
	judge(&r, 1, 0);
	lines(&r, "mixed");

	tap_ok(count("\"hardwareInfoId\":\"") > 3 &&
	       has("{\"hardwareInfoId\":\"1\",\"name\":\"sda\",\"partType\":"
		   "\"disk\",\"serialNumber\":\"SER-sda\","
		   "\"manufacturerPartNumber\":\"KILN TEST DISK\","
		   "\"location\":\"sda\"}") &&
	       has("\"hardwareInfoId\":\"3\",\"name\":\"sdc\""),
	       "mixed: dutInfo names every disk");
	tap_ok(has("\"commandLine\":\"kiln burn --size 16M '/tmp/a b.img' "
		   "--out /tmp/run\"") && has("\"run_id\":\"0123456789abcdef\""),
	       "mixed: the command line, quoted, and the run id");
	tap_ok(has("\"message\":\"a note with \\\"quotes\\\"\\nand a second "
		   "line\""), "mixed: a note is a log, escaped on its line");
	tap_ok(count("\"testStepStart\"") == 4 &&
	       has("\"testStepId\":\"2\",\"testStepStart\":{\"name\":"
		   "\"burn-in sdc\"}") &&
	       has("\"testStepId\":\"3\",\"testStepStart\":{\"name\":"
		   "\"machine\"}"), "mixed: a step per disk, then the machine");
	tap_ok(count("\"measurementSeriesStart\"") == 6 &&
	       count("\"measurementSeriesElement\"") == 6 * SECONDS &&
	       count("\"totalCount\":30") == 6,
	       "mixed: write and read series of every second of every disk");
	tap_ok(has("\"measurementSeriesElement\":{\"index\":0,\"value\":200.000,"
		   "\"timestamp\":\"2026-01-01T00:00:01.000Z\""),
	       "mixed: a point is stamped at the end of its second");
	tap_ok(has("\"diagnosis\":{\"verdict\":\"disk-pass\",\"type\":\"PASS\","
		   "\"message\":\"no I/O errors, no bad units\","
		   "\"hardwareInfoId\":\"1\"}"), "mixed: PASS is a PASS diagnosis");
	tap_ok(has("\"verdict\":\"disk-fail-io-errors\",\"type\":\"FAIL\",") &&
	       strstr(line_with("disk-fail-io-errors"), "2 bad units") &&
	       strstr(line, "SMART reallocated sectors rose from 0 to 8"),
	       "mixed: FAIL is a FAIL diagnosis, named by its first reason, "
	       "with every reason");
	tap_ok(has("\"verdict\":\"disk-warn-unstable-write\",\"type\":\"PASS\"") &&
	       strstr(line_with("disk-warn-unstable-write"),
		      "SMART pending sectors is 2 (from before the run)") &&
	       has("\"log\":{\"severity\":\"WARNING\",\"message\":\"sdc: WARN: "
		   "unstable write"),
	       "mixed: WARN is a PASS diagnosis naming the warning, and a "
	       "WARNING log");
	tap_ok(count("\"error\":{\"symptom\":\"io-error\"") == 2 &&
	       has("\"message\":\"sdb: write of pass 1 at byte 1048576 "
		   "(+1048576), 2 requests: Input/output error\""),
	       "mixed: an error artifact for each range of I/O errors");
	tap_ok(strstr(line_with("\"name\":\"io-errors\""), "\"value\":0,") &&
	       strstr(line, "\"validators\":[{\"name\":\"FAIL: any I/O error\","
		      "\"type\":\"EQUAL\",\"value\":0}]") &&
	       has("\"name\":\"io-errors\",\"unit\":\"requests\","
		   "\"hardwareInfoId\":\"2\",\"value\":3,"),
	       "mixed: I/O errors are counted against the judge's zero");
	tap_ok(strstr(line_with("\"name\":\"bad-units\",\"unit\":\"units\","
				"\"hardwareInfoId\":\"2\""), "\"value\":2,") &&
	       strstr(line, "\"bitflip\":1") && strstr(line, "\"zeroed\":1") &&
	       strstr(line, "\"type\":\"EQUAL\",\"value\":0"),
	       "mixed: bad units, by class, against the judge's zero");
	tap_ok(strstr(line_with("\"name\":\"smart-reallocated-sectors\","
				"\"hardwareInfoId\":\"2\""), "\"value\":8,") &&
	       strstr(line, "\"type\":\"LESS_THAN_OR_EQUAL\",\"value\":0"),
	       "mixed: a SMART counter against its value before the run");
	line_with("\"name\":\"write-throughput-slowest-second\","
		  "\"unit\":\"MB/s\",\"hardwareInfoId\":\"3\"");
	tap_ok(strstr(line, "\"value\":1.000,") &&
	       strstr(line, "\"GREATER_THAN_OR_EQUAL\",\"value\":36.413"),
	       "mixed: the slowest second against a fifth of the average");
	tap_ok(count("\"testStepEnd\":{\"status\":\"COMPLETE\"}") == 4 &&
	       has("\"testRunEnd\":{\"status\":\"COMPLETE\",\"result\":\"FAIL\"}"),
	       "mixed: a disk failed: COMPLETE, FAIL");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

static void test_pass_warn(void)
{
	const struct plan p[] = { { 100, 100, 1 } };
	struct settings s;
	struct record r;

	start(&r, &s);
	disk(&r, "nvme0n1", STATE_DONE);
	burn(&r, p);
	judge(&r, 1, 0);
	lines(&r, "warned");
	tap_ok(has("\"verdict\":\"disk-warn-unstable-write\",\"type\":\"PASS\"") &&
	       has("\"testRunEnd\":{\"status\":\"COMPLETE\",\"result\":\"PASS\"}"),
	       "warned: a run with only warnings is COMPLETE, PASS");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

/*
 * Every disk dipped in the same second: the machine's (judge/dips.c). No
 * disk's verdict is unstable, and the judge's rule is held to each disk's
 * own slowest second, said beside its slowest.
 */
static void test_shared_dip(void)
{
	const struct plan p[] = { { 100, 100, 1 }, { 100, 100, 1 },
				  { 100, 100, 1 } };
	struct settings s;
	struct record r;

	start(&r, &s);
	disk(&r, "sda", STATE_DONE);
	disk(&r, "sdb", STATE_DONE);
	disk(&r, "sdc", STATE_DONE);
	burn(&r, p);
	judge(&r, 1, 0);
	lines(&r, "shared");
	tap_ok(!has("disk-warn-unstable-write") &&
	       has("\"testRunEnd\":{\"status\":\"COMPLETE\",\"result\":\"PASS\"}"),
	       "shared: a dip every disk shared WARNs none");
	line_with("\"name\":\"write-throughput-slowest-second\","
		  "\"unit\":\"MB/s\",\"hardwareInfoId\":\"1\"");
	tap_ok(strstr(line, "\"value\":1.000") &&
	       !strstr(line, "GREATER_THAN_OR_EQUAL"),
	       "shared: its slowest second is said, not held to the rule");
	line_with("\"name\":\"write-throughput-slowest-own-second\","
		  "\"unit\":\"MB/s\",\"hardwareInfoId\":\"1\"");
	tap_ok(strstr(line, "\"value\":100.000") &&
	       strstr(line, "GREATER_THAN_OR_EQUAL"),
	       "shared: its own slowest second is");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

static void test_interrupted(void)
{
	const struct plan p[] = { { 100, 100, 0 }, { 100, 100, 0 },
				  { 100, 100, 0 } };
	struct record_disk *a, *b, *c;
	struct settings s;
	struct record r;

	start(&r, &s);
	disk(&r, "sda", STATE_STOPPED);
	disk(&r, "sdb", STATE_DONE);
	disk(&r, "sdc", STATE_STOPPED);
	a = &r.disks[0];
	b = &r.disks[1];
	c = &r.disks[2];
	burn(&r, p);
	snprintf(a->snap.why, sizeof(a->snap.why), "interrupted");
	snprintf(c->snap.why, sizeof(c->snap.why), "interrupted");
	bad_units(b);
	io_errors(c);
	judge(&r, 1, 1);
	lines(&r, "interrupted");
	tap_ok(r.state == RECORD_INTERRUPTED,
	       "interrupted: the record says so");
	tap_ok(has("\"verdict\":\"disk-warn-stopped-before-the-end\","
		   "\"type\":\"PASS\"") &&
	       has("\"verdict\":\"disk-fail-bad-units\",\"type\":\"FAIL\"") &&
	       has("\"verdict\":\"disk-fail-io-errors\",\"type\":\"FAIL\""),
	       "interrupted: a stopped disk warns, unless it failed first");
	tap_ok(count("\"testStepEnd\":{\"status\":\"SKIP\"}") == 3 &&
	       count("\"testStepEnd\":{\"status\":\"COMPLETE\"}") == 1,
	       "interrupted: stopped disks' steps, and the machine's, are "
	       "SKIP");
	tap_ok(has("\"severity\":\"WARNING\",\"message\":\"interrupted before "
		   "the end; 2 of 3 disks had failed by then\"") &&
	       has("\"testRunEnd\":{\"status\":\"SKIP\",\"result\":"
		   "\"NOT_APPLICABLE\"}"),
	       "interrupted: SKIP, NOT_APPLICABLE, and a log of what failed");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

static void test_running(void)
{
	const struct plan p[] = { { 100, 100, 0 } };
	struct settings s;
	struct record r;

	start(&r, &s);
	disk(&r, "sda", STATE_RUNNING);
	burn(&r, p);
	r.ended = 0;
	judge(&r, 0, 0);
	lines(&r, "running");
	tap_ok(has("\"testStepStart\"") && has("\"measurementSeriesEnd\"") &&
	       !has("\"diagnosis\"") && !has("\"testStepEnd\"") &&
	       !has("\"testRunEnd\""),
	       "running: measured so far, with no verdict and no end");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

static void test_nothing(void)
{
	struct settings s;
	struct record r;

	start(&r, &s);
	r.started = 0;
	judge(&r, 1, 0);
	lines(&r, "nothing");
	tap_ok(!has("\"testStep") && has("\"message\":\"nothing was tested\"") &&
	       has("\"testRunEnd\":{\"status\":\"SKIP\",\"result\":"
		   "\"NOT_APPLICABLE\"}"),
	       "nothing: nothing to test is SKIP, NOT_APPLICABLE");
	record_free(&r);
	settings_free(&s);
}

static void test_broken(void)
{
	struct record_disk *d;
	struct settings s;
	struct record r;

	start(&r, &s);
	d = disk(&r, "sda", STATE_BROKEN);
	snprintf(d->snap.why, sizeof(d->snap.why), "cannot make a ring: "
		 "Cannot allocate memory");
	judge(&r, 1, 0);
	lines(&r, "broken");
	tap_ok(has("\"error\":{\"symptom\":\"disk-not-tested\",\"message\":"
		   "\"sda: could not be tested: cannot make a ring") &&
	       has("\"testStepEnd\":{\"status\":\"ERROR\"}") &&
	       has("\"verdict\":\"disk-fail-could-not-be-tested\"") &&
	       !has("\"measurementSeriesStart\"") &&
	       has("\"testRunEnd\":{\"status\":\"ERROR\",\"result\":"
		   "\"NOT_APPLICABLE\"}"),
	       "broken: no disk could start: ERROR, NOT_APPLICABLE");
	record_free(&r);
	settings_free(&s);
}

/* The machine, from the inventory kiln run keeps; a disk missing. */
static void test_machine(void)
{
	const struct plan p[] = { { 100, 100, 0 } };
	struct discover_inventory inv;
	struct settings s;
	struct record r;

	memset(&inv, 0, sizeof(inv));
	snprintf(inv.sys.vendor, sizeof(inv.sys.vendor), "Quanta \"QCT\" \\");
	snprintf(inv.sys.product, sizeof(inv.sys.product), "D52B-1U");
	snprintf(inv.sys.serial, sizeof(inv.sys.serial), "QTF\xe9"
		 "123");
	snprintf(inv.sys.machine_id, sizeof(inv.sys.machine_id), "QTF123");
	start(&r, &s);
	r.command = "run";
	r.inventory = inventory_json(&inv, &r.inventory_len);
	disk(&r, "sda", STATE_DONE);
	burn(&r, p);
	/* Three verifies, all whole: three passes made. */
	r.disks[0].snap.totals[PHASE_VERIFY].passes = 3;
	snprintf(r.failure, sizeof(r.failure), "1 disk found, 2 expected "
		 "(expect-disks): a disk is missing");
	judge(&r, 1, 0);
	lines(&r, "machine");
	tap_ok(strstr(line_with("\"name\":\"passes-made\",\"unit\":\"passes\","
				"\"hardwareInfoId\":\"1\""), "\"value\":3}") &&
	       strstr(line_with("\"name\":\"passes-made\",\"unit\":\"passes\","
				"\"hardwareInfoId\":\"0\""), "\"value\":3}") &&
	       strstr(line_with("\"name\":\"bytes-written\",\"unit\":\"bytes\","
				"\"hardwareInfoId\":\"0\""),
		      "\"value\":1500000000}") &&
	       strstr(line_with("\"name\":\"bytes-read\",\"unit\":\"bytes\","
				"\"hardwareInfoId\":\"0\""),
		      "\"value\":1500000000}"),
	       "machine: passes made and bytes, the disk's and the machine's");
	tap_ok(has("\"dutInfoId\":\"QTF123\",\"name\":\"QTF123\","
		   "\"platformInfos\":[{\"info\":\"Quanta \\\"QCT\\\" \\\\x5c "
		   "D52B-1U\"}]") &&
	       has("{\"hardwareInfoId\":\"0\",\"name\":\"Quanta \\\"QCT\\\" "
		   "\\\\x5c D52B-1U\",\"partType\":\"system\",\"serialNumber\":"
		   "\"QTF\\\\xe9123\",\"manufacturerPartNumber\":\"D52B-1U\","
		   "\"manufacturer\":\"Quanta \\\"QCT\\\" \\\\x5c\","
		   "\"computerSystem\":\"QTF123\"}") &&
	       has("\"location\":\"sda\",\"computerSystem\":\"QTF123\"}"),
	       "machine: dutInfo and the machine from the inventory");
	tap_ok(has("\"testStepId\":\"1\",\"testStepStart\":{\"name\":"
		   "\"machine\"}") &&
	       has("\"diagnosis\":{\"verdict\":\"machine-fail\",\"type\":"
		   "\"FAIL\",\"message\":\"1 disk found, 2 expected "
		   "(expect-disks): a disk is missing\",\"hardwareInfoId\":"
		   "\"0\"}") &&
	       has("\"testRunEnd\":{\"status\":\"COMPLETE\",\"result\":"
		   "\"FAIL\"}"),
	       "machine: a disk missing fails the machine: COMPLETE, FAIL");
	record_free(&r);
	monitor_free(&mon);
	settings_free(&s);
}

int main(int argc, char **argv)
{
	outdir = argc > 1 ? argv[1] : NULL;
	test_points();
	test_mixed();
	test_pass_warn();
	test_shared_dip();
	test_interrupted();
	test_running();
	test_nothing();
	test_broken();
	test_machine();
	free(doc);
	return tap_done();
}
