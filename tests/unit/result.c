/* SPDX-License-Identifier: MIT */
/*
 * Description: result.json both ways. A record made by hand is written
 * (schema kiln-result, version 3) and read back by the two readers kiln
 * has: result_load(), the run record a later verify trusts (identity,
 * size, region, the last pass written and how far it got), and
 * restore_record(), the whole record kiln finish rebuilds (counters, bad
 * units, errors, phases, SMART, verdicts), which then writes and judges
 * the same again. A folder with only a checkpoint is read from it; a torn
 * or foreign result.json is a clear error, never a crash; a version 1
 * document ("wwid", no last_pass_*) has its last write pass read off its
 * pass list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "results/seconds.h"
#include "results/folder.h"
#include "base/jsonread.h"
#include "judge/record.h"
#include "judge/smartjudge.h"
#include "results/report_zones.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

#define MIB (1ull << 20)
#define MSEC 1000000ull

static const char *const argv_[] = { "kiln", "burn", "/dev/sdb",
				     "/tmp/b.img" };
static struct monitor_target mt_a;
static char top[64];

static void *dup_of(const void *p, size_t len)
{
	void *q = malloc(len);

	if (!q)
		tap_bail("out of memory");
	return memcpy(q, p, len);
}

/* The totals of a pass list nothing was folded out of. */
static void totals_of(struct engine_snap *s)
{
	unsigned i;

	for (i = 0; i < s->npasses; i++) {
		struct engine_pass_total *t = &s->totals[s->passes[i].phase];

		t->passes++;
		t->bytes += s->passes[i].bytes;
		t->ns += s->passes[i].ns;
		t->errors += s->passes[i].errors;
		t->bad_units += s->passes[i].bad_units;
	}
}

/* A disk that ran two whole passes and met an error and two bad units. */
/* Disk a's SMART, the same before and after. */
static void smart_a(struct smart_disk *sm)
{
	if (!sm)
		tap_bail("out of memory");
	sm->before.c.have = sm->after.c.have = 1;
	sm->before.c.passed = sm->after.c.passed = 1;
	sm->before.c.realloc = 4;
	sm->after.c.realloc = 4;
	sm->before.c.pending = sm->after.c.pending = 0;
	sm->before.c.uncorrectable = sm->after.c.uncorrectable = -1;
	sm->before.c.crc_errors = sm->after.c.crc_errors = 0;
	sm->before.c.media_errors = sm->after.c.media_errors = -1;
	sm->before.c.critical_warning = sm->after.c.critical_warning = -1;
	sm->before.c.grown_defects = sm->after.c.grown_defects = -1;
}

