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

#include "results/cert.h"
#include "results/result_keys.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/result_target.h"
#include "results/signal.h"
#include "base/kiln.h"
#include "base/unit.h"
#include "base/timing.h"

static const char *class_namer(int i)
{
	return safety_class_name(i);
}

static const char *state_namer(int i)
{
	return engine_state_name(i);
}

static const char *mode_namer(int i)
{
	return engine_mode_name(i);
}

/* Its enclosure bay (enclosure_json's), and what its fault LED got. */
static void restore_slot(const struct jsonread_node *t, struct record_disk *d)
{
	const struct jsonread_node *slot = jsonread_get(t, KEY_SLOT);

	jsonread_copy(t, KEY_FAULT_LED, d->led, sizeof(d->led));
	if (jsonread_type(slot) != JSONREAD_OBJECT)
		return;
	d->has_slot = 1;
	jsonread_copy(slot, KEY_ENCLOSURE, d->slot.enclosure,
		 sizeof(d->slot.enclosure));
	jsonread_copy(slot, KEY_NAME, d->slot.name, sizeof(d->slot.name));
	d->slot.number = jsonread_type(jsonread_get(slot, KEY_SLOT)) ==
			 JSONREAD_NUMBER ?
			 (long)jsonread_u64(slot, KEY_SLOT, 0) : -1;
}

/* What the disk is, and what its plan decided and why. */
static void restore_what(const struct jsonread_node *t, struct record_disk *d,
			 char *safety, size_t len)
{
	int c;

	jsonread_copy(t, KEY_LABEL, d->label, sizeof(d->label));
	jsonread_copy(t, KEY_NAME, d->t.id.name, sizeof(d->t.id.name));
	if (!d->label[0])
		snprintf(d->label, sizeof(d->label), "%s", d->t.id.name);
	jsonread_copy(t, KEY_IDENTITY,
		      d->t.id.identity, sizeof(d->t.id.identity));
	jsonread_copy(t, KEY_MODEL, d->t.id.model, sizeof(d->t.id.model));
	jsonread_copy(t, KEY_SERIAL, d->t.id.serial, sizeof(d->t.id.serial));
	jsonread_copy(t, KEY_WWN, d->t.id.wwid, sizeof(d->t.id.wwid));
	if (!d->t.id.wwid[0])
		jsonread_copy(t, KEY_WWID, d->t.id.wwid, sizeof(d->t.id.wwid));
	d->t.kind = strcmp(jsonread_str(t, KEY_KIND, "block"), "file") ?
		    TARGET_BLOCK : TARGET_FILE;
	d->t.size = jsonread_u64(t, KEY_SIZE, 0);
	d->t.lbs = (unsigned)jsonread_u64(t, KEY_LOGICAL_BLOCK_SIZE, 512);
	d->t.pbs = (unsigned)jsonread_u64(t, KEY_PHYSICAL_BLOCK_SIZE, 512);
	d->t.ident = strtoull(jsonread_str(t, KEY_IDENTITY_HASH, "0"), NULL,
			      16);
	d->t.direct = jsonread_bool(t, KEY_DIRECT_IO, 1);
	d->t.read_only = jsonread_bool(t, KEY_READ_ONLY, 0);
	d->t.id.rotational =
		jsonread_type(jsonread_get(t, KEY_ROTATIONAL)) ==
		JSONREAD_BOOL ? jsonread_bool(t, KEY_ROTATIONAL, 0) : -1;
	c = result_target_index(jsonread_str(t, KEY_CLASS, NULL), class_namer,
				SAFETY_BLANK + 1);
	d->t.safety.class = c < 0 ? SAFETY_HAS_DATA : c;
	jsonread_copy(t, KEY_CLASS_REASONS, d->t.safety.why,
		 sizeof(d->t.safety.why));
	hidden_read(jsonread_get(t, KEY_HIDDEN), &d->t.hidden);
	restore_slot(t, d);
	/* What the plan decided and why, for the document written again. */
	jsonread_copy(t, KEY_SAFETY, safety, len);
	d->plan.why = safety[0] ? safety : NULL;
}

/* The region the burn had, and its mode. */
static void restore_region(const struct jsonread_node *t,
			   struct record_disk *d)
{
	const struct jsonread_node *region = jsonread_get(t, KEY_REGION);
	size_t i;

