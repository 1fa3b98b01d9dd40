/* SPDX-License-Identifier: MIT */
/*
 * Description: result.json, the run told for machines: everything known,
 * versioned (schema kiln-result, RESULT_SCHEMA), from the run's one record.
 * It is also the run record a later verify reads (DESIGN.md "The run
 * record"): per disk its identity, size, region, bs, the last pass written
 * and where it stopped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/crc32c.h"
#include "base/json.h"
#include "base/jsonread.h"
#include "results/folder.h"
#include "results/peers_out.h"
#include "results/result.h"
#include "results/smart_out.h"
#include "results/vitals_out.h"
#include "results/summary.h"
#include "base/timing.h"
#include "base/version.h"
#include "judge/zones.h"


static void hex64(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%016llx", (unsigned long long)v);
}

static void json_phase_stats(struct json *j, const struct record_disk *d,
			     int phase)
{
	const struct engine_snap *s = &d->snap;
	double min, max;

	json_begin(j, engine_phase_name(phase));
	json_u64(j, "bytes", s->phase_bytes[phase]);
	json_num(j, "seconds", timing_secs(s->phase_ns[phase]));
	json_num(j, "avg_mbps", judge_phase_rate(s, phase));
	if (summary_min_max(d, phase, &min, &max)) {
		json_num(j, "min_mbps", min);
		json_num(j, "max_mbps", max);
	} else {
		json_null(j, "min_mbps");
		json_null(j, "max_mbps");
	}
	json_u64(j, "whole_seconds", d->mt ? d->mt->seconds[phase] : 0);
	json_end(j);
}

static void json_bad(struct json *j, const struct engine_bad *b)
{
	const struct unit_verdict *v = &b->v;
	char h[20];
	unsigned i, nbits;

	json_begin(j, NULL);
	json_u64(j, "offset", b->offset);
	json_str(j, "class", unit_class_name(v->class));
	json_u64(j, "pass", b->pass);
	json_str(j, "reread", engine_retry_name(b->retry));
	json_u64(j, "bits_differing", v->nbits);
	nbits = v->nbits < UNIT_MAX_BITS ? v->nbits : UNIT_MAX_BITS;
	json_array(j, "bit_positions");
	for (i = 0; i < nbits && v->class == UNIT_BITFLIP; i++)
		json_u64(j, NULL, v->bits[i]);
	json_array_end(j);
	json_u64(j, "sectors_bad_mask", v->sectors_bad);
	if (v->found_valid) {
		json_begin(j, "found");
		hex64(h, sizeof(h), v->found.run_id);
		json_str(j, "run_id", h);
		hex64(h, sizeof(h), v->found.ident);
		json_str(j, "identity_hash", h);
		json_u64(j, "offset", v->found.offset);
		json_u64(j, "pass", v->found.pass);
		json_end(j);
	}
	json_end(j);
}

static void json_target(struct json *j, const struct record *r,
			const struct record_disk *d)
{
	const struct target *t = &d->t;
	const struct engine_snap *et = &d->snap;
	const struct engine_plan *p = &d->ep;
	char h[20];
	unsigned i;
	int c;

	json_begin(j, NULL);
	json_str(j, "path", d->path);
	identity_json(j, &t->id);
	json_str(j, "label", d->label);
	json_str(j, "kind", t->kind == TARGET_BLOCK ? "block" : "file");
	hex64(h, sizeof(h), t->ident);
	json_str(j, "identity_hash", h);
	json_u64(j, "size", t->size);
	json_u64(j, "logical_block_size", t->lbs);
	json_u64(j, "physical_block_size", t->pbs);
	json_bool(j, "direct_io", t->direct);
	json_bool(j, "read_only", t->read_only);
	safety_json(j, &t->safety);
	json_str(j, "safety", d->plan.why);
	json_u64(j, "bs", r->s->bs);
	json_array(j, "region");
	for (c = 0; c < p->next; c++) {
		json_begin(j, NULL);
		json_u64(j, "offset", p->ext[c].offset);
		json_u64(j, "length", p->ext[c].length);
		json_end(j);
	}
	json_array_end(j);
	json_u64(j, "write_passes_allowed", p->write_passes);

	json_str(j, "state", engine_state_name(et->c.state));
	json_str(j, "stopped_because", et->why[0] ? et->why : NULL);
	json_u64(j, "bytes_written", et->c.bytes_written);
	json_u64(j, "bytes_read", et->c.bytes_read);
	json_u64(j, "region_writes", et->region_writes);
	/* The run record: what a later verify must know (DESIGN.md). */
	json_u64(j, "last_pass_written", et->last_written);
	json_u64(j, "last_pass_reached", et->last_reached);
	json_bool(j, "last_pass_complete", et->last_written &&
		  et->last_reached == p->region);
	if (p->guard) {
		/* The guarded write: what it read before writing, and why not. */
		json_begin(j, "guard");
		json_u64(j, "checked", et->guard_checked);
		if (et->guard_stopped) {
			json_u64(j, "stopped_at", et->guard_at);
			json_str(j, "found", d->guard_found[0] ?
					     d->guard_found : et->guard_err ?
					     "could not be read" : "unknown data");
			if (et->guard_err)
				json_str(j, "error", strerror(et->guard_err));
		}
		json_end(j);
	}
	json_str(j, "mode", engine_mode_name(p->mode));
	if (p->mode == ENGINE_VERIFY || p->mode == ENGINE_WRITE_VERIFY)
		json_u64(j, "verified_pass", et->verified_pass);
	if (p->mode == ENGINE_VERIFY && !p->verify_pass)
		json_bool(j, "pass_found_on_disk", et->pass_found);
	json_begin(j, "phases");
	json_phase_stats(j, d, PHASE_WRITE);
	json_phase_stats(j, d, PHASE_FLUSH);
	json_phase_stats(j, d, PHASE_VERIFY);
	json_phase_stats(j, d, PHASE_READ);
	if (p->guard)
		json_phase_stats(j, d, PHASE_GUARD);
	json_end(j);
	json_array(j, "passes");
	for (i = 0; i < et->npasses; i++) {
		const struct engine_pass *ps = &et->passes[i];

		json_begin(j, NULL);
		json_u64(j, "pass", ps->pass);
		json_str(j, "phase", engine_phase_name(ps->phase));
		json_u64(j, "bytes", ps->bytes);
		json_num(j, "seconds", timing_secs(ps->ns));
		json_u64(j, "reached", ps->reached);
		json_bool(j, "complete", ps->complete);
		json_u64(j, "errors", ps->errors);
		json_u64(j, "bad_units", ps->bad_units);
		json_u64(j, "run", ps->seq);
		json_end(j);
	}
	json_array_end(j);
	/* The runs left out of "passes" are in these (engine.h). */
	json_u64(j, "passes_folded", et->folded);
	json_begin(j, "pass_totals");
	for (c = PHASE_WRITE; c < PHASE_END; c++) {
		const struct engine_pass_total *pt = &et->totals[c];

		json_begin(j, engine_phase_name(c));
		json_u64(j, "passes", pt->passes);
		json_u64(j, "bytes", pt->bytes);
		json_num(j, "seconds", timing_secs(pt->ns));
		json_u64(j, "errors", pt->errors);
		json_u64(j, "bad_units", pt->bad_units);
		json_end(j);
	}
	json_end(j);
	zones_json(j, et, d->t.id.rotational);
	reread_json(j, et, &d->rr);

	json_begin(j, "io_errors");
	json_u64(j, "count", et->c.io_errors);
	json_array(j, "first");
	for (i = 0; i < et->nerrors; i++) {
		const struct engine_error *e = &et->errors[i];

		json_begin(j, NULL);
		json_str(j, "phase", engine_phase_name(e->phase));
		json_u64(j, "pass", e->pass);
		json_u64(j, "offset", e->offset);
		json_u64(j, "length", e->length);
		json_u64(j, "requests", e->count);
		json_i64(j, "errno", e->err);
		json_str(j, "error", strerror(e->err));
		json_end(j);
	}
	json_array_end(j);
	json_end(j);

	json_u64(j, "units_not_written", et->not_written);
	json_u64(j, "units_of_later_passes", et->later_pass);
	json_begin(j, "bad_units");
	json_u64(j, "count", et->c.bad_units);
	json_u64(j, "good_on_reread", et->bad_transient);
	json_begin(j, "by_class");
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		json_u64(j, unit_class_name((enum unit_class)c),
			 et->bad_by_class[c]);
	json_end(j);
	json_array(j, "first");
	for (i = 0; i < et->nbad; i++)
		json_bad(j, &et->bad[i]);
	json_array_end(j);
	json_end(j);

	json_begin(j, "smart");
	smart_out_json(j, "before", &d->before.c, SMART_OUT_HEALTH);
	smart_out_json(j, "after", &d->after.c, SMART_OUT_HEALTH);
	json_end(j);
	peers_out_json_disk(j, r, d);
	vitals_out_disk(j, r, d);
	json_str(j, "verdict", judge_name(d->j.verdict));
	json_array(j, "reasons");
	for (c = 0; c < d->j.nreasons; c++)
		json_str(j, NULL, d->j.reasons[c]);
	json_array_end(j);
	json_end(j);
}

