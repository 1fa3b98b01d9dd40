/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk's identity from sysfs (see identity.h): the WWN,
 * the serial (sysfs, SCSI VPD page 0x80, or the USB device's), the model,
 * and for a partition its disk's identity and number.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover/identity.h"
#include "base/json.h"
#include "base/sysfs.h"

/* SCSI unit serial number page 0x80: 4 header bytes, then the serial. */
static void vpd_serial(const char *dev, char *out, size_t len)
{
	unsigned char page[256];
	char path[PATH_MAX];
	ssize_t n;
	size_t plen;
	int fd;

	if (snprintf(path, sizeof(path), "%s/vpd_pg80", dev) >=
	    (int)sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
	sysfs_tidy(out);
}

/* usb-storage has no VPD pages: the serial is the USB device's. */
static void usb_serial(const char *dev, char *out, size_t len)
{
	char path[PATH_MAX], *slash;

	if (!realpath(dev, path) || !strstr(path, "/usb"))
		return;
	while ((slash = strrchr(path, '/')) && slash > path) {
		*slash = 0;
		if (sysfs_exists(path, "idVendor")) {
			sysfs_attr_tidy(path, "serial", out, len);
			return;
		}
	}
}

void identity_of_disk(const char *sysroot, const char *dir, uint64_t size,
		      struct identity *id)
{
	char dev[PATH_MAX + 8], real[PATH_MAX], buf[64];

	snprintf(dev, sizeof(dev), "%s/device", dir);
	if (sysfs_attr(dir, "queue/rotational", buf, sizeof(buf)) > 0)
		id->rotational = buf[0] == '1';
	sysfs_attr_tidy(dev, "model", id->model, sizeof(id->model));

	if (sysfs_attr(dir, "loop/backing_file", id->backing,
			  sizeof(id->backing)) > 0) {
		snprintf(id->identity, sizeof(id->identity), "loop:%s",
			 id->backing);
		return;
	}
	if (sysfs_attr_tidy(dir, "wwid", id->wwid, sizeof(id->wwid)) <= 0)
		sysfs_attr_tidy(dev, "wwid", id->wwid, sizeof(id->wwid));
	if (sysfs_attr_tidy(dir, "serial", id->serial, sizeof(id->serial)) <=
		    0 &&
	    sysfs_attr_tidy(dev, "serial", id->serial, sizeof(id->serial)) <= 0)
		vpd_serial(dev, id->serial, sizeof(id->serial));
	if (!id->serial[0])
		usb_serial(dev, id->serial, sizeof(id->serial));
	/* A device-mapper device has its uuid (dmsetup create --uuid). */
	if (!id->serial[0])
		sysfs_attr_tidy(dir, "dm/uuid", id->serial, sizeof(id->serial));

	if (id->wwid[0]) {
		snprintf(id->identity, sizeof(id->identity), "wwn:%s",
			 id->wwid);
	} else if (id->serial[0]) {
		/* An NVMe serial is the controller's: add the namespace. */
		long nsid = sysfs_attr_long(dir, "nsid", -1);

		if (nsid >= 0)
			snprintf(id->identity, sizeof(id->identity),
				 "serial:%s:%s:ns%ld", id->model, id->serial,
				 nsid);
		else
			snprintf(id->identity, sizeof(id->identity),
				 "serial:%s:%s", id->model, id->serial);
	} else if (realpath(dev, real)) {
		size_t skip = strncmp(real, sysroot, strlen(sysroot)) ? 0 :
			      strlen(sysroot);

		snprintf(id->identity, sizeof(id->identity), "path:%s:%llu:%s",
			 id->model, (unsigned long long)size, real + skip);
	} else {
		snprintf(id->identity, sizeof(id->identity), "name:%s:%llu",
			 id->name, (unsigned long long)size);
	}
}

int identity_read(const char *sysroot, unsigned major, unsigned minor,
		  uint64_t size, struct identity *id)
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

	if (sysfs_attr(dir, "partition", buf, sizeof(buf)) > 0) {
		struct identity disk;
		char parent[PATH_MAX + 4];

		id->partition = atoi(buf);
		snprintf(parent, sizeof(parent), "%s/..", real);
		if (sysfs_attr(parent, "dev", buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%u:%u", &pmaj, &pmin) != 2)
			return -ENOENT;
		identity_read(sysroot, pmaj, pmin, 0, &disk);
		snprintf(id->identity, sizeof(id->identity), "%.4000s:part%d",
			 disk.identity, id->partition);
		memcpy(id->model, disk.model, sizeof(id->model));
		memcpy(id->serial, disk.serial, sizeof(id->serial));
		memcpy(id->wwid, disk.wwid, sizeof(id->wwid));
		id->rotational = disk.rotational;
		return 0;
	}
	identity_of_disk(sysroot, real, size, id);
	return 0;
}

int identity_find(const char *sysroot, const char *identity, char *name,
		  size_t len)
{
	char base[PATH_MAX], dir[PATH_MAX * 2], real[PATH_MAX], **names;
	int i, n, ret = -ENOENT;

	snprintf(base, sizeof(base), "%s/block", sysroot);
	names = dir_list(base, &n);
	for (i = 0; i < n && ret; i++) {
		struct identity id;

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		if (!realpath(dir, real))
			continue;
		memset(&id, 0, sizeof(id));
		id.rotational = -1;
		snprintf(id.name, sizeof(id.name), "%.63s", names[i]);
		identity_of_disk(
			sysroot, real,
			(uint64_t)sysfs_attr_long(dir, "size", 0) * 512, &id);
		if (!strcmp(id.identity, identity)) {
			snprintf(name, len, "%s", names[i]);
			ret = 0;
		}
	}
	dir_list_free(names, n);
	return ret;
}

void identity_json(struct json *j, const struct identity *id)
{
	json_str(j, "name", id->name);
	json_str(j, "identity", id->identity);
	json_str(j, "model", id->model);
	json_str(j, "serial", id->serial);
	json_str(j, "wwn", id->wwid);
	if (id->rotational < 0)
		json_null(j, "rotational");
	else
		json_bool(j, "rotational", id->rotational);
}