static void disk_a(struct record_disk *d)
{
	const struct engine_pass passes[] = {
		{ 1, PHASE_WRITE, 64 * MIB, 750 * MSEC, 64 * MIB, 1, 0, 0, 1 },
		{ 1, PHASE_VERIFY, 64 * MIB, 625 * MSEC, 64 * MIB, 1, 0, 0, 1 },
		{ 2, PHASE_WRITE, 64 * MIB, 750 * MSEC, 64 * MIB, 1, 0, 0, 2 },
		{ 2, PHASE_VERIFY, 64 * MIB, 625 * MSEC, 64 * MIB, 1, 1, 2, 2 },
	};
	const struct engine_error err = { PHASE_VERIFY, 2, 1 * MIB, 1 * MIB,
					  EIO, 1 };
	struct engine_bad bad[2];
	struct engine_snap *s = &d->snap;
	struct target *t = &d->t;
	int p;

	snprintf(d->label, sizeof(d->label), "sdb");
	t->kind = TARGET_BLOCK;
	snprintf(t->id.name, sizeof(t->id.name), "sdb");
	snprintf(t->id.identity, sizeof(t->id.identity),
		 "wwn:naa.5000c500a1b2c3d4");
	snprintf(t->id.model, sizeof(t->id.model), "ST4000NM0035-1V4107");
	snprintf(t->id.serial, sizeof(t->id.serial), "ZC1ABCDE");
	snprintf(t->id.wwid, sizeof(t->id.wwid), "naa.5000c500a1b2c3d4");
	t->id.rotational = 1;
	t->size = 4000787030016ull;
	t->lbs = 512;
	t->pbs = 4096;
	t->direct = 1;
	t->ident = unit_ident_hash(t->id.identity);
	t->safety.class = SAFETY_BLANK;
	snprintf(t->safety.why, sizeof(t->safety.why), "all 0x00 where read");
	d->plan.action = PLAN_WRITE;
	d->plan.why = "blank: written";

	d->ep.mode = ENGINE_WRITE_VERIFY;
	d->ep.ext[0].offset = 0;
	d->ep.ext[0].length = 64 * MIB;
	d->ep.next = 1;
	d->ep.region = 64 * MIB;
	d->ep.write_passes = 2;

	s->plan = d->ep;
	s->c.state = STATE_DONE;
	s->c.phase = PHASE_END;
	s->c.pass = 2;
	s->c.bytes_written = s->c.bytes_read = 128 * MIB;
	s->c.io_errors = 1;
	s->c.bad_units = 2;
	s->bad_by_class[UNIT_BITFLIP] = 1;
	s->bad_by_class[UNIT_STALE] = 1;
	s->bad_transient = 1;
	s->not_written = 3;
	s->verified_pass = 2;
	s->region_writes = 2;
	s->last_written = 2;
	s->last_reached = 64 * MIB;
	s->phase_bytes[PHASE_WRITE] = s->phase_bytes[PHASE_VERIFY] = 128 * MIB;
	s->phase_ns[PHASE_WRITE] = 1500 * MSEC;
	s->phase_ns[PHASE_FLUSH] = 200 * MSEC;
	s->phase_ns[PHASE_VERIFY] = 1250 * MSEC;
	s->passes = dup_of(passes, sizeof(passes));
	s->npasses = 4;
	totals_of(s);
	s->errors = dup_of(&err, sizeof(err));
	s->nerrors = 1;
	memset(bad, 0, sizeof(bad));
	bad[0].offset = 8192;
	bad[0].pass = 1;
	bad[0].retry = RETRY_SAME;
	bad[0].v.class = UNIT_BITFLIP;
	bad[0].v.nbits = 3;
	bad[0].v.bits[0] = 100;
	bad[0].v.bits[1] = 2000;
	bad[0].v.bits[2] = 32767;
	bad[0].v.sectors_bad = 1u << 4;
	bad[1].offset = 12288;
	bad[1].pass = 2;
	bad[1].retry = RETRY_GOOD;
	bad[1].v.class = UNIT_STALE;
	bad[1].v.nbits = 16000;
	bad[1].v.sectors_bad = 0xff;
	bad[1].v.found_valid = 1;
	bad[1].v.found.run_id = 0xfedcba9876543210ull;
	bad[1].v.found.ident = t->ident;
	bad[1].v.found.offset = 12288;
	bad[1].v.found.pass = 1;
	s->bad = dup_of(bad, sizeof(bad));
	s->nbad = 2;

	for (p = 0; p < PHASES; p++)
		mt_a.min[p] = -1;
	mt_a.seconds[PHASE_WRITE] = mt_a.seconds[PHASE_VERIFY] = 3;
	mt_a.min[PHASE_WRITE] = 80;
	mt_a.max[PHASE_WRITE] = 95;
	mt_a.min[PHASE_VERIFY] = 100;
	mt_a.max[PHASE_VERIFY] = 110;
	d->mt = &mt_a;

	smart_a(smart_disk_make(d));
}

/* A file in three pieces, stopped 20 MiB into its third write pass. */
static void disk_b(struct record_disk *d)
{
	const struct engine_pass passes[] = {
		{ 1, PHASE_WRITE, 48 * MIB, 500 * MSEC, 48 * MIB, 1, 0, 0, 1 },
		{ 2, PHASE_WRITE, 48 * MIB, 500 * MSEC, 48 * MIB, 1, 0, 0, 2 },
		{ 3, PHASE_WRITE, 20 * MIB, 250 * MSEC, 20 * MIB, 0, 0, 0, 3 },
	};
	struct engine_snap *s = &d->snap;
	struct target *t = &d->t;
	int i;

	snprintf(d->label, sizeof(d->label), "b.img");
	t->kind = TARGET_FILE;
	snprintf(t->id.name, sizeof(t->id.name), "b.img");
	snprintf(t->id.identity, sizeof(t->id.identity), "file:/tmp/b.img");
	t->id.rotational = -1;
	t->size = 256 * MIB;
	t->lbs = t->pbs = 4096;
	t->ident = unit_ident_hash(t->id.identity);
	t->safety.class = SAFETY_KILN_DATA;
	d->plan.action = PLAN_WRITE;
	d->plan.why = "kiln's own data";

	d->ep.mode = ENGINE_WRITE;
	for (i = 0; i < 3; i++) {
		d->ep.ext[i].offset = (uint64_t)i * 120 * MIB;
		d->ep.ext[i].length = 16 * MIB;
	}
	d->ep.next = 3;
	d->ep.region = 48 * MIB;
	s->plan = d->ep;
	s->c.state = STATE_STOPPED;
	snprintf(s->why, sizeof(s->why), "interrupted");
	s->c.phase = PHASE_WRITE;
	s->c.pass = 3;
	s->c.bytes_written = 116 * MIB;
	s->region_writes = 2;
	s->last_written = 3;
	s->last_reached = 20 * MIB;
	s->phase_bytes[PHASE_WRITE] = 116 * MIB;
	s->phase_ns[PHASE_WRITE] = 1250 * MSEC;
	s->passes = dup_of(passes, sizeof(passes));
	s->npasses = 3;
	totals_of(s);
}

