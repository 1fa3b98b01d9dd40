/* SPDX-License-Identifier: MIT */
/*
 * Description: reading the kernel's small files (see sysfs.h): sysfs
 * attributes, folders of them, and a disk's family of partitions.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/sysfs.h"

int sysfs_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (len)
		buf[0] = 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return sysfs_read(path, buf, len);
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	n = (ssize_t)strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return (int)n;
}


void sysfs_tidy(char *s)
{
	char *w = s, *r = s;
	int blank = 1;

	for (; *r; r++) {
		unsigned char c = (unsigned char)*r;

		if (c <= ' ' || c >= 0x7f) {
			if (!blank)
				*w++ = ' ';
			blank = 1;
			continue;
		}
		*w++ = (char)c;
		blank = 0;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = 0;
}

int sysfs_attr_tidy(const char *dir, const char *name, char *buf, size_t len)
{
	int n = sysfs_attr(dir, name, buf, len);

	sysfs_tidy(buf);
	return n;
}

long sysfs_attr_long(const char *dir, const char *name, long unknown)
{
	char buf[64], *end;
	long v;

	if (sysfs_attr(dir, name, buf, sizeof(buf)) <= 0)
		return unknown;
	errno = 0;
	v = strtol(buf, &end, 0);
	return errno || end == buf ? unknown : v;
}

int sysfs_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

void sysfs_link_base(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	slash = strrchr(target, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : target);
}


static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

char **dir_list(const char *dir, int *count)
{
	struct dirent *e;
	char **names = NULL, **grown;
	int n = 0, cap = 0;
	DIR *d = opendir(dir);

	*count = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			grown = realloc(names, (size_t)cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (names)
		qsort(names, (size_t)n, sizeof(*names), cmp_names);
	*count = n;
	return names;
}

void dir_list_free(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

void sysfs_family(const char *sysroot, const char *name, dev_t dev,
		  struct sysfs_family *f)
{
	char dir[PATH_MAX], sub[PATH_MAX * 2], buf[64], **names;
	unsigned maj, min;
	int i, n;

	f->n = 1;
	f->more = 0;
	f->dev[0] = dev;
	snprintf(f->name[0], sizeof(f->name[0]), "%.63s", name);
	snprintf(dir, sizeof(dir), "%s/block/%s", sysroot, name);
	names = dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if (!sysfs_exists(sub, "partition") ||
		    sysfs_attr(sub, "dev", buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%u:%u", &maj, &min) != 2)
			continue;
		if (f->n == SYSFS_FAMILY_MAX) {
			f->more = 1;
			break;
		}
		f->dev[f->n] = makedev(maj, min);
		snprintf(f->name[f->n], sizeof(f->name[0]), "%.63s", names[i]);
		f->n++;
	}
	dir_list_free(names, n);
}

int sysfs_on_usb(const char *sysroot, dev_t rdev)
{
	char link[PATH_MAX], real[PATH_MAX];

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysroot,
		 major(rdev), minor(rdev));
	return realpath(link, real) && strstr(real, "/usb");
}
