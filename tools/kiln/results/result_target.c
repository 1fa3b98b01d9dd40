/* SPDX-License-Identifier: MIT */
/*
 * Description: one target of a run's document (result.json, a
 * checkpoint's "result") read back: its phases, its passes and their
 * totals, its failed requests and bad units, and its verdict (its SMART
 * health is smart_signal's). The one reader of them, for kiln finish
 * (restore.c) and kiln fleet (fleet_read.c) alike; every schema version
 * kiln has written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/timing.h"
#include "base/unit.h"
#include "results/result_keys.h"
#include "results/result_target.h"

static int index_of(const char *name, const char *(*namer)(int), int n)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, namer(i)))
			return i;
	return -1;
}

int result_target_index(const char *name, const char *(*namer)(int), int n)
{
	return index_of(name, namer, n);
}

static const char *phase_namer(int i)
{
	return engine_phase_name(i);
}

static const char *unit_namer(int i)
{
	return unit_class_name((enum unit_class)i);
}

static const char *retry_namer(int i)
{
	return engine_retry_name(i);
}

static const char *judge_namer(int i)
{
	return judge_name(i);
}

/* Seconds read as nanoseconds, rounded: json_secs() keeps every one. */
static uint64_t result_target_ns(const struct jsonread_node *o,
				 const char *key)
{
	double v = jsonread_num(o, key, 0) * (double)TIMING_SEC;

	return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

void result_target_phase(const struct jsonread_node *t, int phase,
			 struct result_phase *out)
{
	const struct jsonread_node *ph =
		jsonread_get(jsonread_get(t, KEY_PHASES),
			     engine_phase_name(phase));

	out->bytes = jsonread_u64(ph, KEY_BYTES, 0);
	out->ns = result_target_ns(ph, KEY_SECONDS);
	out->whole_seconds = (unsigned)jsonread_u64(ph, KEY_WHOLE_SECONDS, 0);
	out->avg_mbps = jsonread_num(ph, KEY_AVG_MBPS, 0);
	out->min_mbps = jsonread_num(ph, KEY_MIN_MBPS, -1);
	out->max_mbps = jsonread_num(ph, KEY_MAX_MBPS, 0);
	/* Before kiln said them apart, min and max were whole seconds. */
	out->second_min = jsonread_get(ph, KEY_SLOWEST_SECOND_MBPS) ?
			  jsonread_num(ph, KEY_SLOWEST_SECOND_MBPS, -1) :
			  out->min_mbps;
	out->second_max = jsonread_get(ph, KEY_FASTEST_SECOND_MBPS) ?
			  jsonread_num(ph, KEY_FASTEST_SECOND_MBPS, 0) :
			  out->max_mbps;
}

int result_target_verdict(const struct jsonread_node *t)
{
	return index_of(jsonread_str(t, KEY_VERDICT, NULL), judge_namer,
			JUDGE_FAIL + 1);
}

/*
 * Every run of each phase: schema 3 says it in pass_totals (its pass list
 * may be folded); before it, the pass list held every run, in order.
 */
static void read_totals(const struct jsonread_node *t,
			struct engine_snap *s)
{
	const struct jsonread_node *tot = jsonread_get(t, KEY_PASS_TOTALS);
	unsigned i;
	int p;

	s->folded = jsonread_u64(t, KEY_PASSES_FOLDED, 0);
	for (p = PHASE_WRITE; tot && p < PHASE_END; p++) {
		const struct jsonread_node *pt = jsonread_get(tot,
						     engine_phase_name(p));
		struct engine_pass_total *o = &s->totals[p];

		o->passes = jsonread_u64(pt, KEY_PASSES, 0);
		o->bytes = jsonread_u64(pt, KEY_BYTES, 0);
		o->ns = result_target_ns(pt, KEY_SECONDS);
		o->errors = jsonread_u64(pt, KEY_ERRORS, 0);
		o->bad_units = jsonread_u64(pt, KEY_BAD_UNITS, 0);
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

int result_target_passes(const struct jsonread_node *t, struct engine_snap *s)
{
	const struct jsonread_node *passes = jsonread_get(t, KEY_PASSES);
	const struct jsonread_node *errs =
		jsonread_get(jsonread_get(t, KEY_IO_ERRORS), KEY_FIRST);
	const struct jsonread_node *bads =
		jsonread_get(jsonread_get(t, KEY_BAD_UNITS), KEY_FIRST);
	size_t i, k;

	s->passes = calloc(jsonread_count(passes) + 1, sizeof(*s->passes));
	s->errors = calloc(jsonread_count(errs) + 1, sizeof(*s->errors));
	s->bad = calloc(jsonread_count(bads) + 1, sizeof(*s->bad));
	if (!s->passes || !s->errors || !s->bad)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(passes); i++) {
		const struct jsonread_node *p = jsonread_at(passes, i);
		struct engine_pass *o = &s->passes[s->npasses++];

		o->pass = (uint32_t)jsonread_u64(p, KEY_PASS, 0);
		o->phase = index_of(jsonread_str(p, KEY_PHASE, NULL),
				    phase_namer, PHASES);
		if (o->phase < 0)
			o->phase = PHASE_START;
		o->bytes = jsonread_u64(p, KEY_BYTES, 0);
		o->ns = result_target_ns(p, KEY_SECONDS);
		o->reached = jsonread_u64(p, KEY_REACHED, 0);
		o->complete = jsonread_bool(p, KEY_COMPLETE, 0);
		o->errors = (unsigned)jsonread_u64(p, KEY_ERRORS, 0);
		o->bad_units = (unsigned)jsonread_u64(p, KEY_BAD_UNITS, 0);
		o->seq = jsonread_u64(p, KEY_RUN, 0);
	}
	read_totals(t, s);
	for (i = 0; i < jsonread_count(errs); i++) {
		const struct jsonread_node *e = jsonread_at(errs, i);
		struct engine_error *o = &s->errors[s->nerrors++];

		o->phase = index_of(jsonread_str(e, KEY_PHASE, NULL),
				    phase_namer, PHASES);
		o->pass = (uint32_t)jsonread_u64(e, KEY_PASS, 0);
		o->offset = jsonread_u64(e, KEY_OFFSET, 0);
		o->length = jsonread_u64(e, KEY_LENGTH, 0);
		o->count = (unsigned)jsonread_u64(e, KEY_REQUESTS, 1);
		o->err = (int)jsonread_i64(e, KEY_ERRNO, 5);
	}
	for (i = 0; i < jsonread_count(bads); i++) {
		const struct jsonread_node *b = jsonread_at(bads, i);
		const struct jsonread_node *bits =
			jsonread_get(b, KEY_BIT_POSITIONS);
		const struct jsonread_node *f = jsonread_get(b, KEY_FOUND);
		struct engine_bad *o = &s->bad[s->nbad++];
		int c = index_of(jsonread_str(b, KEY_CLASS, NULL), unit_namer,
				 UNIT_CLASSES);

		o->offset = jsonread_u64(b, KEY_OFFSET, 0);
		o->pass = (uint32_t)jsonread_u64(b, KEY_PASS, 0);
		o->retry = index_of(jsonread_str(b, KEY_REREAD, NULL),
				    retry_namer, RETRY_FAILED + 1);
		if (o->retry < 0)
			o->retry = RETRY_NONE;
		o->v.class = c > 0 ? (enum unit_class)c : UNIT_FOREIGN;
		o->v.nbits = (uint32_t)jsonread_u64(b, KEY_BITS_DIFFERING, 0);
		for (k = 0; k < jsonread_count(bits) && k < UNIT_MAX_BITS; k++)
			o->v.bits[k] = (uint16_t)jsonread_u64(
				jsonread_at(bits, k), NULL, 0);
		o->v.sectors_bad = (uint32_t)jsonread_u64(b,
			KEY_SECTORS_BAD_MASK, 0);
		if (jsonread_type(f) == JSONREAD_OBJECT) {
			o->v.found_valid = 1;
			o->v.found.run_id = strtoull(
				jsonread_str(f, KEY_RUN_ID, "0"), NULL, 16);
			o->v.found.ident = strtoull(jsonread_str(
				f, KEY_IDENTITY_HASH, "0"), NULL, 16);
			o->v.found.offset = jsonread_u64(f, KEY_OFFSET, 0);
			o->v.found.pass = (uint32_t)jsonread_u64(f, KEY_PASS,
								 0);
		}
	}
	return 0;
}