static void make_record(struct record *r, struct settings *s)
{
	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 4, (char **)argv_, s);
	r->run_id = 0x0123456789abcdefull;
	r->started = 1764500000;	/* 2025-11-30T10:53:20Z */
	r->ended = r->started + 100;
	r->elapsed_ns = 100500 * MSEC;
	r->firmware.efi = 1;
	r->firmware.secure_boot = 0;
	snprintf(r->firmware.lockdown, sizeof(r->firmware.lockdown), "none");
	disk_a(record_add(r, "/dev/sdb", SETTINGS_WRITE_VERIFY));
	disk_b(record_add(r, "/tmp/b.img", SETTINGS_WRITE_VERIFY));
	record_note(r, "sdb is flash: at most %u whole-disk writes", 2);
	record_note(r, "a note with \"quotes\" and a byte \xe9");
	signals_judge(r, 1, 1);
}

static const struct jsonread_node *target(const struct jsonread *doc,
					  int i)
{
	return jsonread_at(jsonread_get(jsonread_root(doc), "targets"),
			   (size_t)i);
}

static int reason_has(const struct jsonread_node *t, const char *text)
{
	const struct jsonread_node *rs = jsonread_get(t, "reasons");
	size_t i;

	for (i = 0; i < jsonread_count(rs); i++)
		if (strstr(jsonread_str(jsonread_at(rs, i), NULL, ""), text))
			return 1;
	return 0;
}

static int region_is(const struct jsonread_node *t, int n,
		     const struct engine_extent *ext)
{
	const struct jsonread_node *reg = jsonread_get(t, "region");
	int i;

	if (jsonread_count(reg) != (size_t)n)
		return 0;
	for (i = 0; i < n; i++)
		if (jsonread_u64(jsonread_at(reg, (size_t)i), "offset", 1) !=
		    ext[i].offset ||
		    jsonread_u64(jsonread_at(reg, (size_t)i), "length", 0) !=
		    ext[i].length)
			return 0;
	return 1;
}

static void test_document(const struct record *r, const char *text,
			  size_t len)
{
	const struct jsonread_node *root, *a, *b;
	struct jsonread *doc = NULL;
	char err[200] = "";
	const char *id;

	tap_ok(jsonread_parse(&doc, text, len, NULL, err, sizeof(err)) == 0,
	       "result_json writes JSON that parses %s", err);
	if (!doc)
		tap_bail("result.json does not parse: %s", err);
	root = jsonread_root(doc);
	a = target(doc, 0);
	b = target(doc, 1);
	id = jsonread_str(root, "run_id", "");
	tap_ok(!strcmp(jsonread_str(root, "schema", ""), "kiln-result") &&
	       jsonread_u64(root, "schema_version", 0) == 4,
	       "schema kiln-result, schema_version 4");
	tap_ok(!strcmp(id, "0123456789abcdef"),
	       "run_id: 16 lowercase hex digits (%s)", id);
	tap_ok(!strcmp(jsonread_str(root, "state", ""), "interrupted") &&
	       !strcmp(jsonread_str(root, "verdict", ""), "FAIL") &&
	       jsonread_i64(root, "exit_code", -1) == 1 &&
	       jsonread_bool(root, "results_complete", 0) &&
	       jsonread_type(jsonread_get(root, "failure")) == JSONREAD_NULL,
	       "state, verdict, exit code, results_complete, failure");
	tap_ok(!strcmp(jsonread_str(root, "started", ""),
		       "2025-11-30T10:53:20Z") &&
	       !strcmp(jsonread_str(root, "ended", ""),
		       "2025-11-30T10:55:00Z") &&
	       jsonread_num(root, "elapsed_seconds", 0) == 100.5,
	       "times in UTC, elapsed in seconds");
	tap_ok(jsonread_u64(jsonread_get(root, "settings"), "bs", 0) ==
	       r->s->bs && jsonread_count(jsonread_get(root, "argv")) == 4 &&
	       jsonread_count(jsonread_get(root, "notes")) == 2,
	       "settings, argv and notes");
	tap_ok(jsonread_count(jsonread_get(root, "targets")) == 2,
	       "one entry a target");

	tap_ok(!strcmp(jsonread_str(a, "identity", ""),
		       "wwn:naa.5000c500a1b2c3d4") &&
	       !strcmp(jsonread_str(a, "wwn", ""), "naa.5000c500a1b2c3d4") &&
	       !jsonread_get(a, "wwid") &&
	       !strcmp(jsonread_str(a, "serial", ""), "ZC1ABCDE") &&
	       jsonread_u64(a, "size", 0) == 4000787030016ull &&
	       !strcmp(jsonread_str(a, "kind", ""), "block"),
	       "a disk's identity, its WWN as \"wwn\" (no \"wwid\"), size");
	tap_ok(region_is(a, 1, r->disks[0].ep.ext) &&
	       region_is(b, 3, r->disks[1].ep.ext),
	       "each region, extent by extent");
	tap_ok(jsonread_u64(a, "last_pass_written", 0) == 2 &&
	       jsonread_u64(a, "last_pass_reached", 0) == 64 * MIB &&
	       jsonread_bool(a, "last_pass_complete", 0) == 1,
	       "the run record: last pass 2 written, whole");
	tap_ok(jsonread_u64(b, "last_pass_written", 0) == 3 &&
	       jsonread_u64(b, "last_pass_reached", 0) == 20 * MIB &&
	       jsonread_bool(b, "last_pass_complete", 1) == 0 &&
	       !strcmp(jsonread_str(b, "wwn", "?"), "") &&
	       !strcmp(jsonread_str(b, "kind", ""), "file"),
	       "...a cut-short pass: pass 3 written up to 20 MiB");
	tap_ok(!strcmp(jsonread_str(a, "verdict", ""), "FAIL") &&
	       reason_has(a, "1 I/O errors, the first in verify at byte "
			  "1048576 (+1048576)") &&
	       reason_has(a, "2 bad units (1 bitflip, 1 stale)") &&
	       reason_has(a, "read back good") &&
	       reason_has(a, "reallocated sectors is 4"),
	       "a disk's verdict and its reasons");
	tap_ok(!strcmp(jsonread_str(b, "verdict", ""), "WARN") &&
	       reason_has(b, "stopped before the end: interrupted") &&
	       jsonread_count(jsonread_get(b, "reasons")) == 1,
	       "...the stopped one WARNs");
	tap_ok(jsonread_type(jsonread_path(b, "/phases/write/"
					   "slowest_second_mbps")) ==
	       JSONREAD_NULL &&
	       jsonread_num(jsonread_path(a, "/phases/write"),
			    "slowest_second_mbps", 0) == 80 &&
	       jsonread_u64(jsonread_path(a, "/phases/verify"),
			    "whole_seconds", 0) == 3,
	       "slowest seconds where measured, null where not");
	tap_ok(!strcmp(jsonread_str(jsonread_path(a, "/bad_units/first/1/"
						  "found"), "run_id", ""),
		       "fedcba9876543210") &&
	       jsonread_u64(jsonread_path(a, "/bad_units/first/0"),
			    "bits_differing", 0) == 3 &&
	       jsonread_count(jsonread_path(a, "/bad_units/first/0/"
					    "bit_positions")) == 3,
	       "bad units in detail: bits, and the unit found instead");
	jsonread_free(doc);
}

