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
 * device is over is asked of the kernel (LOOP_GET_STATUS64: the backing
 * file's device and inode, or the device it is over, whatever path or
 * node set it up, a deleted one too), in a child, a bounded time: the
 * kernel stats the backing file for it, and a file on a dead NFS server
 * or a stopped FUSE daemon never answers. Swap files and mount sources
 * are stat'ed the same way. A loop device that does not answer is
 * compared by its path and by the filesystem the mount table puts that
 * path on, and said so; it is that device that does not answer, not this
 * one. The media followed are bounded, and a subject past a bound (or a
 * machine that could not be read whole) fails closed: in use, "it cannot
 * be checked", never judged on the media that fitted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/sysfs.h"
#include "base/timing.h"
#include "discover/safety.h"
#include "discover/safety_private.h"

/*
 * A stat answers in microseconds; this is for a loaded machine, and short
 * beside the shortest deadline: a target's own classing runs under it.
 */
#define SAFETY_ASK_MS 500

/* A block device of the machine; for a loop device, what it is over. */
struct bdev {
	char name[64];
	dev_t dev;
	int disk;		/* a partition: its whole disk's index; else -1 */
	int loop;		/* a loop device with a backing file */
	int answered;		/* over is known */
	int silent;		/* asked, and gave no answer */
	int cut;		/* a disk with partitions left out unseen */
	struct safety_medium over;
	char path[PATH_MAX];	/* sysfs's backing_file */
	dev_t path_fs;		/* the filesystem the mount table puts it on */
};

/* A swap area, or a mount, as /proc names it. */
struct named {
	int answered;
	struct safety_medium m;
	dev_t dev;		/* a mount's device number */
	char point[512];	/* a mount's mount point */
	char path[PATH_MAX];	/* a swap area's path, a mount's source */
};

/* What the machine has, read once for each subject. */
struct picture {
	struct bdev *b;
	int nb;
	struct named *swap, *mount;
	int nswap, nmount;
	int partial;		/* something could not be kept: no memory */
};

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

static int same(const struct safety_medium *a, const struct safety_medium *b)
{
	return a->file == b->file && a->dev == b->dev &&
	       (!a->file || a->ino == b->ino);
}

/* The kernel's 64-bit encoding of a device number (huge_encode_dev). */
static dev_t huge_decode(unsigned long long x)
{
	return makedev((unsigned)(x >> 8) & 0xfff,
		       (unsigned)((x & 0xff) | ((x >> 12) & 0xfff00)));
}

/* One question for the kernel that may hang: a loop device's, a stat. */
struct ask {
	const char *name;	/* a loop device's kernel name, or NULL */
	dev_t dev;		/* its number */
	const char *path;	/* its backing file; a path to stat */
	int state;		/* ASK_*; written by the child */
	uint64_t since;		/* when it was asked (timing_now_ns()) */
	int ok;
	struct safety_medium m;
};

enum { ASK_NOT, ASK_ASKING, ASK_DONE };

static void ask_one(struct ask *a)
{
	struct loop_info64 info;
	char node[80];
	struct stat st;
	size_t len = strlen(a->path);
	int fd = -1;

	if (a->name) {
		snprintf(node, sizeof(node), "/dev/%s", a->name);
		fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	    st.st_rdev == a->dev && ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
		a->m.file = !info.lo_rdevice;
		a->m.dev = huge_decode(info.lo_rdevice ? info.lo_rdevice :
				       info.lo_device);
		a->m.ino = (ino_t)info.lo_inode;
		a->ok = 1;
	} else if (len < 10 || strcmp(a->path + len - 10, " (deleted)")) {
		/* No node of its own here: by its path, when it has one. */
		if (a->path[0] == '/' && stat(a->path, &st) == 0 &&
		    (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))) {
			a->m.file = S_ISREG(st.st_mode);
			a->m.dev = a->m.file ? st.st_dev : st.st_rdev;
			a->m.ino = st.st_ino;
			a->ok = 1;
		}
	}
	if (fd >= 0)
		close(fd);
}

/*
 * The child's round: the questions from `from` on, one after another,
 * each marked as it is asked, in memory shared with the caller (mapped
 * by the caller before the fork, not the caller's item), so a round that
 * stops in one question says which.
 */
struct round {
	struct ask *a;
	int n, from;
};

