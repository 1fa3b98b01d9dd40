/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's record read back from its result document (a
 * checkpoint's "result", or result.json): the same struct record the run
 * had, as far as the document tells it, so that kiln finish writes
 * result.json, summary.txt and report.html with the same code a run uses.
 * What the document does not hold (the per-second series of the plots)
 * stays empty. Every schema version kiln has written is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/peers_out.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/vitals_out.h"
#include "base/unit.h"
#include "base/timing.h"

static int index_of(const char *name, const char *(*namer)(int), int n)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, namer(i)))
			return i;
	return -1;
}

static const char *class_namer(int i)
{
	return safety_class_name(i);
}

static const char *phase_namer(int i)
{
	return engine_phase_name(i);
}

static const char *state_namer(int i)
{
	return engine_state_name(i);
}

static const char *mode_namer(int i)
{
	return engine_mode_name(i);
}

static const char *unit_namer(int i)
{
	return unit_class_name((enum unit_class)i);
}

static const char *retry_namer(int i)
{
	return engine_retry_name(i);
}

/* 2026-11-30T11:07:57Z, as result.json writes times; 0 when not one. */
static time_t utc(const char *text)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!text || sscanf(text, "%d-%d-%dT%d:%d:%dZ", &tm.tm_year, &tm.tm_mon,
			    &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			    &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

static void copy_str(const struct jsonread_node *n, const char *key,
		     char *out, size_t len)
{
	size_t got;

	if (jsonread_get_bytes(n, key, out, len, &got))
		out[0] = 0;
}

static long long counter(const struct jsonread_node *h, const char *key)
{
	return jsonread_i64(h, key, -1);
}

static void restore_health(const struct jsonread_node *h, struct health *out)
{
	memset(out, 0, sizeof(*out));
	if (jsonread_type(h) != JSONREAD_OBJECT)
		return;
	out->ran = 1;
	out->passed = jsonread_type(jsonread_get(h, "passed")) == JSONREAD_BOOL
			      ? jsonread_bool(h, "passed", 0)
			      : -1;
	out->realloc = counter(h, "reallocated_sectors");
	out->pending = counter(h, "pending_sectors");
	out->uncorrectable = counter(h, "offline_uncorrectable");
	out->crc_errors = counter(h, "crc_errors");
	out->media_errors = counter(h, "media_errors");
	out->critical_warning = counter(h, "critical_warning");
	out->grown_defects = counter(h, "grown_defects");
}

/*
 * Every run of each phase: schema 3 says it in pass_totals (its pass list
 * may be folded); before it, the pass list held every run, in order.
 */
static void restore_totals(const struct jsonread_node *t,
			   struct engine_snap *s)
{
	const struct jsonread_node *tot = jsonread_get(t, "pass_totals");
	unsigned i;
	int p;

	s->folded = jsonread_u64(t, "passes_folded", 0);
	for (p = PHASE_WRITE; tot && p < PHASE_END; p++) {
		const struct jsonread_node *pt = jsonread_get(tot,
						     engine_phase_name(p));
		struct engine_pass_total *o = &s->totals[p];

		o->passes = jsonread_u64(pt, "passes", 0);
		o->bytes = jsonread_u64(pt, "bytes", 0);
		o->ns = (uint64_t)(jsonread_num(pt, "seconds", 0) *
				   (double)TIMING_SEC);
		o->errors = jsonread_u64(pt, "errors", 0);
		o->bad_units = jsonread_u64(pt, "bad_units", 0);
	}
	for (i = 0; !tot && i < s->npasses; i++) {
		struct engine_pass_total *o = &s->totals[s->passes[i].phase];

		o->passes++;
		if (!s->passes[i].seq)
			s->passes[i].seq = o->passes;
		o->bytes += s->passes[i].bytes;
		o->ns += s->passes[i].ns;
		o->errors += s->passes[i].errors;
		o->bad_units += s->passes[i].bad_units;
	}
}

static int restore_lists(const struct jsonread_node *t, struct engine_snap *s)
{
	const struct jsonread_node *passes = jsonread_get(t, "passes");
	const struct jsonread_node *errs = jsonread_path(t, "/io_errors/first");
	const struct jsonread_node *bads = jsonread_path(t, "/bad_units/first");
	size_t i, k;

	s->passes = calloc(jsonread_count(passes) + 1, sizeof(*s->passes));
	s->errors = calloc(jsonread_count(errs) + 1, sizeof(*s->errors));
	s->bad = calloc(jsonread_count(bads) + 1, sizeof(*s->bad));
	if (!s->passes || !s->errors || !s->bad)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(passes); i++) {
		const struct jsonread_node *p = jsonread_at(passes, i);
		struct engine_pass *o = &s->passes[s->npasses++];

		o->pass = (uint32_t)jsonread_u64(p, "pass", 0);
		o->phase = index_of(jsonread_str(p, "phase", NULL), phase_namer,
				    PHASES);
		if (o->phase < 0)
			o->phase = PHASE_START;
		o->bytes = jsonread_u64(p, "bytes", 0);
		o->ns = (uint64_t)(jsonread_num(p, "seconds", 0) *
				   (double)TIMING_SEC);
		o->reached = jsonread_u64(p, "reached", 0);
		o->complete = jsonread_bool(p, "complete", 0);
		o->errors = (unsigned)jsonread_u64(p, "errors", 0);
		o->bad_units = (unsigned)jsonread_u64(p, "bad_units", 0);
		o->seq = jsonread_u64(p, "run", 0);
	}
	restore_totals(t, s);
	for (i = 0; i < jsonread_count(errs); i++) {
		const struct jsonread_node *e = jsonread_at(errs, i);
		struct engine_error *o = &s->errors[s->nerrors++];

		o->phase = index_of(jsonread_str(e, "phase", NULL), phase_namer,
				    PHASES);
		o->pass = (uint32_t)jsonread_u64(e, "pass", 0);
		o->offset = jsonread_u64(e, "offset", 0);
		o->length = jsonread_u64(e, "length", 0);
		o->count = (unsigned)jsonread_u64(e, "requests", 1);
		o->err = (int)jsonread_i64(e, "errno", 5);
	}
	for (i = 0; i < jsonread_count(bads); i++) {
		const struct jsonread_node *b = jsonread_at(bads, i);
		const struct jsonread_node *bits =
			jsonread_get(b, "bit_positions");
		const struct jsonread_node *f = jsonread_get(b, "found");
		struct engine_bad *o = &s->bad[s->nbad++];
		int c = index_of(jsonread_str(b, "class", NULL), unit_namer,
				 UNIT_CLASSES);

		o->offset = jsonread_u64(b, "offset", 0);
		o->pass = (uint32_t)jsonread_u64(b, "pass", 0);
		o->retry = index_of(jsonread_str(b, "reread", NULL),
				    retry_namer, RETRY_FAILED + 1);
		if (o->retry < 0)
			o->retry = RETRY_NONE;
		o->v.class = c > 0 ? (enum unit_class)c : UNIT_FOREIGN;
		o->v.nbits = (uint32_t)jsonread_u64(b, "bits_differing", 0);
		for (k = 0; k < jsonread_count(bits) && k < UNIT_MAX_BITS; k++)
			o->v.bits[k] = (uint16_t)jsonread_u64(
				jsonread_at(bits, k), NULL, 0);
		o->v.sectors_bad = (uint32_t)jsonread_u64(b, "sectors_bad_mask",
							  0);
		if (jsonread_type(f) == JSONREAD_OBJECT) {
			o->v.found_valid = 1;
			o->v.found.run_id = strtoull(
				jsonread_str(f, "run_id", "0"), NULL, 16);
			o->v.found.ident = strtoull(jsonread_str(
				f, "identity_hash", "0"), NULL, 16);
			o->v.found.offset = jsonread_u64(f, "offset", 0);
			o->v.found.pass = (uint32_t)jsonread_u64(f, "pass", 0);
		}
	}
	return 0;
}

