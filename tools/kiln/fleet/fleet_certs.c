/* SPDX-License-Identifier: MIT */
/*
 * Description: fleet-certificates.html, a batch of certificates to print:
 * each machine whose latest run left its disks (end=discard or zero) on
 * a page of its own, with the machine's identity (DMI serial, asset tag,
 * chassis serial, BMC) and each disk's method, state and what the
 * read-back found, with its certificate's SHA-256 to check the run
 * folder's cert-<serial>.json against. Every name escaped, as fleet.html.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1em 1.5em;font-size:13px}\n"
	"table{border-collapse:collapse;margin-bottom:1em}\n"
	"td,th{border:1px solid #999;padding:2px 6px;text-align:left;"
	"vertical-align:top;overflow-wrap:anywhere}\n"
	"th{background:#eee}.sha{font-family:monospace;font-size:11px}\n"
	"section{page-break-after:always;margin-bottom:2em}\n";

static void html(FILE *f, const char *s)
{
	fleet_text(f, s && s[0] ? s : "-", FLEET_HTML);
}

static void row(FILE *f, const char *name, const char *value)
{
	fprintf(f, "<tr><th>%s</th><td>", name);
	html(f, value);
	fputs("</td></tr>\n", f);
}

static void cell(FILE *f, const char *s)
{
	fputs("<td>", f);
	html(f, s);
	fputs("</td>", f);
}

static void machine(FILE *f, const struct fleet_run *r)
{
	const struct signal_column *cols[FLEET_COLUMNS];
	int i, k, ncols = signals_columns(cols, FLEET_COLUMNS);
	char size[32];

	fputs("<section><h1>How kiln left the disks of ", f);
	html(f, r->machine);
	fputs("</h1>\n<table>\n", f);
	row(f, "machine id", r->machine);
	row(f, "vendor", r->vendor);
	row(f, "product", r->product);
	row(f, "system serial (DMI)", r->machine_serial);
	row(f, "asset tag", r->asset_tag);
	row(f, "chassis serial", r->chassis_serial);
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		if (cols[k]->cert)
			row(f, cols[k]->cert, r->cols[k]);
	row(f, "run id", r->run_id);
	row(f, "started", r->started);
	row(f, "run folder", r->dir);
	row(f, "kiln", r->kiln_version);
	row(f, "method", r->end_method);
	fputs("<tr><th>cert-machine.html SHA-256</th><td class=\"sha\">", f);
	html(f, r->cert_machine_sha);
	fputs("</td></tr>\n</table>\n<table>\n<tr><th>disk</th><th>model"
	      "</th><th>serial</th><th>capacity</th><th>burn-in</th>"
	      "<th>state</th><th>result</th><th>certificate SHA-256</th>"
	      "</tr>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		fputs("<tr>", f);
		cell(f, d->label);
		cell(f, d->model);
		cell(f, d->serial);
		cell(f, settings_fmt_size(d->size, size, sizeof(size)));
		cell(f, d->verdict);
		cell(f, d->end_state);
		cell(f, d->end_result);
		fputs("<td class=\"sha\">", f);
		html(f, d->cert_sha);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></section>\n", f);
}

char *fleet_certs_html(const struct fleet *fl, size_t *len, int *any)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	int i;

	*any = 0;
	if (!f)
		return NULL;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\"><title>kiln fleet: certificates"
		"</title>\n<style>\n%s</style></head><body>\n", style);
	for (i = 0; i < fl->n; i++) {
		const struct fleet_run *r = fl->machines[i].runs[0];

		if (!r->end_method || !r->end_method[0])
			continue;
		machine(f, r);
		(*any)++;
	}
	if (!*any)
		fputs("<p>No machine's latest run left its disks with "
		      "end=discard or end=zero.</p>\n", f);
	fputs("</body></html>\n", f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
