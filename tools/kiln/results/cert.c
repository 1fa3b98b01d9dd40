/* SPDX-License-Identifier: MIT */
/*
 * Description: the certificates of how a run left its disks (end=):
 * cert-<serial>.json and cert-<serial>.html for each disk the end step
 * ran on, cert-machine.html for every disk, and result.json's "end"
 * with each certificate's SHA-256 (docs/results.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "judge/smartjudge.h"
#include "base/sysfs.h"
#include "base/version.h"
#include "engine/sancmd.h"
#include "results/cert.h"
#include "results/signal.h"
#include "results/html.h"
#include "results/smart_out.h"

/* A promise in words, as the certificate prints it. */
static const char *promise_words(const struct endstep *e)
{
	if (endstep_applied(e) == SANCMD_ZERO)
		return "written with zeros, then read back";
	if (e->method == SETTINGS_END_SANITIZE && e->san_method == SANCMD_NONE)
		return "nothing: no sanitize command was sent";
	if (e->method == SETTINGS_END_SANITIZE)
		return e->promise == ENDSTEP_PROMISE_ZEROS ?
		       "erased by the drive; it promises zeros after it" :
		       "erased by the drive; it does not promise what it "
		       "then reads as";
	return e->promise == ENDSTEP_PROMISE_ZEROS ?
	       "deallocated; the device promises zeros after it" :
	       "deallocated; the device does not promise what it then reads "
	       "as";
}

/*
 * The drive's firmware revision: the one the run recorded (result.json's),
 * else sysfs's: an NVMe controller's firmware_rev, a SCSI or SATA disk's
 * rev. sysfs_attr_tidy returns the length read, so only a failed or empty
 * firmware_rev asks for rev: an NVMe device has no rev, and asking it
 * anyway left every NVMe certificate without its firmware.
 */
static void firmware(const char *sysroot, const struct record_disk *d,
		     char *out, size_t len)
{
	char dir[600];

	snprintf(out, len, "%s", d->link.firmware);
	if (out[0] || !sysroot || !d->t.id.name[0])
		return;
	snprintf(dir, sizeof(dir), "%s/class/block/%s/device", sysroot,
		 d->t.id.name);
	if (sysfs_attr_tidy(dir, "firmware_rev", out, len) <= 0 || !out[0])
		sysfs_attr_tidy(dir, "rev", out, len);
}