static void test_load(const char *dir)
{
	struct result_record rec;
	const struct result_disk *a, *b;
	char err[400] = "";
	int ret;

	ret = result_load(dir, &rec, err, sizeof(err));
	tap_ok(ret == 0 && rec.schema_version == 4 && !rec.from_checkpoint &&
	       rec.run_id == 0x0123456789abcdefull && rec.n == 2 &&
	       rec.state == RECORD_INTERRUPTED &&
	       !strcmp(rec.verdict, "FAIL") && rec.bs > 0,
	       "result_load reads the run record back %s", err);
	if (ret)
		return;
	a = result_find(&rec, "wwn:naa.5000c500a1b2c3d4");
	b = result_find(&rec, "file:/tmp/b.img");
	tap_ok(a && b && !result_find(&rec, "wwn:naa.5000c500a1b2c3d5"),
	       "result_find finds a disk by identity, none that is not there");
	tap_ok(a && !strcmp(a->path, "/dev/sdb") &&
	       a->size == 4000787030016ull &&
	       a->ep.mode == ENGINE_WRITE_VERIFY &&
	       a->ep.next == 1 && a->ep.ext[0].length == 64 * MIB &&
	       a->ep.region == 64 * MIB && !strcmp(a->verdict, "FAIL"),
	       "a disk's path, size, mode, region and verdict");
	tap_ok(a && a->last_written == 2 && a->last_reached == 64 * MIB &&
	       a->complete, "its last pass: 2, whole");
	tap_ok(b && b->ep.next == 3 && b->ep.region == 48 * MIB &&
	       b->ep.ext[2].offset == 240 * MIB && b->ep.mode == ENGINE_WRITE &&
	       b->last_written == 3 && b->last_reached == 20 * MIB &&
	       !b->complete && !strcmp(b->verdict, "WARN"),
	       "a file in three pieces, its pass 3 written up to 20 MiB");
	result_record_free(&rec);
}

static int same_health(const struct smart_counters *x,
		       const struct smart_counters *y)
{
	return x->have == y->have && x->passed == y->passed &&
	       x->realloc == y->realloc && x->pending == y->pending &&
	       x->uncorrectable == y->uncorrectable &&
	       x->crc_errors == y->crc_errors &&
	       x->media_errors == y->media_errors &&
	       x->critical_warning == y->critical_warning &&
	       x->grown_defects == y->grown_defects;
}