/* What the lab's servers got: the upload folder, the metrics pushes. */
static void json_lab(struct json *j, const struct record *o)
{
	const struct record_lab *l = &o->lab;
	int i;

	if (!l->upload[0] && !l->metrics[0])
		return;
	json_begin(j, "lab");
	if (l->upload[0]) {
		json_begin(j, "upload");
		json_str(j, "folder", l->upload);
		json_bool(j, "only_copy", l->upload_only);
		json_array(j, "not_arrived");
		for (i = 0; i < l->nlost; i++) {
			json_begin(j, NULL);
			json_str(j, "file", l->lost[i].name);
			json_str(j, "why", l->lost[i].why);
			json_end(j);
		}
		json_array_end(j);
		json_end(j);
	}
	if (l->metrics[0]) {
		json_begin(j, "metrics");
		json_str(j, "pushgateway", l->metrics);
		json_u64(j, "pushes", l->pushes);
		json_u64(j, "failures", l->push_failures);
		json_str(j, "last_error", l->push_error[0] ? l->push_error :
			 NULL);
		json_end(j);
	}
	json_end(j);
}

char *result_json(const struct record *o, size_t *len)
{
	const struct settings *s = o->s;
	struct utsname u;
	struct json j;
	char buf[64];
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "schema", "kiln-result");
	json_u64(&j, "schema_version", RESULT_SCHEMA);
	json_str(&j, "kiln_version", version_string());
	if (uname(&u) == 0) {
		json_str(&j, "kernel", u.release);
		json_str(&j, "kernel_build", u.version);
		json_str(&j, "host", u.nodename);
	}
	json_str(&j, "crc32c", o->crc32c[0] ? o->crc32c : crc32c_name());
	json_begin(&j, "firmware");
	json_bool(&j, "efi", o->firmware.efi);
	if (o->firmware.secure_boot < 0)
		json_null(&j, "secure_boot");
	else
		json_bool(&j, "secure_boot", o->firmware.secure_boot);
	json_str(&j, "lockdown", o->firmware.lockdown[0] ?
		 o->firmware.lockdown : NULL);
	json_end(&j);
	if (o->have_net) {
		const struct iperf *n = &o->net;

		json_begin(&j, "network");
		json_str(&j, "iperf3_server", n->server);
		json_u64(&j, "seconds", n->seconds);
		if (n->sent_mbps >= 0)
			json_num(&j, "sent_mbps", n->sent_mbps);
		else
			json_null(&j, "sent_mbps");
		if (n->received_mbps >= 0)
			json_num(&j, "received_mbps", n->received_mbps);
		else
			json_null(&j, "received_mbps");
		json_str(&j, "error", n->error[0] ? n->error : NULL);
		json_end(&j);
	}
	json_lab(&j, o);
	if (o->machine[0])
		json_str(&j, "machine_id", o->machine);
	json_str(&j, "command", o->command);
	json_array(&j, "argv");
	for (i = 0; i < o->argc; i++)
		json_str(&j, NULL, o->argv[i]);
	json_array_end(&j);
	hex64(buf, sizeof(buf), o->run_id);
	json_str(&j, "run_id", buf);
	json_str(&j, "started",
		 timing_fmt_utc(o->started, 0, buf, sizeof(buf)));
	json_str(&j, "ended", o->ended ?
		 timing_fmt_utc(o->ended, 0, buf, sizeof(buf)) : NULL);
	json_bool(&j, "clock_trusted", timing_clock_trusted(o->started));
	json_num(&j, "elapsed_seconds", timing_secs(o->elapsed_ns));
	json_str(&j, "state", o->state);
	/* A verify's run record: kiln finish judges it as it was judged. */
	json_str(&j, "verified_from", o->from);
	if (o->pending_of)
		json_str(&j, "pending_of", o->pending_of);

	json_begin(&j, "settings");
	json_str(&j, "mode", settings_mode_name(s->mode));
	json_u64(&j, "bs", s->bs);
	json_u64(&j, "qd", s->qd);
	json_u64(&j, "passes", settings_passes(s));
	json_u64(&j, "duration_seconds", s->duration);
	json_u64(&j, "offset", s->offset);
	json_u64(&j, "span", s->span);
	json_bool(&j, "quick", s->quick);
	if (s->max_writes_set)
		json_u64(&j, "max_writes", s->max_writes);
	else
		json_str(&j, "max_writes", "default");
	json_u64(&j, "deadline_seconds", s->deadline);
	json_u64(&j, "interval_seconds", s->interval);
	json_u64(&j, "slow_warn_percent", s->slow_warn);
	json_u64(&j, "slow_fail_percent", s->slow_fail);
	json_u64(&j, "solo_seconds", s->solo);
	if (s->destroy_list)
		json_str(&j, "destroy_data", s->destroy_list);
	else
		json_bool(&j, "destroy_data", s->destroy_data);
	json_end(&j);

	json_array(&j, "notes");
	for (i = 0; i < o->nnotes; i++)
		json_str(&j, NULL, o->notes[i]);
	json_array_end(&j);

	json_array(&j, "targets");
	for (i = 0; i < o->n; i++)
		json_target(&j, o, &o->disks[i]);
	json_array_end(&j);
	peers_out_json(&j, o);

	vitals_out_machine(&j, o);
	json_str(&j, "failure", o->failure[0] ? o->failure : NULL);
	json_bool(&j, "results_complete", !o->results_lost);
	json_str(&j, "verdict", o->state && !strcmp(o->state, "running") ?
		 NULL : judge_name(o->verdict));
	json_i64(&j, "exit_code", o->exit_code);
	json_end(&j);
	return json_take(&j, len);
}


