/* SPDX-License-Identifier: MIT */
/*
 * Description: how kiln fleet says a run and a disk in each of its
 * outputs (fleet.h): a run's time and rank, its text escaped for the
 * page, the CSV or the console, a disk's name, an age; a string member of
 * a run's document as its bytes (fleet_read.c and fleet_index.c read
 * them so). Below fleet.c and
 * the pages and CSV it writes, which all say them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "fleet/fleet.h"

time_t fleet_when(const struct fleet_run *r)
{
	return r->clock_trusted && r->start ? r->start : r->changed;
}

int fleet_rank(const struct fleet_run *r)
{
	if (!strcmp(r->verdict, "FAIL"))
		return 0;
	if (r->state == FLEET_UNREADABLE || r->state == FLEET_PARTIAL)
		return 1;
	if (r->state == FLEET_CUT_OFF)
		return 2;
	if (!strcmp(r->verdict, "WARN") || r->state == FLEET_INTERRUPTED)
		return 3;
	if (r->state == FLEET_RUNNING)
		return 4;
	if (r->state == FLEET_PENDING)
		return 5;
	return 6;
}

/* The length of the UTF-8 sequence at s that is printable, else 0. */
static int utf8_len(const unsigned char *s)
{
	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	/* C1 controls (U+0080-U+009F) are not shown either. */
	if (*s < 0x80 || (s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	return (int)json_utf8_len(s);
}

void fleet_text(FILE *f, const char *s, int how)
{
	int html = how == FLEET_HTML;
	const unsigned char *p = (const unsigned char *)s;
	int n;

	while (p && *p) {
		n = utf8_len(p);
		if (!n) {
			fprintf(f, "\\x%02x", *p++);
			continue;
		}
		if (*p == '\\')
			fputs("\\\\", f);
		else if (html && *p == '&')
			fputs("&amp;", f);
		else if (html && *p == '<')
			fputs("&lt;", f);
		else if (html && *p == '>')
			fputs("&gt;", f);
		else if (html && *p == '"')
			fputs("&quot;", f);
		else if (how == FLEET_CSV && *p == '"')
			fputs("\"\"", f);
		else if (html && *p == '\'')
			fputs("&#39;", f);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

void fleet_disk_name(FILE *f, const struct fleet_disk *d, int how)
{
	fleet_text(f, d->label, how);
	fputs(" (", f);
	if (d->model[0] || d->serial[0]) {
		fleet_text(f, d->model, how);
		fputs(d->model[0] && d->serial[0] ? " " : "", f);
		fleet_text(f, d->serial[0] ? d->serial : "", how);
	} else {
		fleet_text(f, d->identity, how);
	}
	fputc(')', f);
}

char *fleet_age(double seconds, char *buf, size_t len)
{
	unsigned long long s = seconds > 0 ? (unsigned long long)seconds : 0;

	if (s < 60)
		snprintf(buf, len, "%llus", s);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%lluh%02llum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, len, "%llud%02lluh", s / 86400, s / 3600 % 24);
	return buf;
}

/*
 * A string member as the bytes kiln's writer was given (a serial or path
 * that is not UTF-8 comes back as it was); a document kiln did not write
 * may hold code points above U+00FF: then its UTF-8. "" when missing.
 */
char *fleet_member(const struct jsonread_node *n, const char *key, int *oom)
{
	const char *utf8;
	size_t len;
	char *out;

	/* Found once: a lookup is a walk of the object's members. */
	if (key)
		n = jsonread_get(n, key);
	if (jsonread_get_str(n, NULL, &utf8, &len))
		utf8 = "", len = 0;
	/* Never longer as bytes than as UTF-8. */
	out = malloc(len + 1);
	if (!out) {
		*oom = 1;
		return NULL;
	}
	if (jsonread_get_bytes(n, NULL, out, len + 1, NULL))
		memcpy(out, utf8, len + 1);
	return out;
}
