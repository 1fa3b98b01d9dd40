/* SPDX-License-Identifier: MIT */
/*
 * Description: whether a disk or file is in use (see safety.h): mounted
 * (btrfs by any of its devices), held by md/dm/bcache, swap (a swap file
 * by its device and inode), protected, or the backing device or file of
 * a loop device (also loop over loop). Loop devices are compared by what
 * they are over (device and inode: sysfs's backing file, stat'ed where a
 * hang is left behind), not by their paths, so a hard link, a bind
 * mount or a second loop device over the same file is no way around it;
 * a backing file that does not answer is compared by path, and said so.
 * Open in another process is safety_open.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/sysfs.h"
#include "discover/safety.h"
#include "discover/safety_private.h"

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
				safety_why(s, "%s is the boot or results "
					   "medium (--protect)", fam.name[k]);
				safety_busy(s);
				s->protected = 1;
			}
	for (k = 0; k < fam.n; k++) {
		snprintf(sub, sizeof(sub), "%s/block/%s%s%s/holders",
			 o->sysroot, name, k ? "/" : "", k ? fam.name[k] : "");
		names = dir_list(sub, &n);
		for (i = 0; i < n; i++) {
			safety_why(s, "%s is held by %s", fam.name[k],
				   names[i]);
			safety_busy(s);
		}
		dir_list_free(names, n);
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
					safety_why(s, "%s is mounted at %s",
						   fam.name[k], point);
					safety_busy(s);
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
				safety_why(s, "%s is a device of a mounted "
					   "btrfs (%s)", fam.name[k],
					   names[i]);
				safety_busy(s);
			}
		}
	}
	dir_list_free(names, n);
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
					safety_why(s, "%s is used as swap",
						   fam.name[k]);
					safety_busy(s);
				}
		}
		fclose(f_);
	}
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
		safety_open_elsewhere(o, &sd, &fam, &t);
	if (t.class != SAFETY_IN_USE)
		return;
	safety_why(s, "%s is over the same file as %s, which is in use: %s", me,
		   other, t.why);
	safety_busy(s);
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
		dir_list_free(names, n);
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
			safety_note(s, "%s does not answer (its backing file "
				    "%s gave no answer in %u ms): compared by "
				    "its path", names[i], b->path,
				    SAFETY_ASK_MS);
		if ((d->path && !strcmp(b->path, d->path)) ||
		    (file && b->ok && !b->rdev && b->dev == me.st_dev &&
		     b->ino == me.st_ino)) {
			safety_why(s, "it backs loop device %s", names[i]);
			safety_busy(s);
			continue;
		}
		for (k = 0; fam && k < fam->n; k++) {
			if (b->ok && b->rdev && b->rdev == fam->dev[k]) {
				safety_why(s, "%s backs loop device %s",
					   fam->name[k], names[i]);
				safety_busy(s);
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
	dir_list_free(names, n);
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
			safety_why(s, "it is used as swap (%s)", line);
			safety_busy(s);
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
	safety_open_elsewhere(env, d, f, s);
}

