/* SPDX-License-Identifier: MIT */
/*
 * Description: memory planned before any write (see memplan.h): the
 * buffers each worker will pin, the qd that fits what the machine and
 * kiln's cgroup leave, and those figures read from /proc and the cgroup
 * files. A kiln killed by the OOM killer mid-burn leaves no result, so
 * the plan is made while nothing has been written and a refusal costs
 * nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/memplan.h"
#include "base/sysfs.h"
#include "base/unit.h"

/* A cgroup v1 limit this high is "no limit" (it is LONG_MAX in pages). */
#define CG_UNLIMITED (1ull << 62)

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

void memplan_buffers(const struct engine_plan *p, uint64_t bs, unsigned qd,
		     size_t align, unsigned *nbuf, uint64_t *buflen)
{
	uint64_t reqs = 0, widest = 0;
	int e;

	/*
	 * A request never crosses an extent's end (engine_locate), so a
	 * phase, from any start, has at most this many requests: no more
	 * can be in flight at once, whatever the qd.
	 */
	for (e = 0; e < p->next && e < ENGINE_MAX_EXTENTS; e++) {
		uint64_t len = p->ext[e].length;

		reqs += (len + bs - 1) / bs;
		if (len > widest)
			widest = len;
	}
	*nbuf = reqs < qd ? (unsigned)reqs : qd;
	if (!*nbuf)
		*nbuf = 1;
	*buflen = round_up(widest < bs && widest ? widest : bs, align);
}

uint64_t memplan_pins(const struct memplan_target *t, uint64_t bs,
		      unsigned qd)
{
	unsigned nbuf;
	uint64_t buflen;

	memplan_buffers(t->plan, bs, qd, t->align, &nbuf, &buflen);
	return (uint64_t)nbuf * buflen + round_up(UNIT_SIZE, t->align);
}

static uint64_t pins_at(const struct memplan_target *t, int n, uint64_t bs,
			unsigned qd)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += memplan_pins(&t[i], bs, qd);
	return sum;
}

int memplan_choose(uint64_t avail, uint64_t cg_room,
		   const struct memplan_target *t, int n, uint64_t bs,
		   unsigned qd_asked, struct memplan *p)
{
	unsigned q;

	memset(p, 0, sizeof(*p));
	p->avail = avail;
	p->cg_room = cg_room;
	p->usable = avail < cg_room ? avail : cg_room;
	p->keep = p->usable / 10 > MEMPLAN_KEEP_MIN ? p->usable / 10 :
		  MEMPLAN_KEEP_MIN;
	p->budget = p->usable > p->keep ? p->usable - p->keep : 0;
	/* Nothing known of the machine: nothing to hold the pins against. */
	if (p->usable == UINT64_MAX)
		p->budget = UINT64_MAX;
	p->qd_asked = qd_asked ? qd_asked : 1;
	p->pins_asked = pins_at(t, n, bs, p->qd_asked);
	/* Pins only fall with the qd: the first that fits is the largest. */
	for (q = p->qd_asked; q >= 1; q--) {
		p->pins = q == p->qd_asked ? p->pins_asked :
			  pins_at(t, n, bs, q);
		if (p->pins <= p->budget) {
			p->qd = q;
			return 0;
		}
	}
	return -ENOMEM;
}

uint64_t memplan_left(const struct memplan *p)
{
	if (!p->qd || p->pins >= p->budget)
		return 0;
	return p->budget - p->pins;
}

