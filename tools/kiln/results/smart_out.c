/* SPDX-License-Identifier: MIT */
/*
 * Description: a drive's SMART counters written to result.json and read
 * back (see smart_out.h): one table of keys for both, so that kiln finish
 * and kiln fleet read what a run wrote. A counter not reported is null.
 * SMART as a signal of the table (smart_signal): read by smartctl
 * before and after a burn, a target's "smart" then, read back, and
 * report.html's section of the counters that changed, and its
 * measurements in the OCP output.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "judge/judge.h"
#include "results/html.h"
#include "results/ocptv_out.h"
#include "results/result_keys.h"
#include "results/signal.h"
#include "results/smart_out.h"
#include "judge/smartjudge.h"
#include "sense/health.h"

/* In result.json's order; the "smart" object has the first seven. */
static const struct {
	const char *key;
	size_t off;
	const char *words;
} counters[] = {
#define C(key, field, words) \
	{ key, offsetof(struct smart_counters, field), words }
	C(KEY_REALLOCATED_SECTORS, realloc, "reallocated sectors"),
	C(KEY_PENDING_SECTORS, pending, "pending sectors"),
	C(KEY_OFFLINE_UNCORRECTABLE, uncorrectable, "offline uncorrectable"),
	C(KEY_CRC_ERRORS, crc_errors, "CRC errors"),
	C(KEY_MEDIA_ERRORS, media_errors, "media errors"),
	C(KEY_CRITICAL_WARNING, critical_warning, "critical warning"),
	C(KEY_GROWN_DEFECTS, grown_defects, "grown defects"),
	C(KEY_ERROR_LOG_ENTRIES, error_log, "error log entries"),
	C(KEY_SCSI_UNCORRECTED, scsi_uncorrected, "SCSI uncorrected"),
#undef C
};

#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))
#define NHEALTH 7

static long long *field(struct smart_counters *c, size_t i)
{
	return (long long *)(void *)((char *)c + counters[i].off);
}

static long long value(const struct smart_counters *c, size_t i)
{
	return *(const long long *)(const void *)((const char *)c +
						  counters[i].off);
}

size_t smart_out_count(void)
{
	return NCOUNTERS;
}

const char *smart_out_name(size_t i)
{
	return i < NCOUNTERS ? counters[i].words : "?";
}

long long smart_out_value(const struct smart_counters *c, size_t i)
{
	return i < NCOUNTERS && c->have ? value(c, i) : SMARTJSON_NONE;
}

void smart_out_json(struct json *j, const char *key,
		    const struct smart_counters *c, enum smart_out_keys keys)
{
	size_t i, n = keys == SMART_OUT_SIGNALS ? NCOUNTERS : NHEALTH;
	long long v;

	if (!c->have) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	if (c->passed < 0)
		json_null(j, KEY_PASSED);
	else
		json_bool(j, KEY_PASSED, c->passed);
	for (i = 0; i < n; i++) {
		v = value(c, i);
		if (v < 0)
			json_null(j, counters[i].key);
		else
			json_i64(j, counters[i].key, v);
	}
	json_end(j);
}

void smart_out_read(const struct jsonread_node *n, struct smart_counters *c)
{
	size_t i;

	c->have = jsonread_type(n) == JSONREAD_OBJECT;
	c->passed = jsonread_type(jsonread_get(n, KEY_PASSED)) == JSONREAD_BOOL ?
		    jsonread_bool(n, KEY_PASSED, 0) : -1;
	for (i = 0; i < NCOUNTERS; i++)
		*field(c, i) = jsonread_i64(n, counters[i].key, -1);
}

/* A target's "smart": the drive's health before and after the burn. */
static void smart_json_disk(struct json *j, const struct record *r,
			    const struct record_disk *d)
{
	const struct smart_disk *s = smart_disk_of(d);

	(void)r;
	json_begin(j, KEY_SMART);
	smart_out_json(j, KEY_BEFORE, &s->before.c, SMART_OUT_HEALTH);
	smart_out_json(j, KEY_AFTER, &s->after.c, SMART_OUT_HEALTH);
	json_end(j);
}