	d->ep.mode = result_target_index(jsonread_str(t, KEY_MODE, NULL),
					 mode_namer, ENGINE_NONE + 1);
	if (d->ep.mode < 0)
		d->ep.mode = ENGINE_WRITE_VERIFY;
	for (i = 0; i < jsonread_count(region) && i < ENGINE_MAX_EXTENTS; i++) {
		const struct jsonread_node *e = jsonread_at(region, i);

		d->ep.ext[i].offset = jsonread_u64(e, KEY_OFFSET, 0);
		d->ep.ext[i].length = jsonread_u64(e, KEY_LENGTH, 0);
		d->ep.region += d->ep.ext[i].length;
	}
	d->ep.next = (int)i;
	d->ep.write_passes = (unsigned)jsonread_u64(t, KEY_WRITE_PASSES_ALLOWED,
						    0);
	d->snap.plan = d->ep;
}

/* Where the burn got to: its state, counters and guarded write. */
static void restore_burn(const struct jsonread_node *t, struct record_disk *d)
{
	const struct jsonread_node *g = jsonread_get(t, KEY_GUARD);
	struct engine_snap *s = &d->snap;
	int c;

	c = result_target_index(jsonread_str(t, KEY_STATE, NULL), state_namer,
				STATE_NOT_STARTED + 1);
	s->c.state = c < 0 ? STATE_STOPPED : c;
	jsonread_copy(t, KEY_STOPPED_BECAUSE, s->why, sizeof(s->why));
	s->c.bytes_written = jsonread_u64(t, KEY_BYTES_WRITTEN, 0);
	s->c.bytes_read = jsonread_u64(t, KEY_BYTES_READ, 0);
	s->c.io_errors = (unsigned)jsonread_u64(jsonread_get(t, KEY_IO_ERRORS),
						KEY_COUNT, 0);
	s->c.bad_units = (unsigned)jsonread_u64(jsonread_get(t, KEY_BAD_UNITS),
						KEY_COUNT, 0);
	if (jsonread_type(jsonread_path(t, "/" KEY_BAD_UNITS "/"
					KEY_FIRST_BYTE)) == JSONREAD_NUMBER) {
		s->has_first_bad = 1;
		s->first_bad = jsonread_u64(jsonread_get(t, KEY_BAD_UNITS),
					    KEY_FIRST_BYTE, 0);
	}
	s->bad_transient = (unsigned)jsonread_u64(
		jsonread_get(t, KEY_BAD_UNITS), KEY_GOOD_ON_REREAD, 0);
	s->bad_unchecked = (unsigned)jsonread_u64(
		jsonread_get(t, KEY_BAD_UNITS), KEY_NOT_READ_AGAIN, 0);
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		s->bad_by_class[c] = (unsigned)jsonread_u64(
			jsonread_path(t, "/" KEY_BAD_UNITS "/" KEY_BY_CLASS),
			unit_class_name((enum unit_class)c), 0);
	s->not_written = (unsigned)jsonread_u64(t, KEY_UNITS_NOT_WRITTEN, 0);
	s->later_pass = (unsigned)jsonread_u64(t, KEY_UNITS_OF_LATER_PASSES, 0);
	s->region_writes = (unsigned)jsonread_u64(t, KEY_REGION_WRITES, 0);
	s->verified_pass = (uint32_t)jsonread_u64(t, KEY_VERIFIED_PASS, 0);
	s->pass_found = jsonread_bool(t, KEY_PASS_FOUND_ON_DISK, 1);
	s->last_written = (uint32_t)jsonread_u64(t, KEY_LAST_PASS_WRITTEN, 0);
	s->last_reached = jsonread_u64(t, KEY_LAST_PASS_REACHED, 0);
	if (g) {
		d->ep.guard = s->plan.guard = 1;
		s->guard_checked = jsonread_u64(g, KEY_CHECKED, 0);
		s->guard_stopped = jsonread_get(g, KEY_STOPPED_AT) != NULL;
		s->guard_at = jsonread_u64(g, KEY_STOPPED_AT, 0);
		/* Which error is kept in words only: EIO says "not read". */
		s->guard_err = jsonread_get(g, KEY_ERROR) ? EIO : 0;
		jsonread_copy(g, KEY_FOUND,
			      d->guard_found, sizeof(d->guard_found));
	}
}