static int restore_disk(const struct jsonread_node *t, struct record_disk *d,
			struct monitor_target *mt, char *safety, size_t len)
{
	static const char *const phases[] = { "write", "flush", "verify",
					      "read" };
	const struct jsonread_node *region = jsonread_get(t, "region");
	const struct jsonread_node *reasons = jsonread_get(t, "reasons");
	struct engine_snap *s = &d->snap;
	char why[sizeof(d->j.reasons[0])];
	size_t i;
	int p, c;

	copy_str(t, "label", d->label, sizeof(d->label));
	copy_str(t, "name", d->t.id.name, sizeof(d->t.id.name));
	if (!d->label[0])
		snprintf(d->label, sizeof(d->label), "%s", d->t.id.name);
	copy_str(t, "identity", d->t.id.identity, sizeof(d->t.id.identity));
	copy_str(t, "model", d->t.id.model, sizeof(d->t.id.model));
	copy_str(t, "serial", d->t.id.serial, sizeof(d->t.id.serial));
	copy_str(t, "wwn", d->t.id.wwid, sizeof(d->t.id.wwid));
	if (!d->t.id.wwid[0])
		copy_str(t, "wwid", d->t.id.wwid, sizeof(d->t.id.wwid));
	d->t.kind = strcmp(jsonread_str(t, "kind", "block"), "file") ?
		    TARGET_BLOCK : TARGET_FILE;
	d->t.size = jsonread_u64(t, "size", 0);
	d->t.lbs = (unsigned)jsonread_u64(t, "logical_block_size", 512);
	d->t.pbs = (unsigned)jsonread_u64(t, "physical_block_size", 512);
	d->t.ident = strtoull(jsonread_str(t, "identity_hash", "0"), NULL, 16);
	d->t.direct = jsonread_bool(t, "direct_io", 1);
	d->t.read_only = jsonread_bool(t, "read_only", 0);
	d->t.id.rotational = jsonread_type(jsonread_get(t, "rotational")) ==
			     JSONREAD_BOOL ? jsonread_bool(t, "rotational", 0) :
			     -1;
	c = index_of(jsonread_str(t, "class", NULL), class_namer,
		     SAFETY_BLANK + 1);
	d->t.safety.class = c < 0 ? SAFETY_HAS_DATA : c;
	copy_str(t, "class_reasons", d->t.safety.why, sizeof(d->t.safety.why));
	/* What the plan decided and why, for the document written again. */
	copy_str(t, "safety", safety, len);
	d->plan.why = safety[0] ? safety : NULL;

