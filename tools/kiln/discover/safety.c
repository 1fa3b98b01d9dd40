/* SPDX-License-Identifier: MIT */
/*
 * Description: the safety class of a disk or file (see safety.h). In use:
 * mounted, held by md/dm/bcache, swap, protected, the backing device or
 * file of a loop device (also loop over loop), or open in another process
 * (still open a second later); files and loop devices compared by what
 * they are over (device and inode: sysfs's backing file, stat'ed where a
 * hang is left behind), not by their paths, so a hard link, a bind mount,
 * a second loop device over the same file or a device node outside /dev
 * is no way around it; a backing file that does not answer is compared
 * by path, and said so. Then the contents,
 * read: blank only when
 * the first and last 16 MiB and 64 evenly spaced 64 KiB samples all hold
 * one byte value, 0x00 or 0xFF, the same everywhere, and no signature is
 * found; kiln-data only when every unit read is that byte or a valid kiln
 * unit of this very disk at its own offset; anything else is has-data,
 * with the byte offset of what was found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/json.h"
#include "discover/safety.h"
#include "base/sysfs.h"
#include "base/unit.h"

const char *safety_class_name(int class)
{
	switch (class) {
	case SAFETY_IN_USE: return "in-use";
	case SAFETY_HAS_DATA: return "has-data";
	case SAFETY_KILN_DATA: return "kiln-data";
	case SAFETY_BLANK: return "blank";
	}
	return "unknown";
}

void safety_json(struct json *j, const struct safety *s)
{
	json_str(j, "class", safety_class_name(s->class));
	json_str(j, "class_reasons", s->why);
}

__attribute__((format(printf, 2, 3)))
static void why(struct safety *s, const char *fmt, ...)
{
	size_t used = strlen(s->why);
	va_list ap;

	if (used && used < sizeof(s->why) - 2) {
		memcpy(s->why + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->why + used, sizeof(s->why) - used, fmt, ap);
	va_end(ap);
}

/* What the class rests on that is not a reason for it (said, not kept). */
__attribute__((format(printf, 2, 3)))
static void note(struct safety *s, const char *fmt, ...)
{
	size_t used = strlen(s->notes);
	va_list ap;

	if (used && used < sizeof(s->notes) - 2) {
		memcpy(s->notes + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->notes + used, sizeof(s->notes) - used, fmt, ap);
	va_end(ap);
}

static void busy(struct safety *s)
{
	s->class = SAFETY_IN_USE;
}

/*
 * The device a mountinfo line names as its source ("... - btrfs
 * /dev/loop5 rw"), when it is a node under /dev; 0 otherwise. Only /dev is
 * looked at: a source elsewhere could be on a filesystem that hangs.
 */
static dev_t mount_source(const char *line)
{
	const char *sep = strstr(line, " - ");
	char type[64], source[512];
	struct stat st;

	if (!sep || sscanf(sep + 3, "%63s %511s", type, source) != 2 ||
	    strncmp(source, "/dev/", 5) || stat(source, &st) ||
	    !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* Mounted, held, swap or protected: the disk or any of its partitions. */
static void held(const struct safety_env *o, const char *name,
		 const struct sysfs_family *f, struct safety *s)
{
	const struct sysfs_family fam = *f;
	char path[PATH_MAX], line[1024], sub[PATH_MAX * 2], **names;
	FILE *f_;
	int i, k, n;

	for (i = 0; i < o->nprotect; i++)
		for (k = 0; k < fam.n; k++)
			if (o->protect[i] == fam.dev[k]) {
				why(s, "%s is the boot or results medium "
				    "(--protect)", fam.name[k]);
				busy(s);
			}
	for (k = 0; k < fam.n; k++) {
		snprintf(sub, sizeof(sub), "%s/block/%s%s%s/holders",
			 o->sysroot, name, k ? "/" : "", k ? fam.name[k] : "");
		names = dir_list(sub, &n);
		for (i = 0; i < n; i++) {
			why(s, "%s is held by %s", fam.name[k], names[i]);
			busy(s);
		}
		sysfs_list_free(names, n);
	}

	/* mountinfo: "id parent major:minor root mountpoint ..." */
	snprintf(path, sizeof(path), "%s/self/mountinfo", o->procroot);
	f_ = fopen(path, "re");
	if (f_) {
		while (fgets(line, sizeof(line), f_)) {
			unsigned maj, min;
			char point[512];

			dev_t source;

			if (sscanf(line, "%*u %*u %u:%u %*s %511s", &maj, &min,
				   point) != 3)
				continue;
			/* btrfs says a number of its own: its source counts. */
			source = mount_source(line);
			for (k = 0; k < fam.n; k++)
				if (makedev(maj, min) == fam.dev[k] ||
				    source == fam.dev[k]) {
					why(s, "%s is mounted at %s",
					    fam.name[k], point);
					busy(s);
				}
		}
		fclose(f_);
	}
	/* Every device of a mounted btrfs, the ones its mount does not name. */
	snprintf(path, sizeof(path), "%s/fs/btrfs", o->sysroot);
	names = dir_list(path, &n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < fam.n; k++) {
			snprintf(sub, sizeof(sub), "%s/%s/devices/%s", path,
				 names[i], fam.name[k]);
			if (access(sub, F_OK) == 0 &&
			    !strstr(s->why, "mounted")) {
				why(s, "%s is a device of a mounted btrfs (%s)",
				    fam.name[k], names[i]);
				busy(s);
			}
		}
	}
	sysfs_list_free(names, n);
	snprintf(path, sizeof(path), "%s/swaps", o->procroot);
	f_ = fopen(path, "re");
	if (f_) {
		while (fgets(line, sizeof(line), f_)) {
			char dev_path[512], *base;

			if (sscanf(line, "%511s", dev_path) != 1 ||
			    strncmp(dev_path, "/dev/", 5))
				continue;
			base = strrchr(dev_path, '/') + 1;
			for (k = 0; k < fam.n; k++)
				if (!strcmp(base, fam.name[k])) {
					why(s, "%s is used as swap",
					    fam.name[k]);
					busy(s);
				}
		}
		fclose(f_);
	}
}


/* The device nodes of a disk and its partitions, as /proc shows opens. */
static int names_device(const struct sysfs_family *fam, const char *link)
{
	int k;

	if (strncmp(link, "/dev/", 5))
		return -1;
	for (k = 0; k < fam->n; k++)
		if (!strcmp(link + 5, fam->name[k]))
			return k;
	return -1;
}

/*
 * What a loop device is over. Never asked of the loop device itself: its
 * LOOP_GET_STATUS stats the backing file, and a file on a dead NFS server
 * or a stopped FUSE daemon would hang every disk's classing. sysfs gives
 * the backing file's path; its device and inode (for hard links and bind
 * mounts) come from a stat bounded by SAFETY_ASK_MS, left behind when it
 * does not answer.
 */
struct loop_back {
	int ok;			/* dev and ino, or rdev, known */
	int silent;		/* its backing file gave no answer */
	dev_t dev;		/* the filesystem of its file */
	ino_t ino;
	dev_t rdev;		/* the device, when it is over one; else 0 */
	char path[PATH_MAX];	/* sysfs's backing_file; "" when none */
};

/*
 * A stat answers in microseconds; this is for a loaded machine, and short
 * beside the shortest deadline: a target's own classing runs under it.
 */
#define SAFETY_ASK_MS 500

/*
 * b[i] for each of the n block devices named that is a loop device with a
 * backing file. Devices and inodes only on the real /sys: a fixture's loop
 * devices are not this machine's. A node under /dev is stat'ed as it is
 * (devtmpfs does not hang); every other path in a child, all at once.
 */
static void loop_backs(const struct safety_env *o, char **names, int n,
		       struct loop_back *b)
{
	const char **paths = calloc((size_t)n + 1, sizeof(*paths));
	struct stat *st = calloc((size_t)n + 1, sizeof(*st));
	int *err = calloc((size_t)n + 1, sizeof(*err));
	int *at = calloc((size_t)n + 1, sizeof(*at));
	int i, k = 0, real = !strcmp(o->sysroot, "/sys");

	for (i = 0; i < n; i++) {
		char dir[PATH_MAX];
		struct stat dev;

		memset(&b[i], 0, sizeof(b[i]));
		if (strncmp(names[i], "loop", 4))
			continue;
		snprintf(dir, sizeof(dir), "%s/block/%s/loop", o->sysroot,
			 names[i]);
		if (sysfs_attr(dir, "backing_file", b[i].path,
			       sizeof(b[i].path)) <= 0) {
			b[i].path[0] = 0;
			continue;
		}
		if (!real)
			continue;
		if (!strncmp(b[i].path, "/dev/", 5)) {
			if (stat(b[i].path, &dev) == 0 &&
			    S_ISBLK(dev.st_mode)) {
				b[i].ok = 1;
				b[i].rdev = dev.st_rdev;
			}
			continue;
		}
		if (paths && st && err && at) {
			paths[k] = b[i].path;
			at[k++] = i;
		}
	}
	if (k && deadline_stats(paths, k, st, err,
				SAFETY_ASK_MS * 1000000ull) == 0) {
		for (i = 0; i < k; i++) {
			struct loop_back *l = &b[at[i]];

			if (err[i] == -ETIMEDOUT) {
				l->silent = 1;
			} else if (!err[i] && S_ISBLK(st[i].st_mode)) {
				l->ok = 1;
				l->rdev = st[i].st_rdev;
			} else if (!err[i]) {
				l->ok = 1;
				l->dev = st[i].st_dev;
				l->ino = st[i].st_ino;
			}
		}
	}
	free(paths);
	free(st);
	free(err);
	free(at);
}

static void open_elsewhere(const struct safety_env *o,
			   const struct safety_subject *d,
			   const struct sysfs_family *fam, struct safety *s);

/*
 * Another loop device over the same file as loop device d: one medium, so
 * d is in use when that one is (mounted, held, open).
 */
static void sibling(const struct safety_env *o, const char *me,
		    const char *other, struct safety *s)
{
	struct safety_subject sd = { .name = other, .fd = -1 };
	struct sysfs_family fam;
	struct safety t;
	char dir[PATH_MAX], num[32];
	unsigned maj, min;

	snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, other);
	if (sysfs_attr(dir, "dev", num, sizeof(num)) <= 0 ||
	    sscanf(num, "%u:%u", &maj, &min) != 2)
		return;
	memset(&t, 0, sizeof(t));
	t.class = SAFETY_BLANK;
	sysfs_family(o->sysroot, other, makedev(maj, min), &fam);
	held(o, other, &fam, &t);
	if (t.class != SAFETY_IN_USE)
		open_elsewhere(o, &sd, &fam, &t);
	if (t.class != SAFETY_IN_USE)
		return;
	why(s, "%s is over the same file as %s, which is in use: %s", me,
	    other, t.why);
	busy(s);
}

/*
 * A loop device over this disk (or a partition of it), or over this file:
 * its backing is in use whatever the consent (also loop over loop). Each
 * loop device's backing file is compared by device and inode, and by the
 * path sysfs gives (a fixture has only that); a loop device whose backing
 * file does not answer is compared by path alone, and said so: it is that
 * device that does not answer, not this one.
 */
static void backs_loop(const struct safety_env *o,
		       const struct safety_subject *d,
		       const struct sysfs_family *fam, struct safety *s)
{
	char base[PATH_MAX], **names;
	struct loop_back none, *mine = &none, *all;
	struct stat me;
	int i, n, file = 0;

	/* A file: its own device and inode, through the fd kiln holds. */
	if (!fam && (d->fd >= 0 ? fstat(d->fd, &me) :
		     d->path ? stat(d->path, &me) : -1) == 0)
		file = S_ISREG(me.st_mode);
	memset(&none, 0, sizeof(none));
	snprintf(base, sizeof(base), "%s/block", o->sysroot);
	names = dir_list(base, &n);
	all = calloc((size_t)n + 1, sizeof(*all));
	if (!all) {
		sysfs_list_free(names, n);
		return;
	}
	loop_backs(o, names, n, all);
	for (i = 0; fam && i < n; i++)
		if (!strcmp(names[i], d->name))
			mine = &all[i];
	for (i = 0; i < n; i++) {
		const struct loop_back *b = &all[i];
		int k, said = 0;

		if (!b->path[0] || (fam && !strcmp(names[i], d->name)))
			continue;
		if (b->silent)
			note(s, "%s does not answer (its backing file %s gave "
			     "no answer in %u ms): compared by its path",
			     names[i], b->path, SAFETY_ASK_MS);
		if ((d->path && !strcmp(b->path, d->path)) ||
		    (file && b->ok && !b->rdev && b->dev == me.st_dev &&
		     b->ino == me.st_ino)) {
			why(s, "it backs loop device %s", names[i]);
			busy(s);
			continue;
		}
		for (k = 0; fam && k < fam->n; k++) {
			if (b->ok && b->rdev && b->rdev == fam->dev[k]) {
				why(s, "%s backs loop device %s",
				    fam->name[k], names[i]);
				busy(s);
				said = 1;
			}
		}
		if (said || !fam || !mine->path[0])
			continue;
		/*
		 * Over one device (by number), or one file (device, inode);
		 * by path when either does not answer.
		 */
		if ((mine->ok && b->ok &&
		     (mine->rdev ? b->rdev == mine->rdev :
		      !b->rdev && b->dev == mine->dev &&
		      b->ino == mine->ino)) ||
		    ((mine->silent || b->silent) &&
		     !strcmp(mine->path, b->path)))
			sibling(o, d->name, names[i], s);
	}
	free(all);
	sysfs_list_free(names, n);
}

#define MAX_OPENERS 8

struct opener {
	int pid;
	char comm[32];
	char what[64];		/* which of the family, or the file */
};

/* This mount namespace's mounts: each mount's id and its device. */
struct mounts {
	int n;
	struct mount_dev {
		int id;
		dev_t dev;
	} *m;
};

static void mounts_read(const struct safety_env *o, struct mounts *ms)
{
	char path[PATH_MAX], line[1024];
	struct mount_dev *grown;
	unsigned maj, min;
	FILE *f;
	int id;

	memset(ms, 0, sizeof(*ms));
	snprintf(path, sizeof(path), "%s/self/mountinfo", o->procroot);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %*u %u:%u", &id, &maj, &min) != 3)
			continue;
		grown = realloc(ms->m, (size_t)(ms->n + 1) * sizeof(*grown));
		if (!grown)
			break;
		ms->m = grown;
		ms->m[ms->n].id = id;
		ms->m[ms->n++].dev = makedev(maj, min);
	}
	fclose(f);
}