/* Its phases and verdict with the reasons for it (SMART: smart_signal). */
static void restore_judged(const struct jsonread_node *t,
			   struct record_disk *d, struct monitor_target *mt)
{
	static const int phases[] = { PHASE_WRITE, PHASE_FLUSH, PHASE_VERIFY,
				      PHASE_READ };
	const struct jsonread_node *reasons = jsonread_get(t, KEY_REASONS);
	struct engine_snap *s = &d->snap;
	char why[sizeof(d->j.reasons[0])];
	struct result_phase ph;
	size_t i;
	int p;

	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		p = phases[i];
		result_target_phase(t, p, &ph);
		s->phase_bytes[p] = ph.bytes;
		s->phase_ns[p] = ph.ns;
		mt->seconds[p] = ph.whole_seconds;
		mt->min[p] = ph.second_min;
		mt->max[p] = ph.second_max;
	}
	d->mt = mt;
	d->j.verdict = result_target_verdict(t);
	if (d->j.verdict < 0)
		d->j.verdict = JUDGE_PASS;
	for (i = 0; i < jsonread_count(reasons) && i < JUDGE_MAX_REASONS; i++) {
		jsonread_copy(jsonread_at(reasons, i), NULL, why, sizeof(why));
		snprintf(d->j.reasons[d->j.nreasons++], sizeof(why), "%s", why);
	}
}

static int restore_disk(const struct jsonread_node *t, struct record_disk *d,
			struct monitor_target *mt, char *safety, size_t len)
{
	restore_what(t, d, safety, len);
	restore_region(t, d);
	restore_burn(t, d);
	restore_judged(t, d, mt);
	for (SIGNAL_EACH(s))
		if ((*s)->read_disk && (*s)->read_disk(t, d))
			return -ENOMEM;
	return result_target_passes(t, &d->snap);
}

/* What the document does not say is the key table's default, as a run's. */
static void restore_settings(const struct jsonread_node *s,
			     struct settings *out)
{
	const char *mode = jsonread_str(s, KEY_MODE, NULL);
	const char *profile = jsonread_str(s, KEY_PROFILE, NULL);
	char err[160];
	int i;

	settings_defaults(out, SCOPE_BURN);
	/* An erase is said as one again (summary.txt from kiln report). */
	if (profile)
		settings_set(out, settings_key("profile"), profile,
			     SOURCE_OPTION, err, sizeof(err));
	for (i = 0; mode && i <= SETTINGS_READ; i++)
		if (!strcmp(mode, settings_mode_name(i)))
			out->mode = i;
	out->bs = jsonread_u64(s, KEY_BS, out->bs);
	out->qd = (unsigned)jsonread_u64(s, KEY_QD, out->qd);
	out->passes = (unsigned)jsonread_u64(s, KEY_PASSES, out->passes);
	if (!out->passes)
		out->passes = 1;
	out->duration = jsonread_u64(s, KEY_DURATION_SECONDS, out->duration);
	out->offset = jsonread_u64(s, KEY_OFFSET, out->offset);
	out->span = jsonread_u64(s, KEY_SPAN, out->span);
	out->quick = jsonread_bool(s, KEY_QUICK, out->quick);
	out->deadline = (unsigned)jsonread_u64(s, KEY_DEADLINE_SECONDS,
					       out->deadline);
	out->interval = (unsigned)jsonread_u64(s, KEY_INTERVAL_SECONDS,
					       out->interval);
	out->slow_warn = (unsigned)jsonread_u64(s, KEY_SLOW_WARN_PERCENT,
						out->slow_warn);
	out->slow_fail = (unsigned)jsonread_u64(s, KEY_SLOW_FAIL_PERCENT,
						out->slow_fail);
	out->solo = jsonread_u64(s, KEY_SOLO_SECONDS, out->solo);
	out->link_errors_fail = (unsigned)jsonread_u64(
		s, KEY_LINK_ERRORS_FAIL, out->link_errors_fail);
}

/*
 * The expected machine's differences, so a run judged again from its
 * result.json (kiln report, the verify boot) still FAILs the machine.
 */
static int restore_expect(const struct jsonread_node *e, struct record *r)
{
	const struct jsonread_node *diffs = jsonread_get(e, KEY_DIFFERENCES);
	size_t i;

	if (jsonread_type(e) != JSONREAD_OBJECT)
		return 0;
	r->expect = calloc(1, sizeof(*r->expect));
	if (!r->expect)
		return -ENOMEM;
	jsonread_copy(e, KEY_FILE, r->expect_file, sizeof(r->expect_file));
	for (i = 0; i < jsonread_count(diffs); i++) {
		if (r->expect->n == EXPECT_MAX_DIFFS) {
			r->expect->more++;
			continue;
		}
		jsonread_copy(jsonread_at(diffs, i), NULL,
			 r->expect->line[r->expect->n],
			 sizeof(r->expect->line[0]));
		r->expect->n++;
	}
	r->expect->more += (int)jsonread_i64(e, KEY_LEFT_OUT, 0);
	return 0;
}

