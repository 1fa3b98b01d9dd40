/* SPDX-License-Identifier: MIT */
/*
 * Description: what sysfs knows about a block device, and its identity.
 *
 * Sysfs attributes are read with plain open/read and every failure is
 * survivable: an attribute that is missing, unreadable or odd leaves its
 * field empty, never stops discovery.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover.h"

int discover_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	buf[0] = 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	n = (ssize_t)strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
			 buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = 0;
	return (int)n;
}

/* Keeps printable ASCII, turns runs of blanks into one space, trims. */
static void tidy(char *s)
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

/* SCSI unit serial number page 0x80: 4 header bytes, then the serial. */
static void vpd_serial(const char *dev, char *out, size_t len)
{
	unsigned char page[256];
	char path[PATH_MAX];
	ssize_t n;
	size_t plen;
	int fd;

	if (snprintf(path, sizeof(path), "%s/vpd_pg80", dev) >= (int)sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, page, sizeof(page));
	close(fd);
	if (n < 4 || page[1] != 0x80)
		return;
	plen = (size_t)page[2] << 8 | page[3];
	if (plen > (size_t)n - 4)
		plen = (size_t)n - 4;
	if (plen >= len)
		plen = len - 1;
	memcpy(out, page + 4, plen);
	out[plen] = 0;
	tidy(out);
}

static void whole_disk(const char *sysroot, unsigned major, unsigned minor,
		       uint64_t size, struct discover_id *id)
{
	char dir[PATH_MAX], dev[PATH_MAX + 8], real[PATH_MAX], buf[64];

	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysroot, major, minor);
	snprintf(dev, sizeof(dev), "%s/device", dir);

	if (discover_attr(dir, "queue/rotational", buf, sizeof(buf)) > 0)
		id->rotational = buf[0] == '1';
	discover_attr(dev, "model", id->model, sizeof(id->model));
	tidy(id->model);

	if (discover_attr(dir, "loop/backing_file", id->backing,
			  sizeof(id->backing)) > 0) {
		snprintf(id->identity, sizeof(id->identity), "loop:%s",
			 id->backing);
		return;
	}

	if (discover_attr(dir, "wwid", id->wwid, sizeof(id->wwid)) <= 0)
		discover_attr(dev, "wwid", id->wwid, sizeof(id->wwid));
	tidy(id->wwid);
	if (discover_attr(dir, "serial", id->serial, sizeof(id->serial)) <= 0 &&
	    discover_attr(dev, "serial", id->serial, sizeof(id->serial)) <= 0)
		vpd_serial(dev, id->serial, sizeof(id->serial));
	tidy(id->serial);

	if (id->wwid[0])
		snprintf(id->identity, sizeof(id->identity), "wwn:%s", id->wwid);
	else if (id->serial[0])
		snprintf(id->identity, sizeof(id->identity), "serial:%s:%s",
			 id->model, id->serial);
	else if (realpath(dev, real))
		snprintf(id->identity, sizeof(id->identity), "path:%s:%llu:%s",
			 id->model, (unsigned long long)size,
			 real + strlen(sysroot));
	else
		snprintf(id->identity, sizeof(id->identity), "name:%s:%llu",
			 id->name, (unsigned long long)size);
}

int discover_identity(const char *sysroot, unsigned major, unsigned minor,
		      uint64_t size, struct discover_id *id)
{
	char dir[PATH_MAX], real[PATH_MAX], buf[64], *slash;
	unsigned pmaj, pmin;

	memset(id, 0, sizeof(*id));
	id->rotational = -1;
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysroot, major, minor);
	if (!realpath(dir, real))
		return -errno;
	slash = strrchr(real, '/');
	snprintf(id->name, sizeof(id->name), "%.63s", slash ? slash + 1 : real);

	if (discover_attr(dir, "partition", buf, sizeof(buf)) > 0) {
		struct discover_id disk;
		char parent[PATH_MAX + 4];

		id->partition = atoi(buf);
		snprintf(parent, sizeof(parent), "%s/..", real);
		if (discover_attr(parent, "dev", buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%u:%u", &pmaj, &pmin) != 2)
			return -ENOENT;
		discover_identity(sysroot, pmaj, pmin, 0, &disk);
		snprintf(id->identity, sizeof(id->identity), "%.4000s:part%d",
			 disk.identity, id->partition);
		memcpy(id->model, disk.model, sizeof(id->model));
		memcpy(id->serial, disk.serial, sizeof(id->serial));
		memcpy(id->wwid, disk.wwid, sizeof(id->wwid));
		id->rotational = disk.rotational;
		return 0;
	}
	whole_disk(sysroot, major, minor, size, id);
	return 0;
}