	d->ep.mode = index_of(jsonread_str(t, "mode", NULL), mode_namer,
			      ENGINE_READ + 1);
	if (d->ep.mode < 0)
		d->ep.mode = ENGINE_WRITE_VERIFY;
	for (i = 0; i < jsonread_count(region) && i < ENGINE_MAX_EXTENTS; i++) {
		const struct jsonread_node *e = jsonread_at(region, i);

		d->ep.ext[i].offset = jsonread_u64(e, "offset", 0);
		d->ep.ext[i].length = jsonread_u64(e, "length", 0);
		d->ep.region += d->ep.ext[i].length;
	}
	d->ep.next = (int)i;
	d->ep.write_passes = (unsigned)jsonread_u64(t, "write_passes_allowed",
						    0);
	s->plan = d->ep;

	c = index_of(jsonread_str(t, "state", NULL), state_namer,
		     STATE_NOT_STARTED + 1);
	s->c.state = c < 0 ? STATE_STOPPED : c;
	copy_str(t, "stopped_because", s->why, sizeof(s->why));
	s->c.bytes_written = jsonread_u64(t, "bytes_written", 0);
	s->c.bytes_read = jsonread_u64(t, "bytes_read", 0);
	s->c.io_errors = (unsigned)jsonread_u64(jsonread_get(t, "io_errors"),
						"count", 0);
	s->c.bad_units = (unsigned)jsonread_u64(jsonread_get(t, "bad_units"),
						"count", 0);
	s->bad_transient = (unsigned)jsonread_u64(jsonread_get(t, "bad_units"),
						  "good_on_reread", 0);
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		s->bad_by_class[c] = (unsigned)jsonread_u64(
			jsonread_path(t, "/bad_units/by_class"),
			unit_class_name((enum unit_class)c), 0);
	s->not_written = (unsigned)jsonread_u64(t, "units_not_written", 0);
	s->later_pass = (unsigned)jsonread_u64(t, "units_of_later_passes", 0);
	s->region_writes = (unsigned)jsonread_u64(t, "region_writes", 0);
	s->verified_pass = (uint32_t)jsonread_u64(t, "verified_pass", 0);
	s->pass_found = jsonread_bool(t, "pass_found_on_disk", 1);
	s->last_written = (uint32_t)jsonread_u64(t, "last_pass_written", 0);
	s->last_reached = jsonread_u64(t, "last_pass_reached", 0);
	if (jsonread_get(t, "guard")) {
		const struct jsonread_node *g = jsonread_get(t, "guard");

		d->ep.guard = s->plan.guard = 1;
		s->guard_checked = jsonread_u64(g, "checked", 0);
		s->guard_stopped = jsonread_get(g, "stopped_at") != NULL;
		s->guard_at = jsonread_u64(g, "stopped_at", 0);
		/* Which error is kept in words only: EIO says "not read". */
		s->guard_err = jsonread_get(g, "error") ? EIO : 0;
		copy_str(g, "found", d->guard_found, sizeof(d->guard_found));
	}
	for (i = 0; i < 4; i++) {
		const struct jsonread_node *ph = jsonread_get(
			jsonread_get(t, "phases"), phases[i]);

		p = index_of(phases[i], phase_namer, PHASES);
		s->phase_bytes[p] = jsonread_u64(ph, "bytes", 0);
		s->phase_ns[p] = (uint64_t)(jsonread_num(ph, "seconds", 0) *
					    (double)TIMING_SEC);
		mt->seconds[p] = (unsigned)jsonread_u64(ph, "whole_seconds", 0);
		mt->min[p] = jsonread_num(ph, "min_mbps", -1);
		mt->max[p] = jsonread_num(ph, "max_mbps", 0);
	}
	d->mt = mt;
	restore_health(jsonread_path(t, "/smart/before"), &d->before);
	restore_health(jsonread_path(t, "/smart/after"), &d->after);
	d->j.verdict = index_of(jsonread_str(t, "verdict", NULL),
				(const char *(*)(int))judge_name, 3);
	if (d->j.verdict < 0)
		d->j.verdict = JUDGE_PASS;
	for (i = 0; i < jsonread_count(reasons) && i < JUDGE_MAX_REASONS; i++) {
		copy_str(jsonread_at(reasons, i), NULL, why, sizeof(why));
		snprintf(d->j.reasons[d->j.nreasons++], sizeof(why), "%s", why);
	}
	vitals_out_read_disk(t, d);
	return restore_lists(t, s);
}

