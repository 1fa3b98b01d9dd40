/* SPDX-License-Identifier: MIT */
/*
 * Description: whether a disk or file is in use (see safety.h). In use is
 * a property of the bytes, not of a path: every medium that holds the
 * subject's bytes, or that its bytes hold, is followed through any chain
 * of loop devices, links and nodes, and each is looked at: mounted (btrfs
 * by any of its devices), held by md/dm/bcache, swap, protected, open in
 * another process (safety_open.c), or the backing of a loop device.
 *
 * The media: the subject itself (a disk with its partitions, or a file by
 * its device and inode); what it is over, down every chain of loop
 * devices (a loop device over a whole disk takes in its partitions; a
 * partition is part of its disk); and every other loop device over one
 * of those (a sibling, which reaches the same bytes). What each loop
 * device is over, and the rest of the machine, is looked at once
 * (safety_look.c, asked a bounded time: safety_ask.c). A loop device that
 * does not answer is compared by its path and by the filesystem the mount
 * table puts that path on, and said so; it is that device that does not
 * answer, not this one. The media followed are bounded, and a subject
 * past a bound (or a machine that could not be read whole) fails closed:
 * in use, "it cannot be checked", never judged on the media that fitted.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "discover/safety.h"
#include "discover/safety_ask.h"
#include "discover/safety_look.h"
#include "discover/safety_private.h"

static int same(const struct safety_medium *a, const struct safety_medium *b)
{
	return a->file == b->file && a->dev == b->dev &&
	       (!a->file || a->ino == b->ino);
}

/* How a medium reaches the subject's bytes. */
enum { REACH_SELF, REACH_UNDER, REACH_BESIDE };

struct reach {
	struct safety_medium m;
	int b;			/* its block device's index; -1: a file */
	int how;		/* REACH_* */
	int lock;		/* its whole bytes are the subject's too */
	char prefix[300];	/* said before each of its reasons */
};

/*
 * The media that reach the subject's bytes: a set of a fixed size. One
 * that does not fit is never dropped unseen: the set says so (over), and
 * the subject is in use, as it cannot be checked whole.
 */
#define REACH_MAX (SAFETY_HOLDS * 2)

struct reaches {
	struct reach r[REACH_MAX];
	int n;
	int over;		/* a medium did not fit */
	const char *cut;	/* a disk of it with partitions left out */
};

static int reach_has(const struct reaches *rs, const struct safety_medium *m)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (same(&rs->r[i].m, m))
			return 1;
	return 0;
}

static void reach_add(struct reaches *rs, const struct safety_picture *p,
		      const struct safety_medium *m, int how, int lock,
		      const char *prefix)
{
	struct reach *r;

	if (reach_has(rs, m))
		return;
	if (rs->n >= REACH_MAX) {
		rs->over = 1;
		return;
	}
	r = &rs->r[rs->n++];
	r->m = *m;
	r->b = m->file ? -1 : safety_look_find(p, m->dev);
	r->how = how;
	r->lock = lock;
	snprintf(r->prefix, sizeof(r->prefix), "%s", prefix);
	if (r->b >= 0)
		snprintf(r->m.name, sizeof(r->m.name), "%s", p->b[r->b].name);
}

static void block_medium(const struct safety_picture *p, int b,
			 struct safety_medium *m)
{
	memset(m, 0, sizeof(*m));
	m->dev = p->b[b].dev;
	snprintf(m->name, sizeof(m->name), "%s", p->b[b].name);
}

/* A whole disk and its partitions (a partition alone), under how. */
static void family_add(struct reaches *rs, const struct safety_picture *p,
		       int b, int how, int lock, const char *prefix)
{
	struct safety_medium m;
	int i;

	block_medium(p, b, &m);
	reach_add(rs, p, &m, how, lock, prefix);
	if (p->b[b].cut && !rs->cut)
		rs->cut = p->b[b].name;
	for (i = 0; i < p->nb; i++)
		if (p->b[i].disk == b) {
			block_medium(p, i, &m);
			reach_add(rs, p, &m, how, lock, prefix);
		}
}