/* The value of "Key:  123 kB" in a /proc/meminfo text; -1 when absent. */
static int64_t meminfo_kb(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *s;

	for (s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (!strncmp(s, key, klen) && s[klen] == ':')
			return strtoll(s + klen + 1, NULL, 10);
	return -1;
}

static uint64_t read_avail(const char *procroot)
{
	char path[512], text[8192];
	int64_t kb, free_kb, cached_kb, buffers_kb;

	snprintf(path, sizeof(path), "%s/meminfo", procroot);
	if (sysfs_read(path, text, sizeof(text)) <= 0)
		return UINT64_MAX;
	kb = meminfo_kb(text, "MemAvailable");
	if (kb < 0) {
		/* Before Linux 3.14: what is free and what cache gives up. */
		free_kb = meminfo_kb(text, "MemFree");
		cached_kb = meminfo_kb(text, "Cached");
		buffers_kb = meminfo_kb(text, "Buffers");
		if (free_kb < 0)
			return UINT64_MAX;
		kb = free_kb + (cached_kb > 0 ? cached_kb : 0) +
		     (buffers_kb > 0 ? buffers_kb : 0);
	}
	return (uint64_t)kb * 1024;
}

/* A number file: its value, or UINT64_MAX when absent, "max" or odd. */
static uint64_t read_u64(const char *dir, const char *name)
{
	char buf[64], *end;
	unsigned long long v;

	if (sysfs_attr(dir, name, buf, sizeof(buf)) <= 0)
		return UINT64_MAX;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return UINT64_MAX;
	return v;
}

/* "key value" of a memory.stat; 0 when absent. */
static uint64_t stat_value(const char *dir, const char *key)
{
	char path[1024], text[8192];
	size_t klen = strlen(key);
	const char *s;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	if (sysfs_read(path, text, sizeof(text)) <= 0)
		return 0;
	for (s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (!strncmp(s, key, klen) && s[klen] == ' ')
			return strtoull(s + klen + 1, NULL, 10);
	return 0;
}

/*
 * The room under the tightest limit of one hierarchy, from the cgroup at
 * path (under mnt) up to its root: limit less what is used and not
 * reclaimable cache.
 */
static uint64_t hierarchy_room(const char *mnt, const char *path, int v2)
{
	char dir[1024], *cut;
	uint64_t best = UINT64_MAX;
	size_t mlen;

	if (snprintf(dir, sizeof(dir), "%s%s", mnt, path) >= (int)sizeof(dir))
		return UINT64_MAX;
	mlen = strlen(mnt);
	for (;;) {
		uint64_t limit = read_u64(dir, v2 ? "memory.max" :
					  "memory.limit_in_bytes");
		uint64_t used = read_u64(dir, v2 ? "memory.current" :
					 "memory.usage_in_bytes");

		if (limit < CG_UNLIMITED) {
			uint64_t cache = stat_value(dir, v2 ? "inactive_file" :
						    "total_inactive_file");
			uint64_t room;

			if (used == UINT64_MAX)
				used = 0;
			used = used > cache ? used - cache : 0;
			room = limit > used ? limit - used : 0;
			if (room < best)
				best = room;
		}
		cut = strrchr(dir + mlen, '/');
		if (!cut)
			break;
		*cut = 0;
	}
	return best;
}

/* Whether a v1 controllers field ("cpu,memory") names memory. */
static int names_memory(const char *ctrl, size_t len)
{
	const char *s = ctrl, *end = ctrl + len;

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t n = comma ? (size_t)(comma - s) : (size_t)(end - s);

		if (n == 6 && !strncmp(s, "memory", 6))
			return 1;
		s += n + 1;
	}
	return 0;
}

static uint64_t read_cg_room(const char *procroot, const char *sysroot)
{
	char path[512], text[4096], mnt[512], cgpath[1024];
	uint64_t best = UINT64_MAX, room;
	const char *line;

	snprintf(path, sizeof(path), "%s/self/cgroup", procroot);
	if (sysfs_read(path, text, sizeof(text)) <= 0)
		return UINT64_MAX;
	for (line = text; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : line) {
		const char *c1 = strchr(line, ':'), *c2, *nl;
		size_t plen;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			break;
		nl = strchr(c2, '\n');
		plen = nl ? (size_t)(nl - c2 - 1) : strlen(c2 + 1);
		if (plen >= sizeof(cgpath))
			continue;
		memcpy(cgpath, c2 + 1, plen);
		cgpath[plen] = 0;
		/* "/" is the root: its files are at the mount itself. */
		if (!strcmp(cgpath, "/"))
			cgpath[0] = 0;
		if (c2 == c1 + 1 && !strncmp(line, "0:", 2)) {
			/* v2: alone at fs/cgroup, or beside v1 at unified. */
			snprintf(mnt, sizeof(mnt), "%s/fs/cgroup", sysroot);
			room = hierarchy_room(mnt, cgpath, 1);
			if (room < best)
				best = room;
			snprintf(mnt, sizeof(mnt), "%s/fs/cgroup/unified",
				 sysroot);
			room = hierarchy_room(mnt, cgpath, 1);
		} else if (names_memory(c1 + 1, (size_t)(c2 - c1 - 1))) {
			snprintf(mnt, sizeof(mnt), "%s/fs/cgroup/memory",
				 sysroot);
			room = hierarchy_room(mnt, cgpath, 0);
		} else {
			continue;
		}
		if (room < best)
			best = room;
	}
	return best;
}

void memplan_read(const char *procroot, const char *sysroot,
		  uint64_t *avail, uint64_t *cg_room)
{
	*avail = read_avail(procroot);
	*cg_room = read_cg_room(procroot, sysroot);
}