static void restore_settings(const struct jsonread_node *s,
			     struct settings *out)
{
	const char *mode = jsonread_str(s, "mode", NULL);
	int i;

	settings_defaults(out, SCOPE_BURN);
	for (i = 0; mode && i <= SETTINGS_READ; i++)
		if (!strcmp(mode, settings_mode_name(i)))
			out->mode = i;
	out->bs = jsonread_u64(s, "bs", out->bs);
	out->qd = (unsigned)jsonread_u64(s, "qd", out->qd);
	out->passes = (unsigned)jsonread_u64(s, "passes", out->passes);
	if (!out->passes)
		out->passes = 1;
	out->duration = jsonread_u64(s, "duration_seconds", 0);
	out->offset = jsonread_u64(s, "offset", 0);
	out->span = jsonread_u64(s, "span", 0);
	out->quick = jsonread_bool(s, "quick", 0);
	out->deadline = (unsigned)jsonread_u64(s, "deadline_seconds",
					       out->deadline);
	out->interval = (unsigned)jsonread_u64(s, "interval_seconds",
					       out->interval);
	out->slow_warn = (unsigned)jsonread_u64(s, "slow_warn_percent",
						out->slow_warn);
	out->slow_fail = (unsigned)jsonread_u64(s, "slow_fail_percent",
						out->slow_fail);
	out->solo = jsonread_u64(s, "solo_seconds", 0);
}

