/* SPDX-License-Identifier: MIT */
/*
 * Description: the reasons of a safety class and the notes beside them,
 * as they are said ("; " between): below safety.c, safety_use.c and
 * safety_open.c, which all say them, so none calls back into another.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "discover/safety_private.h"

void safety_why(struct safety *s, const char *fmt, ...)
{
	size_t used = strlen(s->why);
	va_list ap;

	if (used && used < sizeof(s->why) - 2) {
		memcpy(s->why + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->why + used, sizeof(s->why) - used, fmt, ap);
	va_end(ap);
}

void safety_note(struct safety *s, const char *fmt, ...)
{
	size_t used = strlen(s->notes);
	va_list ap;

	if (used && used < sizeof(s->notes) - 2) {
		memcpy(s->notes + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->notes + used, sizeof(s->notes) - used, fmt, ap);
	va_end(ap);
}