static int smart_read_disk(const struct jsonread_node *t,
			   struct record_disk *d)
{
	struct smart_disk *s = smart_disk_make(d);

	if (!s)
		return -ENOMEM;
	smart_out_read(jsonread_path(t, "/" KEY_SMART "/" KEY_BEFORE),
		       &s->before.c);
	smart_out_read(jsonread_path(t, "/" KEY_SMART "/" KEY_AFTER),
		       &s->after.c);
	return 0;
}

/*
 * report.html's SMART section: the counters that changed during the run,
 * a row each (disk, counter, before, after), and how many disks reported
 * SMART at all. A counter's first and last value in the run: SMART before
 * and after the burn, else the signals' first and last sample; 0 when
 * either is unknown.
 */
static int smart_span(const struct record_disk *d, size_t i, long long *a,
		      long long *b)
{
	const struct smart_disk *s = smart_disk_of(d);

	*a = smart_out_value(&s->before.c, i);
	if (*a < 0)
		*a = smart_out_value(&d->sig.start, i);
	*b = smart_out_value(&s->after.c, i);
	if (*b < 0)
		*b = smart_out_value(&d->sig.end, i);
	return *a >= 0 && *b >= 0;
}

static int smart_known(const struct record_disk *d)
{
	const struct smart_disk *s = smart_disk_of(d);

	return s->before.c.have || s->after.c.have || d->sig.start.have ||
	       d->sig.end.have;
}

static void smart_html(FILE *f, const struct record *r, const int *order)
{
	int i, known = 0, rows = 0;
	long long a, b;
	size_t k;

	for (i = 0; i < r->n; i++)
		known += smart_known(&r->disks[i]);
	if (!r->n)
		return;
	fputs("<h2>SMART during the run</h2>\n", f);
	if (!known) {
		fputs("<p>No disk reported SMART (loop devices, files and "
		      "RAID volumes have none).</p>\n", f);
		return;
	}
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[order[i]];
		const char *v = judge_name(d->j.verdict);

		for (k = 0; k < smart_out_count(); k++) {
			if (!smart_span(d, k, &a, &b) || a == b)
				continue;
			if (!rows++)
				fputs("<table id=\"smart\">\n<tr><th "
				      "class=\"l\">disk</th><th class=\"l\">"
				      "counter</th><th>before</th><th>after"
				      "</th><th>change</th></tr>\n", f);
			fprintf(f, "<tr><td class=\"l %s\">", v);
			html_text(f, d->label);
			fprintf(f, "</td><td class=\"l\">%s</td><td>%lld</td>"
				"<td>%lld</td><td>%+lld</td></tr>\n",
				smart_out_name(k), a, b, b - a);
		}
	}
	if (rows)
		fputs("</table>\n", f);
	if (rows)
		fprintf(f, "<p>%d disk%s reported SMART; no other counter "
			"changed.</p>\n", known, known == 1 ? "" : "s");
	else
		fprintf(f, "<p>No SMART counter changed on the %d disk%s that "
			"reported SMART.</p>\n", known, known == 1 ? "" : "s");
}

/* How long smartctl may take, for all disks at once. */
#define SMART_TIMEOUT_S 60

/*
 * SMART before or after the run, for the disks that have it: not loop
 * devices and files. Without smartctl (a host without smartmontools) the
 * results say there is none.
 */
static void smart_read(struct record *r, int after)
{
	const char **devs;
	struct health *h;
	int i;

	if (access(HEALTH_SMARTCTL, X_OK) < 0)
		return;
	devs = calloc((size_t)r->n + 1, sizeof(*devs));
	h = calloc((size_t)r->n + 1, sizeof(*h));
	if (!devs || !h)
		goto out;
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] &&
		    r->disks[i].t.kind == TARGET_BLOCK &&
		    !r->disks[i].t.id.backing[0])
			devs[i] = r->disks[i].path;
	if (health_read_many(HEALTH_SMARTCTL, devs, r->n, SMART_TIMEOUT_S,
			     h) == -ETIMEDOUT)
		for (i = 0; i < r->n; i++)
			if (devs[i] && !h[i].len)
				record_note(r,
					    "%s: smartctl did not answer in "
					    "%u s (%s the run)",
					    r->disks[i].label, SMART_TIMEOUT_S,
					    after ? "after" : "before");
	for (i = 0; i < r->n; i++) {
		struct smart_disk *s = smart_disk_make(&r->disks[i]);
		struct health *to = !s ? NULL : after ? &s->after : &s->before;

		if (!to) {
			record_note(r, "%s: SMART %s the run not kept: no "
				    "room in the record", r->disks[i].label,
				    after ? "after" : "before");
			health_free(&h[i]);
			continue;
		}
		health_free(to);
		*to = h[i];
	}