int result_too_large(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size <= RESULT_MAX_BYTES)
		return 0;
	snprintf(err, errlen, "%s is %llu bytes, over the limit of %zu that "
		 "kiln reads (a record of a kiln before schema 3, which kept "
		 "every pass)", path, (unsigned long long)st.st_size,
		 (size_t)RESULT_MAX_BYTES);
	return -EFBIG;
}

int result_checkpoint_too_large(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int i, ret;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 folder_checkpoints[i]);
		ret = result_too_large(path, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

static int engine_mode_of(const char *name)
{
	static const char *const names[] = { "write-verify", "write", "verify",
					     "read" };
	int i;

	for (i = 0; name && i < 4; i++)
		if (!strcmp(name, names[i]))
			return ENGINE_WRITE_VERIFY + i;
	return -1;
}

/*
 * Version 1 records have no last_pass_* fields: the last write pass and
 * how far it got are read off the pass list (bytes moved stand in for
 * how far a pass got, exact unless it met errors).
 */
static void last_write_v1(const struct jsonread_node *t, struct result_disk *d)
{
	const struct jsonread_node *passes = jsonread_get(t, "passes");
	size_t i;

	for (i = 0; i < jsonread_count(passes); i++) {
		const struct jsonread_node *p = jsonread_at(passes, i);
		const char *phase = jsonread_str(p, "phase", "");

		if (strcmp(phase, "write"))
			continue;
		d->last_written = (uint32_t)jsonread_u64(p, "pass", 0);
		d->last_reached = jsonread_u64(p, "bytes", 0);
		d->complete = jsonread_bool(p, "complete", 0);
	}
	if (d->complete)
		d->last_reached = d->ep.region;
}

static int read_disk(const struct jsonread_node *t, struct result_disk *d,
		     int version, char *err, size_t errlen)
{
	const struct jsonread_node *region = jsonread_get(t, "region");
	size_t i;
	int ret;

	ret = jsonread_get_bytes(t, "identity", d->identity,
				 sizeof(d->identity), NULL);
	if (ret || !d->identity[0]) {
		snprintf(err, errlen, "a target without an identity");
		return -EBADMSG;
	}
	if (jsonread_get_bytes(t, "path", d->path, sizeof(d->path), NULL))
		d->path[0] = 0;
	if (jsonread_get_u64(t, "size", &d->size)) {
		snprintf(err, errlen, "%s: no size", d->identity);
		return -EBADMSG;
	}
	d->ep.mode = engine_mode_of(jsonread_str(t, "mode", NULL));
	d->verdict = jsonread_str(t, "verdict", NULL);
	/* It never ran, so it has no region: nothing of it to verify. */
	d->not_started = !strcmp(jsonread_str(t, "state", ""), "not started");
	if (d->not_started && !jsonread_count(region))
		return 0;
	if (!jsonread_count(region) ||
	    jsonread_count(region) > ENGINE_MAX_EXTENTS) {
		snprintf(err, errlen, "%s: no region", d->identity);
		return -EBADMSG;
	}
	for (i = 0; i < jsonread_count(region); i++) {
		const struct jsonread_node *e = jsonread_at(region, i);

		if (jsonread_get_u64(e, "offset", &d->ep.ext[i].offset) ||
		    jsonread_get_u64(e, "length", &d->ep.ext[i].length) ||
		    d->ep.ext[i].length % UNIT_SIZE ||
		    d->ep.ext[i].offset % 512) {
			snprintf(err, errlen, "%s: a bad region", d->identity);
			return -EBADMSG;
		}
		/* Nothing would be read, and nothing found wrong: no PASS. */
		if (!d->ep.ext[i].length) {
			snprintf(err, errlen, "%s: \"region\" %zu is 0 bytes "
				 "long: nothing there to verify", d->identity,
				 i);
			return -EBADMSG;
		}
		d->ep.region += d->ep.ext[i].length;
	}
	d->ep.next = (int)i;
	if (version >= 2) {
		d->last_written = (uint32_t)jsonread_u64(t, "last_pass_written",
							 0);
		d->last_reached = jsonread_u64(t, "last_pass_reached", 0);
		d->complete = jsonread_bool(t, "last_pass_complete", 0);
	} else {
		last_write_v1(t, d);
	}
	if (d->last_reached > d->ep.region)
		d->last_reached = d->ep.region;
	return 0;
}

static int read_record(const struct jsonread_node *root,
		       struct result_record *rec, char *err, size_t errlen)
{
	const struct jsonread_node *targets = jsonread_get(root, "targets");
	const char *id = jsonread_str(root, "run_id", "");
	size_t i;
	char *end;
	int ret;

	if (strcmp(jsonread_str(root, "schema", ""), "kiln-result")) {
		snprintf(err, errlen, "not a kiln result (no \"schema\": "
			 "\"kiln-result\")");
		return -EBADMSG;
	}
	rec->schema_version = (int)jsonread_u64(root, "schema_version", 0);
	if (rec->schema_version < 1 || rec->schema_version > RESULT_SCHEMA) {
		snprintf(err, errlen, "schema version %d, which this kiln does "
			 "not know (it reads 1 to %d)", rec->schema_version,
			 RESULT_SCHEMA);
		return -EBADMSG;
	}
	if (rec->schema_version < RESULT_SCHEMA_UTF8)
		jsonread_bytes_latin1(root);
	rec->run_id = strtoull(id, &end, 16);
	/* 0 is no run id: a verify would draw a fresh one and FAIL all. */
	if (!*id || *end || strlen(id) > 16 || !rec->run_id) {
		snprintf(err, errlen, "no run id");
		return -EBADMSG;
	}
	rec->bs = jsonread_u64(jsonread_get(root, "settings"), "bs", 0);
	snprintf(rec->state, sizeof(rec->state), "%s",
		 jsonread_str(root, "state", ""));
	snprintf(rec->verdict, sizeof(rec->verdict), "%s",
		 jsonread_str(root, "verdict", ""));
	rec->disks = calloc(jsonread_count(targets) + 1, sizeof(*rec->disks));
	if (!rec->disks)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(targets); i++) {
		ret = read_disk(jsonread_at(targets, i), &rec->disks[rec->n],
				rec->schema_version, err, errlen);
		if (ret)
			return ret;
		rec->n++;
	}
	return 0;
}