/*
 * Whether fd of a process is the file me, by the device and inode its
 * fdinfo gives (read, never stat'ed: no filesystem is asked).
 */
static int same_file(const char *fdinfo, const struct mounts *ms,
		     const struct stat *me)
{
	char text[512], *p;
	unsigned long long ino;
	int k, mnt;

	if (sysfs_read(fdinfo, text, sizeof(text)) <= 0)
		return 0;
	p = strstr(text, "mnt_id:");
	if (!p || sscanf(p, "mnt_id: %d", &mnt) != 1)
		return 0;
	p = strstr(text, "\nino:");
	if (!p || sscanf(p, "\nino: %llu", &ino) != 1 ||
	    ino != (unsigned long long)me->st_ino)
		return 0;
	for (k = 0; k < ms->n; k++)
		if (ms->m[k].id == mnt)
			return ms->m[k].dev == me->st_dev;
	return 0;
}

/* Processes (not this one) with the disk, a partition or the file open. */
static int openers(const struct safety_env *o, const struct safety_subject *d,
		   const struct sysfs_family *fam, struct opener *out)
{
	char fds[PATH_MAX], link[PATH_MAX], path[PATH_MAX + 300];
	DIR *proc, *fd;
	struct dirent *p, *e;
	struct mounts ms = { 0 };
	struct stat me;
	int n = 0, file = 0;

	/* A file: also by its device and inode (a hard link, a bind mount). */
	if (!fam && d->fd >= 0 && fstat(d->fd, &me) == 0 &&
	    S_ISREG(me.st_mode)) {
		file = 1;
		mounts_read(o, &ms);
	}
	proc = opendir(o->procroot);
	if (!proc) {
		free(ms.m);
		return 0;
	}
	while ((p = readdir(proc)) && n < MAX_OPENERS) {
		int pid = atoi(p->d_name), k = -1;

		/* kiln itself, or its child opening another target */
		if (pid <= 0 || deadline_ours(pid))
			continue;
		snprintf(fds, sizeof(fds), "%s/%d/fd", o->procroot, pid);
		fd = opendir(fds);
		if (!fd)
			continue;
		while ((e = readdir(fd)) && k < 0) {
			ssize_t len;

			snprintf(path, sizeof(path), "%s/%s", fds, e->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = 0;
			if (fam) {
				k = names_device(fam, link);
			} else if (d->path && !strcmp(link, d->path)) {
				k = 0;
			} else if (file && link[0] == '/') {
				snprintf(path, sizeof(path), "%s/%d/fdinfo/%s",
					 o->procroot, pid, e->d_name);
				k = same_file(path, &ms, &me) ? 0 : -1;
			}
		}
		closedir(fd);
		if (k < 0)
			continue;
		out[n].pid = pid;
		snprintf(path, sizeof(path), "%s/%d", o->procroot, pid);
		if (sysfs_attr(path, "comm", out[n].comm,
			       sizeof(out[n].comm)) <= 0)
			snprintf(out[n].comm, sizeof(out[n].comm), "?");
		snprintf(out[n].what, sizeof(out[n].what), "%s",
			 fam ? fam->name[k] : "it");
		n++;
	}
	closedir(proc);
	free(ms.m);
	return n;
}

/*
 * Open in another process, another kiln included: still open on a second
 * look a second later, so udev's short opens do not count.
 */
static void open_elsewhere(const struct safety_env *o,
			   const struct safety_subject *d,
			   const struct sysfs_family *fam, struct safety *s)
{
	struct opener first[MAX_OPENERS], again[MAX_OPENERS];
	struct timespec second = { 1, 0 };
	int n, m, i, k;

	n = openers(o, d, fam, first);
	if (!n)
		return;
	nanosleep(&second, NULL);
	m = openers(o, d, fam, again);
	for (i = 0; i < n; i++)
		for (k = 0; k < m; k++)
			if (first[i].pid == again[k].pid) {
				why(s, "%s is open in %s (pid %d)",
				    first[i].what, first[i].comm, first[i].pid);
				busy(s);
				break;
			}
}

/* /proc/swaps writes a blank or a backslash in a path as \040, \134. */
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

/*
 * A swap file: the kernel holds it, no process does, so only /proc/swaps
 * says so; found by the file's device and inode, whatever path led here.
 */
static void swap_file(const struct safety_env *o,
		      const struct safety_subject *d, struct safety *s)
{
	char path[PATH_MAX], line[PATH_MAX + 128], *tab;
	struct stat me, st;
	FILE *f;

	if (d->fd < 0 || fstat(d->fd, &me) || !S_ISREG(me.st_mode))
		return;
	snprintf(path, sizeof(path), "%s/swaps", o->procroot);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* "Filename Type Size Used Priority"; a path has no blank. */
		tab = line + strcspn(line, " \t\n");
		*tab = 0;
		unescape(line);
		if (line[0] == '/' && stat(line, &st) == 0 &&
		    S_ISREG(st.st_mode) && st.st_dev == me.st_dev &&
		    st.st_ino == me.st_ino) {
			why(s, "it is used as swap (%s)", line);
			busy(s);
		}
	}
	fclose(f);
}

