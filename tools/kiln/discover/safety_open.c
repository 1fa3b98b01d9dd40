/* SPDX-License-Identifier: MIT */
/*
 * Description: whether a disk or file is open in another process (see
 * safety_private.h): the disk or a partition by its device node, a file
 * by its path or by the device and inode its fdinfo gives (a hard link,
 * a bind mount), never by asking its filesystem; kiln and its children
 * left out; still open a second later, so udev's short opens do not
 * count.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/sysfs.h"
#include "discover/safety.h"
#include "discover/safety_private.h"

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

void safety_open_elsewhere(const struct safety_env *o,
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
				safety_why(s, "%s is open in %s (pid %d)",
					   first[i].what, first[i].comm,
					   first[i].pid);
				safety_busy(s);
				break;
			}
}

