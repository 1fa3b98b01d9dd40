/* SPDX-License-Identifier: MIT */
/*
 * Description: files kiln creates, never through a planted link (see
 * newfile.h). Every results file, checkpoint, fleet page and the
 * files a user names pass through here; make check-layers keeps it in
 * base/, below every folder that writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/newfile.h"

/* A name made anew is tried this often when a rival keeps planting one. */
#define NEWFILE_TRIES 4

int newfile_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int newfile_others(int dfd, const char *dir, char *why, size_t len)
{
	struct stat st;
	const char *who = NULL;

	if (fstat(dfd, &st))
		return 0;
	if (st.st_mode & S_IWOTH)
		who = "anyone";
	else if ((st.st_mode & S_IWGRP) && st.st_gid != 0 &&
		 st.st_gid != getegid())
		who = "its group";
	else if (st.st_uid != 0 && st.st_uid != geteuid())
		who = "its owner";
	if (!who)
		return 0;
	snprintf(why, len, "%s is writable by others (%s, mode %04o): what "
		 "is in it may be changed or replaced", dir, who,
		 (unsigned)(st.st_mode & 07777));
	return 1;
}

int newfile_create(int dfd, const char *name, mode_t mode)
{
	int fd, i;

	if (strchr(name, '/'))
		return -EINVAL;
	for (i = 0; i < NEWFILE_TRIES; i++) {
		/* unlinkat removes a link itself, never what it points at. */
		if (unlinkat(dfd, name, 0) && errno != ENOENT)
			return -errno;
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_NOCTTY | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
		/* Planted again between the two: once more, then give up. */
	}
	return -EEXIST;
}

int newfile_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int newfile_write(int dfd, const char *name, const void *data, size_t len)
{
	char tmp[NAME_MAX + 1];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", name) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = newfile_create(dfd, tmp, 0644);
	if (fd < 0)
		return fd;
	ret = newfile_write_all(fd, data, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	/* rename replaces a link at name, never the link's target. */
	if (!ret && renameat(dfd, tmp, dfd, name) < 0)
		ret = -errno;
	if (ret)
		unlinkat(dfd, tmp, 0);
	return ret;
}

int newfile_write_in(const char *dir, const char *name, const void *data,
		     size_t len)
{
	int dfd, ret;

	if (!data)
		return -ENOMEM;
	dfd = newfile_dir(dir);
	if (dfd < 0)
		return dfd;
	ret = newfile_write(dfd, name, data, len);
	close(dfd);
	return ret;
}

int newfile_over(const char *path)
{
	/* Not blocking: a FIFO named by mistake must not hang kiln. */
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY |
		      O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if (st.st_nlink > 1)
		ret = -EMLINK;
	else if (ftruncate(fd, 0))
		ret = -errno;
	else if (fcntl(fd, F_SETFL, 0))
		ret = -errno;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}