int restore_record(const struct jsonread_node *doc, struct restored *out,
		   char *err, size_t errlen)
{
	const struct jsonread_node *targets = jsonread_get(doc, KEY_TARGETS);
	const struct jsonread_node *notes = jsonread_get(doc, KEY_NOTES);
	const struct jsonread_node *fw = jsonread_get(doc, KEY_FIRMWARE);
	const struct jsonread_node *sys = jsonread_get(doc, KEY_SYSTEM);
	const struct jsonread_node *nics;
	struct record *r = &out->r;
	char text[1024];
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = result_schema(doc, err, errlen);
	if (ret < 0)
		return ret;
	restore_settings(jsonread_get(doc, KEY_SETTINGS), &out->s);
	jsonread_copy(doc, KEY_COMMAND, out->command, sizeof(out->command));
	record_init(r, out->command[0] ? out->command : "burn", 0, NULL,
		    &out->s);
	jsonread_copy(doc, KEY_VERIFIED_FROM, out->from, sizeof(out->from));
	if (out->from[0])
		r->from = out->from;
	r->run_id = strtoull(jsonread_str(doc, KEY_RUN_ID, "0"), NULL, 16);
	jsonread_copy(doc, KEY_MACHINE_ID, r->machine, sizeof(r->machine));
	jsonread_copy(sys, KEY_VENDOR,
		      r->system.vendor, sizeof(r->system.vendor));
	jsonread_copy(sys, KEY_PRODUCT, r->system.product,
		 sizeof(r->system.product));
	jsonread_copy(sys, KEY_MAC, r->system.mac, sizeof(r->system.mac));
	jsonread_copy(sys, KEY_ADDRESS, r->system.address,
		 sizeof(r->system.address));
	jsonread_copy(sys, KEY_ASSET_TAG, r->system.asset_tag,
		 sizeof(r->system.asset_tag));
	jsonread_copy(sys, KEY_CHASSIS_SERIAL, r->system.chassis_serial,
		 sizeof(r->system.chassis_serial));
	nics = jsonread_get(sys, KEY_NICS);
	for (i = 0; i < jsonread_count(nics) && i < RECORD_NICS; i++) {
		const struct jsonread_node *k = jsonread_at(nics, i);
		struct record_nic *to = &r->system.nics[r->system.nnics++];

		jsonread_copy(k, KEY_NAME, to->name, sizeof(to->name));
		jsonread_copy(k, KEY_MAC, to->mac, sizeof(to->mac));
		jsonread_copy(k, KEY_ADDRESS, to->address, sizeof(to->address));
	}
	r->started = timing_parse_utc(jsonread_str(doc, KEY_STARTED, NULL));
	r->ended = timing_parse_utc(jsonread_str(doc, KEY_ENDED, NULL));
	r->elapsed_ns = (uint64_t)(jsonread_num(doc, KEY_ELAPSED_SECONDS, 0) *
				   (double)TIMING_SEC);
	r->firmware.efi = jsonread_bool(fw, KEY_EFI, 0);
	r->firmware.secure_boot =
		jsonread_type(jsonread_get(fw, KEY_SECURE_BOOT)) ==
		JSONREAD_BOOL ? jsonread_bool(fw, KEY_SECURE_BOOT, 0) : -1;
	jsonread_copy(fw, KEY_LOCKDOWN, r->firmware.lockdown,
		 sizeof(r->firmware.lockdown));
	jsonread_copy(doc, KEY_FAILURE, r->failure, sizeof(r->failure));
	jsonread_copy(doc, KEY_CRC32C, r->crc32c, sizeof(r->crc32c));
	r->results_lost = !jsonread_bool(doc, KEY_RESULTS_COMPLETE, 1);
	for (i = 0; i < jsonread_count(notes); i++) {
		jsonread_copy(jsonread_at(notes, i), NULL, text, sizeof(text));
		record_note(r, "%s", text);
	}
	if (restore_expect(jsonread_get(doc, KEY_EXPECT), r))
		return -ENOMEM;
	out->mt = calloc(jsonread_count(targets) + 1, sizeof(*out->mt));
	out->safety = calloc(jsonread_count(targets) + 1,
			     sizeof(*out->safety));
	if (!out->mt || !out->safety)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(targets); i++) {
		const struct jsonread_node *t = jsonread_at(targets, i);
		struct record_disk *d;

		jsonread_copy(t, KEY_PATH, text, sizeof(text));
		d = record_add(r, text[0] ? text : "?", out->s.mode);
		if (!d)
			return -ENOMEM;
		ret = restore_disk(t, d, &out->mt[i], out->safety[i],
				   sizeof(out->safety[i]));
		if (ret)
			return ret;
	}
	for (SIGNAL_EACH(s))
		if ((*s)->read && (*s)->read(doc, r))
			return -ENOMEM;
	return 0;
}