/*
 * Down every chain from the subject: a loop device's backing (a whole
 * disk with its partitions: a loop device over it reaches them all), a
 * partition's disk (only itself: its other partitions are other bytes).
 * Then every other loop device over one of those: a sibling.
 */
static void reach_find(const struct safety_picture *p, const char *me,
		       struct reaches *rs, struct safety *s)
{
	const char *silent = NULL;
	char prefix[300];
	int i, k, first = rs->n, cur;

	cur = rs->n && !rs->r[0].m.file ? rs->r[0].b : -1;
	for (k = 0; cur >= 0 && k < 16; k++) {
		const struct safety_bdev *b = &p->b[cur];
		struct safety_medium over;

		if (b->disk >= 0) {
			snprintf(prefix, sizeof(prefix), "%s is part of %s, "
				 "which is in use: ", me, p->b[b->disk].name);
			block_medium(p, b->disk, &over);
			reach_add(rs, p, &over, REACH_UNDER, 0, prefix);
			cur = b->disk;
			continue;
		}
		if (!b->loop)
			break;
		if (!b->answered) {
			if (b->silent)
				safety_note(s, "%s does not answer (its backing "
					    "file %s gave no answer in %u ms): "
					    "what it is over is compared by its "
					    "path", b->name, b->path,
					    SAFETY_ASK_MS);
			silent = b->path;
			break;
		}
		cur = b->over.file ? -1 : safety_look_find(p, b->over.dev);
		snprintf(prefix, sizeof(prefix), "%s is over %s, which is in "
			 "use: ", me, cur >= 0 ? p->b[cur].name : b->over.name);
		if (b->over.file) {
			reach_add(rs, p, &b->over, REACH_UNDER, 1, prefix);
			break;
		}
		if (cur < 0) {
			reach_add(rs, p, &b->over, REACH_UNDER, 1, prefix);
			break;
		}
		family_add(rs, p, cur, REACH_UNDER, 1, prefix);
	}
	/* Siblings: another loop device over what the chain is over. */
	for (i = 0; i < p->nb; i++) {
		const struct safety_bdev *l = &p->b[i];
		int at;

		if (!l->loop)
			continue;
		for (at = first; l->answered && at < rs->n; at++)
			if (rs->r[at].how == REACH_UNDER &&
			    same(&rs->r[at].m, &l->over))
				break;
		/* Over the same path as a chain that does not answer. */
		if ((!l->answered || at == rs->n) &&
		    !(silent && !strcmp(l->path, silent)))
			continue;
		for (k = 0; k < rs->n && !(rs->r[k].b == i); k++)
			;
		if (k < rs->n)
			continue;	/* in the chain itself */
		snprintf(prefix, sizeof(prefix), "%s is over the same %s as "
			 "%s, which is in use: ", me,
			 l->over.file ? "file" : "device", l->name);
		family_add(rs, p, i, REACH_BESIDE, 0, prefix);
	}
}

