/* SPDX-License-Identifier: MIT */
/*
 * Description: the keys kiln understands, their defaults, and how their
 * text values are read. Every value is checked here, so a bad one is one
 * clear line before anything touches a disk.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

enum type { T_MODE, T_SIZE, T_UINT, T_DURATION, T_FLAG, T_STRING, T_RUNID,
	    T_SPAN, T_MAXW, T_CONSENT };

struct key {
	const char *name;
	enum type type;
	size_t off;
	unsigned max;		/* for T_UINT */
	const char *want;	/* what a good value looks like */
};

#define F(field) offsetof(struct settings, field)

static const struct key keys[] = {
	{ "bs", T_SIZE, F(bs), 0, "a size such as 128k, 1M or 4M" },
	{ "checkpoint", T_UINT, F(checkpoint), 86400, "seconds, 1 or more" },
	{ "deadline", T_UINT, F(deadline), 86400, "seconds, 1 or more" },
	{ "destroy-data", T_CONSENT, F(destroy_data), 0,
	  "1, 0, or serials and WWNs separated by commas" },
	{ "duration", T_DURATION, F(duration), 0,
	  "a time such as 90s, 30m, 12h, 2d or 1h30m" },
	{ "exclude", T_STRING, F(exclude), 0,
	  "globs of serials, WWNs, models, names or PCI addresses" },
	{ "include", T_STRING, F(include), 0,
	  "globs of serials, WWNs, models, names or PCI addresses" },
	{ "interval", T_UINT, F(interval), 3600, "seconds, 1 to 3600" },
	{ "json", T_FLAG, F(json), 0, "1 or 0" },
	{ "max-detail", T_UINT, F(max_detail), 100000, "a count" },
	{ "max-writes", T_MAXW, F(max_writes), 1000000,
	  "a count of whole-target writes, 0 for no cap" },
	{ "mode", T_MODE, F(mode), 0, "write-verify, write, verify or read" },
	{ "offset", T_SIZE, F(offset), 0, "a size such as 0, 1M or 10G" },
	{ "out", T_STRING, F(out), 0, "a folder" },
	{ "passes", T_UINT, F(passes), 1000000, "a count, 1 or more" },
	{ "qd", T_UINT, F(qd), 256, "a count from 1 to 256" },
	{ "run-id", T_RUNID, F(run_id), 0, "1 to 16 hex digits" },
	{ "save-units", T_UINT, F(save_units), 1000, "a count" },
	{ "size", T_SIZE, F(size), 0, "a size such as 64M or 10G" },
	{ "span", T_SPAN, F(span), 0,
	  "a size such as 10G, or quick, or quick:SIZE" },
};

static const char *const modes[] = { "write-verify", "write", "verify",
				     "read", NULL };

/* What quick samples: this much in all, a third each at start, middle, end. */
#define QUICK_DEFAULT (3ull << 30)

void settings_defaults(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->mode = SETTINGS_WRITE_VERIFY;
	s->bs = 1 << 20;
	s->qd = 8;
	s->interval = 10;
	s->deadline = 60;
	s->checkpoint = 60;
	s->max_detail = 100;
	s->save_units = 4;
}

void settings_free(struct settings *s)
{
	free(s->out);
	free(s->destroy_list);
	free(s->include);
	free(s->exclude);
	s->out = s->destroy_list = s->include = s->exclude = NULL;
}

const char *settings_mode_name(int mode)
{
	return mode >= 0 && mode <= SETTINGS_READ ? modes[mode] : "unknown";
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

/* Seconds, or a sum of numbers with d, h, m, s: "1h30m", "12h", "90". */
int settings_parse_duration(const char *text, uint64_t *seconds)
{
	const char *p = text;
	uint64_t total = 0;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t v = 0, unit = 1;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v > 1000000000ull)
				return -ERANGE;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		switch (*p) {
		case 'd': unit = 86400; p++; break;
		case 'h': unit = 3600; p++; break;
		case 'm': unit = 60; p++; break;
		case 's': p++; break;
		case 0: break;
		default: return -EINVAL;
		}
		total += v * unit;
		if (total > 100ull * 365 * 86400)
			return -ERANGE;
	}
	*seconds = total;
	return 0;
}

static int parse_runid(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	for (; *text; text++, n++) {
		char c = *text;

		if (n == 16)
			return -EINVAL;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint64_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint64_t)(c - 'A' + 10);
		else
			return -EINVAL;
	}
	if (!n)
		return -EINVAL;
	*out = v;
	return 0;
}