static void when(time_t t, char *buf, size_t len)
{
	struct tm tm;

	buf[0] = 0;
	if (t && gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *or_null(const char *s)
{
	return s && s[0] ? s : NULL;
}

static void run_hex(const struct record *r, char *buf, size_t len)
{
	snprintf(buf, len, "%016llx", (unsigned long long)r->run_id);
}

static void json_machine(struct json *j, const struct record *r)
{
	const struct signal_column *c;

	json_begin(j, "machine");
	json_str(j, "id", or_null(r->machine));
	json_str(j, "vendor", or_null(r->system.vendor));
	json_str(j, "product", or_null(r->system.product));
	json_str(j, "serial", or_null(r->system.serial));
	json_str(j, "asset_tag", or_null(r->system.asset_tag));
	json_str(j, "chassis_serial", or_null(r->system.chassis_serial));
	for (SIGNAL_EACH(sg))
		for (c = (*sg)->columns; c && c->name; c++)
			if (c->cert && c->value)
				json_str(j, c->name, or_null(c->value(r)));
	json_end(j);
}

/*
 * What was applied as sancmd names it, the NIST SP 800-88 class it
 * reached and its IEEE 2883 technique, and why that method.
 */
static void json_sanitization(struct json *j, const struct endstep *e)
{
	int m = endstep_applied(e);

	json_str(j, "sanitization_method", sancmd_method_name(m));
	json_str(j, "nist_800_88_class", sancmd_class_name(endstep_class(e)));
	json_str(j, "ieee_2883_technique", or_null(sancmd_method_technique(m)));
	json_str(j, "method_why", or_null(e->san_why));
}

static void json_read_back(struct json *j, const struct endstep *e)
{
	json_begin(j, "read_back");
	json_u64(j, "percent", e->verify_pct);
	json_u64(j, "reads", e->verify_reads);
	json_u64(j, "bytes", e->verify_bytes);
	json_u64(j, "zero_bytes", e->zero_bytes);
	json_u64(j, "units_of_this_run", e->units_ours);
	json_u64(j, "other_bytes", e->other_bytes);
	json_end(j);
}

char *cert_disk_json(const struct record *r, const struct record_disk *d,
		     const char *sysroot, size_t *len)
{
	const struct endstep *e = &d->end;
	char buf[64], fw[128], buf2[340];
	struct json j;
	int i;

	firmware(sysroot, d, fw, sizeof(fw));
	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "certificate", "how kiln left this disk");
	json_str(&j, "kiln", version_string());
	run_hex(r, buf, sizeof(buf));
	json_str(&j, "run_id", buf);
	json_str(&j, "operator", or_null(r->s->operator_id));
	json_str(&j, "job_id", or_null(r->s->job_id));
	json_machine(&j, r);
	json_begin(&j, "drive");
	json_str(&j, "path", d->path);
	json_str(&j, "name", or_null(d->t.id.name));
	json_str(&j, "model", or_null(d->t.id.model));
	json_str(&j, "serial", or_null(d->t.id.serial));
	json_str(&j, "wwn", or_null(d->t.id.wwid));
	json_str(&j, "identity", d->t.id.identity);
	json_str(&j, "firmware", or_null(fw));
	json_u64(&j, "capacity_bytes", d->t.size);
	smart_out_json(&j, "smart_before", &smart_disk_of(d)->before.c,
		       SMART_OUT_HEALTH);
	smart_out_json(&j, "smart_after", &smart_disk_of(d)->after.c,
		       SMART_OUT_HEALTH);
	json_end(&j);
	json_begin(&j, "burn_in");
	json_str(&j, "verdict", judge_name(d->j.verdict));
	json_array(&j, "reasons");
	for (i = 0; i < d->j.nreasons; i++)
		json_str(&j, NULL, d->j.reasons[i]);
	json_array_end(&j);
	json_u64(&j, "bytes_written", d->snap.phase_bytes[PHASE_WRITE]);
	json_u64(&j, "bytes_verified", d->snap.phase_bytes[PHASE_VERIFY]);
	json_u64(&j, "bad_units", d->snap.c.bad_units);
	json_u64(&j, "io_errors", d->snap.c.io_errors);
	json_end(&j);
	json_begin(&j, "end");
	json_str(&j, "method", endstep_method_name(e->method));
	json_sanitization(&j, e);
	json_str(&j, "promise", promise_words(e));
	json_str(&j, "promise_from", or_null(e->promise_why));
	json_bool(&j, "write_zeroes_offload", e->offload);
	json_str(&j, "state", endstep_state_name(e->state));
	json_str(&j, "result", e->why);
	json_str(&j, "disposition", endstep_disposition(e));
	json_str(&j, "not_reached", or_null(e->unreached));
	json_str(&j, "hidden_capacity", endstep_hidden_words(e, buf2,
							    sizeof(buf2)));
	json_str(&j, "hidden_restored", or_null(d->t.hidden.restored));
	when(e->started, buf, sizeof(buf));
	json_str(&j, "started", or_null(buf));
	when(e->ended, buf, sizeof(buf));
	json_str(&j, "ended", or_null(buf));
	json_u64(&j, "bytes_done", atomic_load(&e->done));
	json_read_back(&j, e);
	json_end(&j);
	json_end(&j);
	return json_take(&j, len);
}

static void row(FILE *f, const char *name, const char *value)
{
	fputs("<tr><th>", f);
	html_text(f, name);
	fputs("</th><td>", f);
	html_text(f, value && value[0] ? value : "-");
	fputs("</td></tr>\n", f);
}

static void rowu(FILE *f, const char *name, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	row(f, name, buf);
}

static const char style[] =
	"<style>body{font-family:sans-serif;margin:2em;max-width:60em}"
	"table{border-collapse:collapse;margin-bottom:1.5em}"
	"th,td{border:1px solid #999;padding:.2em .6em;text-align:left}"
	"th{background:#eee}h1{font-size:1.4em}h2{font-size:1.1em}"
	"@media print{section{page-break-after:always}}</style>\n";

static void machine_rows(FILE *f, const struct record *r)
{
	const struct signal_column *c;
	char buf[64];

	fputs("<h2>Machine</h2><table>\n", f);
	row(f, "machine id", r->machine);
	row(f, "vendor", r->system.vendor);
	row(f, "product", r->system.product);
	row(f, "system serial (DMI)", r->system.serial);
	row(f, "asset tag", r->system.asset_tag);
	row(f, "chassis serial", r->system.chassis_serial);
	for (SIGNAL_EACH(sg))
		for (c = (*sg)->columns; c && c->name; c++)
			if (c->cert && c->value)
				row(f, c->cert, c->value(r));
	row(f, "operator", r->s->operator_id);
	row(f, "job id", r->s->job_id);
	row(f, "kiln", version_string());
	run_hex(r, buf, sizeof(buf));
	row(f, "run id", buf);
	fputs("</table>\n", f);
}

static void smart_rows(FILE *f, const struct record_disk *d)
{
	size_t i;
	char name[96], v[32];

	for (i = 0; i < smart_out_count(); i++) {
		long long b = smart_out_value(&smart_disk_of(d)->before.c, i);
		long long a = smart_out_value(&smart_disk_of(d)->after.c, i);

		if (b == SMARTJSON_NONE && a == SMARTJSON_NONE)
			continue;
		snprintf(name, sizeof(name), "SMART %s (before, after)",
			 smart_out_name(i));
		snprintf(v, sizeof(v), "%lld, %lld", b, a);
		row(f, name, v);
	}
}

static void disk_part(FILE *f, const struct record_disk *d,
		      const char *sysroot)
{
	const struct endstep *e = &d->end;
	char buf[64], fw[128], buf2[340];

	firmware(sysroot, d, fw, sizeof(fw));
	fputs("<h2>Drive</h2><table>\n", f);
	row(f, "path", d->path);
	row(f, "model", d->t.id.model);
	row(f, "serial", d->t.id.serial);
	row(f, "WWN", d->t.id.wwid);
	row(f, "firmware", fw);
	settings_fmt_size(d->t.size, buf, sizeof(buf));
	row(f, "capacity", buf);
	rowu(f, "capacity, bytes", (unsigned long long)d->t.size);
	smart_rows(f, d);
	fputs("</table>\n<h2>Burn-in</h2><table>\n", f);
	row(f, "verdict", judge_name(d->j.verdict));
	rowu(f, "bytes written",
	     (unsigned long long)d->snap.phase_bytes[PHASE_WRITE]);
	rowu(f, "bytes verified",
	     (unsigned long long)d->snap.phase_bytes[PHASE_VERIFY]);
	rowu(f, "bad units", d->snap.c.bad_units);
	rowu(f, "I/O errors", d->snap.c.io_errors);
	fputs("</table>\n", f);
	html_reasons(f, &d->j);
	fputs("<h2>How the disk was left</h2><table>\n", f);
	row(f, "method", endstep_method_name(e->method));
	row(f, "applied", sancmd_method_name(endstep_applied(e)));
	row(f, "why this method", e->san_why);
	row(f, "NIST SP 800-88 class reached",
	    sancmd_class_name(endstep_class(e)));
	row(f, "IEEE 2883 technique",
	    sancmd_method_technique(endstep_applied(e)));
	row(f, "what it promises", promise_words(e));
	row(f, "what says so", e->promise_why);
	row(f, "state", endstep_state_name(e->state));
	row(f, "result", e->why);
	row(f, "disposition", endstep_disposition(e));
	row(f, "not reached", e->unreached);
	row(f, "hidden capacity", endstep_hidden_words(e, buf2,
							    sizeof(buf2)));
	row(f, "hidden capacity restored", d->t.hidden.restored);
	when(e->started, buf, sizeof(buf));
	row(f, "started", buf);
	when(e->ended, buf, sizeof(buf));
	row(f, "ended", buf);
	rowu(f, "read back, % of the disk besides its ends", e->verify_pct);
	rowu(f, "read back, bytes", (unsigned long long)e->verify_bytes);
	rowu(f, "read as zeros, bytes", (unsigned long long)e->zero_bytes);
	rowu(f, "units of this run found", (unsigned long long)e->units_ours);
	rowu(f, "other data found, bytes", (unsigned long long)e->other_bytes);
	fputs("</table>\n", f);
}

/* The page closed: buf and size are final only after fclose(). */
static char *finish(FILE *f, char **buf, const size_t *size, size_t *len)
{
	if (fclose(f)) {
		free(*buf);
		return NULL;
	}
	*len = *size;
	return *buf;
}

char *cert_disk_html(const struct record *r, const struct record_disk *d,
		     const char *sysroot, size_t *len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>kiln certificate: ", f);
	html_text(f, d->t.id.serial[0] ? d->t.id.serial : d->label);
	fprintf(f, "</title>\n%s</head><body>\n<h1>How kiln left ", style);
	html_text(f, d->t.id.serial[0] ? d->t.id.serial : d->label);
	fputs("</h1>\n", f);
	machine_rows(f, r);
	disk_part(f, d, sysroot);
	fputs("</body></html>\n", f);
	return finish(f, &buf, &size, len);
}

char *cert_machine_html(const struct record *r, size_t *len)
{
	char *buf = NULL, size_s[32];
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int i;

	if (!f)
		return NULL;
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>kiln certificate: machine</title>\n%s</head><body>\n"
		"<section><h1>How kiln left the disks of ", style);
	html_text(f, r->machine[0] ? r->machine : "this machine");
	fputs("</h1>\n", f);
	machine_rows(f, r);
	fputs("<h2>Disks</h2><table>\n<tr><th>disk</th><th>model</th>"
	      "<th>serial</th><th>capacity</th><th>burn-in</th>"
	      "<th>method</th><th>NIST SP 800-88 class</th><th>state</th>"
	      "<th>result</th></tr>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		fputs("<tr>", f);
		html_cell(f, d->label);
		html_cell(f, d->t.id.model);
		html_cell(f, d->t.id.serial);
		html_cell(f, settings_fmt_size(d->t.size, size_s,
						 sizeof(size_s)));
		html_cell(f, judge_name(d->j.verdict));
		html_cell(f, endstep_method_name(d->end.method));
		html_cell(f, sancmd_class_name(endstep_class(&d->end)));
		html_cell(f, endstep_state_name(d->end.state));
		html_cell(f, d->end.why);
		fputs("</tr>\n", f);
	}
	fputs("</table></section>\n</body></html>\n", f);
	return finish(f, &buf, &size, len);
}

