/* SPDX-License-Identifier: MIT */
/*
 * Description: every reader reads the largest record any writer writes.
 * The engine keeps a phase's first, last and worst runs only (fed tens of
 * thousands of runs, it holds ENGINE_PASSES_KEPT at most, the totals count
 * all, and the worst run is among those kept). A target made as large as
 * kiln can make one (every list full: passes, errors and bad units at the
 * run's detail cap, zones, the slowest requests, its temperature series,
 * its NVMe logs with every error log entry new,
 * reasons; every string at its longest and of bytes that escape widest)
 * is written, and its cost in bytes and values, times the most targets a
 * run takes (RESULT_MAX_TARGETS), plus the run's own part and the
 * checkpoint's wrapping, is under every reader's limit: by arithmetic,
 * since each target's part of the document is its own. A record of a few
 * such targets is read back by each reader: result_load() (verify
 * --from), restore_record() (kiln finish), fleet_read_run() (kiln fleet).
 * A 12-hour soak of 60 disks at the defaults, whatever its span, is under
 * 8 MB the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "engine/engine_private.h"
#include "fleet/fleet.h"
#include "results/folder.h"
#include "base/jsonread.h"
#include "base/jsonread_tree.h"
#include "judge/nvmejudge.h"
#include "judge/record.h"
#include "results/restore.h"
#include "results/result.h"

#define MSEC 1000000ull

static char top[64];

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		tap_bail("out of memory");
	return p;
}

/* 1: strings as real disks have them, not at their longest. */
static int plain;

/* A string field at its longest, of a byte JSON writes as 6. */
static void longest(char *s, size_t size)
{
	if (plain) {
		snprintf(s, size, "%.*s", (int)size - 1,
			 "a string of a usual length, 40 bytes or so");
		return;
	}
	memset(s, 0x01, size - 1);
	s[size - 1] = 0;
}

/* The engine, fed many runs: bounded, totals whole, the worst kept. */
static void test_engine(void)
{
	struct engine_target *et = zalloc(1, sizeof(*et));
	uint64_t bytes = 0, runs = 40000, i;
	unsigned k, max = 0, nw = 0;
	int worst_kept = 0, first_kept = 1, last_kept = 0, order = 1;

	pthread_mutex_init(&et->lock, NULL);
	for (i = 1; i <= runs; i++) {
		struct engine_pass w = { (uint32_t)i, PHASE_WRITE, 4096,
					 100000, 4096, 1, 0, 0, 0 };
		struct engine_pass f = { (uint32_t)i, PHASE_FLUSH, 0,
					 20000, 4096, 1, 0, 0, 0 };

		/* Run 20000 is the slowest write, 30000 met an error. */
		if (i == 20000)
			w.ns = 900000;
		if (i == 30000)
			w.errors = 1;
		if (i == 25000)
			f.ns = 5000000;
		bytes += w.bytes;
		engine_pass_add(et, &w);
		engine_pass_add(et, &f);
		if (et->npasses > max)
			max = et->npasses;
	}
	for (k = 0; k < et->npasses; k++) {
		const struct engine_pass *p = &et->passes[k];

		if (k && p->seq < et->passes[k - 1].seq &&
		    p->phase == et->passes[k - 1].phase)
			order = 0;
		if (p->phase != PHASE_WRITE)
			continue;
		nw++;
		if (p->pass == 20000 || p->pass == 30000)
			worst_kept++;
		if (p->pass == runs)
			last_kept = 1;
	}
	for (k = 0; k < ENGINE_PASS_EDGE; k++)
		if (et->passes[2 * k].seq != k + 1)
			first_kept = 0;
	tap_ok(max <= ENGINE_PASSES_KEPT + 1 &&
	       et->npasses == 2 * (2 * ENGINE_PASS_EDGE + ENGINE_PASS_WORST),
	       "%llu runs of two phases: %u kept, at most %u at any time",
	       (unsigned long long)(2 * runs), et->npasses, max);
	tap_ok(et->totals[PHASE_WRITE].passes == runs &&
	       et->totals[PHASE_WRITE].bytes == bytes &&
	       et->totals[PHASE_WRITE].errors == 1 &&
	       et->totals[PHASE_FLUSH].passes == runs &&
	       et->folded == 2 * runs - et->npasses,
	       "the totals count every run; the folded ones are counted");
	tap_ok(nw == 24 && first_kept && last_kept && order,
	       "a phase keeps its first 8 and last 8 runs, in order");
	tap_ok(worst_kept == 2, "the slowest write and the one with an "
	       "error are among the worst kept");
	for (k = 0; k < et->npasses; k++)
		if (et->passes[k].pass == 25000 &&
		    et->passes[k].phase == PHASE_FLUSH)
			break;
	tap_ok(k < et->npasses, "the longest flush is kept");
	free(et->passes);
	pthread_mutex_destroy(&et->lock);
	free(et);
}