static void append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

void safety_in_use(const struct safety_env *env,
		   const struct safety_subject *d, struct safety *s)
{
	struct sysfs_family fam, *f = NULL;
	int i;

	memset(s, 0, sizeof(*s));
	s->class = SAFETY_BLANK;
	s->blank_byte = -1;
	if (d->name && *d->name) {
		sysfs_family(env->sysroot, d->name, d->rdev, &fam);
		f = &fam;
		held(env, d->name, f, s);
		for (i = 1; i < fam.n; i++)
			append(s->partitions, sizeof(s->partitions),
			       fam.name[i]);
	} else {
		swap_file(env, d, s);
	}
	backs_loop(env, d, f, s);
	open_elsewhere(env, d, f, s);
}

/* What reading found, as it went. */
struct contents {
	/* the blank byte so far; -1: none yet */
	int byte;
	uint64_t foreign;		/* the first byte that is neither; ~0 */
	uint64_t other_kiln;		/* another disk's kiln unit at; ~0 */
	uint64_t units;			/* this disk's units */
	uint64_t ident;
};

#define NOWHERE UINT64_MAX

static int all_one(const unsigned char *p, size_t len, int byte)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

/* Looks at whole units read from byte off (a multiple of 4 KiB). */
static void look(struct contents *c, const unsigned char *buf, size_t len,
		 uint64_t off)
{
	size_t i;

	for (i = 0; i + UNIT_SIZE <= len; i += UNIT_SIZE) {
		const unsigned char *u = buf + i;
		struct unit_header h;

		if ((u[0] == 0x00 || u[0] == 0xff) &&
		    (c->byte < 0 || u[0] == c->byte) &&
		    all_one(u, UNIT_SIZE, u[0])) {
			c->byte = u[0];
			continue;
		}
		if (unit_parse(u, &h)) {
			if (h.key.ident == c->ident &&
			    h.key.offset == off + i) {
				c->units++;
				continue;
			}
			if (c->other_kiln == NOWHERE)
				c->other_kiln = off + i;
			continue;
		}
		if (c->foreign == NOWHERE) {
			/* The first unit read: its first byte may be blank. */
			int b = c->byte >= 0 ? c->byte :
				u[0] == 0x00 || u[0] == 0xff ? u[0] : -1;
			size_t k = 0;

			/* Name the first byte that is not the blank byte. */
			while (k < UNIT_SIZE && b >= 0 && u[k] == b)
				k++;
			c->foreign = off + i + (k < UNIT_SIZE ? k : 0);
		}
	}
}

