/* SPDX-License-Identifier: MIT */
/*
 * Description: text, a table cell and a verdict's reasons as HTML (see
 * html.h), for report.html and the signals' parts of it.
 */
#include <stdio.h>

#include "results/html.h"

void html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void html_reasons(FILE *f, const struct judge *j)
{
	int i;

	if (!j->nreasons)
		return;
	fputs("<ul>\n", f);
	for (i = 0; i < j->nreasons; i++) {
		fputs("<li>", f);
		html_text(f, j->reasons[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

void html_cell(FILE *f, const char *s)
{
	fputs("<td class=\"l\">", f);
	html_text(f, s);
	fputs("</td>", f);
}
