/* SPDX-License-Identifier: MIT */
/*
 * Description: how the text values of kiln's keys (keys.c has the table)
 * are read, checked and written back. Every value is checked here,
 * wherever it comes from, so a bad one is one clear line before anything
 * touches a disk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/secret.h"
#include "settings/keys.h"
#include "settings/settings.h"

static int set_value(struct settings *s, const struct settings_key *k,
		     const char *value);

/*
 * Every default is the key table's own (.def, or .other.def for the
 * commands it names), parsed as a value would be (fio's parse.c fills its
 * options so): a default written a second time is one that drifts. A
 * default that says what kiln does instead of a value ("none", "to the
 * end", "2 on flash", "random") and the paths and strings leave the field
 * zero, which is how the code knows to do it.
 */
void settings_defaults_from(struct settings *s,
			    const struct settings_key *keys, int n,
			    unsigned command)
{
	int i;

	memset(s, 0, sizeof(*s));
	/* A value that does not parse sets nothing: the field stays zero. */
	for (i = 0; i < n; i++)
		if (keys[i].type != KEY_STRING && keys[i].type != KEY_PATHS &&
		    keys[i].type != KEY_SECRET)
			(void)set_value(s, &keys[i],
					settings_key_default(&keys[i],
							     command));
}

void settings_defaults(struct settings *s, unsigned command)
{
	int n = 0;

	while (settings_key_at(n))
		n++;
	settings_defaults_from(s, settings_key_at(0), n, command);
}

void settings_free(struct settings *s)
{
	char **strings[] = { &s->out, &s->destroy_list, &s->include,
			     &s->exclude, &s->iperf, &s->results, &s->config,
			     &s->cmdline, &s->get, &s->sysfs_root, &s->from,
			     &s->upload, &s->metrics, &s->expect,
			     &s->expect_out, &s->powercut_file, &s->ca,
			     &s->auth_token, &s->refused, &s->claim };
	size_t i;

	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		free(*strings[i]);
		*strings[i] = NULL;
	}
	for (i = 0; i < (size_t)s->nprotect; i++)
		free(s->protect[i]);
	s->nprotect = 0;
}

