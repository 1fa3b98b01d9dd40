/* SPDX-License-Identifier: MIT */
/*
 * Description: the words of a value, whatever key it is for: a flag, a
 * count, a size and a duration read from text, and a size written for
 * people. settings.c reads each key's value with them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "settings/keys.h"
#include "settings/settings.h"

int settings_flag_word(const char *t)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(t, yes[i]))
			return 1;
		if (!strcasecmp(t, no[i]))
			return 0;
	}
	return -1;
}

int settings_parse_uint(const char *text, unsigned max, unsigned *out)
{
	unsigned long long v = 0;
	const char *p = text;

	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*p - '0');
		if (v > max)
			return -ERANGE;
	}
	*out = (unsigned)v;
	return 0;
}

/* Digits, then an optional binary suffix: k, M, G, T, P, each with "iB". */
int settings_parse_size(const char *text, uint64_t *out)
{
	static const char suffixes[] = "kmgtp";
	const char *p = text, *s;
	uint64_t v = 0;
	int shift = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		char c = *p >= 'A' && *p <= 'Z' ? *p + 32 : *p;

		s = strchr(suffixes, c);
		if (!s || !c)
			return -EINVAL;
		shift = 10 * (int)(s - suffixes + 1);
		p++;
		if (!strcmp(p, "iB"))
			p += 2;
		if (*p)
			return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/*
 * Seconds alone ("90"), or numbers with units from d, h, m, s, each unit
 * once and larger ones first ("1h30m", "2d", "90s"). Anything else is
 * refused, not guessed at: "1h30" could mean 30 minutes or 30 seconds.
 */
int settings_parse_duration(const char *text, uint64_t *seconds)
{
	static const char units[] = "dhms";
	static const uint64_t scale[] = { 86400, 3600, 60, 1 };
	const char *p = text;
	uint64_t total = 0;
	int last = -1;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t v = 0;
		const char *u;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v > 1000000000ull)
				return -ERANGE;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		if (!*p) {
			/* A bare number is seconds, and only alone. */
			if (last >= 0)
				return -EINVAL;
			total = v;
			break;
		}
		u = strchr(units, *p);
		if (!u || (int)(u - units) <= last)
			return -EINVAL;
		last = (int)(u - units);
		total += v * scale[last];
		p++;
		if (total > 100ull * 365 * 86400)
			return -ERANGE;
	}
	if (total > 100ull * 365 * 86400)
		return -ERANGE;
	*seconds = total;
	return 0;
}

/*
 * The words people write for a unit apart from its number ("12 h", "16 M",
 * "90 minutes"): time is its seconds, size its suffix as
 * settings_parse_size() reads it ('B' for bytes), percent for %. "m" is
 * both minutes and MiB: the key says which.
 */
static const struct unit_word {
	const char *word;
	unsigned time;
	char size;
	int percent;
} unit_words[] = {
	{ "s", 1, 0, 0 }, { "sec", 1, 0, 0 }, { "secs", 1, 0, 0 },
	{ "second", 1, 0, 0 }, { "seconds", 1, 0, 0 },
	{ "m", 60, 'M', 0 }, { "min", 60, 0, 0 }, { "mins", 60, 0, 0 },
	{ "minute", 60, 0, 0 }, { "minutes", 60, 0, 0 },
	{ "h", 3600, 0, 0 }, { "hr", 3600, 0, 0 }, { "hrs", 3600, 0, 0 },
	{ "hour", 3600, 0, 0 }, { "hours", 3600, 0, 0 },
	{ "d", 86400, 0, 0 }, { "day", 86400, 0, 0 }, { "days", 86400, 0, 0 },
	{ "w", 604800, 0, 0 }, { "week", 604800, 0, 0 },
	{ "weeks", 604800, 0, 0 },
	{ "b", 0, 'B', 0 }, { "byte", 0, 'B', 0 }, { "bytes", 0, 'B', 0 },
	{ "k", 0, 'k', 0 }, { "kb", 0, 'k', 0 }, { "kib", 0, 'k', 0 },
	{ "mb", 0, 'M', 0 }, { "mib", 0, 'M', 0 },
	{ "g", 0, 'G', 0 }, { "gb", 0, 'G', 0 }, { "gib", 0, 'G', 0 },
	{ "t", 0, 'T', 0 }, { "tb", 0, 'T', 0 }, { "tib", 0, 'T', 0 },
	{ "p", 0, 'P', 0 }, { "pb", 0, 'P', 0 }, { "pib", 0, 'P', 0 },
	{ "%", 0, 0, 1 }, { "percent", 0, 0, 1 },
};

