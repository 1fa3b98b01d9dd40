/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals told (see vitals_out.h): the
 * "signals" of each target and the "machine" of result.json, each field
 * read back the way it was written (so kiln finish judges a restored run
 * as the run did). vitals_text.c writes their lines in summary.txt,
 * vitals_html.c their parts of report.html; vitals_signal here is all of
 * them as a signal of the table (signal.h), whose burn runs the machine's
 * sampler (judge/sampler.h) from before the disks are read to after the
 * confirming re-read, and whose gauges give the lab's metrics a disk's
 * temperature and its limit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/vitals_cpu_out.h"
#include "results/signal.h"
#include "results/smart_out.h"
#include "results/vitals_html.h"
#include "results/vitals_out.h"
#include "results/vitals_text.h"

static const char *const limit_keys[] = {
	[VITALS_LIMIT_NONE] = "none",
	[VITALS_LIMIT_SETTING] = "temp-warn",
	[VITALS_LIMIT_DRIVE] = "drive",
	[VITALS_LIMIT_HDD] = "hdd-default",
	[VITALS_LIMIT_SSD] = "ssd-default",
};

#define NLIMITS (int)(sizeof(limit_keys) / sizeof(limit_keys[0]))

static const char *const severity_keys[] = { "corrected", "nonfatal",
					     "fatal" };