/* A target as large as kiln writes one, at detail errors and bad units. */
/* An NVMe drive's logs, every one full: all 64 entries new after. */
static void big_nvme(struct nvmelog *l, int after)
{
	int k;

	l->asked = 1;
	longest(l->dev, sizeof(l->dev));
	longest(l->why, sizeof(l->why));
	l->id.have = l->h.have = l->ocp.have = 1;
	longest(l->id.model, sizeof(l->id.model));
	longest(l->id.serial, sizeof(l->id.serial));
	longest(l->id.firmware, sizeof(l->id.firmware));
	l->id.error_entries = 256;
	l->h.error_entries = after ? INT64_MAX : 0;
	l->h.data_read = l->h.data_written = l->h.power_on_hours = INT64_MAX;
	l->h.media_errors = l->h.unsafe_shutdowns = INT64_MAX;
	l->ocp.bad_user_nand = l->ocp.pcie_correctable = INT64_MAX;
	/* A healthy soak logs nothing new: the newest entry is old. */
	if (plain) {
		l->h.error_entries = 1;
		l->nerrors = 1;
		l->errors[0].count = 1;
		return;
	}
	l->nerrors = NVMELOG_ERRORS;
	for (k = 0; k < NVMELOG_ERRORS; k++) {
		l->errors[k].count = UINT64_MAX - (uint64_t)k;
		l->errors[k].lba = UINT64_MAX;
		l->errors[k].nsid = UINT32_MAX;
		l->errors[k].sqid = l->errors[k].cmdid = UINT16_MAX;
		l->errors[k].status = 0x7fff;
	}
}

