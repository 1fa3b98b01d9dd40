/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine as in-use sees it (see safety_look.h), read
 * once for each subject, or once for many (safety_look()): the block
 * devices of /sys with their partitions, the mount table, the swap
 * areas; and, asked of the kernel a bounded time each (safety_ask.c),
 * what each loop device is over, what a swap file or a mount source is.
 * A loop device that does not answer keeps its path and the filesystem
 * the mount table puts it on, to be compared by. What could not be kept
 * (no memory, a disk with more partitions than are read) is marked, so
 * safety_use.c fails closed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "base/sysfs.h"
#include "discover/safety_ask.h"
#include "discover/safety_look.h"

/* mountinfo and /proc/swaps write a blank or a backslash as \040, \134. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/* The device number in dir's "dev" attribute; 0 when none. */
static dev_t dev_attr(const char *dir)
{
	char num[32];
	unsigned maj, min;

	if (sysfs_attr(dir, "dev", num, sizeof(num)) <= 0 ||
	    sscanf(num, "%u:%u", &maj, &min) != 2)
		return 0;
	return makedev(maj, min);
}

int safety_look_add(struct safety_picture *p, const char *name, dev_t dev,
		    int disk)
{
	struct safety_bdev *grown;

	grown = realloc(p->b, (size_t)(p->nb + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	p->b = grown;
	memset(&p->b[p->nb], 0, sizeof(*grown));
	snprintf(p->b[p->nb].name, sizeof(grown->name), "%.63s", name);
	p->b[p->nb].dev = dev;
	p->b[p->nb].disk = disk;
	return p->nb++;
}

int safety_look_find(const struct safety_picture *p, dev_t dev)
{
	int i;

	for (i = 0; dev && i < p->nb; i++)
		if (p->b[i].dev == dev)
			return i;
	return -1;
}

static int named_add(struct safety_named **list, int *n,
		     const struct safety_named *one)
{
	struct safety_named *grown = realloc(*list, (size_t)(*n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	*list = grown;
	grown[(*n)++] = *one;
	return 0;
}

/* The mount whose point is the longest that path lies under: its device. */
static dev_t fs_of(const struct safety_picture *p, const char *path)
{
	size_t best = 0;
	dev_t dev = 0;
	int i;

	for (i = 0; i < p->nmount; i++) {
		const char *pt = p->mount[i].point;
		size_t len = strlen(pt);

		if (!strcmp(pt, "/"))
			len = 0;
		if (strncmp(path, pt, len) || (path[len] != '/' && path[len]) ||
		    len < best)
			continue;
		best = len;
		dev = p->mount[i].dev;
	}
	return dev;
}

/* Block devices, loop backings, mounts and swap areas, asked boundedly. */
void safety_look_read(const struct safety_env *o, struct safety_picture *p)
{
	char path[PATH_MAX], line[PATH_MAX + 128], **names;
	int i, k, n, nq = 0, real = !strcmp(o->sysroot, "/sys") &&
				   !strcmp(o->procroot, "/proc");
	struct sysfs_family *fam = malloc(sizeof(*fam));
	struct safety_ask *q;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->partial = !fam;
	snprintf(path, sizeof(path), "%s/block", o->sysroot);
	names = fam ? dir_list(path, &n) : NULL;
	for (i = 0; names && i < n; i++) {
		char dir[PATH_MAX];
		int disk;

		snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, names[i]);
		sysfs_family(o->sysroot, names[i], dev_attr(dir), fam);
		disk = safety_look_add(p, names[i], fam->dev[0], -1);
		if (disk < 0) {
			p->partial = 1;
			break;
		}
		p->b[disk].cut = fam->more;
		for (k = 1; k < fam->n; k++)
			if (safety_look_add(p, fam->name[k], fam->dev[k],
					    disk) < 0)
				p->b[disk].cut = 1;
		snprintf(dir, sizeof(dir), "%s/block/%s/loop", o->sysroot,
			 names[i]);
		if (sysfs_attr(dir, "backing_file", p->b[disk].path,
			       sizeof(p->b[disk].path)) > 0)
			p->b[disk].loop = 1;
	}
	if (names)
		dir_list_free(names, n);
	free(fam);

	/* mountinfo: "id parent major:minor root point opts... - type src" */
	snprintf(path, sizeof(path), "%s/self/mountinfo", o->procroot);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");
		struct safety_named m;
		unsigned maj, min;

		memset(&m, 0, sizeof(m));
		if (sscanf(line, "%*u %*u %u:%u %*s %511s", &maj, &min,
			   m.point) != 3)
			continue;
		unescape(m.point);
		m.dev = makedev(maj, min);
		if (sep)
			sscanf(sep + 3, "%*s %4095s", m.path);
		unescape(m.path);
		if (named_add(&p->mount, &p->nmount, &m))
			p->partial = 1;
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/swaps", o->procroot);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		struct safety_named s;

		/* "Filename Type Size Used Priority"; a path has no blank. */
		memset(&s, 0, sizeof(s));
		line[strcspn(line, " \t\n")] = 0;
		unescape(line);
		if (line[0] != '/')
			continue;
		snprintf(s.path, sizeof(s.path), "%s", line);
		if (named_add(&p->swap, &p->nswap, &s))
			p->partial = 1;
	}
	if (f)
		fclose(f);

	/*
	 * The questions: each loop device, each swap area, each mount whose
	 * source is a path and whose number is no block device's (btrfs).
	 * Devices and inodes only on the real /sys: a fixture's loop devices
	 * are not this machine's.
	 */
	q = real ? calloc((size_t)(p->nb + p->nswap + p->nmount) + 1,
			  sizeof(*q)) : NULL;
	if (real && !q)
		p->partial = 1;
	for (i = 0; q && i < p->nb; i++) {
		if (!p->b[i].loop)
			continue;
		p->b[i].path_fs = fs_of(p, p->b[i].path);
		q[nq++] = (struct safety_ask){ .name = p->b[i].name, .dev = p->b[i].dev,
					.path = p->b[i].path };
	}
	for (i = 0; q && i < p->nswap; i++)
		q[nq++] = (struct safety_ask){ .path = p->swap[i].path };
	for (i = 0; q && i < p->nmount; i++)
		if (p->mount[i].path[0] == '/' &&
		    safety_look_find(p, p->mount[i].dev) < 0)
			q[nq++] = (struct safety_ask){ .path = p->mount[i].path };
	if (q)
		safety_ask_all(q, nq);
	for (i = k = 0; q && i < p->nb; i++) {
		if (!p->b[i].loop)
			continue;
		p->b[i].answered = q[k].ok;
		p->b[i].silent = q[k].state != SAFETY_ASK_DONE;
		p->b[i].over = q[k++].m;
		snprintf(p->b[i].over.name, sizeof(p->b[i].over.name), "%s",
			 p->b[i].path);
	}
	for (i = 0; q && i < p->nswap; i++, k++) {
		p->swap[i].answered = q[k].ok;
		p->swap[i].m = q[k].m;
	}
	for (i = 0; q && i < p->nmount; i++)
		if (p->mount[i].path[0] == '/' &&
		    safety_look_find(p, p->mount[i].dev) < 0) {
			p->mount[i].answered = q[k].ok;
			p->mount[i].m = q[k++].m;
		}
	free(q);
}

void safety_look_drop(struct safety_picture *p)
{
	free(p->b);
	free(p->swap);
	free(p->mount);
}

struct safety_look *safety_look(const struct safety_env *env)
{
	struct safety_look *l = calloc(1, sizeof(*l));

	if (l)
		safety_look_read(env, &l->p);
	return l;
}

void safety_look_free(struct safety_look *look)
{
	if (!look)
		return;
	safety_look_drop(&look->p);
	free(look);
}

/* A copy of a picture of its own (a subject not in it is added). */
int safety_look_copy(struct safety_picture *to,
		     const struct safety_picture *from)
{
	memset(to, 0, sizeof(*to));
	to->b = malloc((size_t)from->nb * sizeof(*to->b) + 1);
	to->swap = malloc((size_t)from->nswap * sizeof(*to->swap) + 1);
	to->mount = malloc((size_t)from->nmount * sizeof(*to->mount) + 1);
	if (!to->b || !to->swap || !to->mount) {
		safety_look_drop(to);
		return -1;
	}
	/* An empty list is NULL: memcpy() is never given one. */
	if (from->nb)
		memcpy(to->b, from->b, (size_t)from->nb * sizeof(*to->b));
	if (from->nswap)
		memcpy(to->swap, from->swap,
		       (size_t)from->nswap * sizeof(*to->swap));
	if (from->nmount)
		memcpy(to->mount, from->mount,
		       (size_t)from->nmount * sizeof(*to->mount));
	to->nb = from->nb;
	to->nswap = from->nswap;
	to->nmount = from->nmount;
	to->partial = from->partial;
	return 0;
}
