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
#include "results/seconds.h"
#include "results/result_keys.h"
#include "results/result.h"
#include "results/signal.h"
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
	json_u64(j, KEY_BYTES, s->phase_bytes[phase]);
	json_secs(j, KEY_SECONDS, s->phase_ns[phase]);
	json_num(j, KEY_AVG_MBPS, figures_rate(s, phase));
	/* The slowest and fastest pass: the table's min and max. */
	if (figures_pass_range(s, phase, &min, &max)) {
		json_num(j, KEY_MIN_MBPS, min);
		json_num(j, KEY_MAX_MBPS, max);
	} else {
		json_null(j, KEY_MIN_MBPS);
		json_null(j, KEY_MAX_MBPS);
	}
	if (seconds_range(d, phase, &min, &max)) {
		json_num(j, KEY_SLOWEST_SECOND_MBPS, min);
		json_num(j, KEY_FASTEST_SECOND_MBPS, max);
	} else {
		json_null(j, KEY_SLOWEST_SECOND_MBPS);
		json_null(j, KEY_FASTEST_SECOND_MBPS);
	}
	json_u64(j, KEY_WHOLE_SECONDS, d->mt ? d->mt->seconds[phase] : 0);
	json_end(j);
}

static void json_bad(struct json *j, const struct engine_bad *b)
{
	const struct unit_verdict *v = &b->v;
	char h[20];
	unsigned i, nbits;

	json_begin(j, NULL);
	json_u64(j, KEY_OFFSET, b->offset);
	json_str(j, KEY_CLASS, unit_class_name(v->class));
	json_u64(j, KEY_PASS, b->pass);
	json_str(j, KEY_REREAD, engine_retry_name(b->retry));
	json_u64(j, KEY_BITS_DIFFERING, v->nbits);
	nbits = v->nbits < UNIT_MAX_BITS ? v->nbits : UNIT_MAX_BITS;
	json_array(j, KEY_BIT_POSITIONS);
	for (i = 0; i < nbits && v->class == UNIT_BITFLIP; i++)
		json_u64(j, NULL, v->bits[i]);
	json_array_end(j);
	json_u64(j, KEY_SECTORS_BAD_MASK, v->sectors_bad);
	if (v->found_valid) {
		json_begin(j, KEY_FOUND);
		hex64(h, sizeof(h), v->found.run_id);
		json_str(j, KEY_RUN_ID, h);
		hex64(h, sizeof(h), v->found.ident);
		json_str(j, KEY_IDENTITY_HASH, h);
		json_u64(j, KEY_OFFSET, v->found.offset);
		json_u64(j, KEY_PASS, v->found.pass);
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

	json_str(j, KEY_PATH, d->path);
	identity_json(j, &t->id);
	if (d->has_slot)
		enclosure_json(j, KEY_SLOT, &d->slot);
	json_str(j, KEY_LABEL, d->label);
	json_str(j, KEY_KIND, t->kind == TARGET_BLOCK ? "block" : "file");
	hex64(h, sizeof(h), t->ident);
	json_str(j, KEY_IDENTITY_HASH, h);
	json_u64(j, KEY_SIZE, t->size);
	json_u64(j, KEY_LOGICAL_BLOCK_SIZE, t->lbs);
	json_u64(j, KEY_PHYSICAL_BLOCK_SIZE, t->pbs);
	json_bool(j, KEY_DIRECT_IO, t->direct);
	json_bool(j, KEY_READ_ONLY, t->read_only);
	safety_json(j, &t->safety);
	hidden_json(j, KEY_HIDDEN, &t->hidden);
	json_str(j, KEY_SAFETY, d->plan.why);
	json_u64(j, KEY_BS, r->s->bs);
	json_array(j, KEY_REGION);
	for (c = 0; c < p->next; c++) {
		json_begin(j, NULL);
		json_u64(j, KEY_OFFSET, p->ext[c].offset);
		json_u64(j, KEY_LENGTH, p->ext[c].length);
		json_end(j);
	}
	json_array_end(j);
	json_u64(j, KEY_WRITE_PASSES_ALLOWED, p->write_passes);
}

/* Where its burn got to: the run record a later verify reads. */
static void json_target_burn(struct json *j, const struct record_disk *d)
{
	const struct engine_snap *et = &d->snap;
	const struct engine_plan *p = &d->ep;

	json_str(j, KEY_STATE, engine_state_name(et->c.state));
	json_str(j, KEY_STOPPED_BECAUSE, et->why[0] ? et->why : NULL);
	json_u64(j, KEY_BYTES_WRITTEN, et->c.bytes_written);
	json_u64(j, KEY_BYTES_READ, et->c.bytes_read);
	json_u64(j, KEY_REGION_WRITES, et->region_writes);
	/* The run record: what a later verify must know (DESIGN.md). */
	json_u64(j, KEY_LAST_PASS_WRITTEN, et->last_written);
	json_u64(j, KEY_LAST_PASS_REACHED, et->last_reached);
	json_bool(j, KEY_LAST_PASS_COMPLETE, et->last_written &&
		  et->last_reached == p->region);
	if (p->guard) {
		/* The guarded write: what it read before writing, and why not. */
		json_begin(j, KEY_GUARD);
		json_u64(j, KEY_CHECKED, et->guard_checked);
		if (et->guard_stopped) {
			json_u64(j, KEY_STOPPED_AT, et->guard_at);
			json_str(j, KEY_FOUND, d->guard_found[0] ?
					     d->guard_found : et->guard_err ?
					     "could not be read" : "unknown data");
			if (et->guard_err)
				json_str(j, KEY_ERROR, strerror(et->guard_err));
		}
		json_end(j);
	}
	json_str(j, KEY_MODE, engine_mode_name(p->mode));
	if (p->mode == ENGINE_VERIFY || p->mode == ENGINE_WRITE_VERIFY)
		json_u64(j, KEY_VERIFIED_PASS, et->verified_pass);
	if (p->mode == ENGINE_VERIFY && !p->verify_pass)
		json_bool(j, KEY_PASS_FOUND_ON_DISK, et->pass_found);
}

/* Each phase, each pass (folded past 16 a phase) and their totals. */
static void json_target_passes(struct json *j, const struct record_disk *d)
{
	const struct engine_snap *et = &d->snap;
	unsigned i;
	int c;

	json_begin(j, KEY_PHASES);
	json_phase_stats(j, d, PHASE_WRITE);
	json_phase_stats(j, d, PHASE_FLUSH);
	json_phase_stats(j, d, PHASE_VERIFY);
	json_phase_stats(j, d, PHASE_READ);
	if (d->ep.guard)
		json_phase_stats(j, d, PHASE_GUARD);
	json_end(j);
	/* Every output's count of them (figures_passes()). */
	json_u64(j, KEY_PASSES_MADE, figures_passes(et, d->ep.mode));
	json_array(j, KEY_PASSES);
	for (i = 0; i < et->npasses; i++) {
		const struct engine_pass *ps = &et->passes[i];

		json_begin(j, NULL);
		json_u64(j, KEY_PASS, ps->pass);
		json_str(j, KEY_PHASE, engine_phase_name(ps->phase));
		json_u64(j, KEY_BYTES, ps->bytes);
		json_secs(j, KEY_SECONDS, ps->ns);
		json_u64(j, KEY_REACHED, ps->reached);
		json_bool(j, KEY_COMPLETE, ps->complete);
		json_u64(j, KEY_ERRORS, ps->errors);
		json_u64(j, KEY_BAD_UNITS, ps->bad_units);
		json_u64(j, KEY_RUN, ps->seq);
		json_end(j);
	}
	json_array_end(j);
	/* The runs left out of "passes" are in these (engine.h). */
	json_u64(j, KEY_PASSES_FOLDED, et->folded);
	json_begin(j, KEY_PASS_TOTALS);
	for (c = PHASE_WRITE; c < PHASE_END; c++) {
		const struct engine_pass_total *pt = &et->totals[c];

		json_begin(j, engine_phase_name(c));
		json_u64(j, KEY_PASSES, pt->passes);
		json_u64(j, KEY_BYTES, pt->bytes);
		json_secs(j, KEY_SECONDS, pt->ns);
		json_u64(j, KEY_ERRORS, pt->errors);
		json_u64(j, KEY_BAD_UNITS, pt->bad_units);
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

	json_begin(j, KEY_IO_ERRORS);
	json_u64(j, KEY_COUNT, et->c.io_errors);
	json_array(j, KEY_FIRST);
	for (i = 0; i < et->nerrors; i++) {
		const struct engine_error *e = &et->errors[i];

		json_begin(j, NULL);
		json_str(j, KEY_PHASE, engine_phase_name(e->phase));
		json_u64(j, KEY_PASS, e->pass);
		json_u64(j, KEY_OFFSET, e->offset);
		json_u64(j, KEY_LENGTH, e->length);
		json_u64(j, KEY_REQUESTS, e->count);
		json_i64(j, KEY_ERRNO, e->err);
		json_str(j, KEY_ERROR, strerror(e->err));
		json_end(j);
	}
	json_array_end(j);
	json_end(j);

	json_u64(j, KEY_UNITS_NOT_WRITTEN, et->not_written);
	json_u64(j, KEY_UNITS_OF_LATER_PASSES, et->later_pass);
	json_begin(j, KEY_BAD_UNITS);
	json_u64(j, KEY_COUNT, et->c.bad_units);
	/* The lowest byte of the first pass with any, past the list's cap. */
	if (et->c.bad_units)
		json_u64(j, KEY_FIRST_BYTE, figures_first_bad(et));
	else
		json_null(j, KEY_FIRST_BYTE);
	json_u64(j, KEY_GOOD_ON_REREAD, et->bad_transient);
	json_u64(j, KEY_NOT_READ_AGAIN, et->bad_unchecked);
	json_begin(j, KEY_BY_CLASS);
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		json_u64(j, unit_class_name((enum unit_class)c),
			 et->bad_by_class[c]);
	json_end(j);
	json_array(j, KEY_FIRST);
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
	zones_json(j, &d->snap, r->s->bs, d->t.id.rotational);
	reread_json(j, &d->snap, &d->rr);
	json_target_errors(j, d);
	for (SIGNAL_EACH(s))
		if ((*s)->json_disk)
			(*s)->json_disk(j, r, d);
	json_str(j, KEY_STABILITY, d->j.stability[0] ? d->j.stability : NULL);
	json_str(j, KEY_VERDICT, judge_name(d->j.verdict));
	if (d->led[0])
		json_str(j, KEY_FAULT_LED, d->led);
	json_array(j, KEY_REASONS);
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
	json_begin(j, KEY_LAB);
	if (l->upload[0]) {
		json_begin(j, KEY_UPLOAD);
		json_str(j, KEY_FOLDER, l->upload);
		json_bool(j, KEY_ONLY_COPY, l->upload_only);
		json_array(j, KEY_NOT_ARRIVED);
		for (i = 0; i < l->nlost; i++) {
			json_begin(j, NULL);
			json_str(j, KEY_FILE, l->lost[i].name);
			json_str(j, KEY_WHY, l->lost[i].why);
			json_end(j);
		}
		json_array_end(j);
		json_end(j);
	}
	if (l->metrics[0]) {
		json_begin(j, KEY_METRICS);
		json_str(j, KEY_PUSHGATEWAY, l->metrics);
		json_u64(j, KEY_PUSHES, l->pushes);
		json_u64(j, KEY_FAILURES, l->push_failures);
		json_str(j, KEY_LAST_ERROR, l->push_error[0] ? l->push_error :
			 NULL);
		json_end(j);
	}
	json_end(j);
}

/* The schema, and the machine and kernel the run had. */
static void json_machine(struct json *j, const struct record *o)
{
	struct utsname u;
	int i;

	json_str(j, KEY_SCHEMA, RESULT_SCHEMA_NAME);
	json_u64(j, KEY_SCHEMA_VERSION, RESULT_SCHEMA);
	json_str(j, KEY_KILN_VERSION, version_string());
	if (uname(&u) == 0) {
		json_str(j, KEY_KERNEL, u.release);
		json_str(j, KEY_KERNEL_BUILD, u.version);
		json_str(j, KEY_HOST, u.nodename);
	}
	json_str(j, KEY_CRC32C, o->crc32c[0] ? o->crc32c : crc32c_name());
	json_begin(j, KEY_SYSTEM);
	json_str(j, KEY_VENDOR, o->system.vendor[0] ? o->system.vendor : NULL);
	json_str(j, KEY_PRODUCT, o->system.product[0] ? o->system.product :
		 NULL);
	json_str(j, KEY_MAC, o->system.mac[0] ? o->system.mac : NULL);
	json_str(j, KEY_ADDRESS, o->system.address[0] ? o->system.address :
		 NULL);
	json_str(j, KEY_ASSET_TAG, o->system.asset_tag[0] ?
		 o->system.asset_tag : NULL);
	json_str(j, KEY_CHASSIS_SERIAL, o->system.chassis_serial[0] ?
		 o->system.chassis_serial : NULL);
	json_array(j, KEY_NICS);
	for (i = 0; i < o->system.nnics; i++) {
		const struct record_nic *k = &o->system.nics[i];

		json_begin(j, NULL);
		json_str(j, KEY_NAME, k->name);
		json_str(j, KEY_MAC, k->mac[0] ? k->mac : NULL);
		json_str(j, KEY_ADDRESS, k->address[0] ? k->address : NULL);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
	json_begin(j, KEY_FIRMWARE);
	json_bool(j, KEY_EFI, o->firmware.efi);
	if (o->firmware.secure_boot < 0)
		json_null(j, KEY_SECURE_BOOT);
	else
		json_bool(j, KEY_SECURE_BOOT, o->firmware.secure_boot);
	json_str(j, KEY_LOCKDOWN, o->firmware.lockdown[0] ?
		 o->firmware.lockdown : NULL);
	json_end(j);
	for (SIGNAL_EACH(s))
		if ((*s)->json_machine)
			(*s)->json_machine(j, o);
}

/* The run: what started it, when, and how far it got. */
static void json_run(struct json *j, const struct record *o)
{
	char buf[64];
	int i;

	if (o->machine[0])
		json_str(j, KEY_MACHINE_ID, o->machine);
	json_str(j, KEY_COMMAND, o->command);
	json_array(j, KEY_ARGV);
	for (i = 0; i < o->argc; i++)
		json_str(j, NULL, o->argv[i]);
	json_array_end(j);
	hex64(buf, sizeof(buf), o->run_id);
	json_str(j, KEY_RUN_ID, buf);
	json_str(j, KEY_STARTED,
		 timing_fmt_utc(o->started, 0, buf, sizeof(buf)));
	json_str(j, KEY_ENDED, o->ended ?
		 timing_fmt_utc(o->ended, 0, buf, sizeof(buf)) : NULL);
	json_bool(j, KEY_CLOCK_TRUSTED, timing_clock_trusted(o->started));
	json_num(j, KEY_ELAPSED_SECONDS, timing_secs(o->elapsed_ns));
	json_str(j, KEY_STATE, record_state_name(o->state));
	/* A verify's run record: kiln finish judges it as it was judged. */
	json_str(j, KEY_VERIFIED_FROM, o->from);
	if (o->pending_of)
		json_str(j, KEY_PENDING_OF, o->pending_of);
}

static void json_settings(struct json *j, const struct settings *s)
{
	char profile[32];

	json_begin(j, KEY_SETTINGS);
	/* erase: no pass was made, each disk's end step alone. */
	json_str(j, KEY_PROFILE, settings_get(s, "profile", profile,
					      sizeof(profile)));
	json_str(j, KEY_MODE, settings_mode_name(s->mode));
	json_u64(j, KEY_BS, s->bs);
	json_u64(j, KEY_QD, s->qd);
	json_u64(j, KEY_PASSES, settings_passes(s));
	json_u64(j, KEY_DURATION_SECONDS, s->duration);
	json_u64(j, KEY_OFFSET, s->offset);
	json_u64(j, KEY_SPAN, s->span);
	json_bool(j, KEY_QUICK, s->quick);
	if (s->max_writes_set)
		json_u64(j, KEY_MAX_WRITES, s->max_writes);
	else
		json_str(j, KEY_MAX_WRITES, "default");
	json_u64(j, KEY_DEADLINE_SECONDS, s->deadline);
	json_u64(j, KEY_INTERVAL_SECONDS, s->interval);
	json_u64(j, KEY_SLOW_WARN_PERCENT, s->slow_warn);
	json_u64(j, KEY_SLOW_FAIL_PERCENT, s->slow_fail);
	json_u64(j, KEY_SOLO_SECONDS, s->solo);
	json_u64(j, KEY_LINK_ERRORS_FAIL, s->link_errors_fail);
	if (s->destroy_list)
		json_str(j, KEY_DESTROY_DATA, s->destroy_list);
	else
		json_bool(j, KEY_DESTROY_DATA, s->destroy_data);
	json_end(j);
}

/* The expected machine: its file and each difference, when one was given. */
static void json_expect(struct json *j, const struct record *o)
{
	int i;

	if (!o->expect)
		return;
	json_begin(j, KEY_EXPECT);
	json_str(j, KEY_FILE, o->expect_file);
	json_array(j, KEY_DIFFERENCES);
	for (i = 0; i < o->expect->n; i++)
		json_str(j, NULL, o->expect->line[i]);
	json_array_end(j);
	json_i64(j, KEY_LEFT_OUT, o->expect->more);
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
	json_array(&j, KEY_NOTES);
	for (i = 0; i < o->nnotes; i++)
		json_str(&j, NULL, o->notes[i]);
	json_array_end(&j);

	json_array(&j, KEY_TARGETS);
	for (i = 0; i < o->n; i++)
		json_target(&j, o, &o->disks[i]);
	json_array_end(&j);

	for (SIGNAL_EACH(s))
		if ((*s)->json)
			(*s)->json(&j, o);
	json_expect(&j, o);
	json_str(&j, KEY_FAILURE, o->failure[0] ? o->failure : NULL);
	json_bool(&j, KEY_RESULTS_COMPLETE, !o->results_lost);
	json_str(&j, KEY_VERDICT, o->state == RECORD_RUNNING ?
		 NULL : judge_name(o->verdict));
	json_i64(&j, KEY_EXIT_CODE, o->exit_code);
	json_end(&j);
	return json_take(&j, len);
}