out:
	free(devs);
	free(h);
}

static void smart_burn(struct signal_burn *sb, enum signal_at at)
{
	if (at == SIGNAL_BEFORE || at == SIGNAL_AFTER)
		smart_read(sb->r, at == SIGNAL_AFTER);
}

/*
 * OCP's measurements of a disk at its step's end: its health and each
 * counter after the burn, each counter judged against its value before.
 */
static void smart_ocp_disk(struct ocptv_out *o, const struct record_disk *d,
			   const char *step, const char *hw, double t)
{
	const struct smart_disk *s = smart_disk_of(d);
	const struct smart_counters *b = s->before.c.have ? &s->before.c :
					 NULL;
	const struct smart_counters *a = &s->after.c;
	const struct {
		const char *name;
		long long before, after;
	} c[] = {
		{ "smart-reallocated-sectors", b ? b->realloc : -1,
		  a->realloc },
		{ "smart-pending-sectors", b ? b->pending : -1, a->pending },
		{ "smart-offline-uncorrectable", b ? b->uncorrectable : -1,
		  a->uncorrectable },
		{ "smart-crc-errors", b ? b->crc_errors : -1, a->crc_errors },
		{ "smart-media-errors", b ? b->media_errors : -1,
		  a->media_errors },
		{ "smart-grown-defects", b ? b->grown_defects : -1,
		  a->grown_defects },
	};
	size_t i;

	if (!a->have)
		return;
	if (a->passed >= 0) {
		ocptv_out_measure_begin(o, step, hw,
					"smart-overall-health-passed", NULL);
		json_bool(&o->j, "value", a->passed);
		ocptv_out_validator_begin(o, "EQUAL", "FAIL: the drive "
					  "predicts its own failure");
		json_bool(&o->j, "value", 1);
		ocptv_out_validator_end(o);
		ocptv_out_measure_end(o, t);
	}
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (c[i].after < 0)
			continue;
		ocptv_out_measure_begin(o, step, hw, c[i].name, NULL);
		json_i64(&o->j, "value", c[i].after);
		if (c[i].before >= 0) {
			ocptv_out_validator_begin(o, "LESS_THAN_OR_EQUAL",
						  "FAIL: rose during the "
						  "burn-in");
			json_i64(&o->j, "value", c[i].before);
			ocptv_out_validator_end(o);
		}
		ocptv_out_measure_end(o, t);
	}
	if (a->critical_warning >= 0) {
		ocptv_out_measure_begin(o, step, hw, "nvme-critical-warning",
					NULL);
		json_i64(&o->j, "value", a->critical_warning);
		ocptv_out_validator_begin(o, "EQUAL", "FAIL: any NVMe critical "
					  "warning");
		json_u64(&o->j, "value", 0);
		ocptv_out_validator_end(o);
		ocptv_out_measure_end(o, t);
	}
}

/*
 * Its rule (record.h), right after the engine's verdict: a failing
 * self-assessment, damage grown during the run, FAIL; older damage WARNs.
 */
static void smart_judge(struct record *r, struct record_disk *d, int final,
			enum judge_at at)
{
	const struct smart_disk *s;

	(void)r;
	if (at != JUDGE_AT_HEALTH)
		return;
	s = smart_disk_of(d);
	judge_health(&s->before.c, final ? &s->after.c : NULL, &d->j);
}

const struct signal_ops smart_signal = {
	.name = "smart",
	.judge = smart_judge,
	.burn = smart_burn,
	.json_disk = smart_json_disk,
	.read_disk = smart_read_disk,
	.html_section = smart_html,
	.ocp_disk = smart_ocp_disk,
};