static int same_judge(const struct judge *x, const struct judge *y)
{
	int i;

	if (x->verdict != y->verdict || x->nreasons != y->nreasons)
		return 0;
	for (i = 0; i < x->nreasons; i++)
		if (strcmp(x->reasons[i], y->reasons[i]))
			return 0;
	return 1;
}

static int same_snap(const struct engine_snap *x, const struct engine_snap *y)
{
	/* The document has no phase or pass of the moment: not compared. */
	return x->c.state == y->c.state &&
	       x->c.bytes_written == y->c.bytes_written &&
	       x->c.bytes_read == y->c.bytes_read &&
	       x->c.io_errors == y->c.io_errors &&
	       x->c.bad_units == y->c.bad_units &&
	       !memcmp(x->bad_by_class, y->bad_by_class,
		       sizeof(x->bad_by_class)) &&
	       x->bad_transient == y->bad_transient &&
	       x->not_written == y->not_written &&
	       x->verified_pass == y->verified_pass &&
	       x->region_writes == y->region_writes &&
	       x->last_written == y->last_written &&
	       x->last_reached == y->last_reached &&
	       !strcmp(x->why, y->why) &&
	       !memcmp(x->phase_bytes, y->phase_bytes,
		       sizeof(x->phase_bytes)) &&
	       !memcmp(x->phase_ns, y->phase_ns, sizeof(x->phase_ns)) &&
	       !memcmp(x->totals, y->totals, sizeof(x->totals)) &&
	       x->folded == y->folded;
}

static int same_pass(const struct engine_pass *x, const struct engine_pass *y)
{
	return x->pass == y->pass && x->phase == y->phase &&
	       x->bytes == y->bytes && x->ns == y->ns &&
	       x->reached == y->reached && x->complete == y->complete &&
	       x->errors == y->errors && x->bad_units == y->bad_units &&
	       x->seq == y->seq;
}

/*
 * The text of a document from "targets" on (what the run measured), up to
 * "failure" when whole is 0 (a restored record is judged before it is
 * written again: until then it has no verdict).
 */
static int same_from_targets(const char *x, const char *y, int whole)
{
	const char *a = x ? strstr(x, "\"targets\"") : NULL;
	const char *b = y ? strstr(y, "\"targets\"") : NULL;
	const char *ea = a ? strstr(a, "\"failure\"") : NULL;
	const char *eb = b ? strstr(b, "\"failure\"") : NULL;
	size_t la, lb, i;

	if (!ea || !eb)
		return 0;
	la = whole ? strlen(a) : (size_t)(ea - a);
	lb = whole ? strlen(b) : (size_t)(eb - b);
	for (i = 0; i < la && i < lb && a[i] == b[i]; i++)
		;
	if (i == la && la == lb)
		return 1;
	tap_diag("differs at: %.60s", a + i);
	tap_diag("        vs: %.60s", b + i);
	return 0;
}

