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

enum type { T_ENUM, T_SIZE, T_UINT, T_DURATION, T_FLAG, T_STRING, T_RUNID,
	    T_SPAN, T_MAXW, T_CONSENT };

static const char *const modes[] = { "write-verify", "write", "verify",
				     "read", NULL };
static const char *const profiles[] = { "smoke", "burnin", "soak", NULL };
static const char *const afters[] = { "wait", "poweroff", "reboot", "shell",
				      NULL };

struct key {
	const char *name;
	enum type type;
	size_t off;
	unsigned min, max;		/* T_UINT */
	const char *const *choices;	/* T_ENUM */
	const char *want;		/* what a good value looks like */
};

#define F(field) offsetof(struct settings, field)
#define GLOBS "globs of serials, WWNs, models, names or PCI addresses"

/* Sorted by name: kiln settings lists them in this order. */
static const struct key keys[] = {
	{ "after", T_ENUM, F(after), 0, 0, afters,
	  "wait, poweroff, reboot or shell" },
	{ "bs", T_SIZE, F(bs), 0, 0, NULL, "a size such as 128k, 1M or 4M" },
	{ "checkpoint", T_UINT, F(checkpoint), 1, 86400, NULL,
	  "seconds, 1 to 86400" },
	{ "countdown", T_UINT, F(countdown), 0, 3600, NULL,
	  "seconds, 0 to 3600" },
	{ "deadline", T_UINT, F(deadline), 1, 86400, NULL,
	  "seconds, 1 to 86400" },
	{ "destroy-data", T_CONSENT, F(destroy_data), 0, 0, NULL,
	  "1, 0, or serials and WWNs separated by commas" },
	{ "duration", T_DURATION, F(duration), 0, 0, NULL,
	  "a time such as 90s, 30m, 12h, 2d or 1h30m" },
	{ "exclude", T_STRING, F(exclude), 0, 0, NULL, GLOBS },
	{ "expect-disks", T_UINT, F(expect_disks), 0, 100000, NULL,
	  "a count, 0 for any" },
	{ "include", T_STRING, F(include), 0, 0, NULL, GLOBS },
	{ "interval", T_UINT, F(interval), 1, 3600, NULL, "seconds, 1 to 3600" },
	{ "iperf", T_STRING, F(iperf), 0, 0, NULL,
	  "an iperf3 server: HOST or HOST:PORT" },
	{ "json", T_FLAG, F(json), 0, 0, NULL, "1 or 0" },
	{ "max-detail", T_UINT, F(max_detail), 0, 100000, NULL, "a count" },
	{ "max-writes", T_MAXW, F(max_writes), 0, 1000000, NULL,
	  "a count of whole-target writes, 0 for no cap" },
	{ "mode", T_ENUM, F(mode), 0, 0, modes,
	  "write-verify, write, verify or read" },
	{ "offset", T_SIZE, F(offset), 0, 0, NULL, "a size such as 0, 1M or 10G" },
	{ "out", T_STRING, F(out), 0, 0, NULL, "a folder" },
	{ "passes", T_UINT, F(passes), 1, 1000000, NULL, "a count, 1 or more" },
	{ "profile", T_ENUM, F(profile), 0, 0, profiles,
	  "smoke, burnin or soak" },
	{ "qd", T_UINT, F(qd), 1, 256, NULL, "a count from 1 to 256" },
	{ "run-id", T_RUNID, F(run_id), 0, 0, NULL, "1 to 16 hex digits" },
	{ "save-units", T_UINT, F(save_units), 0, 1000, NULL, "a count" },
	{ "settle", T_UINT, F(settle), 1, 3600, NULL, "seconds, 1 to 3600" },
	{ "size", T_SIZE, F(size), 0, 0, NULL, "a size such as 64M or 10G" },
	{ "span", T_SPAN, F(span), 0, 0, NULL,
	  "a size such as 10G, or quick, or quick:SIZE" },
};

#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

_Static_assert(sizeof(keys) / sizeof(keys[0]) <= SETTINGS_MAX_KEYS,
	       "struct settings keeps a source per key");

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
	s->profile = SETTINGS_BURNIN;
	s->countdown = 10;
	s->after = SETTINGS_WAIT;
	s->settle = 60;
}

void settings_free(struct settings *s)
{
	free(s->out);
	free(s->destroy_list);
	free(s->include);
	free(s->exclude);
	free(s->iperf);
	s->out = s->destroy_list = s->include = s->exclude = s->iperf = NULL;
}

const char *settings_mode_name(int mode)
{
	return mode >= 0 && mode <= SETTINGS_READ ? modes[mode] : "unknown";
}

