// SPDX-License-Identifier: MIT
/*
 * Description: the expected-machine file: read (KEY=VALUE lines, as
 * kiln.cfg) and written from a machine (kiln discover --expect-out), so
 * a line of like servers can be held to the first one's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kiln.h"
#include "discover/expect.h"
#include "settings/options.h"
#include "settings/settings.h"

#define GIB ((uint64_t)1 << 30)

void expect_init(struct expect *e)
{
	memset(e, 0, sizeof(*e));
	e->cpus = e->disks = e->controllers = e->nics = e->dimms = -1;
}

uint64_t expect_memory_gib(uint64_t bytes)
{
	return (bytes + GIB - 1) / GIB * GIB;
}

static int count_of(const char *v, int *out)
{
	unsigned u;

	if (settings_parse_uint(v, 1000000, &u))
		return -1;
	*out = (int)u;
	return 0;
}

/* "x8 8.0 GT/s PCIe", "x8" or "8.0 GT/s PCIe": a controller's link. */
static int link_of(const char *v, struct expect_item *it)
{
	char *end;

	if (*v == 'x') {
		it->value = strtoul(v + 1, &end, 10);
		if (end == v + 1 || !it->value || (*end && *end != ' '))
			return -1;
		v = end;
	}
	while (*v == ' ')
		v++;
	snprintf(it->text, sizeof(it->text), "%s", v);
	return it->value || *it->text ? 0 : -1;
}

/* KEY.NAME=VALUE: the list the key's name picks, or NULL. */
static struct expect_item *item_for(struct expect *e, const char *key,
				    int *kind)
{
	static const char *const names[] = { "disks.", "disk-firmware.",
		"disk-size.", "controller.", "nic." };
	struct expect_item *lists[] = { e->disk_count, e->disk_firmware,
		e->disk_size, e->link, e->nic_speed };
	int *counts[] = { &e->ndisk_count, &e->ndisk_firmware,
		&e->ndisk_size, &e->nlink, &e->nnic_speed };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (strncmp(key, names[i], strlen(names[i])))
			continue;
		*kind = (int)i;
		if (*counts[i] >= EXPECT_MAX_ITEMS)
			return NULL;
		return &lists[i][(*counts[i])++];
	}
	*kind = -1;
	return NULL;
}

/* One KEY=VALUE: NULL, or why it is wrong. */
static const char *apply(struct expect *e, const char *key, const char *v)
{
	struct expect_item *it;
	unsigned u;
	int kind, bad = 0;

	if (!*v)
		return "no value";
	if (!strcmp(key, "cpu-model")) {
		snprintf(e->cpu_model, sizeof(e->cpu_model), "%s", v);
		return NULL;
	}
	if (!strcmp(key, "cpus"))
		return count_of(v, &e->cpus) ? "not a count" : NULL;
	if (!strcmp(key, "disks"))
		return count_of(v, &e->disks) ? "not a count" : NULL;
	if (!strcmp(key, "controllers"))
		return count_of(v, &e->controllers) ? "not a count" : NULL;
	if (!strcmp(key, "nics"))
		return count_of(v, &e->nics) ? "not a count" : NULL;
	if (!strcmp(key, "dimms"))
		return count_of(v, &e->dimms) ? "not a count" : NULL;
	if (!strcmp(key, "dimm-size"))
		return settings_parse_size(v, &e->dimm_size) || !e->dimm_size ?
		       "not a size such as 32G" : NULL;
	if (!strcmp(key, "dimm-speed"))
		return settings_parse_uint(v, 1000000, &e->dimm_speed) ?
		       "not a speed in MT/s such as 3200" : NULL;
	if (!strcmp(key, "dimm-part")) {
		snprintf(e->dimm_part, sizeof(e->dimm_part), "%s", v);
		return NULL;
	}
	if (!strcmp(key, "memory")) {
		if (settings_parse_size(v, &e->memory) || !e->memory)
			return "not a size such as 512G";
		e->memory = expect_memory_gib(e->memory);
		return NULL;
	}
	it = item_for(e, key, &kind);
	if (kind < 0)
		return "not a key of an expect file";
	if (!it)
		return "too many lines of this key";
	snprintf(it->name, sizeof(it->name), "%s", strchr(key, '.') + 1);
	if (!*it->name)
		return "no name after the '.'";
	switch (kind) {
	case 0:
		bad = settings_parse_uint(v, 1000000, &u);
		it->value = u;
		return bad ? "not a count" : NULL;
	case 1:
		snprintf(it->text, sizeof(it->text), "%s", v);
		return NULL;
	case 2:
		return settings_parse_size(v, &it->value) ?
		       "not a size such as 4T" : NULL;
	case 3:
		return link_of(v, it) ? "not a link such as x8 8.0 GT/s PCIe" :
		       NULL;
	default:
		bad = settings_parse_uint(v, 10000000, &u);
		it->value = u;
		return bad ? "not a speed in Mb/s such as 10000" : NULL;
	}
}

int expect_parse(const char *text, const char *what, struct expect *e,
		 char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *next, *t, *eq;
	const char *why;
	int n = 0;

	expect_init(e);
	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	line = copy;
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	for (; line; line = next) {
		n++;
		next = strpbrk(line, "\r\n");
		if (next) {
			if (next[0] == '\r' && next[1] == '\n')
				*next++ = 0;
			*next++ = 0;
		}
		t = options_trim(line);
		if (!*t || *t == '#')
			continue;
		eq = strchr(t, '=');
		if (!eq) {
			snprintf(err, errlen, "%s line %d: '%.60s' is not "
				 "KEY=VALUE", what, n, t);
			goto bad;
		}
		*eq = 0;
		why = apply(e, options_trim(t), options_trim(eq + 1));
		if (why) {
			snprintf(err, errlen, "%s line %d: %.60s=%.60s: %s",
				 what, n, options_trim(t), options_trim(eq + 1),
				 why);
			goto bad;
		}
	}
	free(copy);
	return 0;
bad:
	free(copy);
	return -1;
}

int expect_load(const char *path, struct expect *e, char *err,
		size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t len;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 20);
	len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	buf[len] = 0;
	if (memchr(buf, 0, len)) {
		snprintf(err, errlen, "%s: a NUL byte in it", path);
		free(buf);
		return -1;
	}
	ret = expect_parse(buf, path, e, err, errlen);
	free(buf);
	return ret;
}