/*
 * A magic inside a valid kiln unit of this disk at its own offset is
 * kiln's payload (its CRC proves nothing overwrote it), not a filesystem:
 * such hits among s->hits[from..] within [base, base + len) go.
 */
static void forget_kiln_hits(struct signature_scan *sig, int from,
			     const unsigned char *buf, size_t len,
			     uint64_t base, uint64_t ident)
{
	int i, k;

	for (i = k = from; i < sig->n; i++) {
		uint64_t at = sig->hits[i].offset & ~(uint64_t)(UNIT_SIZE - 1);
		struct unit_header h;

		if (at >= base && at + UNIT_SIZE <= base + len &&
		    unit_parse(buf + (at - base), &h) && h.key.ident == ident &&
		    h.key.offset == at)
			continue;
		sig->hits[k++] = sig->hits[i];
	}
	sig->n = k;
}

/* Reads [off, off + len) in pieces, looking at each: 0 or -errno (*at). */
static int read_span(int fd, unsigned char *buf, size_t piece, uint64_t off,
		     uint64_t len, uint64_t size, struct contents *c,
		     struct signature_scan *sig, uint64_t *at)
{
	while (len) {
		size_t want = len < piece ? (size_t)len : piece;
		size_t aligned = (want + 4095) & ~(size_t)4095;
		ssize_t n = pread(fd, buf, aligned, (off_t)off);
		size_t have = off + want > size ? (size_t)(size - off) : want;

		if (n < 0 || (size_t)n < have) {
			*at = off + (n > 0 ? (uint64_t)n : 0);
			return n < 0 ? -errno : -EIO;
		}
		/* A size not a multiple of 4 KiB: pad the last piece. */
		if (have % UNIT_SIZE)
			memset(buf + have, c->byte >= 0 ? c->byte : 0,
			       UNIT_SIZE - have % UNIT_SIZE);
		look(c, buf, (have + UNIT_SIZE - 1) & ~(size_t)(UNIT_SIZE - 1),
		     off);
		if (sig && off < SAFETY_ENDS) {
			int from = sig->n;

			signature_scan_offsets(buf, have, off, sig);
			forget_kiln_hits(sig, from, buf, have, off, c->ident);
		}
		off += want;
		len -= want;
	}
	return 0;
}