const char *settings_key(int i)
{
	return i >= 0 && i < NKEYS ? keys[i].name : NULL;
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
	case T_ENUM:
		for (i = 0; k->choices[i]; i++)
			if (!strcmp(value, k->choices[i])) {
				*(int *)(void *)field = i;
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
		if (!ret && u < k->min)
			ret = -ERANGE;
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

static int set_from(struct settings *s, const char *key, const char *value,
		    int source, char *err, size_t errlen)
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
	s->source[k - keys] = (unsigned char)source;
	return 0;
}

int settings_set(struct settings *s, const char *key, const char *value,
		 char *err, size_t errlen)
{
	return set_from(s, key, value, SOURCE_OPTION, err, errlen);
}

__attribute__((format(printf, 2, 3)))
static void problem(struct settings_problems *p, const char *fmt, ...)
{
	va_list ap;

	if (!p || p->n == SETTINGS_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(p->text[p->n++], sizeof(p->text[0]), fmt, ap);
	va_end(ap);
}

static char *trim(char *t)
{
	char *end;

	while (*t == ' ' || *t == '\t')
		t++;
	end = t + strlen(t);
	while (end > t && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		*--end = 0;
	return t;
}

int settings_load_cfg(struct settings *s, const char *path,
		      struct settings_problems *p)
{
	char line[1024], err[200];
	FILE *f = fopen(path, "re");
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *t, *eq, *hash;

		n++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		t = trim(line);
		if (!*t)
			continue;
		eq = strchr(t, '=');
		if (!eq) {
			problem(p, "kiln.cfg line %d: '%.60s' is not KEY=VALUE", n, t);
			continue;
		}
		*eq = 0;
		if (set_from(s, trim(t), trim(eq + 1), SOURCE_CFG, err, sizeof(err)))
			problem(p, "kiln.cfg line %d: %s", n, err);
	}
	fclose(f);
	return 0;
}

void settings_load_cmdline(struct settings *s, const char *cmdline,
			   struct settings_problems *p)
{
	const char *c = cmdline;
	char word[1024], err[200];

	while (*c) {
		size_t n = 0;
		int quoted = 0;
		char *eq;

		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		/* A word ends at a blank outside double quotes, as the kernel reads. */
		for (; *c && (quoted || (*c != ' ' && *c != '\t' && *c != '\n')); c++) {
			if (*c == '"')
				quoted = !quoted;
			else if (n < sizeof(word) - 1)
				word[n++] = *c;
		}
		word[n] = 0;
		if (n <= 5 || memcmp(word, "kiln.", 5))
			continue;
		eq = strchr(word, '=');
		if (eq)
			*eq = 0;
		if (set_from(s, word + 5, eq ? eq + 1 : "1", SOURCE_CMDLINE, err,
			     sizeof(err)))
			problem(p, "kernel command line: %s", err);
	}
}

const char *settings_get(const struct settings *s, const char *key, char *buf,
			 size_t len)
{
	const struct key *k = find(key);
	const char *field;

	if (!k)
		return NULL;
	field = (const char *)s + k->off;
	buf[0] = 0;
	switch (k->type) {
	case T_ENUM:
		snprintf(buf, len, "%s", k->choices[*(const int *)(const void *)field]);
		break;
	case T_SIZE:
	case T_DURATION:
		snprintf(buf, len, "%llu", (unsigned long long)
			 *(const uint64_t *)(const void *)field);
		break;
	case T_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)(const void *)field);
		break;
	case T_FLAG:
		snprintf(buf, len, "%d", *(const int *)(const void *)field);
		break;
	case T_STRING:
		snprintf(buf, len, "%s", *(char *const *)(const void *)field ?
			 *(char *const *)(const void *)field : "");
		break;
	case T_RUNID:
		if (s->run_id_set)
			snprintf(buf, len, "%016llx", (unsigned long long)s->run_id);
		break;
	case T_SPAN:
		if (s->quick)
			snprintf(buf, len, "quick:%llu", (unsigned long long)s->span);
		else
			snprintf(buf, len, "%llu", (unsigned long long)s->span);
		break;
	case T_MAXW:
		if (s->max_writes_set)
			snprintf(buf, len, "%u", s->max_writes);
		break;
	case T_CONSENT:
		snprintf(buf, len, "%s", s->destroy_list ? s->destroy_list :
			 s->destroy_data ? "1" : "0");
		break;
	}
	return buf;
}

const char *settings_source(const struct settings *s, const char *key)
{
	static const char *const names[] = { "default", "kiln.cfg",
					     "kernel command line", "option" };
	const struct key *k = find(key);

	return k ? names[s->source[k - keys] & 3] : NULL;
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
		s->source[k - keys] = SOURCE_OPTION;
	}
	return 0;
}

/* The largest request: registered buffers are capped at 1 GiB each anyway. */
#define MAX_BS (64ull << 20)
#define UNIT (4096ull)

/* A key as its source writes it: --bs on kiln's command line, else bs. */
static const char *as_given(const struct settings *s, const char *key)
{
	static char buf[72];
	const struct key *k = find(key);

	if (k && s->source[k - keys] == SOURCE_OPTION) {
		snprintf(buf, sizeof(buf), "--%s", key);
		return buf;
	}
	return key;
}

int settings_check(struct settings *s, char *err, size_t errlen)
{
	if (!s->bs || s->bs % UNIT || s->bs > MAX_BS) {
		say(err, errlen, "bad value for %s: %llu (want a multiple of "
		    "4 KiB up to 64 MiB)", as_given(s, "bs"),
		    (unsigned long long)s->bs);
		return -EINVAL;
	}
	if (s->span && !s->quick && s->span < UNIT) {
		say(err, errlen, "bad value for %s: %llu (want 4 KiB or more)",
		    as_given(s, "span"), (unsigned long long)s->span);
		return -EINVAL;
	}
	if (s->quick && s->span < 3 * UNIT) {
		say(err, errlen, "bad value for %s: quick:%llu (want at least "
		    "12 KiB: three pieces of a 4 KiB unit)", as_given(s, "span"),
		    (unsigned long long)s->span);
		return -EINVAL;
	}
	if (s->mode == SETTINGS_VERIFY && !s->run_id_set) {
		say(err, errlen, "--mode verify needs the --run-id of the write "
		    "to check");
		return -EINVAL;
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
