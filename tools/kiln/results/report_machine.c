/* SPDX-License-Identifier: MIT */
/*
 * Description: report.html's view of the machine (see report_machine.h):
 * the inventory tree with each controller's link budget, and the
 * machine's section, its verdict over the table's signals' parts.
 */
#include "results/html.h"
#include "results/report_machine.h"
#include "results/signal.h"

static void tree_disk(FILE *f, const struct record *r,
		      const struct record_disk *d)
{
	const char *v = judge_name(d->j.verdict);

	fprintf(f, "<li class=\"disk\"><span class=\"%s\">", v);
	html_text(f, d->label);
	fputs("</span>", f);
	if (d->t.id.model[0]) {
		fputs(" ", f);
		html_text(f, d->t.id.model);
	}
	for (SIGNAL_EACH(s))
		if ((*s)->html_disk)
			(*s)->html_disk(f, r, d);
	fputs("</li>\n", f);
}

/* What a signal says on a controller's line. */
static void ctrl_line(void *arg, const char *text)
{
	fputs("<br>", arg);
	html_text(arg, text);
}

static void tree_ctrl(FILE *f, const struct record *r, int k)
{
	const struct links_ctrl *c = &r->links.ctrls[k];
	char pcie[64], w[32], rd[32], why[600];

	fputs("<li class=\"ctrl\"><b>", f);
	html_text(f, c->pci.pci);
	fputs(" ", f);
	html_text(f, c->pci.kind);
	if (c->pci.driver[0]) {
		fputs(" ", f);
		html_text(f, c->pci.driver);
	}
	fprintf(f, "</b>, %d disk%s", c->ndisks, c->ndisks == 1 ? "" : "s");
	if (links_pcie_text(&c->pci, pcie, sizeof(pcie))[0])
		fprintf(f, ", <span class=\"budget\">%s (%s)</span>", pcie,
			links_fmt_rate(c->pci.link_mbps, w, sizeof(w)));
	if (c->write_mbps > 0 || c->read_mbps > 0)
		fprintf(f, ": together %s write, %s read",
			links_fmt_rate(c->write_mbps, w, sizeof(w)),
			links_fmt_rate(c->read_mbps, rd, sizeof(rd)));
	if (links_verdict(c, why, sizeof(why))[0]) {
		fputs("<br>", f);
		html_text(f, why);
	}
	signals_ctrl(r, k, ctrl_line, f);
	fputs("\n<ul>\n", f);
}

void report_inventory_html(FILE *f, const struct record *r,
			   const int *order)
{
	int c, i, loose = 0;

	if (!r->n)
		return;
	fputs("<h2>Controllers and disks</h2>\n<ul class=\"inventory\">\n", f);
	for (c = 0; c < r->links.n; c++) {
		tree_ctrl(f, r, c);
		for (i = 0; i < r->n; i++)
			if (r->disks[order[i]].link.ctrl == c)
				tree_disk(f, r, &r->disks[order[i]]);
		fputs("</ul></li>\n", f);
	}
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[order[i]];

		if (d->link.ctrl >= 0 && d->link.ctrl < r->links.n)
			continue;
		if (!loose++)
			fputs("<li class=\"ctrl\"><b>no controller</b> (files, "
			      "loop devices, or not found in sysfs)\n<ul>\n", f);
		tree_disk(f, r, d);
	}
	if (loose)
		fputs("</ul></li>\n", f);
	fputs("</ul>\n", f);
}

/* Whether a signal of the table has a part in the machine's section. */
static int signals_shown(const struct record *r)
{
	for (SIGNAL_EACH(s))
		if ((*s)->html_shown && (*s)->html_shown(r))
			return 1;
	return 0;
}

void report_machine_html(FILE *f, const struct record *r)
{
	const struct vitals_machine *m = &r->sig;
	const char *v = judge_name(m->j.verdict);

	if (m->j.verdict == JUDGE_PASS && !signals_shown(r))
		return;
	fprintf(f, "<div class=\"machine\">\n<h2>The machine's signals: "
		"<span class=\"%s\">%s</span></h2>\n", v, v);
	html_reasons(f, &m->j);
	for (SIGNAL_EACH(s))
		if ((*s)->html)
			(*s)->html(f, r);
	fputs("</div>\n", f);
}
