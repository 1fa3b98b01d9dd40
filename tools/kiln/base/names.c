/* SPDX-License-Identifier: MIT */
/*
 * Description: many names in few words ("loop0-59", "sdb-sdd"), so a line
 * said once for 60 like disks still names them all (see names.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"

/* More digits than this are no number a range is made of ("sd0123456789"). */
#define NUM_DIGITS 9

enum { BY_NUMBER, BY_LETTER, BY_NONE };

/* A name as stem, the one thing that counts up, and what follows it. */
struct part {
	const char *name;
	size_t stem;		/* bytes before the number or the letter */
	unsigned long num;	/* the number, or the letter */
	const char *tail;	/* after the number ("n1" of nvme0n1) */
	int by;
};

static void split(const char *name, struct part *p)
{
	size_t len = strlen(name), i = strcspn(name, "0123456789"), j = i;

	p->name = name;
	p->num = 0;
	p->tail = "";
	p->stem = len;
	p->by = BY_NONE;
	if (i < len) {
		while (name[j] >= '0' && name[j] <= '9')
			j++;
		/* "sd01" counts as "sd01": a range would drop its zero. */
		if (j - i > NUM_DIGITS || (name[i] == '0' && j - i > 1))
			return;
		p->num = strtoul(name + i, NULL, 10);
		p->stem = i;
		p->tail = name + j;
		p->by = BY_NUMBER;
	} else if (len > 1 && name[len - 1] >= 'a' && name[len - 1] <= 'z') {
		p->num = (unsigned char)name[len - 1];
		p->stem = len - 1;
		p->by = BY_LETTER;
	}
}

static int part_cmp(const void *va, const void *vb)
{
	const struct part *a = va, *b = vb;
	size_t n = a->stem < b->stem ? a->stem : b->stem;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->stem != b->stem)
		return a->stem < b->stem ? -1 : 1;
	if (a->by != b->by)
		return a->by - b->by;
	c = strcmp(a->tail, b->tail);
	if (c)
		return c;
	return a->num < b->num ? -1 : a->num > b->num;
}

/* Whether b comes right after a in one range. */
static int follows(const struct part *a, const struct part *b)
{
	return a->by != BY_NONE && a->by == b->by && a->stem == b->stem &&
	       !memcmp(a->name, b->name, a->stem) &&
	       !strcmp(a->tail, b->tail) && b->num == a->num + 1;
}

/* snprintf onto what is written so far; *need counts it all. */
static void add(char *buf, size_t len, size_t *need, const char *fmt, ...)
{
	size_t at = *need < len ? *need : len ? len - 1 : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(len ? buf + at : NULL, len ? len - at : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*need += (size_t)n;
}

static void add_range(char *buf, size_t len, size_t *need,
		      const struct part *a, const struct part *z)
{
	if (a == z)
		add(buf, len, need, "%s", a->name);
	else if (a->by == BY_NUMBER && !a->tail[0])
		add(buf, len, need, "%s-%lu", a->name, z->num);
	else
		add(buf, len, need, "%s-%s", a->name, z->name);
}

int names_ranges(const char *const *names, size_t n, char *buf, size_t len)
{
	struct part *p = calloc(n + 1, sizeof(*p));
	size_t i, first, need = 0;

	if (len)
		buf[0] = 0;
	if (!p)
		return -1;
	for (i = 0; i < n; i++)
		split(names[i], &p[i]);
	qsort(p, n, sizeof(*p), part_cmp);
	for (first = 0, i = 0; i < n; i++) {
		if (i + 1 < n && follows(&p[i], &p[i + 1]))
			continue;
		if (first)
			add(buf, len, &need, ", ");
		add_range(buf, len, &need, &p[first], &p[i]);
		first = i + 1;
	}
	free(p);
	return (int)need;
}