static void test_restore(const struct record *r, const char *dir,
			 const char *text)
{
	struct jsonread *doc = NULL;
	struct restored rs;
	const struct record_disk *a, *b, *ra, *rb;
	char path[256], err[300] = "", *again;
	struct judge ja, jb;
	unsigned i;
	int ok;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	if (jsonread_load(&doc, path, NULL, err, sizeof(err)))
		tap_bail("cannot read %s: %s", path, err);
	tap_ok(restore_record(jsonread_root(doc), &rs, err, sizeof(err)) == 0 &&
	       rs.r.n == 2, "restore_record reads the document back %s", err);
	a = &r->disks[0];
	b = &r->disks[1];
	ra = &rs.r.disks[0];
	rb = &rs.r.disks[1];
	tap_ok(rs.r.run_id == r->run_id && rs.r.started == r->started &&
	       rs.r.ended == r->ended && rs.r.elapsed_ns == r->elapsed_ns &&
	       !strcmp(rs.r.command, "burn") && rs.r.nnotes == 2 &&
	       !strcmp(rs.r.notes[1], r->notes[1]) &&
	       rs.r.firmware.efi == 1 && rs.r.firmware.secure_boot == 0 &&
	       !strcmp(rs.r.firmware.lockdown, "none") && !rs.r.results_lost &&
	       rs.s.bs == r->s->bs,
	       "the run: id, times, command, notes (bytes as written), "
	       "firmware, settings");
	tap_ok(!strcmp(ra->path, "/dev/sdb") && !strcmp(ra->label, "sdb") &&
	       !strcmp(ra->t.id.identity, a->t.id.identity) &&
	       !strcmp(ra->t.id.wwid, a->t.id.wwid) &&
	       !strcmp(ra->t.id.model, a->t.id.model) &&
	       !strcmp(ra->t.id.serial, a->t.id.serial) &&
	       ra->t.ident == a->t.ident && ra->t.size == a->t.size &&
	       ra->t.lbs == 512 && ra->t.pbs == 4096 &&
	       ra->t.id.rotational == 1 && rb->t.id.rotational == -1 &&
	       ra->t.kind == TARGET_BLOCK && rb->t.kind == TARGET_FILE &&
	       ra->t.safety.class == SAFETY_BLANK &&
	       rb->t.safety.class == SAFETY_KILN_DATA,
	       "a disk's identity, size, kind and class");
	tap_ok(!memcmp(&ra->ep, &a->ep, sizeof(a->ep)) &&
	       !memcmp(&rb->ep, &b->ep, sizeof(b->ep)),
	       "its region and mode, and its write cap");
	tap_ok(same_snap(&ra->snap, &a->snap) && same_snap(&rb->snap, &b->snap),
	       "its counters: state, bytes, errors, bad units by class, "
	       "the last pass, phases");
	ok = ra->snap.npasses == 4 && rb->snap.npasses == 3;
	for (i = 0; ok && i < 4; i++)
		ok = same_pass(&ra->snap.passes[i], &a->snap.passes[i]);
	for (i = 0; ok && i < 3; i++)
		ok = same_pass(&rb->snap.passes[i], &b->snap.passes[i]);
	tap_ok(ok, "its passes, each whole");
	tap_ok(ra->snap.nerrors == 1 &&
	       !memcmp(&ra->snap.errors[0], &a->snap.errors[0],
		       sizeof(a->snap.errors[0])),
	       "its I/O errors: phase, pass, offset, length, errno, requests");
	tap_ok(ra->snap.nbad == 2 &&
	       !memcmp(&ra->snap.bad[0], &a->snap.bad[0],
		       sizeof(a->snap.bad[0])) &&
	       !memcmp(&ra->snap.bad[1], &a->snap.bad[1],
		       sizeof(a->snap.bad[1])),
	       "its bad units: class, bits, sectors, re-read, the unit found");
	tap_ok(same_health(&smart_disk_of(ra)->before.c,
			   &smart_disk_of(a)->before.c) &&
	       same_health(&smart_disk_of(ra)->after.c,
			   &smart_disk_of(a)->after.c) &&
	       !smart_disk_of(rb)->before.c.have &&
	       !smart_disk_of(rb)->after.c.have,
	       "SMART before and after, or none");
	tap_ok(ra->mt && ra->mt->seconds[PHASE_WRITE] == 3 &&
	       ra->mt->min[PHASE_WRITE] == 80 &&
	       ra->mt->max[PHASE_VERIFY] == 110 && rb->mt &&
	       rb->mt->min[PHASE_WRITE] == -1,
	       "the slowest and fastest seconds, -1 where not measured");
	tap_ok(same_judge(&ra->j, &a->j) && same_judge(&rb->j, &b->j),
	       "the verdicts and their reasons as they were written");

	again = result_json(&rs.r, NULL);
	tap_ok(same_from_targets(again, text, 0),
	       "written again, every target reads the same");
	free(again);

	ja = ra->j;
	jb = rb->j;
	signals_judge(&rs.r, 1, 1);
	tap_ok(same_judge(&ra->j, &ja) && same_judge(&rb->j, &jb) &&
	       rs.r.verdict == JUDGE_FAIL && rs.r.exit_code == 1 &&
	       rs.r.state == RECORD_INTERRUPTED,
	       "judged again (kiln finish), the same verdicts, state and exit");
	again = result_json(&rs.r, NULL);
	tap_ok(same_from_targets(again, text, 1),
	       "...and written, the same document from its targets on");
	free(again);
	restore_free(&rs);
	jsonread_free(doc);
}

static void test_checkpoint(const char *text, size_t len)
{
	struct result_record rec;
	struct folder f;
	char dir[128], err[400] = "";
	int ret;

	snprintf(dir, sizeof(dir), "%s/cut", top);
	if (folder_open(&f, dir, 4096, 0, err, sizeof(err)))
		tap_bail("%s", err);
	ret = result_load(dir, &rec, err, sizeof(err));
	tap_ok(ret == -ENOENT && strstr(err, "cannot read the run record") &&
	       strstr(err, "result.json"),
	       "a folder with neither result.json nor a checkpoint: -ENOENT "
	       "(%s)", err);
	if (folder_checkpoint(&f, text, len))
		tap_bail("cannot write a checkpoint in %s", dir);
	err[0] = 0;
	ret = result_load(dir, &rec, err, sizeof(err));
	tap_ok(ret == 0 && rec.from_checkpoint && rec.n == 2 &&
	       rec.run_id == 0x0123456789abcdefull &&
	       result_find(&rec, "file:/tmp/b.img") &&
	       result_find(&rec, "file:/tmp/b.img")->last_reached == 20 * MIB,
	       "a folder with only a checkpoint: the run record from it %s",
	       err);
	if (!ret)
		result_record_free(&rec);

	/* A result.json cut off mid-write: the checkpoint stands in. */
	tap_write(dir, "result.json", text, len / 2);
	err[0] = 0;
	ret = result_load(dir, &rec, err, sizeof(err));
	tap_ok(ret == 0 && rec.from_checkpoint && rec.n == 2,
	       "a torn result.json beside a checkpoint: read from the "
	       "checkpoint %s", err);
	if (!ret)
		result_record_free(&rec);
	folder_close(&f);
}

