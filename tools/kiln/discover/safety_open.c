/* SPDX-License-Identifier: MIT */
/*
 * Description: whether a disk or file is open in another process (see
 * safety_private.h): every open file of every process (kiln and its
 * children left out) compared with the media that hold the subject's
 * bytes, a block device by its number and a file by its device and
 * inode, whatever node or link it was opened by, in any mount namespace;
 * still open a second later, so udev's short opens do not count. No
 * filesystem is waited for: fdinfo says a file's inode and mount, and a
 * statx that may not sync says a node's device number.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/sysfs.h"
#include "discover/safety.h"
#include "discover/safety_private.h"

#define MAX_OPENERS 8

struct opener {
	int pid;
	int medium;		/* which of the media */
	char comm[32];
};

/* A mount: its id, its filesystem's device and type. */
struct mount_dev {
	int id;
	dev_t dev;
	char type[32];
};

/* The mounts of one mount namespace, by its /proc/PID/ns/mnt link. */
struct mounts {
	char ns[64];
	int n;
	struct mount_dev *m;
};

static void mounts_read(const char *path, struct mounts *ms)
{
	char line[4096];
	struct mount_dev *grown;
	unsigned maj, min;
	FILE *f;
	int id;

	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");
		char type[32] = "";

		if (sscanf(line, "%d %*u %u:%u", &id, &maj, &min) != 3)
			continue;
		if (sep)
			sscanf(sep + 3, "%31s", type);
		grown = realloc(ms->m, (size_t)(ms->n + 1) * sizeof(*grown));
		if (!grown)
			break;
		ms->m = grown;
		ms->m[ms->n].id = id;
		ms->m[ms->n].dev = makedev(maj, min);
		snprintf(ms->m[ms->n++].type, sizeof(grown->type), "%s", type);
	}
	fclose(f);
}

/* Each mount namespace met so far; the first is kiln's own. */
struct namespaces {
	int n;
	struct mounts *ns;
};

/*
 * The mount with id mnt as process pid sees it: in kiln's own namespace,
 * else in pid's (a container's), read once for each namespace.
 */
static const struct mount_dev *mount_of(const struct safety_env *o,
					struct namespaces *all, int pid,
					int mnt)
{
	char path[PATH_MAX], ns[64] = "";
	struct mounts *grown;
	ssize_t len;
	int i, k;

	if (!all->n) {
		grown = calloc(1, sizeof(*grown));
		if (!grown)
			return NULL;
		all->ns = grown;
		all->n = 1;
		snprintf(path, sizeof(path), "%s/self/mountinfo", o->procroot);
		mounts_read(path, &all->ns[0]);
	}
	for (k = 0; k < all->ns[0].n; k++)
		if (all->ns[0].m[k].id == mnt)
			return &all->ns[0].m[k];
	snprintf(path, sizeof(path), "%s/%d/ns/mnt", o->procroot, pid);
	len = readlink(path, ns, sizeof(ns) - 1);
	if (len <= 0)
		return NULL;
	ns[len] = 0;
	for (i = 1; i < all->n && strcmp(all->ns[i].ns, ns); i++)
		;
	if (i == all->n) {
		grown = realloc(all->ns, (size_t)(all->n + 1) * sizeof(*grown));
		if (!grown)
			return NULL;
		all->ns = grown;
		memset(&all->ns[i], 0, sizeof(*grown));
		snprintf(all->ns[i].ns, sizeof(all->ns[i].ns), "%s", ns);
		all->n++;
		snprintf(path, sizeof(path), "%s/%d/mountinfo", o->procroot,
			 pid);
		mounts_read(path, &all->ns[i]);
	}
	for (k = 0; k < all->ns[i].n; k++)
		if (all->ns[i].m[k].id == mnt)
			return &all->ns[i].m[k];
	return NULL;
}

static void namespaces_free(struct namespaces *all)
{
	int i;

	for (i = 0; i < all->n; i++)
		free(all->ns[i].m);
	free(all->ns);
}

/* struct statx as the kernel lays it out (musl has no statx()). */
struct kstatx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct {
		int64_t sec;
		uint32_t nsec;
		int32_t reserved;
	} atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t spare[14];
};

#define KSTATX_TYPE 0x1u
#define KSTATX_INO 0x100u
#ifndef AT_STATX_DONT_SYNC
#define AT_STATX_DONT_SYNC 0x4000
#endif

/*
 * What an open file is, through its /proc link: the link is the file
 * itself, no path is looked up, and AT_STATX_DONT_SYNC answers from what
 * the kernel holds (FUSE, NFS, CIFS and Ceph send nothing then). But a
 * link's last step revalidates the file on the filesystems that have a
 * d_weak_revalidate (NFS, 9p), which asks their server: those are never
 * asked, and their files are known by fdinfo alone.
 */