static const char *judge_namer(int i)
{
	return judge_name(i);
}

void restore_verdicts(const struct jsonread_node *doc, struct restored *out)
{
	const struct jsonread_node *m = jsonread_get(doc, "machine");
	const struct jsonread_node *reasons = jsonread_get(m, KEY_REASONS);
	struct record *r = &out->r;
	struct judge *j = &r->sig.j;
	size_t i;
	int v;

	v = result_target_index(jsonread_str(doc, KEY_VERDICT, NULL),
				judge_namer, JUDGE_FAIL + 1);
	r->verdict = v < 0 ? JUDGE_PASS : v;
	v = record_state_of(jsonread_str(doc, KEY_STATE, NULL));
	r->state = v < 0 ? RECORD_COMPLETE : v;
	r->exit_code = (int)jsonread_i64(doc, KEY_EXIT_CODE, 0);
	v = result_target_index(jsonread_str(m, KEY_VERDICT, NULL),
				judge_namer, JUDGE_FAIL + 1);
	j->verdict = v < 0 ? JUDGE_PASS : v;
	j->nreasons = 0;
	for (i = 0; i < jsonread_count(reasons) && i < JUDGE_MAX_REASONS; i++)
		jsonread_copy(jsonread_at(reasons, i), NULL,
			 j->reasons[j->nreasons++], sizeof(j->reasons[0]));
	jsonread_copy(m, KEY_FAILURE, r->sig.failure, sizeof(r->sig.failure));
	jsonread_copy(doc, KEY_KILN_VERSION, out->kiln_version,
		 sizeof(out->kiln_version));
	jsonread_copy(doc, KEY_KERNEL, out->kernel, sizeof(out->kernel));
	r->kiln_version = out->kiln_version[0] ? out->kiln_version : NULL;
	r->kernel = out->kernel[0] ? out->kernel : NULL;
}

/* One phase's histogram, as latency_json() wrote it. */
static void latency_of(const struct jsonread_node *n, struct latency_hist *h)
{
	const struct jsonread_node *buckets = jsonread_get(n, "buckets");
	size_t i;

	memset(h, 0, sizeof(*h));
	h->n = jsonread_u64(n, "requests", 0);
	/* Nanoseconds the nearest to the milliseconds written. */
	h->max_ns = (uint64_t)(jsonread_num(n, "max_ms", 0) * 1e6 + 0.5);
	h->sum_ns = (uint64_t)(jsonread_num(n, "mean_ms", 0) * 1e6 *
			       (double)h->n + 0.5);
	for (i = 0; i < jsonread_count(buckets); i++) {
		const struct jsonread_node *b = jsonread_at(buckets, i);
		double from = jsonread_num(b, "from_ms", 0) * 1e6;
		double to = jsonread_num(b, "to_ms", from / 1e6 * 2) * 1e6;

		/* The middle of a bucket is in it, whatever the rounding. */
		h->count[latency_bucket((uint64_t)((from + to) / 2))] +=
			jsonread_u64(b, KEY_COUNT, 0);
	}
}

static const char *phase_namer(int i)
{
	return engine_phase_name(i);
}

/*
 * A disk's zones as zones_json() wrote them: a rate a zone, each zone's
 * bytes taken whole (the document keeps no more), its time from its rate.
 */
