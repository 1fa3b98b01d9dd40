/* SPDX-License-Identifier: MIT */
/*
 * Description: result.json, the run told for machines: everything known,
 * versioned (schema kiln-result, RESULT_SCHEMA), from the run's one record.
 * It is also the run record a later verify reads (DESIGN.md "The run
 * record"): per disk its identity, size, region, bs, the last pass written
 * and where it stopped; result_read.c reads it back so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/crc32c.h"
#include "base/json.h"
#include "results/peers_out.h"
#include "results/result.h"
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

static void json_counter(struct json *j, const char *key, long long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void json_health(struct json *j, const char *key,
			const struct health *h)
{
	if (!h || !h->ran) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	if (h->passed < 0)
		json_null(j, "passed");
	else
		json_bool(j, "passed", h->passed);
	json_counter(j, "reallocated_sectors", h->realloc);
	json_counter(j, "pending_sectors", h->pending);
	json_counter(j, "offline_uncorrectable", h->uncorrectable);
	json_counter(j, "crc_errors", h->crc_errors);
	json_counter(j, "media_errors", h->media_errors);
	json_counter(j, "critical_warning", h->critical_warning);
	json_counter(j, "grown_defects", h->grown_defects);
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

/* What the disk is, and what its plan let the burn do to it. */
static void json_target_what(struct json *j, const struct record *r,
			     const struct record_disk *d)
{
	const struct target *t = &d->t;
	const struct engine_plan *p = &d->ep;
	char h[20];
	int c;

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
}

/* Where its burn got to: the run record a later verify reads. */
static void json_target_burn(struct json *j, const struct record_disk *d)
{
	const struct engine_snap *et = &d->snap;
	const struct engine_plan *p = &d->ep;

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
}

/* Each phase, each pass (folded past 16 a phase) and their totals. */
static void json_target_passes(struct json *j, const struct record_disk *d)
{
	const struct engine_snap *et = &d->snap;
	unsigned i;
	int c;

	json_begin(j, "phases");
	json_phase_stats(j, d, PHASE_WRITE);
	json_phase_stats(j, d, PHASE_FLUSH);
	json_phase_stats(j, d, PHASE_VERIFY);
	json_phase_stats(j, d, PHASE_READ);
	if (d->ep.guard)
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
}

/* What went wrong: failed requests and bad units, the first of each. */
static void json_target_errors(struct json *j, const struct record_disk *d)
{
	const struct engine_snap *et = &d->snap;
	unsigned i;
	int c;

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
}

static void json_target(struct json *j, const struct record *r,
			const struct record_disk *d)
{
	int c;

	json_begin(j, NULL);
	json_target_what(j, r, d);
	json_target_burn(j, d);
	json_target_passes(j, d);
	zones_json(j, &d->snap, d->t.id.rotational);
	reread_json(j, &d->snap, &d->rr);
	json_target_errors(j, d);
	json_begin(j, "smart");
	json_health(j, "before", &d->before);
	json_health(j, "after", &d->after);
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

/* The schema, and the machine and kernel the run had. */
static void json_machine(struct json *j, const struct record *o)
{
	struct utsname u;

	json_str(j, "schema", "kiln-result");
	json_u64(j, "schema_version", RESULT_SCHEMA);
	json_str(j, "kiln_version", version_string());
	if (uname(&u) == 0) {
		json_str(j, "kernel", u.release);
		json_str(j, "kernel_build", u.version);
		json_str(j, "host", u.nodename);
	}
	json_str(j, "crc32c", o->crc32c[0] ? o->crc32c : crc32c_name());
	json_begin(j, "firmware");
	json_bool(j, "efi", o->firmware.efi);
	if (o->firmware.secure_boot < 0)
		json_null(j, "secure_boot");
	else
		json_bool(j, "secure_boot", o->firmware.secure_boot);
	json_str(j, "lockdown", o->firmware.lockdown[0] ?
		 o->firmware.lockdown : NULL);
	json_end(j);
	if (o->have_net) {
		const struct iperf *n = &o->net;

		json_begin(j, "network");
		json_str(j, "iperf3_server", n->server);
		json_u64(j, "seconds", n->seconds);
		if (n->sent_mbps >= 0)
			json_num(j, "sent_mbps", n->sent_mbps);
		else
			json_null(j, "sent_mbps");
		if (n->received_mbps >= 0)
			json_num(j, "received_mbps", n->received_mbps);
		else
			json_null(j, "received_mbps");
		json_str(j, "error", n->error[0] ? n->error : NULL);
		json_end(j);
	}
}

/* The run: what started it, when, and how far it got. */
static void json_run(struct json *j, const struct record *o)
{
	char buf[64];
	int i;

	if (o->machine[0])
		json_str(j, "machine_id", o->machine);
	json_str(j, "command", o->command);
	json_array(j, "argv");
	for (i = 0; i < o->argc; i++)
		json_str(j, NULL, o->argv[i]);
	json_array_end(j);
	hex64(buf, sizeof(buf), o->run_id);
	json_str(j, "run_id", buf);
	json_str(j, "started",
		 timing_fmt_utc(o->started, 0, buf, sizeof(buf)));
	json_str(j, "ended", o->ended ?
		 timing_fmt_utc(o->ended, 0, buf, sizeof(buf)) : NULL);
	json_bool(j, "clock_trusted", timing_clock_trusted(o->started));
	json_num(j, "elapsed_seconds", timing_secs(o->elapsed_ns));
	json_str(j, "state", record_state_name(o->state));
	/* A verify's run record: kiln finish judges it as it was judged. */
	json_str(j, "verified_from", o->from);
	if (o->pending_of)
		json_str(j, "pending_of", o->pending_of);
}

static void json_settings(struct json *j, const struct settings *s)
{
	json_begin(j, "settings");
	json_str(j, "mode", settings_mode_name(s->mode));
	json_u64(j, "bs", s->bs);
	json_u64(j, "qd", s->qd);
	json_u64(j, "passes", settings_passes(s));
	json_u64(j, "duration_seconds", s->duration);
	json_u64(j, "offset", s->offset);
	json_u64(j, "span", s->span);
	json_bool(j, "quick", s->quick);
	if (s->max_writes_set)
		json_u64(j, "max_writes", s->max_writes);
	else
		json_str(j, "max_writes", "default");
	json_u64(j, "deadline_seconds", s->deadline);
	json_u64(j, "interval_seconds", s->interval);
	json_u64(j, "slow_warn_percent", s->slow_warn);
	json_u64(j, "slow_fail_percent", s->slow_fail);
	json_u64(j, "solo_seconds", s->solo);
	if (s->destroy_list)
		json_str(j, "destroy_data", s->destroy_list);
	else
		json_bool(j, "destroy_data", s->destroy_data);
	json_end(j);
}

char *result_json(const struct record *o, size_t *len)
{
	struct json j;
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_machine(&j, o);
	json_lab(&j, o);
	json_run(&j, o);
	json_settings(&j, o->s);
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
	json_str(&j, "verdict", o->state == RECORD_RUNNING ?
		 NULL : judge_name(o->verdict));
	json_i64(&j, "exit_code", o->exit_code);
	json_end(&j);
	return json_take(&j, len);
}

