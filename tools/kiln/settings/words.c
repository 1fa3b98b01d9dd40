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
