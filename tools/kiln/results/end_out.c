/* SPDX-License-Identifier: MIT */
/*
 * Description: how a run left its disks (end=), a signal of the table
 * (signals.c): summary.txt's line a disk, report.html's table of them
 * with each certificate, and result.json's "end" read back (its writer,
 * cert_out_json(), is cert.c's, beside the certificates it names).
 */
#include <stdio.h>
#include <string.h>

#include "engine/endstep.h"
#include "engine/sancmd.h"
#include "judge/endjudge.h"
#include "results/cert.h"
#include "results/html.h"
#include "results/signal.h"

/* summary.txt's line a disk of how it was left (nothing with end=keep). */
static void end_out_summary(const struct record *r, FILE *f)
{
	char name[200];
	int i;

	if (r->s->end == SETTINGS_END_KEEP)
		return;
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		fprintf(f, "end=%s: %s %s: %s", endstep_method_name(r->s->end),
			d->label, endstep_state_name(d->end.state),
			d->end.why[0] ? d->end.why : "not reached");
		/* The fallback ran: what the drive said, that it had none. */
		if (endstep_applied(&d->end) == SANCMD_ZERO &&
		    r->s->end == SETTINGS_END_SANITIZE)
			fprintf(f, " (no sanitize: %s)", d->end.san_why);
		cert_name(r, i, "html", name, sizeof(name));
		if (cert_made(d))
			fprintf(f, " (certificate %s)", name);
		fputc('\n', f);
	}
}

/* report.html's table of how each disk was left, its certificate linked. */
static void end_out_html(FILE *f, const struct record *r)
{
	char name[200];
	int i;

	if (r->s->end == SETTINGS_END_KEEP)
		return;
	fprintf(f, "<h3>How the disks were left: end=%s</h3>\n"
		"<p><a href=\"cert-machine.html\">cert-machine.html</a></p>\n"
		"<table>\n<tr><th>disk</th><th>state</th><th>result</th>"
		"<th>certificate</th></tr>\n",
		endstep_method_name(r->s->end));
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		fputs("<tr>", f);
		html_cell(f, d->label);
		html_cell(f, endstep_state_name(d->end.state));
		html_cell(f, d->end.why);
		fputs("<td>", f);
		if (cert_made(d)) {
			cert_name(r, i, "html", name, sizeof(name));
			fputs("<a href=\"", f);
			html_text(f, name);
			fputs("\">", f);
			html_text(f, name);
			fputs("</a>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * result.json's "end" read back into r (its settings' end and each disk's
 * end and digests), for kiln finish and kiln report: 0.
 */
static int end_out_read(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *o = jsonread_get(doc, "end"), *ds, *t, *rb;
	const char *method;
	int i, k;

	if (!o || jsonread_type(o) != JSONREAD_OBJECT)
		return 0;
	method = jsonread_str(o, "method", "keep");
	for (k = SETTINGS_END_KEEP; k <= SETTINGS_END_SANITIZE; k++)
		if (!strcmp(method, endstep_method_name(k)))
			r->s->end = k;
	r->s->end_verify = (unsigned)jsonread_u64(o, "verify_percent",
						  r->s->end_verify);
	jsonread_copy(o, "certificate_machine_sha256", r->cert_machine,
		      sizeof(r->cert_machine));
	ds = jsonread_get(o, "disks");
	for (i = 0; i < r->n && i < (int)jsonread_count(ds); i++) {
		struct record_disk *d = &r->disks[i];
		struct endstep *e = &d->end;
		const char *state;

		t = jsonread_at(ds, (size_t)i);
		e->method = r->s->end;
		state = jsonread_str(t, "state", "none");
		for (k = 0; k < ENDSTEP_STATES; k++)
			if (!strcmp(state, endstep_state_name(k)))
				e->state = k;
		jsonread_copy(t, "result", e->why, sizeof(e->why));
		method = jsonread_str(t, "sanitization_method", "none");
		for (k = 0; k < SANCMD_METHODS; k++)
			if (!strcmp(method, sancmd_method_name(k)))
				e->san_method = k;
		jsonread_copy(t, "method_why", e->san_why, sizeof(e->san_why));
		atomic_store(&e->done, jsonread_u64(t, "bytes_done", 0));
		rb = jsonread_get(t, "read_back");
		e->verify_pct = (unsigned)jsonread_u64(rb, "percent", 0);
		e->verify_reads = jsonread_u64(rb, "reads", 0);
		e->verify_bytes = jsonread_u64(rb, "bytes", 0);
		e->zero_bytes = jsonread_u64(rb, "zero_bytes", 0);
		e->units_ours = jsonread_u64(rb, "units_of_this_run", 0);
		e->other_bytes = jsonread_u64(rb, "other_bytes", 0);
		jsonread_copy(t, "certificate_json_sha256", d->cert[0],
			      sizeof(d->cert[0]));
		jsonread_copy(t, "certificate_html_sha256", d->cert[1],
			      sizeof(d->cert[1]));
	}
	return 0;
}

static int end_shown(const struct record *r)
{
	return r->s && r->s->end != SETTINGS_END_KEEP;
}

/* Its rule (record.h): how the disk was left, read back. */
static void end_judge(struct record *r, struct record_disk *d, int final,
		      enum judge_at at)
{
	(void)r;
	if (at == JUDGE_AT_DISK)
		endjudge_disk(d, final);
}

/* How the disks were left (end=), a signal of the table (signals.c). */
const struct signal_ops end_signal = {
	.name = "end",
	.judge = end_judge,
	.json = cert_out_json,
	.read = end_out_read,
	.summary = end_out_summary,
	.html_shown = end_shown,
	.html = end_out_html,
};