static void zones_of(const struct jsonread_node *z, struct engine_snap *s)
{
	const struct jsonread_node *phases = jsonread_get(z, "phases");
	uint64_t zb = jsonread_u64(z, "zone_bytes", 0);
	size_t n = jsonread_count(phases), i, k;

	if (!zb || !n || jsonread_u64(z, "count", 0) != ENGINE_ZONES)
		return;
	s->zones = calloc(n, sizeof(*s->zones));
	if (!s->zones)
		return;
	for (i = 0; i < n; i++) {
		const struct jsonread_node *p = jsonread_at(phases, i);
		const struct jsonread_node *mbps = jsonread_get(p, "mbps");
		struct engine_zones *e = &s->zones[s->nzones];

		e->phase = result_target_index(jsonread_str(p, "phase", NULL),
					       phase_namer, PHASES);
		if (e->phase < 0 || jsonread_count(mbps) != ENGINE_ZONES)
			continue;
		e->pass = (uint32_t)jsonread_u64(p, "pass", 0);
		e->ended = jsonread_bool(p, "ended", 0);
		for (k = 0; k < ENGINE_ZONES; k++) {
			double v = jsonread_num(jsonread_at(mbps, k), NULL, 0);

			if (v <= 0)
				continue;
			e->bytes[k] = zb;
			e->ns[k] = (uint64_t)((double)zb * 1e3 / v);
		}
		s->nzones++;
	}
}

/*
 * A disk's confirming re-read as reread_json() wrote it: its state and
 * why, the grid, its failures and each region's slowest, so kiln report
 * says the re-read line the run said.
 */
static void reread_of(const struct jsonread_node *n, struct reread *rr)
{
	static const char *const states[] = { "not run", "done", "cut short",
					      "stalled" };
	const struct jsonread_node *grid = jsonread_get(n, "grid"),
				   *regions = jsonread_get(n, "regions");
	const char *state = jsonread_str(n, "state", NULL);
	char key[32];
	size_t i;
	int g;

	memset(rr, 0, sizeof(*rr));
	if (jsonread_type(n) != JSONREAD_OBJECT || !state)
		return;
	for (g = 0; g < (int)ARRAY_SIZE(states); g++)
		if (!strcmp(state, states[g]))
			rr->state = g;
	jsonread_copy(n, "why", rr->why, sizeof(rr->why));
	rr->size = (unsigned)jsonread_u64(n, "read_bytes", 0);
	rr->direct = jsonread_bool(n, "direct_io", 0);
	rr->seconds = jsonread_num(n, "seconds", 0);
	rr->errors = (unsigned)jsonread_u64(n, "errors", 0);
	for (g = 0; g < REREAD_GRID; g++) {
		reread_grid_key(g, key, sizeof(key));
		rr->grid[g] = (unsigned)jsonread_u64(grid, key, 0);
	}
	for (i = 0; i < jsonread_count(regions) && rr->n < ENGINE_SLOWEST;
	     i++) {
		const struct jsonread_node *x = jsonread_at(regions, i);
		struct reread_region *e = &rr->regions[rr->n++];

		e->offset = jsonread_u64(x, "offset", 0);
		e->length = jsonread_u64(x, "length", 0);
		e->reads = (unsigned)jsonread_u64(x, "reads", 0);
		e->max_ns = (uint64_t)(jsonread_num(x, "max_ms", 0) * 1e6 +
				       0.5);
		e->max_at = jsonread_u64(x, "max_at", 0);
	}
}

void restore_latency(const struct jsonread_node *doc, struct restored *out)
{
	const struct jsonread_node *targets = jsonread_get(doc, KEY_TARGETS);
	size_t i;
	int p;

	for (i = 0; i < jsonread_count(targets) && (int)i < out->r.n; i++) {
		const struct jsonread_node *l =
			jsonread_get(jsonread_at(targets, i), "latency");
		struct engine_snap *s = &out->r.disks[i].snap;

		if (!s->zones)
			zones_of(jsonread_get(jsonread_at(targets, i), "zones"),
				 s);
		reread_of(jsonread_get(jsonread_at(targets, i), "reread"),
			  &out->r.disks[i].rr);
		for (p = 0; p < PHASES; p++) {
			const struct jsonread_node *n =
				jsonread_get(l, engine_phase_name(p));
			struct result_phase ph;

			if (jsonread_type(n) == JSONREAD_OBJECT)
				latency_of(n, &s->latency[p]);
			/*
			 * Its time from its rate, which result.json keeps to
			 * more digits than its seconds: the average said as
			 * the run said it.
			 */
			result_target_phase(jsonread_at(targets, i), p, &ph);
			if (ph.bytes && ph.avg_mbps > 0)
				s->phase_ns[p] = (uint64_t)((double)ph.bytes *
							    1e3 / ph.avg_mbps +
							    0.5);
		}
	}
}

void restore_free(struct restored *out)
{
	record_free(&out->r);
	settings_free(&out->s);
	free(out->mt);
	free(out->safety);
	memset(out, 0, sizeof(*out));
}