/* The reasons one medium of the reach gives, but an open elsewhere. */
static void reasons(const struct safety_env *o, const struct safety_picture *p,
		    const struct reach *r, struct safety *s)
{
	char path[PATH_MAX], **names;
	int i, n;

	for (i = 0; r->b >= 0 && i < o->nprotect; i++)
		if (o->protect[i] == r->m.dev) {
			safety_why(s, "%s%s is the boot or results medium "
				   "(--protect)", r->prefix, r->m.name);
			safety_busy(s);
			s->protected = 1;
		}
	if (r->b >= 0) {
		const struct safety_bdev *b = &p->b[r->b];

		if (b->disk >= 0)
			snprintf(path, sizeof(path), "%s/block/%s/%s/holders",
				 o->sysroot, p->b[b->disk].name, b->name);
		else
			snprintf(path, sizeof(path), "%s/block/%s/holders",
				 o->sysroot, b->name);
		names = dir_list(path, &n);
		for (i = 0; i < n; i++) {
			safety_why(s, "%s%s is held by %s", r->prefix,
				   r->m.name, names[i]);
			safety_busy(s);
		}
		dir_list_free(names, n);
	}
	for (i = 0; i < p->nmount; i++) {
		const struct safety_named *m = &p->mount[i];

		/* btrfs says a number of its own: its source counts. */
		if ((!r->m.file && m->dev == r->m.dev) ||
		    (m->answered && same(&m->m, &r->m))) {
			safety_why(s, "%s%s is mounted at %s", r->prefix,
				   r->m.name, m->point);
			safety_busy(s);
		}
	}
	/* Every device of a mounted btrfs, the ones its mount does not name. */
	snprintf(path, sizeof(path), "%s/fs/btrfs", o->sysroot);
	names = r->b >= 0 ? dir_list(path, &n) : NULL;
	for (i = 0; names && i < n; i++) {
		char dev[PATH_MAX * 2];

		snprintf(dev, sizeof(dev), "%s/%s/devices/%s", path, names[i],
			 r->m.name);
		if (access(dev, F_OK) == 0 && !strstr(s->why, "mounted")) {
			safety_why(s, "%s%s is a device of a mounted btrfs "
				   "(%s)", r->prefix, r->m.name, names[i]);
			safety_busy(s);
		}
	}
	if (names)
		dir_list_free(names, n);
	for (i = 0; i < p->nswap; i++) {
		const struct safety_named *w = &p->swap[i];
		const char *base = strrchr(w->path, '/') + 1;

		/* Not answered: a /dev node by its name, a file by its path. */
		if (w->answered ? same(&w->m, &r->m) :
		    r->m.file ? !strcmp(w->path, r->m.name) :
		    !strncmp(w->path, "/dev/", 5) && !strcmp(base, r->m.name)) {
			if (r->m.file && !strcmp(r->m.name, "it"))
				safety_why(s, "%sit is used as swap (%s)",
					   r->prefix, w->path);
			else
				safety_why(s, "%s%s is used as swap", r->prefix,
					   r->m.name);
			safety_busy(s);
		}
	}
}

/*
 * Loop devices over a medium of the reach: over the subject or a part of
 * it, it backs them, whatever they are doing; over a sibling, the sibling
 * is in use. A loop device that does not answer is compared by its path,
 * and by the filesystem its path is on.
 */
static void backs(const struct safety_picture *p,
		  const struct safety_subject *d,
		  const struct reaches *rs, struct safety *s)
{
	int i, k;

	for (i = 0; i < p->nb; i++) {
		const struct safety_bdev *l = &p->b[i];

		if (!l->loop || (d->name && d->name[0] &&
				 !strcmp(l->name, d->name)))
			continue;
		for (k = 0; k < rs->n; k++) {
			const struct reach *r = &rs->r[k];
			int over;

			if (r->how == REACH_UNDER || r->b == i)
				continue;
			over = l->answered ? same(&l->over, &r->m) :
			       r->m.file ? !strcmp(l->path, d->path ? d->path :
						   r->m.name) :
			       !strncmp(l->path, "/dev/", 5) &&
			       !strcmp(l->path + 5, r->m.name);
			if (over) {
				safety_why(s, "%s%s backs loop device %s",
					   r->prefix, r->m.name, l->name);
				safety_busy(s);
				break;
			}
			/* Its file may be this one: not known, so in use. */
			if (l->silent && r->how == REACH_SELF &&
			    r->m.file && l->path_fs == r->m.dev) {
				safety_why(s, "it may back loop device %s (its "
					   "backing file %s is on the same "
					   "filesystem and gave no answer in "
					   "%u ms)", l->name, l->path,
					   SAFETY_ASK_MS);
				safety_busy(s);
				break;
			}
		}
		if (l->silent)
			safety_note(s, "%s does not answer (its backing file "
				    "%s gave no answer in %u ms): compared by "
				    "its path", l->name, l->path,
				    SAFETY_ASK_MS);
	}
}

