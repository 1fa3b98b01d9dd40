/* SPDX-License-Identifier: MIT */
/*
 * Description: the ring of lines a lab helper thread keeps for the main
 * thread to print (see said.h): bounded, and a line lost is said.
 */
#include <stdio.h>
#include <string.h>

#include "lab/said.h"

void said_init(struct said *s, unsigned cap)
{
	memset(s, 0, sizeof(*s));
	s->cap = cap && cap < SAID_LINES ? cap : SAID_LINES;
}

void said_add(struct said *s, const char *fmt, va_list ap)
{
	if (s->count == s->cap) {
		s->first = (s->first + 1) % s->cap;
		s->count--;
		s->lost++;
	}
	vsnprintf(s->lines[(s->first + s->count) % s->cap], SAID_MAX, fmt,
		  ap);
	s->count++;
}

int said_take(struct said *s, const char *who, char *line, size_t len)
{
	if (s->lost) {
		snprintf(line, len, "%s: (%u older lines not shown)", who,
			 s->lost);
		s->lost = 0;
		return 1;
	}
	if (!s->count)
		return 0;
	snprintf(line, len, "%s", s->lines[s->first]);
	s->first = (s->first + 1) % s->cap;
	s->count--;
	return 1;
}