unsigned settings_passes(const struct settings *s)
{
	const struct settings_key *k = settings_key("passes");

	/* Not given: one, or as many as the duration allows. */
	if (s->duration && s->source[settings_key_index(k)] == SOURCE_DEFAULT)
		return 0;
	return s->passes;
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
	/* 0 is no run id: kiln would draw a fresh one and check for it. */
	if (!n || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

static int set_string(char **field, const char *value)
{
	char *copy;

	if (!*value)
		return -EINVAL;
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

/* A count with its bounds; max-writes also says it was given. */
static int set_uint(struct settings *s, const struct settings_key *k,
		    const char *value)
{
	unsigned u;
	int ret = settings_parse_uint(value, k->max, &u);

	if (!ret && u < k->min)
		ret = -ERANGE;
	if (ret)
		return ret;
	if (k->type == KEY_MAXW) {
		s->max_writes = u;
		s->max_writes_set = 1;
	} else {
		memcpy((char *)s + k->off, &u, sizeof(u));
	}
	return 0;
}

static int set_paths(struct settings *s, const char *value)
{
	if (!*value)
		return -EINVAL;
	if (s->nprotect == SETTINGS_MAX_PROTECT)
		return -E2BIG;
	s->protect[s->nprotect] = strdup(value);
	if (!s->protect[s->nprotect])
		return -ENOMEM;
	s->nprotect++;
	return 0;
}

static int set_consent(struct settings *s, const char *value)
{
	char *copy = NULL;
	int i;

	if (!*value || strspn(value, ", ") == strlen(value))
		return -EINVAL;
	/* A flag word is all or nothing, never a serial named "no". */
	i = settings_flag_word(value);
	if (i < 0) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(s->destroy_list);
	s->destroy_list = copy;
	s->destroy_data = i == 1;
	return 0;
}

/* A size (not 0), or a percentage from k->min to k->max: 80%. */
static int set_share(const struct settings_key *k, struct settings_share *sh,
		     const char *value)
{
	size_t n = strlen(value);
	char num[16];
	uint64_t u64;
	unsigned u;
	int ret;

	if (n && value[n - 1] == '%') {
		if (n - 1 >= sizeof(num))
			return -EINVAL;
		memcpy(num, value, n - 1);
		num[n - 1] = 0;
		ret = settings_parse_uint(num, k->max, &u);
		if (ret || u < k->min)
			return -EINVAL;
		sh->bytes = 0;
		sh->percent = u;
		return 0;
	}
	ret = settings_parse_size(value, &u64);
	if (ret || !u64)
		return -EINVAL;
	sh->bytes = u64;
	sh->percent = 0;
	return 0;
}

/* A percentage from k->min to k->max, its % sign optional: 50% or 50. */
static int set_percent(const struct settings_key *k, unsigned *field,
		       const char *value)
{
	size_t n = strlen(value);
	char num[16];
	unsigned u;

	if (n && value[n - 1] == '%')
		n--;
	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, value, n);
	num[n] = 0;
	if (settings_parse_uint(num, k->max, &u) || u < k->min)
		return -EINVAL;
	*field = u;
	return 0;
}

/* A size, quick (3 GiB sampled) or quick:SIZE. */
static int set_span(struct settings *s, const char *value)
{
	uint64_t u64 = KEY_QUICK_DEFAULT;
	int quick = 0, ret = 0;

	if (!strcmp(value, "quick")) {
		quick = 1;
	} else if (!strncmp(value, "quick:", 6)) {
		quick = 1;
		ret = settings_parse_size(value + 6, &u64);
		if (!ret && !u64)
			ret = -EINVAL;
	} else {
		ret = settings_parse_size(value, &u64);
	}
	if (ret)
		return ret;
	s->quick = quick;
	s->span = u64;
	return 0;
}

static int set_value(struct settings *s, const struct settings_key *k,
		     const char *value)
{
	char *field = (char *)s + k->off;
	uint64_t u64;
	int i, ret;

	switch (k->type) {
	case KEY_ENUM:
		for (i = 0; k->choices[i]; i++)
			if (!strcmp(value, k->choices[i])) {
				*(int *)(void *)field = i;
				return 0;
			}
		return -EINVAL;
	case KEY_SIZE:
	case KEY_DURATION:
		ret = k->type == KEY_SIZE ?
			settings_parse_size(value, &u64) :
			settings_parse_duration(value, &u64);
		if (!ret)
			memcpy(field, &u64, sizeof(u64));
		return ret;
	case KEY_UINT:
	case KEY_MAXW:
		return set_uint(s, k, value);
	case KEY_FLAG:
		i = settings_flag_word(value);
		if (i < 0)
			return -EINVAL;
		*(int *)(void *)field = i;
		return 0;
	case KEY_STRING:
		return set_string((char **)(void *)field, value);
	case KEY_SECRET:
		/* Whatever says it later (a helper's error line) masks it. */
		if (value && secret_add(value))
			return -ENOMEM;
		return set_string((char **)(void *)field, value);
	case KEY_PATHS:
		return set_paths(s, value);
	case KEY_CONSENT:
		return set_consent(s, value);
	case KEY_RUNID:
		ret = parse_runid(value, &s->run_id);
		if (!ret)
			s->run_id_set = 1;
		return ret;
	case KEY_SPAN:
		return set_span(s, value);
	case KEY_SHARE:
		return set_share(k, (struct settings_share *)(void *)field,
				 value);
	case KEY_PERCENT:
		return set_percent(k, (unsigned *)(void *)field, value);
	}
	return -EINVAL;
}

int settings_set(struct settings *s, const struct settings_key *k,
		 const char *value, int source, char *err, size_t errlen)
{
	char name[72];
	int ret;

	ret = set_value(s, k, value);
	if (ret == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return ret;
	}
	if (ret == -E2BIG) {
		snprintf(err, errlen, "too many --%s (at most %d)", k->name,
		    SETTINGS_MAX_PROTECT);
		return -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (want %s)",
			 settings_key_as_given(source, k->name, name,
					       sizeof(name)), value, k->want);
		return -EINVAL;
	}
	s->source[settings_key_index(k)] = (unsigned char)source;
	secret_mask(value ? value : "", s->given[settings_key_index(k)],
		    sizeof(s->given[0]));
	if (k->type == KEY_SECRET && value)
		snprintf(s->given[settings_key_index(k)], sizeof(s->given[0]),
			 "%s", SECRET_MASK);
	return 0;
}

const char *settings_get(const struct settings *s, const char *key, char *buf,
			 size_t len)
{
	const struct settings_key *k = settings_key(key);
	const char *field;

	if (!k)
		return NULL;
	field = (const char *)s + k->off;
	buf[0] = 0;
	switch (k->type) {
	case KEY_ENUM:
		snprintf(buf, len, "%s",
			 k->choices[*(const int *)(const void *)field]);
		break;
	case KEY_SIZE:
	case KEY_DURATION:
		snprintf(buf, len, "%llu", (unsigned long long)
			 *(const uint64_t *)(const void *)field);
		break;
	case KEY_UINT:
		snprintf(buf, len, "%u",
			 *(const unsigned *)(const void *)field);
		break;
	case KEY_FLAG:
		snprintf(buf, len, "%d", *(const int *)(const void *)field);
		break;
	case KEY_STRING:
		/* A URL's password is never shown, not even to the init. */
		secret_mask(*(char *const *)(const void *)field ?
			    *(char *const *)(const void *)field : "", buf, len);
		break;
	case KEY_SECRET:
		snprintf(buf, len, "%s", *(char *const *)(const void *)field ?
			 SECRET_MASK : "");
		break;
	case KEY_PATHS: {
		size_t used = 0;
		int i;

		for (i = 0; i < s->nprotect && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "," : "", s->protect[i]);
		break;
	}
	case KEY_RUNID:
		if (s->run_id_set)
			snprintf(buf, len, "%016llx",
				 (unsigned long long)s->run_id);
		break;
	case KEY_SPAN:
		if (s->quick)
			snprintf(buf, len, "quick:%llu",
				 (unsigned long long)s->span);
		else
			snprintf(buf, len, "%llu", (unsigned long long)s->span);
		break;
	case KEY_MAXW:
		if (s->max_writes_set)
			snprintf(buf, len, "%u", s->max_writes);
		break;
	case KEY_CONSENT:
		snprintf(buf, len, "%s", s->destroy_list ? s->destroy_list :
			 s->destroy_data ? "1" : "0");
		break;
	case KEY_SHARE: {
		const struct settings_share *sh = (const void *)field;

		if (sh->bytes)
			snprintf(buf, len, "%llu",
				 (unsigned long long)sh->bytes);
		else
			snprintf(buf, len, "%u%%", sh->percent);
		break;
	}
	case KEY_PERCENT:
		snprintf(buf, len, "%u%%",
			 *(const unsigned *)(const void *)field);
		break;
	}
	return buf;
}

const char *settings_source(const struct settings *s, const char *key)
{
	static const char *const names[] = { "default", "kiln.cfg",
					     "kernel command line", "option",
					     "lab server" };
	const struct settings_key *k = settings_key(key);
	unsigned from = k ? s->source[settings_key_index(k)] : 0;

	return k ? names[from < 5 ? from : 0] : NULL;
}

const char *settings_size_given(const struct settings *s, const char *key,
				uint64_t bytes, char *buf, size_t len)
{
	const struct settings_key *k = settings_key(key);

	if (k && s->given[settings_key_index(k)][0])
		return s->given[settings_key_index(k)];
	return settings_fmt_size(bytes, buf, len);
}

/* What the smoke profile samples: a few minutes even on slow disks. */
#define SMOKE_SPAN (1ull << 30)
/* How long a soak lasts unless duration says. */
#define SOAK_DEFAULT (12 * 3600)

void settings_apply_profile(struct settings *s)
{
	switch (s->profile) {
	case SETTINGS_SMOKE:
		if (!s->span) {
			s->quick = 1;
			s->span = SMOKE_SPAN;
		}
		break;
	case SETTINGS_SOAK:
		/* Passes not given: as many as 12 hours allow. */
		if (!s->duration &&
		    !strcmp(settings_source(s, "passes"), "default"))
			s->duration = SOAK_DEFAULT;
		break;
	case SETTINGS_POWERCUT:
		/* One pass written and flushed; the next boot verifies it. */
		if (s->mode != SETTINGS_READ)
			s->mode = SETTINGS_WRITE;
		s->passes = 1;
		s->duration = 0;
		break;
	case SETTINGS_ERASE:
		/* No pass: the end step alone (settings_check refuses keep). */
		s->passes = 1;
		s->duration = 0;
		if (!strcmp(settings_source(s, "end"), "default"))
			s->end = SETTINGS_END_SANITIZE;
		if (!strcmp(settings_source(s, "sanitize-fallback"),
			    "default"))
			s->sanitize_fallback = SETTINGS_FALLBACK_ZERO;
		/* A FAILed disk back from a customer leaves erased anyway. */
		if (!strcmp(settings_source(s, "end-failed"), "default"))
			s->end_failed = 1;
		break;
	}
}