static int fd_statx(const char *link, const struct mount_dev *mnt,
		    struct kstatx *x)
{
	if (mnt && (!strncmp(mnt->type, "nfs", 3) ||
		    !strcmp(mnt->type, "9p")))
		return -1;
	return (int)syscall(SYS_statx, AT_FDCWD, link, AT_STATX_DONT_SYNC,
			    KSTATX_TYPE | KSTATX_INO, x);
}

/*
 * Which medium fd of process pid is, or -1. fdinfo gives its inode and
 * its mount, whose device is that of the filesystem (read, never asked);
 * statx gives a node's device number and a file's st_dev (a btrfs
 * subvolume has a device of its own).
 */
static int which(const struct safety_env *o, struct namespaces *all, int pid,
		 const char *fd, const struct safety_medium *m, int n)
{
	char path[PATH_MAX], text[512], *p;
	const struct mount_dev *mnt = NULL;
	unsigned long long ino = 0;
	struct kstatx x;
	int k, id, have = 0;

	snprintf(path, sizeof(path), "%s/%d/fdinfo/%s", o->procroot, pid, fd);
	if (sysfs_read(path, text, sizeof(text)) > 0 &&
	    (p = strstr(text, "mnt_id:")) && sscanf(p, "mnt_id: %d", &id) == 1 &&
	    (p = strstr(text, "\nino:")) && sscanf(p, "\nino: %llu", &ino) == 1) {
		mnt = mount_of(o, all, pid, id);
		have = mnt != NULL;
	}
	for (k = 0; have && k < n; k++)
		if (m[k].file && m[k].dev == mnt->dev && m[k].ino == ino)
			return k;
	snprintf(path, sizeof(path), "%s/%d/fd/%s", o->procroot, pid, fd);
	memset(&x, 0, sizeof(x));
	if (fd_statx(path, mnt, &x) || !(x.mask & KSTATX_TYPE))
		return -1;
	for (k = 0; k < n; k++) {
		if (S_ISBLK(x.mode) && !m[k].file &&
		    m[k].dev == makedev(x.rdev_major, x.rdev_minor))
			return k;
		if (S_ISREG(x.mode) && m[k].file && (x.mask & KSTATX_INO) &&
		    m[k].dev == makedev(x.dev_major, x.dev_minor) &&
		    m[k].ino == x.ino)
			return k;
	}
	return -1;
}

/* Processes (not this one) with one of the media open: how many. */
static int openers(const struct safety_env *o, const struct safety_medium *m,
		   int n, struct opener *out)
{
	char fds[PATH_MAX], link[PATH_MAX], path[PATH_MAX + 300];
	struct namespaces all = { 0 };
	DIR *proc, *fd;
	struct dirent *p, *e;
	int found = 0;

	proc = opendir(o->procroot);
	if (!proc)
		return 0;
	while ((p = readdir(proc)) && found < MAX_OPENERS) {
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

			if (e->d_name[0] == '.')
				continue;
			/* Pipes, sockets and anon inodes hold no bytes. */
			snprintf(path, sizeof(path), "%s/%s", fds, e->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0 || link[0] != '/')
				continue;
			k = which(o, &all, pid, e->d_name, m, n);
		}
		closedir(fd);
		if (k < 0)
			continue;
		out[found].pid = pid;
		out[found].medium = k;
		snprintf(path, sizeof(path), "%s/%d", o->procroot, pid);
		if (sysfs_attr(path, "comm", out[found].comm,
			       sizeof(out[found].comm)) <= 0)
			snprintf(out[found].comm, sizeof(out[found].comm),
				 "?");
		found++;
	}
	closedir(proc);
	namespaces_free(&all);
	return found;
}

void safety_open_elsewhere(const struct safety_env *o,
			   const struct safety_medium *m, char **prefix, int n,
			   struct safety *s)
{
	struct opener first[MAX_OPENERS], again[MAX_OPENERS];
	struct timespec second = { 1, 0 };
	int f, a, i, k;

	if (n <= 0)
		return;
	f = openers(o, m, n, first);
	if (!f)
		return;
	nanosleep(&second, NULL);
	a = openers(o, m, n, again);
	for (i = 0; i < f; i++)
		for (k = 0; k < a; k++)
			if (first[i].pid == again[k].pid) {
				safety_why(s, "%s%s is open in %s (pid %d)",
					   prefix && prefix[first[i].medium] ?
					   prefix[first[i].medium] : "",
					   m[first[i].medium].name,
					   first[i].comm, first[i].pid);
				safety_busy(s);
				break;
			}
}
