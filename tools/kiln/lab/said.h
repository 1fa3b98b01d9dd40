/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAID_H
#define KILN_SAID_H

#include <stdarg.h>
#include <stddef.h>

/*
 * What a lab helper thread (the uploader, the metrics pusher) has to say,
 * kept for the main thread, which alone prints: a ring of the last lines,
 * the oldest dropped when it is full and the drop said when next read.
 * The caller holds its own lock around each call.
 */
#define SAID_LINES 32
#define SAID_MAX 400

struct said {
	char lines[SAID_LINES][SAID_MAX];
	unsigned cap;			/* lines kept, SAID_LINES at most */
	unsigned first, count, lost;
};

void said_init(struct said *s, unsigned cap);

/* Adds a line; the oldest goes when the ring is full. */
void said_add(struct said *s, const char *fmt, va_list ap);

/*
 * The oldest line into line, or "WHO: (N older lines not shown)" first
 * when some were lost: 1, or 0 when there is none.
 */
int said_take(struct said *s, const char *who, char *line, size_t len);

#endif