/* s made a file name's part, at most max characters, into out. */
static size_t name_part(const char *s, size_t max, char *out)
{
	size_t n;

	for (n = 0; s[n] && n < max; n++) {
		char c = s[n];

		out[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '-' ||
			 c == '_' ? c : '_';
	}
	out[n] = 0;
	return n;
}

/* Disk i's name before any clash: its serial, else its label. */
static void base_of(const struct record *r, int i, char *out)
{
	const struct record_disk *d = &r->disks[i];

	name_part(d->t.id.serial[0] ? d->t.id.serial : d->label, 140, out);
}

/*
 * The names are compared without case: the KILN stick is FAT, where
 * "cert-ab.json" and "cert-AB.json" are one file. A name part holds only
 * [A-Za-z0-9._-], so "+" cannot come from a serial and a name with one
 * cannot meet a name without.
 */
int cert_made(const struct record_disk *d)
{
	return d->end.state > ENDSTEP_SKIPPED ||
	       (d->end.state == ENDSTEP_SKIPPED && d->j.verdict == JUDGE_FAIL);
}

void cert_name(const struct record *r, int i, const char *ext, char *out,
	       size_t len)
{
	char mine[144], other[144], label[48], lab_j[48];
	int j, clash = 0, twin = 0;

	base_of(r, i, mine);
	if (!strcasecmp(mine, "machine"))
		clash = 1;
	for (j = 0; j < r->n && !clash; j++) {
		base_of(r, j, other);
		clash = j != i && !strcasecmp(mine, other);
	}
	if (!clash) {
		snprintf(out, len, "cert-%s.%s", mine, ext);
		return;
	}
	name_part(r->disks[i].label, 40, label);
	for (j = 0; j < r->n && !twin; j++) {
		if (j == i)
			continue;
		base_of(r, j, other);
		name_part(r->disks[j].label, 40, lab_j);
		twin = !strcasecmp(mine, other) && !strcasecmp(label, lab_j);
	}
	if (twin)
		snprintf(out, len, "cert-%s+%s+%d.%s", mine, label, i + 1, ext);
	else
		snprintf(out, len, "cert-%s+%s.%s", mine, label, ext);
}

void cert_out_json(struct json *j, const struct record *r)
{
	char name[200];
	int i;

	if (r->s->end == SETTINGS_END_KEEP)
		return;
	json_begin(j, "end");
	json_str(j, "method", endstep_method_name(r->s->end));
	json_u64(j, "verify_percent", r->s->end_verify);
	/* What the certificates certify the machine by: DMI's own serial. */
	json_str(j, "machine_serial", or_null(r->system.serial));
	json_array(j, "disks");
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct endstep *e = &d->end;

		json_begin(j, NULL);
		json_str(j, "label", d->label);
		json_str(j, "state", endstep_state_name(e->state));
		json_str(j, "result", or_null(e->why));
		json_str(j, "disposition", endstep_disposition(e));
		json_sanitization(j, e);
		json_u64(j, "bytes_done", atomic_load(&e->done));
		json_read_back(j, e);
		cert_name(r, i, "json", name, sizeof(name));
		json_str(j, "certificate_json", d->cert[0][0] ? name : NULL);
		json_str(j, "certificate_json_sha256", or_null(d->cert[0]));
		cert_name(r, i, "html", name, sizeof(name));
		json_str(j, "certificate_html", d->cert[1][0] ? name : NULL);
		json_str(j, "certificate_html_sha256", or_null(d->cert[1]));
		json_end(j);
	}
	json_array_end(j);
	json_str(j, "certificate_machine_sha256", or_null(r->cert_machine));
	json_end(j);
}
