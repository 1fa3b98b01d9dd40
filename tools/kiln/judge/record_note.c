/* SPDX-License-Identifier: MIT */
/*
 * Description: a note of the record (record.h), said at the start and
 * kept in the results. Below record.c, so what record.c calls (linkerr.c
 * among them) can note without calling back into it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/record.h"

void record_note(struct record *r, const char *fmt, ...)
{
	char **grown, *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grown = realloc(r->notes, (size_t)(r->nnotes + 1) * sizeof(*grown));
	if (!grown) {
		free(text);
		return;
	}
	r->notes = grown;
	r->notes[r->nnotes++] = text;
}
