/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTML_H
#define KILN_HTML_H

#include <stdio.h>

#include "judge/judge.h"

/*
 * The HTML every part of report.html writes through: below report_html.c
 * and every signal's part (signal.h), so a part never calls back up into
 * the page that holds it.
 */

/* Text as HTML: &, <, > and " escaped. */
void html_text(FILE *f, const char *s);

/* A verdict's reasons as a list; nothing when it has none. */
void html_reasons(FILE *f, const struct judge *j);

/* A table cell of text, to the left. */
void html_cell(FILE *f, const char *s);

#endif