static void ask_round(void *arg)
{
	struct round *r = arg;
	int i;

	for (i = r->from; i < r->n; i++) {
		__atomic_store_n(&r->a[i].since, timing_now_ns(),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&r->a[i].state, ASK_ASKING, __ATOMIC_RELEASE);
		ask_one(&r->a[i]);
		__atomic_store_n(&r->a[i].state, ASK_DONE, __ATOMIC_RELEASE);
	}
}

/*
 * Asks every question, in rounds of one child each. A question the child
 * has been in for SAFETY_ASK_MS is left unanswered (its child is left
 * behind) and a new round goes on after it: a dead device costs one wait,
 * however many live ones there are. Only a question's own time counts,
 * never the round's: on a loaded machine a child may start late, and a
 * live device left unanswered would be compared by its path alone. A
 * round that is in no question ASK_START_MS after it began (a child that
 * never started, or died) gives up the rest.
 */
#define ASK_START_MS 10000

static void ask_all(struct ask *q, int n)
{
	const struct timespec tick = { 0, 5000000 };
	size_t len = (size_t)n * sizeof(*q);
	struct ask *a;
	int from = 0, i;

	if (!n)
		return;
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (a == MAP_FAILED)
		return;
	memcpy(a, q, len);
	while (from < n) {
		struct round r = { a, n, from };
		uint64_t start = timing_now_ns();
		int stuck = -1, done = 0;

		if (deadline_apart(ask_round, &r, sizeof(r), 1, -1,
				   SAFETY_ASK_MS * 1000000ull, &done))
			break;
		/* Left to run: it goes on through the rest, in a. */
		while (!done) {
			uint64_t now = timing_now_ns();
			int asking = -1, left = 0;

			for (i = from; i < n; i++) {
				int st = __atomic_load_n(&a[i].state,
							 __ATOMIC_ACQUIRE);

				left += st != ASK_DONE;
				if (st == ASK_ASKING)
					asking = i;
			}
			if (!left)
				break;
			if (asking >= 0 &&
			    now - __atomic_load_n(&a[asking].since,
						  __ATOMIC_ACQUIRE) >=
			    SAFETY_ASK_MS * 1000000ull) {
				stuck = asking;
				break;
			}
			if (asking < 0 &&
			    now - start >= ASK_START_MS * 1000000ull)
				break;
			nanosleep(&tick, NULL);
		}
		if (stuck < 0)
			break;
		from = stuck + 1;
	}
	for (i = 0; i < n; i++) {
		if (__atomic_load_n(&a[i].state, __ATOMIC_ACQUIRE) != ASK_DONE)
			continue;
		q[i].ok = a[i].ok;
		q[i].m = a[i].m;
		q[i].state = ASK_DONE;
	}
	munmap(a, len);
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

static int bdev_add(struct picture *p, const char *name, dev_t dev, int disk)
{
	struct bdev *grown = realloc(p->b, (size_t)(p->nb + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	p->b = grown;
	memset(&p->b[p->nb], 0, sizeof(*grown));
	snprintf(p->b[p->nb].name, sizeof(grown->name), "%.63s", name);
	p->b[p->nb].dev = dev;
	p->b[p->nb].disk = disk;
	return p->nb++;
}

static int bdev_by_dev(const struct picture *p, dev_t dev)
{
	int i;

	for (i = 0; dev && i < p->nb; i++)
		if (p->b[i].dev == dev)
			return i;
	return -1;
}

static int named_add(struct named **list, int *n, const struct named *one)
{
	struct named *grown = realloc(*list, (size_t)(*n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	*list = grown;
	grown[(*n)++] = *one;
	return 0;
}

/* The mount whose point is the longest that path lies under: its device. */
static dev_t fs_of(const struct picture *p, const char *path)
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
static void picture_read(const struct safety_env *o, struct picture *p)
{
	char path[PATH_MAX], line[PATH_MAX + 128], **names;
	int i, k, n, nq = 0, real = !strcmp(o->sysroot, "/sys") &&
				   !strcmp(o->procroot, "/proc");
	struct sysfs_family *fam = malloc(sizeof(*fam));
	struct ask *q;
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
		disk = bdev_add(p, names[i], fam->dev[0], -1);
		if (disk < 0) {
			p->partial = 1;
			break;
		}
		p->b[disk].cut = fam->more;
		for (k = 1; k < fam->n; k++)
			if (bdev_add(p, fam->name[k], fam->dev[k], disk) < 0)
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
		struct named m;
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
		struct named s;

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
		q[nq++] = (struct ask){ .name = p->b[i].name, .dev = p->b[i].dev,
					.path = p->b[i].path };
	}
	for (i = 0; q && i < p->nswap; i++)
		q[nq++] = (struct ask){ .path = p->swap[i].path };
	for (i = 0; q && i < p->nmount; i++)
		if (p->mount[i].path[0] == '/' &&
		    bdev_by_dev(p, p->mount[i].dev) < 0)
			q[nq++] = (struct ask){ .path = p->mount[i].path };
	if (q)
		ask_all(q, nq);
	for (i = k = 0; q && i < p->nb; i++) {
		if (!p->b[i].loop)
			continue;
		p->b[i].answered = q[k].ok;
		p->b[i].silent = q[k].state != ASK_DONE;
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
		    bdev_by_dev(p, p->mount[i].dev) < 0) {
			p->mount[i].answered = q[k].ok;
			p->mount[i].m = q[k++].m;
		}
	free(q);
}

static void picture_free(struct picture *p)
{
	free(p->b);
	free(p->swap);
	free(p->mount);
}

struct safety_look {
	struct picture p;
};

struct safety_look *safety_look(const struct safety_env *env)
{
	struct safety_look *l = calloc(1, sizeof(*l));

	if (l)
		picture_read(env, &l->p);
	return l;
}

void safety_look_free(struct safety_look *look)
{
	if (!look)
		return;
	picture_free(&look->p);
	free(look);
}

/* A copy of a picture of its own (a subject not in it is added). */
static int picture_copy(struct picture *to, const struct picture *from)
{
	memset(to, 0, sizeof(*to));
	to->b = malloc((size_t)from->nb * sizeof(*to->b) + 1);
	to->swap = malloc((size_t)from->nswap * sizeof(*to->swap) + 1);
	to->mount = malloc((size_t)from->nmount * sizeof(*to->mount) + 1);
	if (!to->b || !to->swap || !to->mount) {
		picture_free(to);
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

static void reach_add(struct reaches *rs, const struct picture *p,
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
	r->b = m->file ? -1 : bdev_by_dev(p, m->dev);
	r->how = how;
	r->lock = lock;
	snprintf(r->prefix, sizeof(r->prefix), "%s", prefix);
	if (r->b >= 0)
		snprintf(r->m.name, sizeof(r->m.name), "%s", p->b[r->b].name);
}

static void block_medium(const struct picture *p, int b,
			 struct safety_medium *m)
{
	memset(m, 0, sizeof(*m));
	m->dev = p->b[b].dev;
	snprintf(m->name, sizeof(m->name), "%s", p->b[b].name);
}

/* A whole disk and its partitions (a partition alone), under how. */
static void family_add(struct reaches *rs, const struct picture *p, int b,
		       int how, int lock, const char *prefix)
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
static void reach_find(const struct picture *p, const char *me,
		       struct reaches *rs, struct safety *s)
{
	const char *silent = NULL;
	char prefix[300];
	int i, k, first = rs->n, cur;

	cur = rs->n && !rs->r[0].m.file ? rs->r[0].b : -1;
	for (k = 0; cur >= 0 && k < 16; k++) {
		const struct bdev *b = &p->b[cur];
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
		cur = b->over.file ? -1 : bdev_by_dev(p, b->over.dev);
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
		const struct bdev *l = &p->b[i];
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
static void reasons(const struct safety_env *o, const struct picture *p,
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
		const struct bdev *b = &p->b[r->b];

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
		const struct named *m = &p->mount[i];

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
		const struct named *w = &p->swap[i];
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
static void backs(const struct picture *p, const struct safety_subject *d,
		  const struct reaches *rs, struct safety *s)
{
	int i, k;

	for (i = 0; i < p->nb; i++) {
		const struct bdev *l = &p->b[i];

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
static int unchecked(const struct picture *p, const struct reaches *rs,
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
	struct picture p;
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
	if (!env->look || picture_copy(&p, &env->look->p))
		picture_read(env, &p);
	memset(&me, 0, sizeof(me));
	if (d->name && *d->name) {
		b = bdev_by_dev(&p, d->rdev);
		if (b < 0)
			b = bdev_add(&p, d->name, d->rdev, -1);
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
	picture_free(&p);
	free(rs);
}
