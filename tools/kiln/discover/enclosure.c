/* SPDX-License-Identifier: MIT */
/*
 * Description: which enclosure bay holds a disk, and its LEDs (see
 * enclosure.h). A line technician pulls a drive by its bay, never by its
 * kernel name, which shifts when a drive drops out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/json.h"
#include "base/sysfs.h"
#include "discover/enclosure.h"

#define LINK_PREFIX "enclosure_device:"

/*
 * Whether dir is one of an enclosure's components: the kernel gives each
 * a `type` ("device", "array device", ...), a `status` and a `slot`; the
 * other entries of an enclosure's folder (components, id, device, power,
 * subsystem, uevent) have none of them.
 */
static int component(const char *dir)
{
	return sysfs_exists(dir, "slot") || sysfs_exists(dir, "type") ||
	       sysfs_exists(dir, "status");
}

static void fill(struct enclosure_slot *s, const char *enclosure,
		 const char *name, const char *dir)
{
	char buf[32], *end;
	long n;

	snprintf(s->enclosure, sizeof(s->enclosure), "%.63s", enclosure);
	snprintf(s->name, sizeof(s->name), "%.63s", name);
	sysfs_tidy(s->name);
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	s->number = -1;
	if (sysfs_attr(dir, "slot", buf, sizeof(buf)) > 0) {
		errno = 0;
		n = strtol(buf, &end, 10);
		if (!errno && end != buf && !*end && n >= 0)
			s->number = n;
	}
}

/*
 * The device's own link back to its bay, enclosure_device:COMPONENT: the
 * component's real folder is ENCLOSURE_DEV/enclosure/ENCLOSURE/COMPONENT.
 */
static int by_backlink(const char *devreal, struct enclosure_slot *s)
{
	char link[PATH_MAX + 80], real[PATH_MAX], enc[PATH_MAX], **names;
	const char *name = NULL, *slash;
	int n, i, found = 0;

	names = dir_list(devreal, &n);
	for (i = 0; i < n && !found; i++) {
		if (strncmp(names[i], LINK_PREFIX, strlen(LINK_PREFIX)))
			continue;
		snprintf(link, sizeof(link), "%s/%s", devreal, names[i]);
		if (!realpath(link, real) || !component(real))
			continue;
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			continue;
		name = slash + 1;
		snprintf(enc, sizeof(enc), "%.*s", (int)(slash - real), real);
		slash = strrchr(enc, '/');
		if (!slash)
			continue;
		fill(s, slash + 1, name, real);
		found = 1;
	}
	dir_list_free(names, n);
	return found;
}

/* Every component of every enclosure, its `device` link against devreal. */
static int by_scan(const char *sysroot, const char *devreal,
		   struct enclosure_slot *s)
{
	char base[PATH_MAX], dir[PATH_MAX + 256], comp[PATH_MAX + 512],
		real[PATH_MAX], **encs, **comps;
	int ne, nc, i, k, found = 0;

	snprintf(base, sizeof(base), "%s/class/enclosure", sysroot);
	encs = dir_list(base, &ne);
	for (i = 0; i < ne && !found; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, encs[i]);
		comps = dir_list(dir, &nc);
		for (k = 0; k < nc && !found; k++) {
			snprintf(comp, sizeof(comp), "%s/%s/device", dir,
				 comps[k]);
			if (!realpath(comp, real) || strcmp(real, devreal))
				continue;
			snprintf(comp, sizeof(comp), "%s/%s", dir, comps[k]);
			if (!component(comp))
				continue;
			fill(s, encs[i], comps[k], comp);
			found = 1;
		}
		dir_list_free(comps, nc);
	}
	dir_list_free(encs, ne);
	return found;
}

int enclosure_find(const char *sysroot, const char *devreal,
		   struct enclosure_slot *s)
{
	memset(s, 0, sizeof(*s));
	s->number = -1;
	if (!devreal || !devreal[0])
		return 0;
	return by_backlink(devreal, s) || by_scan(sysroot, devreal, s);
}

int enclosure_of_dev(const char *sysroot, dev_t dev, struct enclosure_slot *s)
{
	char link[PATH_MAX], real[PATH_MAX];

	memset(s, 0, sizeof(*s));
	s->number = -1;
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u/device", sysroot,
		 major(dev), minor(dev));
	if (!realpath(link, real))
		return 0;
	return enclosure_find(sysroot, real, s);
}

int enclosure_led_set(const struct enclosure_slot *s, enum enclosure_led led,
		      int on)
{
	char path[PATH_MAX + 16];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", s->dir,
		 led == ENCLOSURE_FAULT ? "fault" : "locate");
	/*
	 * O_NOFOLLOW: a stray link must not take the byte. O_TRUNC, as the
	 * shell's echo 1 >fault has it: sysfs ignores it, and a copy of a
	 * tree (tests) then holds exactly what was written.
	 */
	fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC |
		  O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

void enclosure_text(const struct enclosure_slot *s, char *buf, size_t len)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", s->number);
	if (s->number < 0)
		snprintf(buf, len, "enclosure %s slot %s", s->enclosure,
			 s->name);
	else if (!strcmp(num, s->name))
		snprintf(buf, len, "enclosure %s slot %ld", s->enclosure,
			 s->number);
	else
		snprintf(buf, len, "enclosure %s slot %ld (%s)", s->enclosure,
			 s->number, s->name);
}

void enclosure_json(struct json *j, const char *key,
		    const struct enclosure_slot *s)
{
	json_begin(j, key);
	json_str(j, "enclosure", s->enclosure);
	if (s->number >= 0)
		json_i64(j, "slot", s->number);
	json_str(j, "name", s->name);
	json_end(j);
}