int result_load(const char *dir, struct result_record *rec, char *err,
		size_t errlen)
{
	const struct jsonread_node *root;
	struct jsonread *doc = NULL;
	char path[PATH_MAX], why[300] = "";
	int ret;

	memset(rec, 0, sizeof(*rec));
	snprintf(path, sizeof(path), "%s/result.json", dir);
	/* Too large is not torn: an older checkpoint would tell another run. */
	ret = result_too_large(path, err, errlen);
	if (ret)
		return ret;
	ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
	root = ret ? NULL : jsonread_root(doc);
	/* Cut off before result.json, or torn: the newest good checkpoint. */
	if (ret && ret != -E2BIG &&
	    result_checkpoint_too_large(dir, err, errlen)) {
		jsonread_free(doc);
		return -EFBIG;
	}
	if (ret && ret != -E2BIG &&
	    folder_newest(dir, path, sizeof(path), NULL) == 0) {
		jsonread_free(doc);
		doc = NULL;
		ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
		root = ret ? NULL : jsonread_get(jsonread_root(doc), "result");
		rec->from_checkpoint = 1;
		if (!ret && !root) {
			ret = -EBADMSG;
			snprintf(why, sizeof(why), "no \"result\" in it");
		}
	}
	if (ret) {
		snprintf(err, errlen, "cannot read the run record %s: %s",
			 path, why[0] ? why : strerror(-ret));
		jsonread_free(doc);
		return ret;
	}
	ret = read_record(root, rec, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "cannot read the run record %s: %s", path,
			 why);
		result_record_free(rec);
	} else {
		/* Verdict strings point into the document: keep it. */
		rec->doc = doc;
		doc = NULL;
	}
	jsonread_free(doc);
	return ret;
}

void result_record_free(struct result_record *rec)
{
	free(rec->disks);
	jsonread_free(rec->doc);
	memset(rec, 0, sizeof(*rec));
}

const struct result_disk *result_find(const struct result_record *rec,
				      const char *identity)
{
	int i;

	for (i = 0; i < rec->n; i++)
		if (!strcmp(rec->disks[i].identity, identity))
			return &rec->disks[i];
	return NULL;
}