static void expect_error(const char *what, const char *doc, int want,
			 const char *says)
{
	struct result_record rec;
	char dir[128], err[400] = "";
	int ret;

	snprintf(dir, sizeof(dir), "%s/bad", top);
	if (tap_write(dir, "result.json", doc, strlen(doc)))
		tap_bail("cannot write in %s", dir);
	memset(&rec, 0x5a, sizeof(rec));
	ret = result_load(dir, &rec, err, sizeof(err));
	if (!tap_ok(ret == want && strstr(err, "cannot read the run record") &&
		    strstr(err, says) && !rec.disks && !rec.doc,
		    "%s: %s", what, err))
		tap_diag("returned %d", ret);
}

static void test_bad(const char *text, size_t len)
{
	char dir[128], *cut;

	snprintf(dir, sizeof(dir), "%s/bad", top);
	if (mkdir(dir, 0755))
		tap_bail("cannot make %s", dir);
	cut = strndup(text, len - 40);
	expect_error("a truncated result.json, no checkpoint", cut, -EBADMSG,
		     "at byte");
	free(cut);
	expect_error("not JSON", "PASS\n", -EBADMSG, "at byte");
	expect_error("an empty file", "", -EBADMSG, "");
	expect_error("JSON, but no kiln result", "{\"schema\": \"kiln-"
		     "inventory\"}", -EBADMSG, "not a kiln result");
	expect_error("a schema version from the future", "{\"schema\": "
		     "\"kiln-result\", \"schema_version\": 5}", -EBADMSG,
		     "schema version 5, which this kiln does not know");
	expect_error("no run id", "{\"schema\": \"kiln-result\", "
		     "\"schema_version\": 2, \"run_id\": \"xyz\"}", -EBADMSG,
		     "no run id");
	expect_error("run id 0, which kiln never draws", "{\"schema\": "
		     "\"kiln-result\", \"schema_version\": 2, \"run_id\": "
		     "\"0000000000000000\"}", -EBADMSG, "no run id");
	expect_error("a target without an identity", "{\"schema\": \"kiln-"
		     "result\", \"schema_version\": 2, \"run_id\": \"ab\", "
		     "\"targets\": [{\"size\": 1}]}", -EBADMSG,
		     "a target without an identity");
	expect_error("a target without a region", "{\"schema\": \"kiln-"
		     "result\", \"schema_version\": 2, \"run_id\": \"ab\", "
		     "\"targets\": [{\"identity\": \"x\", \"size\": 8192, "
		     "\"region\": []}]}", -EBADMSG, "x: no region");
	expect_error("a region not of whole units", "{\"schema\": \"kiln-"
		     "result\", \"schema_version\": 2, \"run_id\": \"ab\", "
		     "\"targets\": [{\"identity\": \"x\", \"size\": 8192, "
		     "\"region\": [{\"offset\": 0, \"length\": 100}]}]}",
		     -EBADMSG, "x: a bad region");
}

/*
 * The slowest and fastest second only of 3 whole seconds or more: fewer
 * are no range. The table's min and max, and a plot's top, are the
 * slowest and fastest pass (figures_pass_range()).
 */
static void test_min_max(void)
{
	struct monitor_target mt;
	struct record_disk d;
	struct engine_pass p[2] = {
		{ .pass = 1, .phase = PHASE_WRITE, .bytes = 1000000000ull,
		  .ns = 5000000000ull, .complete = 1 },
		{ .pass = 2, .phase = PHASE_WRITE, .bytes = 2000000000ull,
		  .ns = 5000000000ull, .complete = 1 },
	};
	double min = 0, max = 0;
	int two, three;

	memset(&d, 0, sizeof(d));
	memset(&mt, 0, sizeof(mt));
	d.snap.phase_bytes[PHASE_WRITE] = 3000000000ull;
	d.snap.phase_ns[PHASE_WRITE] = 10000000000ull;
	mt.min[PHASE_WRITE] = 250;
	mt.max[PHASE_WRITE] = 3278;
	d.mt = &mt;
	mt.seconds[PHASE_WRITE] = 2;
	two = seconds_range(&d, PHASE_WRITE, &min, &max);
	mt.seconds[PHASE_WRITE] = 3;
	three = seconds_range(&d, PHASE_WRITE, &min, &max);
	tap_ok(!two && three && min == 250 && max == 3278,
	       "min and max of 3 whole seconds or more, none of 2");
	d.snap.passes = p;
	d.snap.npasses = 2;
	tap_ok(report_zones_top(&d) == 400,
	       "a plot tops at the table's max, the fastest pass (%.0f)",
	       report_zones_top(&d));
	d.snap.npasses = 0;
	tap_ok(report_zones_top(&d) == 300,
	       "...or at its average where it has no max (%.0f)",
	       report_zones_top(&d));
}