static void degrees(struct json *j, const char *key, int v)
{
	if (v == VITALS_NONE)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void count(struct json *j, const char *key, long long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void lines(struct json *j, const char *key, char (*kept)[VITALS_LINE],
		  int n)
{
	int i;

	json_array(j, key);
	for (i = 0; i < n; i++)
		json_str(j, NULL, kept[i]);
	json_array_end(j);
}

static void kinds(struct json *j, const unsigned *count)
{
	int k;

	json_begin(j, "by_kind");
	for (k = KMSG_NONE + 1; k < KMSG_KINDS; k++)
		if (count[k])
			json_u64(j, kmsg_kind_name(k), count[k]);
	json_end(j);
}

/* What a drive says, tested or hidden: temperatures, SMART, self-test. */
static void drive(struct json *j, const struct record *r,
		  const struct vitals_disk *d)
{
	char words[160];
	int64_t *v;
	int i;

	json_u64(j, "samples", (uint64_t)d->sampled);
	json_str(j, "protocol", d->protocol[0] ? d->protocol : NULL);
	json_str(j, "error", d->error[0] ? d->error : NULL);
	json_begin(j, "temperature");
	degrees(j, "first", d->temp_first);
	degrees(j, "max", d->temp_max);
	degrees(j, "last", d->temp_last);
	degrees(j, "limit", d->limit);
	json_str(j, "limit_from", limit_keys[d->limit_from]);
	/* The series at the end only: checkpoints stay small. */
	v = r->state != RECORD_RUNNING && d->nseries ?
	    calloc((size_t)d->nseries, sizeof(*v)) : NULL;
	if (v) {
		json_begin(j, "series");
		for (i = 0; i < d->nseries; i++)
			v[i] = d->series[i].t;
		json_i64_list(j, "seconds", v, (size_t)d->nseries);
		for (i = 0; i < d->nseries; i++)
			v[i] = d->series[i].c;
		json_i64_list(j, "celsius", v, (size_t)d->nseries);
		json_end(j);
		free(v);
	}
	json_end(j);
	smart_out_json(j, "smart_start", &d->start, SMART_OUT_SIGNALS);
	smart_out_json(j, "smart_end", &d->end, SMART_OUT_SIGNALS);
	if (d->crit_raised) {
		json_begin(j, "critical_warning_raised");
		json_i64(j, "bits", d->crit_raised);
		json_u64(j, "at_seconds", d->crit_at);
		json_str(j, "meaning", smartjson_critical_text(d->crit_raised,
							       words,
							       sizeof(words)));
		json_end(j);
	} else {
		json_null(j, "critical_warning_raised");
	}
	if (d->selftest) {
		json_begin(j, "selftest");
		json_str(j, "kind", d->selftest == SETTINGS_SELFTEST_LONG ?
			 "long" : "short");
		json_str(j, "result", vitals_selftest_name(d->st_result));
		json_str(j, "text", d->st_text[0] ? d->st_text : NULL);
		json_end(j);
	} else {
		json_null(j, "selftest");
	}
}

void vitals_out_disk(struct json *j, const struct record *r,
		     const struct record_disk *d)
{
	const struct vitals_disk *s = &d->sig;
	int i, sev;

	json_begin(j, "signals");
	drive(j, r, s);
	json_begin(j, "kernel_log");
	json_u64(j, "errors", s->kmsg_total);
	json_u64(j, "naming_it", s->kmsg_direct);
	kinds(j, s->kmsg);
	lines(j, "first", (char (*)[VITALS_LINE])s->kept, s->nkept);
	json_end(j);
	json_array(j, "pci_path");
	for (i = 0; i < s->npci; i++) {
		const struct vitals_aer *a = vitals_aer_of(&r->sig, s->pci[i]);

		json_begin(j, NULL);
		json_str(j, "pci", s->pci[i]);
		/* What rose during the run; the machine has the counts. */
		for (sev = 0; sev < 3; sev++)
			if (!a || a->start[sev] < 0 || a->end[sev] < 0)
				json_null(j, severity_keys[sev]);
			else
				json_i64(j, severity_keys[sev],
					 a->end[sev] > a->start[sev] ?
					 a->end[sev] - a->start[sev] : 0);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

static void edac(struct json *j, const struct vitals_machine *m)
{
	int i;

	json_begin(j, "edac");
	json_u64(j, "memory_controllers", (uint64_t)m->edac_mcs);
	json_array(j, "counts");
	for (i = 0; i < m->nedac; i++) {
		const struct vitals_edac *e = &m->edac[i];

		json_begin(j, NULL);
		json_str(j, "where", e->where);
		json_str(j, "label", e->label[0] ? e->label : NULL);
		json_str(j, "slot", e->slot[0] ? e->slot : NULL);
		count(j, "corrected_start", e->ce_start);
		count(j, "corrected_end", e->ce_end);
		count(j, "uncorrected_start", e->ue_start);
		count(j, "uncorrected_end", e->ue_end);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

static void aer(struct json *j, const struct vitals_machine *m)
{
	char key[40];
	int i, sev;

	json_array(j, "aer");
	for (i = 0; i < m->naer; i++) {
		const struct vitals_aer *a = &m->aer[i];

		json_begin(j, NULL);
		json_str(j, "pci", a->pci);
		for (sev = 0; sev < 3; sev++) {
			snprintf(key, sizeof(key), "%s_start",
				 severity_keys[sev]);
			count(j, key, a->start[sev]);
			snprintf(key, sizeof(key), "%s_end",
				 severity_keys[sev]);
			count(j, key, a->end[sev]);
		}
		json_str(j, "errors", a->errors[0] ? a->errors : NULL);
		json_end(j);
	}
	json_array_end(j);
}

static void milli(struct json *j, const char *key, int v)
{
	if (v == SENSORS_NONE)
		json_null(j, key);
	else
		json_num(j, key, v / 1000.0);
}

static void hwmon(struct json *j, const struct vitals_machine *m)
{
	int i;

	json_array(j, "hwmon");
	for (i = 0; i < m->nhwmon; i++) {
		const struct vitals_hwmon *h = &m->hwmon[i];

		json_begin(j, NULL);
		json_str(j, "sensor", h->what);
		json_str(j, "hwmon", h->hwmon);
		json_i64(j, "index", h->index);
		milli(j, "first", h->first);
		milli(j, "max", h->max);
		milli(j, "last", h->last);
		milli(j, "high", h->high);
		milli(j, "crit", h->crit);
		json_end(j);
	}
	json_array_end(j);
}

void vitals_out_machine(struct json *j, const struct record *r)
{
	const struct vitals_machine *m = &r->sig;
	int i;

	json_begin(j, "machine");
	json_str(j, "verdict", judge_name(m->j.verdict));
	json_array(j, "reasons");
	for (i = 0; i < m->j.nreasons; i++)
		json_str(j, NULL, m->j.reasons[i]);
	json_array_end(j);
	json_str(j, "failure", m->failure[0] ? m->failure : NULL);
	json_u64(j, "sensors_seconds", m->period);
	json_u64(j, "samples", (uint64_t)m->samples);
	json_u64(j, "temp_warn", r->s ? r->s->temp_warn : 0);
	json_str(j, "selftest", !r->s ? NULL :
		 r->s->selftest == SETTINGS_SELFTEST_LONG ? "long" :
		 r->s->selftest == SETTINGS_SELFTEST_SHORT ? "short" : "none");
	edac(j, m);
	aer(j, m);
	hwmon(j, m);
	vitals_cpu_out_write(j, &m->cpu);
	json_begin(j, "kernel_log");
	json_bool(j, "read", m->kmsg);
	json_str(j, "why_not", m->kmsg ? NULL : m->kmsg_why);
	json_u64(j, "lines", m->kmsg_lines);
	json_u64(j, "lost", m->kmsg_lost);
	json_u64(j, "naming_no_disk", m->other_total);
	kinds(j, m->other);
	lines(j, "first", (char (*)[VITALS_LINE])m->kept, m->nkept);
	json_end(j);
	json_array(j, "raid_drives");
	for (i = 0; i < m->nhidden; i++) {
		const struct vitals_hidden *h = &m->hidden[i];

		json_begin(j, NULL);
		json_str(j, "controller", h->controller[0] ? h->controller :
			 NULL);
		json_str(j, "device", h->dev);
		json_str(j, "type", h->type);
		json_str(j, "model", h->model[0] ? h->model : NULL);
		json_str(j, "serial", h->serial[0] ? h->serial : NULL);
		drive(j, r, &h->d);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

/* Reading back: each field as written above. */
typedef const struct jsonread_node node;

static int num_or(node *n, const char *key, int none)
{
	return jsonread_type(jsonread_get(n, key)) == JSONREAD_NUMBER ?
	       (int)jsonread_i64(n, key, none) : none;
}

/*
 * A string as the bytes it was written from (json.c's \xNN taken back),
 * or as much of it as fits; "" when missing.
 */
static void text_of(node *n, const char *key, char *out, size_t len)
{
	if (jsonread_get_bytes(n, key, out, len, NULL))
		snprintf(out, len, "%s", jsonread_str(n, key, ""));
}

static void read_lines(node *arr, char (*kept)[VITALS_LINE], int *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < jsonread_count(arr) && i < VITALS_KEPT; i++)
		text_of(jsonread_at(arr, i), NULL, kept[(*n)++],
			VITALS_LINE);
}

static void read_kinds(node *obj, unsigned *count)
{
	int k;

	for (k = KMSG_NONE + 1; k < KMSG_KINDS; k++)
		count[k] = (unsigned)jsonread_u64(obj, kmsg_kind_name(k), 0);
}

static void read_drive(node *n, struct vitals_disk *d)
{
	node *t = jsonread_get(n, "temperature");
	node *st = jsonread_get(n, "selftest");
	node *crit = jsonread_get(n, "critical_warning_raised");
	int i;

	d->sampled = (int)jsonread_u64(n, "samples", 0);
	text_of(n, "protocol", d->protocol, sizeof(d->protocol));
	text_of(n, "error", d->error, sizeof(d->error));
	d->temp_first = num_or(t, "first", VITALS_NONE);
	d->temp_max = num_or(t, "max", VITALS_NONE);
	d->temp_last = num_or(t, "last", VITALS_NONE);
	d->limit = num_or(t, "limit", VITALS_NONE);
	for (i = 0; i < NLIMITS; i++)
		if (!strcmp(jsonread_str(t, "limit_from", ""), limit_keys[i]))
			d->limit_from = i;
	smart_out_read(jsonread_get(n, "smart_start"), &d->start);
	smart_out_read(jsonread_get(n, "smart_end"), &d->end);
	d->crit_raised = jsonread_i64(crit, "bits", 0);
	d->crit_at = (uint32_t)jsonread_u64(crit, "at_seconds", 0);
	if (jsonread_type(st) == JSONREAD_OBJECT) {
		d->selftest = strcmp(jsonread_str(st, "kind", ""), "long") ?
			      SETTINGS_SELFTEST_SHORT : SETTINGS_SELFTEST_LONG;
		d->st_result = vitals_selftest_of(jsonread_str(st, "result",
							       NULL));
		text_of(st, "text", d->st_text, sizeof(d->st_text));
	}
}

int vitals_out_read_disk(const struct jsonread_node *t,
			 struct record_disk *d)
{
	node *sig = jsonread_get(t, "signals");
	node *log = jsonread_get(sig, "kernel_log");
	node *path = jsonread_get(sig, "pci_path");
	struct vitals_disk *s = &d->sig;
	size_t i;

	vitals_disk_free(s);
	vitals_disk_init(s);
	if (jsonread_type(sig) != JSONREAD_OBJECT)
		return 0;
	read_drive(sig, s);
	s->kmsg_total = (unsigned)jsonread_u64(log, "errors", 0);
	s->kmsg_direct = (unsigned)jsonread_u64(log, "naming_it", 0);
	read_kinds(jsonread_get(log, "by_kind"), s->kmsg);
	read_lines(jsonread_get(log, "first"), s->kept, &s->nkept);
	for (i = 0; i < jsonread_count(path) && i < KMSGWATCH_PCI_PATH; i++)
		text_of(jsonread_at(path, i), "pci", s->pci[s->npci++],
			sizeof(s->pci[0]));
	return 0;
}

static int read_lists(node *m, struct vitals_machine *out)
{
	node *counts = jsonread_path(m, "/edac/counts");
	node *aers = jsonread_get(m, "aer"), *hw = jsonread_get(m, "hwmon");
	char key[40];
	size_t i;
	int sev;

	out->edac = calloc(jsonread_count(counts) + 1, sizeof(*out->edac));
	out->aer = calloc(jsonread_count(aers) + 1, sizeof(*out->aer));
	out->hwmon = calloc(jsonread_count(hw) + 1, sizeof(*out->hwmon));
	if (!out->edac || !out->aer || !out->hwmon)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(counts); i++) {
		node *e = jsonread_at(counts, i);
		struct vitals_edac *o = &out->edac[out->nedac++];

		text_of(e, "where", o->where, sizeof(o->where));
		text_of(e, "label", o->label, sizeof(o->label));
		text_of(e, "slot", o->slot, sizeof(o->slot));
		o->ce_start = (long)jsonread_i64(e, "corrected_start", -1);
		o->ce_end = (long)jsonread_i64(e, "corrected_end", -1);
		o->ue_start = (long)jsonread_i64(e, "uncorrected_start", -1);
		o->ue_end = (long)jsonread_i64(e, "uncorrected_end", -1);
	}
	for (i = 0; i < jsonread_count(aers); i++) {
		node *a = jsonread_at(aers, i);
		struct vitals_aer *o = &out->aer[out->naer++];

		text_of(a, "pci", o->pci, sizeof(o->pci));
		text_of(a, "errors", o->errors, sizeof(o->errors));
		for (sev = 0; sev < 3; sev++) {
			snprintf(key, sizeof(key), "%s_start",
				 severity_keys[sev]);
			o->start[sev] = (long)jsonread_i64(a, key, -1);
			snprintf(key, sizeof(key), "%s_end",
				 severity_keys[sev]);
			o->end[sev] = (long)jsonread_i64(a, key, -1);
		}
	}
	for (i = 0; i < jsonread_count(hw); i++) {
		node *h = jsonread_at(hw, i);
		struct vitals_hwmon *o = &out->hwmon[out->nhwmon++];

		text_of(h, "sensor", o->what, sizeof(o->what));
		text_of(h, "hwmon", o->hwmon, sizeof(o->hwmon));
		o->index = (int)jsonread_i64(h, "index", 0);
		o->first = (int)(jsonread_num(h, "first", 0) * 1000);
		o->max = (int)(jsonread_num(h, "max", 0) * 1000);
		o->last = (int)(jsonread_num(h, "last", 0) * 1000);
		o->high = jsonread_type(jsonread_get(h, "high")) ==
			  JSONREAD_NUMBER ? (int)(jsonread_num(h, "high", 0) *
						  1000) : SENSORS_NONE;
		o->crit = jsonread_type(jsonread_get(h, "crit")) ==
			  JSONREAD_NUMBER ? (int)(jsonread_num(h, "crit", 0) *
						  1000) : SENSORS_NONE;
	}
	return 0;
}

int vitals_out_read_machine(const struct jsonread_node *doc,
			    struct record *r)
{
	node *m = jsonread_get(doc, "machine");
	node *log = jsonread_get(m, "kernel_log");
	node *raid = jsonread_get(m, "raid_drives");
	struct vitals_machine *out = &r->sig;
	char fail[sizeof(out->failure_base)];
	const char *failure;
	size_t i, n;

	vitals_machine_free(out);
	if (jsonread_type(m) != JSONREAD_OBJECT)
		return 0;
	out->period = jsonread_u64(m, "sensors_seconds", 0);
	out->samples = (int)jsonread_u64(m, "samples", 0);
	out->edac_mcs = (int)jsonread_u64(jsonread_get(m, "edac"),
					  "memory_controllers", 0);
	out->kmsg = jsonread_bool(log, "read", 0);
	text_of(log, "why_not", out->kmsg_why, sizeof(out->kmsg_why));
	out->kmsg_lines = jsonread_u64(log, "lines", 0);
	out->kmsg_lost = jsonread_u64(log, "lost", 0);
	out->other_total = (unsigned)jsonread_u64(log, "naming_no_disk", 0);
	read_kinds(jsonread_get(log, "by_kind"), out->other);
	read_lines(jsonread_get(log, "first"), out->kept, &out->nkept);
	for (i = 0; i < jsonread_count(raid); i++) {
		node *h = jsonread_at(raid, i);
		struct vitals_hidden *o = vitals_add_hidden(out);

		if (!o)
			return -ENOMEM;
		text_of(h, "controller", o->controller, sizeof(o->controller));
		text_of(h, "device", o->dev, sizeof(o->dev));
		text_of(h, "type", o->type, sizeof(o->type));
		text_of(h, "model", o->model, sizeof(o->model));
		text_of(h, "serial", o->serial, sizeof(o->serial));
		read_drive(h, &o->d);
	}
	/*
	 * The run's own failure is what "failure" says without the
	 * machine's, which the judging adds again.
	 */
	text_of(m, "failure", fail, sizeof(fail));
	failure = jsonread_type(jsonread_get(m, "failure")) ==
		  JSONREAD_STRING ? fail : NULL;
	n = failure ? strlen(failure) : 0;
	snprintf(out->failure_base, sizeof(out->failure_base), "%s",
		 r->failure);
	if (n && strlen(r->failure) >= n &&
	    !strcmp(r->failure + strlen(r->failure) - n, failure)) {
		n = strlen(r->failure) - n;
		n = n >= 2 ? n - 2 : 0;
		out->failure_base[n] = 0;
	}
	out->have_base = 1;
	if (vitals_cpu_out_read(m, &out->cpu))
		return -ENOMEM;
	return read_lists(m, out);
}

static void vitals_summary_disk(const struct record *r,
				const struct record_disk *d, FILE *f)
{
	(void)r;
	vitals_text_disk(d, f);
}

static void vitals_burn(struct signal_burn *sb, enum signal_at at)
{
	if (at == SIGNAL_WATCH)
		sampler_start(sb->smp, sb->r, NULL);
	else if (at == SIGNAL_TICK)
		sampler_tick(sb->smp);
	else if (at == SIGNAL_UNWATCH)
		sampler_finish(sb->smp, sb->con, sb->stop);
}

/* The disk's latest temperature the sampler folded into the record. */
static int gauge_temp(const struct record_disk *d, double *v)
{
	*v = d->sig.temp_last;
	return d->sig.temp_last != VITALS_NONE;
}

/* The limit it is judged against: an alert rule compares the two. */
static int gauge_limit(const struct record_disk *d, double *v)
{
	*v = d->sig.limit;
	return d->sig.limit != VITALS_NONE && d->sig.limit > 0;
}

static const struct signal_gauge vitals_gauges[] = {
	{ "kiln_disk_temperature_celsius", "The disk's temperature, when it "
	  "is known.", 1, gauge_temp },
	{ "kiln_disk_temperature_limit_celsius", "The temperature the disk "
	  "is judged against (its own, temp-warn or kiln's default), when "
	  "known.", 0, gauge_limit },
	{ NULL, NULL, 0, NULL },
};

/* Its rules (record.h): each disk's own signals, then the machine's. */
static void vitals_judge(struct record *r, struct record_disk *d, int final,
			 enum judge_at at)
{
	(void)final;
	if (at == JUDGE_AT_DISK)
		vitals_judge_disk(r, d);
	else if (at == JUDGE_AT_RUN)
		vitals_judge_machine(r);
}

const struct signal_ops vitals_signal = {
	.name = "vitals",
	.judge = vitals_judge,
	.burn = vitals_burn,
	.json = vitals_out_machine,
	.json_disk = vitals_out_disk,
	.read = vitals_out_read_machine,
	.read_disk = vitals_out_read_disk,
	.summary_machine = vitals_text_run,
	.summary_disk_early = vitals_summary_disk,
	.html_shown = vitals_html_shown,
	.html = vitals_html_machine,
	.html_plot = vitals_html_temps,
	.gauges = vitals_gauges,
};