/*
 * Fails closed: what was not followed may be mounted or held, so the
 * subject is in use. One line, the first cause.
 */
static int unchecked(const struct safety_picture *p, const struct reaches *rs,
		     struct safety *s)
{
	if (p->partial)
		safety_why(s, "it cannot be checked: the machine's devices, "
			   "mounts and swap areas could not all be read (out "
			   "of memory)");
	else if (rs->cut)
		safety_why(s, "it cannot be checked: %s has more partitions "
			   "than the %d kiln follows", rs->cut,
			   SYSFS_FAMILY_MAX - 1);
	else if (rs->over)
		safety_why(s, "it cannot be checked: more media reach its "
			   "bytes than the %d kiln follows", REACH_MAX);
	else
		return 0;
	safety_busy(s);
	return 1;
}

/* What holds the subject's bytes, for the lock between runs (target.c). */
static void holds(const struct reaches *rs, int said, struct safety *s)
{
	int i;

	for (i = 0; i < rs->n; i++) {
		if (!rs->r[i].lock)
			continue;
		/* A medium left unlocked is one two runs could both write. */
		if (s->nholds == SAFETY_HOLDS) {
			if (!said)
				safety_why(s, "it cannot be locked against "
					   "other kilns: more media hold its "
					   "bytes than the %d kiln locks",
					   SAFETY_HOLDS);
			safety_busy(s);
			return;
		}
		s->holds[s->nholds++] = rs->r[i].m;
	}
}

static void append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

void safety_in_use(const struct safety_env *env,
		   const struct safety_subject *d, struct safety *s)
{
	struct reaches *rs = calloc(1, sizeof(*rs));
	struct safety_medium me;
	struct safety_picture p;
	struct stat st;
	struct safety_medium media[REACH_MAX];
	char *prefix[REACH_MAX];
	int i, b = -1, said;

	memset(s, 0, sizeof(*s));
	s->class = SAFETY_BLANK;
	s->blank_byte = -1;
	if (!rs) {
		safety_why(s, "it cannot be checked: out of memory");
		safety_busy(s);
		return;
	}
	if (!env->look || safety_look_copy(&p, &env->look->p))
		safety_look_read(env, &p);
	memset(&me, 0, sizeof(me));
	if (d->name && *d->name) {
		b = safety_look_find(&p, d->rdev);
		if (b < 0)
			b = safety_look_add(&p, d->name, d->rdev, -1);
		if (b >= 0)
			family_add(rs, &p, b, REACH_SELF, 1, "");
		else
			p.partial = 1;
		for (i = 1; i < rs->n; i++)
			append(s->partitions, sizeof(s->partitions),
			       rs->r[i].m.name);
		reach_find(&p, d->name, rs, s);
	} else if ((d->fd >= 0 ? fstat(d->fd, &st) :
		    d->path ? stat(d->path, &st) : -1) == 0 &&
		   S_ISREG(st.st_mode)) {
		me.file = 1;
		me.dev = st.st_dev;
		me.ino = st.st_ino;
		snprintf(me.name, sizeof(me.name), "it");
		reach_add(rs, &p, &me, REACH_SELF, 1, "");
	}
	for (i = 0; i < rs->n; i++)
		reasons(env, &p, &rs->r[i], s);
	backs(&p, d, rs, s);
	said = unchecked(&p, rs, s);
	for (i = 0; i < rs->n; i++) {
		media[i] = rs->r[i].m;
		prefix[i] = rs->r[i].prefix;
	}
	safety_open_elsewhere(env, media, prefix, rs->n, s);
	holds(rs, said, s);
	safety_look_drop(&p);
	free(rs);
}