int restore_record(const struct jsonread_node *doc, struct restored *out,
		   char *err, size_t errlen)
{
	const struct jsonread_node *targets = jsonread_get(doc, "targets");
	const struct jsonread_node *notes = jsonread_get(doc, "notes");
	const struct jsonread_node *fw = jsonread_get(doc, "firmware");
	struct record *r = &out->r;
	char text[1024];
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	if (strcmp(jsonread_str(doc, "schema", ""), "kiln-result")) {
		snprintf(err, errlen, "not a kiln result");
		return -EBADMSG;
	}
	if (jsonread_u64(doc, "schema_version", 0) < RESULT_SCHEMA_UTF8)
		jsonread_bytes_latin1(doc);
	restore_settings(jsonread_get(doc, "settings"), &out->s);
	copy_str(doc, "command", out->command, sizeof(out->command));
	record_init(r, out->command[0] ? out->command : "burn", 0, NULL,
		    &out->s);
	copy_str(doc, "verified_from", out->from, sizeof(out->from));
	if (out->from[0])
		r->from = out->from;
	r->run_id = strtoull(jsonread_str(doc, "run_id", "0"), NULL, 16);
	r->started = utc(jsonread_str(doc, "started", NULL));
	r->ended = utc(jsonread_str(doc, "ended", NULL));
	r->elapsed_ns = (uint64_t)(jsonread_num(doc, "elapsed_seconds", 0) *
				   (double)TIMING_SEC);
	r->firmware.efi = jsonread_bool(fw, "efi", 0);
	r->firmware.secure_boot = jsonread_type(jsonread_get(fw, "secure_boot"))
				  == JSONREAD_BOOL ?
				  jsonread_bool(fw, "secure_boot", 0) : -1;
	copy_str(fw, "lockdown", r->firmware.lockdown,
		 sizeof(r->firmware.lockdown));
	copy_str(doc, "failure", r->failure, sizeof(r->failure));
	copy_str(doc, "crc32c", r->crc32c, sizeof(r->crc32c));
	r->results_lost = !jsonread_bool(doc, "results_complete", 1);
	for (i = 0; i < jsonread_count(notes); i++) {
		copy_str(jsonread_at(notes, i), NULL, text, sizeof(text));
		record_note(r, "%s", text);
	}
	if (peers_out_restore(doc, r))
		return -ENOMEM;
	out->mt = calloc(jsonread_count(targets) + 1, sizeof(*out->mt));
	out->safety = calloc(jsonread_count(targets) + 1,
			     sizeof(*out->safety));
	if (!out->mt || !out->safety)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(targets); i++) {
		const struct jsonread_node *t = jsonread_at(targets, i);
		struct record_disk *d;

		copy_str(t, "path", text, sizeof(text));
		d = record_add(r, text[0] ? text : "?", out->s.mode);
		if (!d)
			return -ENOMEM;
		ret = restore_disk(t, d, &out->mt[i], out->safety[i],
				   sizeof(out->safety[i]));
		if (ret)
			return ret;
		peers_out_restore_disk(t, r, d);
	}
	return vitals_out_read_machine(doc, r);
}

void restore_free(struct restored *out)
{
	record_free(&out->r);
	settings_free(&out->s);
	free(out->mt);
	free(out->safety);
	memset(out, 0, sizeof(*out));
}
