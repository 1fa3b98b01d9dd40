/* SPDX-License-Identifier: MIT */
/*
 * Description: where a run folder may be (folder_overlaps(), see
 * folder.h): never inside a target's path nor holding a target, by real
 * path (symbolic links, . and .. resolved as far as the path exists) and
 * by device and inode (a bind mount of the folder), and never on a
 * filesystem of a target disk (sysfs: the disk, a partition of it, or a
 * dm or md device built on one) nor in a target file through a loop
 * device.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "results/folder.h"

/*
 * path made absolute with its symbolic links resolved as far as it
 * exists; the rest, which does not exist yet, as written with . and ..
 * taken out. *st is the stat of the deepest part that exists. 1 when the
 * whole path exists, 0 when only a part does, or -errno.
 */
static int real_path(const char *path, char *out, size_t len, struct stat *st)
{
	char abs[PATH_MAX], head[PATH_MAX], got[PATH_MAX];
	const char *rest;
	size_t n;
	int cut = 0;

	if (path[0] == '/') {
		if (snprintf(abs, sizeof(abs), "%s", path) >= (int)sizeof(abs))
			return -ENAMETOOLONG;
	} else {
		if (!getcwd(head, sizeof(head)))
			return -errno;
		if (snprintf(abs, sizeof(abs), "%s/%s", head, path) >=
		    (int)sizeof(abs))
			return -ENAMETOOLONG;
	}
	memcpy(head, abs, sizeof(head));
	while (!realpath(head, got)) {
		char *slash = strrchr(head, '/');

		if (errno != ENOENT && errno != ENOTDIR)
			return -errno;
		cut = 1;
		if (!slash || slash == head) {
			snprintf(got, sizeof(got), "/");
			head[0] = 0;
			break;
		}
		*slash = 0;
	}
	if (stat(got, st) < 0)
		return -errno;
	rest = abs + strlen(head);
	n = strlen(got);
	while (*rest) {
		size_t c;

		rest += strspn(rest, "/");
		c = strcspn(rest, "/");
		if (!c)
			break;
		if (c == 2 && !strncmp(rest, "..", 2)) {
			while (n > 1 && got[n - 1] != '/')
				n--;
			n = n > 1 ? n - 1 : 1;
		} else if (c != 1 || rest[0] != '.') {
			if (n + c + 2 > sizeof(got))
				return -ENAMETOOLONG;
			if (got[n - 1] != '/')
				got[n++] = '/';
			memcpy(got + n, rest, c);
			n += c;
		}
		got[n] = 0;
		rest += c;
	}
	got[n] = 0;
	if (snprintf(out, len, "%s", got) >= (int)len)
		return -ENAMETOOLONG;
	return !cut;
}

/* Whether path is dir or lies under it, both real. */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1)
		return 1;	/* "/" */
	return !strncmp(path, dir, n) && (!path[n] || path[n] == '/');
}

static dev_t dev_of(const char *dir)
{
	char val[32];
	unsigned maj, min;

	if (sysfs_attr(dir, "dev", val, sizeof(val)) <= 0 ||
	    sscanf(val, "%u:%u", &maj, &min) != 2)
		return 0;
	return makedev(maj, min);
}

/*
 * Whether the block device dev lies on the device target: is it, is a
 * partition of it, or is built on one that does (dm, md: its slaves).
 */
static int dev_on(const char *sysroot, dev_t dev, dev_t target, int depth)
{
	char dir[PATH_MAX], sub[PATH_MAX + 16];
	char **names;
	int i, n, on = 0;

	if (dev == target)
		return 1;
	if (depth > 8)
		return 0;
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysroot, major(dev),
		 minor(dev));
	snprintf(sub, sizeof(sub), "%s/..", dir);
	if (sysfs_exists(dir, "partition") && dev_of(sub) == target)
		return 1;
	snprintf(sub, sizeof(sub), "%s/slaves", dir);
	names = dir_list(sub, &n);
	for (i = 0; i < n && !on; i++) {
		char slave[PATH_MAX * 2];
		dev_t s;

		snprintf(slave, sizeof(slave), "%s/%s", sub, names[i]);
		s = dev_of(slave);
		on = s && dev_on(sysroot, s, target, depth + 1);
	}
	dir_list_free(names, n);
	return on;
}

int folder_overlaps(const char *sysroot, const char *dir, const char *target,
		    char *why, size_t len)
{
	char rd[PATH_MAX], rt[PATH_MAX], up[PATH_MAX];
	struct stat sd, st, sa;
	int whole, there;
	char *slash;

	whole = real_path(dir, rd, sizeof(rd), &sd);
	there = real_path(target, rt, sizeof(rt), &st);
	/* A folder is no target: opening it says so. */
	if (whole < 0 || there < 0 || (there && S_ISDIR(st.st_mode)))
		return 0;
	if (under(rt, rd)) {
		snprintf(why, len, "refusing to burn %s: it is inside the run "
			 "folder %s, where the results are written", target,
			 dir);
		return 1;
	}
	if (under(rd, rt)) {
		snprintf(why, len, "refusing the run folder %s: it is under "
			 "the target %s", dir, target);
		return 1;
	}
	/* The folder seen through another path: a bind mount of it. */
	snprintf(up, sizeof(up), "%s", rt);
	while (whole == 1 && up[0]) {
		if (stat(up, &sa) == 0 && sa.st_dev == sd.st_dev &&
		    sa.st_ino == sd.st_ino) {
			snprintf(why, len, "refusing to burn %s: it is inside "
				 "the run folder %s (the same folder by another "
				 "path), where the results are written", target,
				 dir);
			return 1;
		}
		slash = strrchr(up, '/');
		if (!slash || slash == up)
			break;
		*slash = 0;
	}
	/* A device node is only stat'ed: that never asks the device. */
	if (stat(target, &st) == 0 && S_ISBLK(st.st_mode) &&
	    dev_on(sysroot, sd.st_dev, st.st_rdev, 0)) {
		snprintf(why, len, "refusing the run folder %s: it is on a "
			 "filesystem of the target %s, which the burn would "
			 "overwrite", dir, target);
		return 1;
	}
	/* A filesystem in the target file, through a loop device. */
	snprintf(up, sizeof(up), "%s/dev/block/%u:%u/loop", sysroot,
		 major(sd.st_dev), minor(sd.st_dev));
	if (there && S_ISREG(st.st_mode) &&
	    sysfs_attr(up, "backing_file", rd, sizeof(rd)) > 0 &&
	    !strcmp(rd, rt)) {
		snprintf(why, len, "refusing the run folder %s: it is on a "
			 "filesystem in the target %s (through a loop "
			 "device), which the burn would overwrite", dir,
			 target);
		return 1;
	}
	return 0;
}