static void big_disk(struct record_disk *d, unsigned detail, int i)
{
	struct nvme_disk *nv;
	struct engine_snap *s = &d->snap;
	struct target *t = &d->t;
	unsigned k, z;

	snprintf(d->label, sizeof(d->label), "d%d", i);
	memset(d->label + strlen(d->label), 'x',
	       sizeof(d->label) - 1 - strlen(d->label));
	d->label[sizeof(d->label) - 1] = 0;
	t->kind = TARGET_BLOCK;
	longest(t->id.name, sizeof(t->id.name));
	longest(t->id.identity, sizeof(t->id.identity));
	t->id.identity[0] = (char)('A' + i % 26);
	t->id.identity[1] = (char)('A' + i / 26 % 26);
	t->id.identity[2] = (char)('A' + i / 676 % 26);
	longest(t->id.model, sizeof(t->id.model));
	longest(t->id.serial, sizeof(t->id.serial));
	longest(t->id.wwid, sizeof(t->id.wwid));
	longest(t->id.backing, sizeof(t->id.backing));
	longest(t->safety.why, sizeof(t->safety.why));
	longest(t->safety.partitions, sizeof(t->safety.partitions));
	t->id.rotational = 1;
	t->size = UINT64_MAX / 2;
	t->lbs = 512;
	t->pbs = 4096;
	d->plan.action = PLAN_WRITE;
	d->plan.why = "blank: written";
	d->ep.mode = ENGINE_WRITE_VERIFY;
	for (k = 0; k < ENGINE_MAX_EXTENTS; k++) {
		d->ep.ext[k].offset = (uint64_t)k << 50;
		d->ep.ext[k].length = 1ull << 45;
	}
	d->ep.next = ENGINE_MAX_EXTENTS;
	d->ep.region = (uint64_t)ENGINE_MAX_EXTENTS << 45;
	d->ep.write_passes = 1000000;
	s->plan = d->ep;
	s->c.state = STATE_STALLED;
	longest(s->why, sizeof(s->why));
	s->c.bytes_written = s->c.bytes_read = UINT64_MAX / 3;
	s->c.io_errors = s->c.bad_units = UINT32_MAX;
	/* Some read back good: the run's blame lists every disk. */
	s->bad_transient = UINT32_MAX / 2;
	s->last_written = s->verified_pass = UINT32_MAX;
	s->region_writes = UINT32_MAX;

	s->passes = zalloc(ENGINE_PASSES_KEPT, sizeof(*s->passes));
	for (k = 0; k < ENGINE_PASSES_KEPT; k++) {
		struct engine_pass *p = &s->passes[s->npasses++];

		p->pass = UINT32_MAX - k;
		p->phase = PHASE_WRITE + k % 4;
		p->bytes = p->reached = UINT64_MAX / 7;
		p->ns = 123456789123456789ull;
		p->errors = p->bad_units = UINT32_MAX;
		p->seq = UINT64_MAX / 5;
		if (plain) {	/* a 12 h soak of a 16 TB disk */
			p->pass = 1000 + k;
			p->bytes = p->reached = 16000000000000ull;
			p->ns = 43200 * 1000 * MSEC;
			p->errors = p->bad_units = 0;
			p->seq = 1000 + k;
		}
	}
	s->folded = UINT64_MAX / 11;
	for (k = PHASE_WRITE; k < PHASE_END; k++) {
		s->totals[k].passes = s->totals[k].errors = UINT64_MAX / 9;
		s->totals[k].bad_units = UINT64_MAX / 9;
		s->totals[k].bytes = s->phase_bytes[k] = UINT64_MAX / 13;
		s->totals[k].ns = s->phase_ns[k] = 123456789123456789ull;
	}
	s->errors = zalloc(detail, sizeof(*s->errors));
	for (k = 0; k < detail; k++) {
		struct engine_error *e = &s->errors[s->nerrors++];

		e->phase = PHASE_VERIFY;
		e->pass = UINT32_MAX;
		e->offset = e->length = UINT64_MAX / 3;
		e->err = EHOSTUNREACH;	/* among the longest strerror() */
		e->count = UINT32_MAX;
	}
	s->bad = zalloc(detail, sizeof(*s->bad));
	for (k = 0; k < detail; k++) {
		struct engine_bad *b = &s->bad[s->nbad++];

		b->offset = UINT64_MAX / 3;
		b->pass = UINT32_MAX;
		b->retry = RETRY_CHANGED;
		b->v.class = UNIT_BITFLIP;
		b->v.nbits = UINT32_MAX;
		for (z = 0; z < UNIT_MAX_BITS; z++)
			b->v.bits[z] = 32767;
		b->v.sectors_bad = UINT32_MAX;
		b->v.found_valid = 1;
		b->v.found.run_id = b->v.found.ident = UINT64_MAX;
		b->v.found.offset = UINT64_MAX / 3;
		b->v.found.pass = UINT32_MAX;
	}
	s->zones = zalloc(ENGINE_ZONE_PHASES, sizeof(*s->zones));
	for (k = 0; k < ENGINE_ZONE_PHASES; k++) {
		struct engine_zones *ez = &s->zones[s->nzones++];

		ez->pass = UINT32_MAX;
		ez->phase = PHASE_WRITE + k % 2;
		ez->ended = 1;
		/* Uneven, so every zone's rate has all its digits. */
		for (z = 0; z < ENGINE_ZONES; z++) {
			ez->bytes[z] = 1000000007ull * (z + 1);
			ez->ns[z] = 3 * MSEC + z * 7919;
		}
	}
	for (k = 0; k < ENGINE_SLOWEST; k++) {
		s->slowest[k].offset = s->slowest[k].length = UINT64_MAX / 3;
		s->slowest[k].ns = UINT64_MAX / 3;
		s->slowest[k].phase = PHASE_WRITE;
		s->slowest[k].pass = UINT32_MAX;
	}
	s->nslowest = ENGINE_SLOWEST;
	for (k = 0; k < JUDGE_MAX_REASONS; k++)
		longest(d->j.reasons[k], sizeof(d->j.reasons[k]));
	d->j.nreasons = JUDGE_MAX_REASONS;
	d->j.verdict = JUDGE_FAIL;
	longest(d->failed, sizeof(d->failed));
	d->sig.series = zalloc(VITALS_POINTS, sizeof(*d->sig.series));
	for (k = 0; k < VITALS_POINTS; k++) {
		d->sig.series[k].t = plain ? k * 22 : UINT32_MAX - k;
		d->sig.series[k].c = plain ? 45 : -32000;
	}
	d->sig.nseries = VITALS_POINTS;
	d->sig.nkept = VITALS_KEPT;
	for (k = 0; k < VITALS_KEPT; k++)
		longest(d->sig.kept[k], sizeof(d->sig.kept[k]));
	longest(d->sig.error, sizeof(d->sig.error));
	longest(d->rr.why, sizeof(d->rr.why));
	nv = nvme_disk_make(d);
	if (!nv)
		tap_bail("out of memory");
	big_nvme(&nv->before, 0);
	big_nvme(&nv->after, 1);
	longest(nv->telemetry, sizeof(nv->telemetry));
	nv->telemetry_len = SIZE_MAX;
}