static const struct unit_word *unit_word(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++)
		if (!strcasecmp(text, unit_words[i].word))
			return &unit_words[i];
	return NULL;
}

int settings_value_word(const char *text)
{
	uint64_t v;

	return unit_word(text) || settings_parse_size(text, &v) == 0 ||
	       settings_parse_duration(text, &v) == 0;
}

/* Seconds as one number and its largest whole unit: 14d, 90m, 45s. */
static void fmt_seconds(unsigned long long t, char *buf, size_t len)
{
	static const char units[] = "dhm";
	static const unsigned scale[] = { 86400, 3600, 60 };
	int i;

	for (i = 0; i < 3; i++)
		if (t && t % scale[i] == 0) {
			snprintf(buf, len, "%llu%c", t / scale[i], units[i]);
			return;
		}
	snprintf(buf, len, "%llus", t);
}

int settings_unit_apart(const struct settings_key *k, const char *value,
			const char *next, char *err, size_t errlen)
{
	const struct unit_word *w;
	unsigned long long n = 0;
	char meant[64] = "";
	const char *p;

	switch (k->type) {
	case KEY_SIZE:
	case KEY_UINT:
	case KEY_DURATION:
	case KEY_SPAN:
	case KEY_MAXW:
	case KEY_SHARE:
	case KEY_PERCENT:
		break;
	default:
		return 0;
	}
	if (!next || !*value || !(w = unit_word(next)))
		return 0;
	for (p = value; *p; p++) {
		if (*p < '0' || *p > '9' || n > 1000000000000ull)
			return 0;
		n = n * 10 + (unsigned long long)(*p - '0');
	}
	/* What the two words most likely meant, as one value. */
	if (k->type == KEY_DURATION && w->time)
		fmt_seconds(n * w->time, meant, sizeof(meant));
	else if (k->type == KEY_UINT && w->time &&
		 !strncmp(k->want, "seconds", 7))
		snprintf(meant, sizeof(meant), "%llu", n * w->time);
	else if ((k->type == KEY_SIZE || k->type == KEY_SPAN ||
		  k->type == KEY_SHARE) && w->size == 'B')
		snprintf(meant, sizeof(meant), "%llu", n);
	else if ((k->type == KEY_SIZE || k->type == KEY_SPAN ||
		  k->type == KEY_SHARE) && w->size)
		snprintf(meant, sizeof(meant), "%llu%c", n, w->size);
	else if ((k->type == KEY_PERCENT || k->type == KEY_SHARE) &&
		 w->percent)
		snprintf(meant, sizeof(meant), "%llu%%", n);
	else if (k->type == KEY_UINT && w->percent &&
		 strstr(k->want, "percentage"))
		snprintf(meant, sizeof(meant), "%llu", n);
	if (meant[0])
		snprintf(err, errlen, "--%s %s %s: a unit apart from its "
			 "number, not a target (--%s %s?)", k->name, value,
			 next, k->name, meant);
	else
		snprintf(err, errlen, "--%s %s %s: '%s' is a unit, not a "
			 "target, and --%s takes %s", k->name, value, next,
			 next, k->name, k->want);
	return -EINVAL;
}

char *settings_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}