__attribute__((format(printf, 3, 4)))
static void say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static const struct key *find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static int set_value(struct settings *s, const struct key *k,
		     const char *value)
{
	char *field = (char *)s + k->off;
	uint64_t u64;
	unsigned u;
	int i, ret = 0;

	switch (k->type) {
	case T_MODE:
		for (i = 0; modes[i]; i++)
			if (!strcmp(value, modes[i])) {
				s->mode = i;
				return 0;
			}
		return -EINVAL;
	case T_SIZE:
		ret = settings_parse_size(value, &u64);
		if (!ret)
			memcpy(field, &u64, sizeof(u64));
		return ret;
	case T_DURATION:
		ret = settings_parse_duration(value, &u64);
		if (!ret)
			memcpy(field, &u64, sizeof(u64));
		return ret;
	case T_MAXW:
		ret = settings_parse_uint(value, k->max, &u);
		if (!ret) {
			s->max_writes = u;
			s->max_writes_set = 1;
		}
		return ret;
	case T_UINT:
		ret = settings_parse_uint(value, k->max, &u);
		/* Zero would mean "never" or "no room"; the keys that take 0 say so. */
		if (!ret && !u && strcmp(k->name, "max-detail") &&
		    strcmp(k->name, "save-units"))
			ret = -EINVAL;
		if (!ret)
			memcpy(field, &u, sizeof(u));
		return ret;
	case T_FLAG:
		if (strcmp(value, "1") && strcmp(value, "0"))
			return -EINVAL;
		*(int *)(void *)field = value[0] == '1';
		return 0;
	case T_STRING: {
		char *copy;

		if (!*value)
			return -EINVAL;
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
		free(*(char **)(void *)field);
		*(char **)(void *)field = copy;
		return 0;
	}
	case T_CONSENT: {
		char *copy = NULL;

		if (!*value || strspn(value, ", ") == strlen(value))
			return -EINVAL;
		if (strcmp(value, "1") && strcmp(value, "0")) {
			copy = strdup(value);
			if (!copy)
				return -ENOMEM;
		}
		free(s->destroy_list);
		s->destroy_list = copy;
		s->destroy_data = !strcmp(value, "1");
		return 0;
	}
	case T_RUNID:
		ret = parse_runid(value, &s->run_id);
		if (!ret)
			s->run_id_set = 1;
		return ret;
	case T_SPAN:
		if (!strcmp(value, "quick")) {
			s->quick = 1;
			s->span = QUICK_DEFAULT;
			return 0;
		}
		if (!strncmp(value, "quick:", 6)) {
			ret = settings_parse_size(value + 6, &u64);
			if (!ret && !u64)
				ret = -EINVAL;
			if (!ret) {
				s->quick = 1;
				s->span = u64;
			}
			return ret;
		}
		ret = settings_parse_size(value, &u64);
		if (!ret) {
			s->quick = 0;
			s->span = u64;
		}
		return ret;
	}
	return -EINVAL;
}

int settings_set(struct settings *s, const char *key, const char *value,
		 char *err, size_t errlen)
{
	const struct key *k = find(key);
	int ret;

	if (!k) {
		say(err, errlen, "unknown setting '%s'", key);
		return -ENOENT;
	}
	ret = set_value(s, k, value);
	if (ret == -ENOMEM) {
		say(err, errlen, "out of memory");
		return ret;
	}
	if (ret) {
		say(err, errlen, "bad value for %s: '%s' (want %s)", key, value,
		    k->want);
		return -EINVAL;
	}
	return 0;
}

int settings_parse_argv(struct settings *s, int argc, char **argv,
			char **args, int *nargs, char *err, size_t errlen)
{
	int i, ret, options = 1;

	*nargs = 0;
	for (i = 0; i < argc; i++) {
		char *a = argv[i], name[64];
		const char *value, *eq;
		const struct key *k;
		size_t n;

		if (!options || a[0] != '-' || !a[1]) {
			args[(*nargs)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			options = 0;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (a[1] != '-') {
			say(err, errlen, "unknown option '%s'", a);
			return -EINVAL;
		}
		eq = strchr(a + 2, '=');
		n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (n >= sizeof(name)) {
			say(err, errlen, "unknown option '%.40s...'", a);
			return -EINVAL;
		}
		memcpy(name, a + 2, n);
		name[n] = 0;
		k = find(name);
		if (!k) {
			say(err, errlen, "unknown option '--%s'", name);
			return -EINVAL;
		}
		if (eq) {
			value = eq + 1;
		} else if (k->type == T_FLAG || k->type == T_CONSENT) {
			value = "1";
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			say(err, errlen, "--%s needs a value (%s)", name, k->want);
			return -EINVAL;
		}
		ret = set_value(s, k, value);
		if (ret == -ENOMEM) {
			say(err, errlen, "out of memory");
			return -EINVAL;
		}
		if (ret) {
			say(err, errlen, "bad value for --%s: '%s' (want %s)",
			    name, value, k->want);
			return -EINVAL;
		}
	}
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