/*
 * Reads what DESIGN.md reads to prove a disk blank: 0, or -errno with the
 * byte it failed at. head and tail get the first and last MiB for the
 * signatures.
 */
static int read_contents(const struct safety_subject *d, struct contents *c,
			 struct signature_scan *sig, uint64_t *at)
{
	const size_t piece = 1u << 20;
	uint64_t size = d->size, tail_off, step;
	unsigned char *buf = NULL, *head = NULL, *tail = NULL;
	size_t hlen, tlen;
	int ret, i;

	if (posix_memalign((void **)&buf, 4096, piece) ||
	    posix_memalign((void **)&head, 4096, 2 * piece) ||
	    posix_memalign((void **)&tail, 4096, piece + 8192)) {
		ret = -ENOMEM;
		goto out;
	}
	/* The signatures at the places the formats define (VMFS: 1 MiB in). */
	hlen = size < 2 * piece ? (size_t)size : 2 * piece;
	tail_off = size > piece ? (size - piece) & ~4095ull : 0;
	tlen = (size_t)(size - tail_off);
	ret = read_span(d->fd, head, 2 * piece, 0, hlen, size, c, NULL, at);
	if (!ret)
		ret = read_span(d->fd, tail, piece + 8192, tail_off, tlen, size,
				c, NULL, at);
	if (ret)
		goto out;
	signature_scan_buf(head, hlen, tail, tlen, size, sig);
	forget_kiln_hits(sig, 0, head, hlen, 0, c->ident);
	forget_kiln_hits(sig, 0, tail, tlen, tail_off, c->ident);
	/* The first and last 16 MiB, then the samples between. */
	ret = read_span(d->fd, buf, piece, 0,
			size < SAFETY_ENDS ? size : SAFETY_ENDS, size, c, sig,
			at);
	if (!ret && size > SAFETY_ENDS) {
		uint64_t from = size > 2 * SAFETY_ENDS ?
				(size - SAFETY_ENDS) & ~4095ull : SAFETY_ENDS;

		ret = read_span(d->fd, buf, piece, from, size - from, size, c,
				NULL, at);
	}
	step = size > SAFETY_SAMPLE ? (size - SAFETY_SAMPLE) /
				      (SAFETY_SAMPLES - 1) : 0;
	for (i = 0; !ret && step && i < SAFETY_SAMPLES; i++) {
		uint64_t off = ((uint64_t)i * step) & ~4095ull;

		ret = read_span(d->fd, buf, piece, off, SAFETY_SAMPLE, size, c,
				NULL, at);
	}
out:
	free(buf);
	free(head);
	free(tail);
	return ret;
}