/* Notes a run may hold: 8 a target at most, each a path and some words. */
#define NOTES_A_TARGET 8
#define NOTE_LEN (PATH_MAX + 256)

static void make_record(struct record *r, struct settings *s, int n,
			unsigned detail, int notes, char *path)
{
	static const char *const argv_[] = { "kiln", "burn" };
	char note[NOTE_LEN];
	int i;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 2, (char **)argv_, s);
	r->run_id = 0x0123456789abcdefull;
	r->started = 1764500000;
	r->ended = r->started + 43200;
	r->elapsed_ns = 43200000 * MSEC;
	r->state = RECORD_COMPLETE;
	longest(note, sizeof(note));
	for (i = 0; i < n; i++) {
		struct record_disk *d = record_add(r, path,
						   SETTINGS_WRITE_VERIFY);

		if (!d)
			tap_bail("out of memory");
		big_disk(d, detail, i);
	}
	for (i = 0; i < notes; i++)
		record_note(r, "%s", note);
}

/* Bytes and values of a record's document. */
static void measure(const struct record *r, size_t *bytes, size_t *nodes)
{
	struct jsonread *doc = NULL;
	char err[200] = "";
	struct jsonread_limits lim = { SIZE_MAX / 4, SIZE_MAX / 4, 0 };
	char *text = result_json(r, bytes);

	if (!text)
		tap_bail("out of memory");
	if (jsonread_parse(&doc, text, *bytes, &lim, err, sizeof(err)))
		tap_bail("the record does not parse: %s", err);
	*nodes = doc->count;
	jsonread_free(doc);
	free(text);
}

static void free_record(struct record *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		free(r->disks[i].sig.series), r->disks[i].sig.series = NULL;
	record_free(r);
}

/* The cost of one target, and of the run without targets. */
static void cost(unsigned detail, int notes_each, size_t *tb, size_t *tn,
		 size_t *fb, size_t *fn, char *path)
{
	struct settings s;
	struct record r;
	size_t b1, n1, b2, n2;

	make_record(&r, &s, 1, detail, notes_each, path);
	measure(&r, &b1, &n1);
	free_record(&r);
	make_record(&r, &s, 2, detail, 2 * notes_each, path);
	measure(&r, &b2, &n2);
	free_record(&r);
	*tb = b2 - b1;
	*tn = n2 - n1;
	*fb = b1 - *tb;
	*fn = n1 - *tn;
}

/* Room for the checkpoint's head line and wrapping (folder.c). */
#define CHECKPOINT_EXTRA 256

static void test_bound(char *path)
{
	size_t tb, tn, fb, fn, bytes, nodes, dbytes, dnodes;
	unsigned detail = result_max_detail(100000, 1);
	size_t t = RESULT_MAX_TARGETS;

	/* The most detail: one target holds the run's whole budget. */
	cost(0, NOTES_A_TARGET, &tb, &tn, &fb, &fn, path);
	{
		size_t b0, n0, bd, nd, x, y;

		cost(detail, NOTES_A_TARGET, &bd, &nd, &x, &y, path);
		b0 = tb;
		n0 = tn;
		dbytes = bd - b0;
		dnodes = nd - n0;
	}
	/* n targets at most, the detail budget shared among them at most. */
	bytes = fb + t * tb + dbytes + CHECKPOINT_EXTRA;
	nodes = fn + t * tn + dnodes + 8;
	tap_diag("a target: %zu bytes, %zu values; the run's detail: %zu "
		 "bytes, %zu values; the run itself: %zu bytes", tb, tn,
		 dbytes, dnodes, fb);
	tap_ok(bytes < RESULT_MAX_BYTES,
	       "%zu targets at most, every list full: %zu bytes, under the "
	       "readers' %zu", t, bytes, (size_t)RESULT_MAX_BYTES);
	tap_ok(nodes < RESULT_MAX_NODES,
	       "...and %zu values, under the readers' %zu", nodes,
	       (size_t)RESULT_MAX_NODES);
	tap_ok(result_max_detail(100000, (int)t) * t <= detail &&
	       result_max_detail(50, 3) == 50,
	       "the detail is shared among the targets, not multiplied");
}

