/* SPDX-License-Identifier: MIT */
/*
 * Description: the CPUs' part of report.html (see vitals_cpu_html.h), from the
 * record alone, so kiln report draws it again from result.json.
 */
#include <stdio.h>

#include "results/html.h"
#include "results/vitals_cpu_out.h"
#include "results/vitals_cpu_html.h"

static void mce_table(FILE *f, const struct mce_tally *t)
{
	char hex[24];
	int i;

	fprintf(f, "<p>machine checks in the kernel log: %u corrected, %u "
		"uncorrected", t->corrected, t->uncorrected);
	if (t->logged)
		fprintf(f, ", events logged %u time%s", t->logged,
			t->logged == 1 ? "" : "s");
	fputs("</p>\n", f);
	if (!t->nbanks)
		return;
	fputs("<table class=\"mce\">\n<tr><th>CPU</th><th>bank</th>"
	      "<th>records</th><th class=\"l\">kind</th>"
	      "<th class=\"l\">first MCi_STATUS</th></tr>\n", f);
	for (i = 0; i < t->nbanks; i++) {
		const struct mce_bank *b = &t->banks[i];

		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)b->status);
		fprintf(f, "<tr><td>%d</td><td>%d</td><td>%u</td>", b->cpu,
			b->bank, b->n);
		fprintf(f, "<td class=\"l%s\">%s</td>", b->uncorrected ?
			" rose" : "", b->uncorrected ? (b->pcc ?
			"uncorrected, context corrupt" : "uncorrected") :
			"corrected");
		html_cell(f, hex);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (t->unkept)
		fprintf(f, "<p>%u more on other CPUs and banks</p>\n",
			t->unkept);
}

void vitals_cpu_html(FILE *f, const struct vitals_machine *m)
{
	const struct vitals_cpu *c = &m->cpu;
	char line[200], list[200];

	fputs("<h3>CPUs</h3>\n", f);
	if (vitals_cpu_out_clock_text(c, line, sizeof(line))[0]) {
		fputs("<p>", f);
		html_text(f, line);
		fputs("</p>\n", f);
	}
	if (!c->nthrottle)
		fputs("<p>thermal throttling: not counted here</p>\n", f);
	else if (!vitals_cpu_throttled(c))
		fprintf(f, "<p>thermal throttling: none during the run (%d "
			"CPU%s counted)</p>\n", c->nthrottle,
			c->nthrottle == 1 ? "" : "s");
	else
		fprintf(f, "<p class=\"rose\">thermal throttling during the "
			"run: CPU %s</p>\n",
			vitals_cpu_throttled_list(c, list, sizeof(list)));
	if (m->kmsg)
		mce_table(f, &c->mce);
}