void safety_classify(const struct safety_env *env,
		     const struct safety_subject *d, struct safety *s)
{
	struct contents c = { -1, NOWHERE, NOWHERE, 0, d->ident };
	char text[sizeof(s->why)];
	uint64_t at = 0;
	int ret = -ENODEV, in_use;

	safety_in_use(env, d, s);
	in_use = s->class == SAFETY_IN_USE;
	if (d->fd >= 0 && d->size) {
		ret = read_contents(d, &c, &s->sig, &at);
		s->scanned = ret == 0;
	}
	s->kiln_units = c.units;
	if (in_use) {
		if (s->sig.n)
			why(s, "it holds %s", signature_describe(&s->sig, text,
								 sizeof(text)));
		return;
	}
	s->class = SAFETY_HAS_DATA;
	if (d->fd >= 0 && !d->size) {
		why(s, "empty (0 bytes)");
		s->class = SAFETY_BLANK;
		return;
	}
	if (ret == -ENODEV) {
		why(s, "not read, so not proven blank");
		return;
	}
	if (ret) {
		why(s, "it could not be read at byte %llu (%s), so it is not "
		    "proven blank", (unsigned long long)at, strerror(-ret));
		return;
	}
	if (s->sig.n)
		why(s, "it holds %s", signature_describe(&s->sig, text,
							 sizeof(text)));
	if (s->partitions[0])
		why(s, "the kernel sees partitions %s", s->partitions);
	if (c.other_kiln != NOWHERE)
		why(s, "kiln units of another disk at byte %llu",
		    (unsigned long long)c.other_kiln);
	if (c.foreign != NOWHERE && !s->sig.n)
		why(s, "unknown data at byte %llu",
		    (unsigned long long)c.foreign);
	if (s->why[0])
		return;
	s->blank_byte = c.byte;
	if (c.units) {
		s->class = SAFETY_KILN_DATA;
		why(s, "kiln units of this disk (%llu seen)%s",
		    (unsigned long long)c.units, c.byte >= 0 ?
		    ", the rest blank" : "");
		return;
	}
	s->class = SAFETY_BLANK;
	why(s, "proven by reading: the first and last 16 MiB and %d samples "
	    "of 64 KiB all hold 0x%02x", SAFETY_SAMPLES, c.byte);
}