/*
 * A 12 h soak of 60 healthy disks: under 8 MB, whatever its span (every
 * list that time grows is full; names as disks have them). Errors and bad
 * units are listed up to the detail cap, which time does not grow.
 */
static void test_soak(void)
{
	size_t tb, tn, fb, fn;

	plain = 1;
	cost(0, 1, &tb, &tn, &fb, &fn,
	     "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4");
	plain = 0;
	tap_ok(fb + 60 * tb + CHECKPOINT_EXTRA < 8000000,
	       "a 12 h soak of 60 disks: at most %zu bytes, under 8 MB",
	       fb + 60 * tb + CHECKPOINT_EXTRA);
}

/* A record of a few of the largest targets, read by every reader. */
static void test_readers(char *path)
{
	unsigned detail = result_max_detail(100000, 4);
	struct result_record rec;
	struct jsonread *doc = NULL;
	struct fleet_run fr;
	struct restored rs;
	struct settings s;
	struct record r;
	struct folder f;
	char dir[128], err[400] = "";
	size_t len;
	char *text;
	int ret;

	snprintf(dir, sizeof(dir), "%s/m1", top);
	if (mkdir(dir, 0755))
		tap_bail("cannot make %s", dir);
	snprintf(dir, sizeof(dir), "%s/m1/run", top);
	if (mkdir(dir, 0755))
		tap_bail("cannot make %s", dir);
	make_record(&r, &s, 4, detail, 4 * NOTES_A_TARGET, path);
	text = result_json(&r, &len);
	if (!text || tap_write(dir, "result.json", text, len))
		tap_bail("cannot write result.json");
	memset(&f, 0, sizeof(f));
	f.dir = dir;
	/* Files are made under the folder's descriptor (base/newfile.h). */
	f.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f.dfd < 0 || folder_checkpoint(&f, text, len))
		tap_bail("cannot write a checkpoint");
	close(f.dfd);

	ret = result_load(dir, &rec, err, sizeof(err));
	tap_ok(ret == 0 && rec.n == 4 && rec.schema_version == RESULT_SCHEMA,
	       "verify --from's reader reads it (%zu bytes) %s", len, err);
	if (!ret)
		result_record_free(&rec);

	ret = jsonread_parse(&doc, text, len, NULL, err, sizeof(err));
	ret = ret ? ret : restore_record(jsonread_root(doc), &rs, err,
					 sizeof(err));
	tap_ok(ret == 0 && rs.r.n == 4 &&
	       rs.r.disks[0].snap.npasses == ENGINE_PASSES_KEPT &&
	       rs.r.disks[0].snap.nbad == detail &&
	       rs.r.disks[0].snap.totals[PHASE_WRITE].passes == UINT64_MAX / 9,
	       "kiln finish's reader restores it whole %s", err);
	if (!ret)
		restore_free(&rs);
	jsonread_free(doc);

	ret = fleet_read_run(dir, "m1", "run", r.ended, 3600, &fr);
	tap_ok(ret == 0 && fr.state == FLEET_COMPLETE && fr.n == 4 &&
	       !fr.problem, "kiln fleet's reader reads it: complete, %d "
	       "disks%s%s", fr.n, fr.problem ? ": " : "",
	       fr.problem ? fr.problem : "");
	fleet_read_free(&fr);

	free(text);
	free_record(&r);
}

int main(int argc, char **argv)
{
	char *path = zalloc(PATH_MAX, 1);

	tap_args(argc, argv);
	/* The longest path a target is given by. */
	memset(path, 0x01, PATH_MAX - 1);
	path[0] = '/';
	snprintf(top, sizeof(top), "/tmp/kiln-bounded.XXXXXX");
	if (!mkdtemp(top))
		tap_bail("cannot make a folder");
	tap_plan(12);
	TAP_RUN(test_engine);
	test_bound(path);
	TAP_RUN(test_soak);
	test_readers(path);
	free(path);
	{
		char cmd[96];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
		if (system(cmd) != 0)
			tap_diag("left %s", top);
	}
	return tap_done();
}