static void test_v1(void)
{
	struct result_record rec;
	const struct result_disk *a, *c;
	struct jsonread *doc = NULL;
	struct restored rs;
	char err[400] = "";
	int ret;

	ret = result_load("tests/fixtures/result/v1", &rec, err, sizeof(err));
	tap_ok(ret == 0 && rec.schema_version == 1 && rec.n == 2 &&
	       rec.run_id == 0x00c0ffee12345678ull && rec.bs == MIB,
	       "a schema version 1 document reads %s", err);
	if (ret)
		return;
	a = result_find(&rec, "wwn:naa.5000c500a1b2c3d4");
	c = result_find(&rec, "wwn:naa.5000c500a1b2c3d5");
	tap_ok(a && a->last_written == 2 && a->last_reached == 3 * MIB &&
	       !a->complete && a->ep.region == 8 * MIB,
	       "version 1: the last write pass and how far it got, from the "
	       "pass list");
	tap_ok(c && c->last_written == 0 && c->last_reached == 0 &&
	       c->ep.next == 3 && c->ep.mode == ENGINE_READ,
	       "version 1: a disk only read has no write pass");
	result_record_free(&rec);

	ret = result_load("tests/fixtures/jsonread", &rec, err, sizeof(err));
	a = ret ? NULL : result_find(&rec, "file:/tmp/jr-x.img");
	tap_ok(a && rec.schema_version == 1 && a->last_written == 1 &&
	       a->complete && a->last_reached == a->ep.region &&
	       a->ep.region == 8 * MIB,
	       "a real version 1 result.json: pass 1 written whole %s", err);
	if (!ret)
		result_record_free(&rec);

	err[0] = 0;
	if (jsonread_load(&doc, "tests/fixtures/result/v1/result.json", NULL,
			  err, sizeof(err)))
		tap_bail("%s", err);
	ret = restore_record(jsonread_root(doc), &rs, err, sizeof(err));
	tap_ok(ret == 0 && rs.r.n == 2 &&
	       !strcmp(rs.r.disks[0].t.id.wwid, "naa.5000c500a1b2c3d4") &&
	       rs.r.disks[0].snap.c.state == STATE_STOPPED &&
	       rs.r.disks[0].snap.npasses == 4 &&
	       rs.r.disks[0].snap.passes[3].bytes == 3 * MIB &&
	       rs.r.disks[1].ep.next == 3 &&
	       !strcmp(rs.r.command, "run") && rs.r.firmware.secure_boot == 1,
	       "restore_record reads version 1 too: its \"wwid\" is the WWN");
	{
		const struct engine_snap *v = &rs.r.disks[0].snap;
		uint64_t n = 0, b = 0;
		int p;

		for (p = 0; p < PHASES; p++) {
			n += v->totals[p].passes;
			b += v->totals[p].bytes;
		}
		tap_ok(ret == 0 && n == 4 && !v->folded &&
		       b == v->passes[0].bytes + v->passes[1].bytes +
			    v->passes[2].bytes + v->passes[3].bytes &&
		       v->passes[3].seq == v->totals[v->passes[3].phase].passes,
		       "before version 3 the totals are the pass list's");
	}
	restore_free(&rs);
	jsonread_free(doc);
}

int main(int argc, char **argv)
{
	struct settings s;
	struct record r;
	char dir[128], *text, cmd[160];
	size_t len = 0;

	tap_args(argc, argv);
	snprintf(top, sizeof(top), "/tmp/kiln-result-%d", (int)getpid());
	if (mkdir(top, 0755))
		tap_bail("cannot make %s", top);
	make_record(&r, &s);
	text = result_json(&r, &len);
	if (!text)
		tap_bail("result_json: out of memory");
	test_document(&r, text, len);

	snprintf(dir, sizeof(dir), "%s/run", top);
	if (mkdir(dir, 0755) || tap_write(dir, "result.json", text, len))
		tap_bail("cannot write %s/result.json", dir);
	test_load(dir);
	test_restore(&r, dir, text);
	test_checkpoint(text, len);
	test_bad(text, len);
	TAP_RUN(test_v1);
	TAP_RUN(test_min_max);

	{
		char *lost;
		struct jsonread *doc = NULL;

		r.results_lost = 1;
		signals_judge(&r, 1, 1);
		lost = result_json(&r, &len);
		tap_ok(lost &&
		       !jsonread_parse(&doc, lost, len, NULL, NULL, 0) &&
		       !jsonread_bool(jsonread_root(doc), "results_complete",
				      1),
		       "results that could not all be written: "
		       "results_complete false");
		jsonread_free(doc);
		free(lost);
	}

	free(text);
	record_free(&r);
	settings_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	tap_ok(system(cmd) == 0, "cleanup");
	return tap_done();
}
