/* SPDX-License-Identifier: MIT */
/*
 * Description: the safety class of a disk or file (see safety.h): in use
 * (mounted, held, swap, protected), kiln's own data, data, or blank, with
 * the reasons in words a person can check.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "safety.h"
#include "sysfs.h"

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

/* Mounted, held, swap or protected: the disk or any of its partitions. */
static void in_use(const struct safety_env *o, const char *name,
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
				s->class = SAFETY_IN_USE;
			}
	for (k = 0; k < fam.n; k++) {
		snprintf(sub, sizeof(sub), "%s/block/%s%s%s/holders", o->sysroot,
			 name, k ? "/" : "", k ? fam.name[k] : "");
		names = sysfs_list(sub, &n);
		for (i = 0; i < n; i++) {
			why(s, "%s is held by %s", fam.name[k], names[i]);
			s->class = SAFETY_IN_USE;
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

			if (sscanf(line, "%*u %*u %u:%u %*s %511s", &maj, &min,
				   point) != 3)
				continue;
			for (k = 0; k < fam.n; k++)
				if (makedev(maj, min) == fam.dev[k]) {
					why(s, "%s is mounted at %s", fam.name[k],
					    point);
					s->class = SAFETY_IN_USE;
				}
		}
		fclose(f_);
	}
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
					why(s, "%s is used as swap", fam.name[k]);
					s->class = SAFETY_IN_USE;
				}
		}
		fclose(f_);
	}
}

static void append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

void safety_classify(const struct safety_env *o, const char *name,
		     dev_t dev, int fd, uint64_t size, struct safety *s)
{
	char *parts = s->partitions, text[sizeof(s->why)];
	int ret = -ENODEV, i;

	memset(s, 0, sizeof(*s));
	s->class = SAFETY_BLANK;
	if (name && *name) {
		struct sysfs_family fam;

		sysfs_family(o->sysroot, name, dev, &fam);
		in_use(o, name, &fam, s);
		for (i = 1; i < fam.n; i++)
			append(parts, sizeof(s->partitions), fam.name[i]);
	}
	if (fd >= 0) {
		ret = signature_scan_fd(fd, size, &s->sig);
		s->scanned = ret == 0;
	}
	if (ret == 0 && s->sig.kiln) {
		if (s->class != SAFETY_IN_USE)
			s->class = SAFETY_KILN_DATA;
		why(s, "%s", signature_describe(&s->sig, text, sizeof(text)));
		return;
	}
	if (s->class == SAFETY_BLANK && (ret || s->sig.n || parts[0]))
		s->class = SAFETY_HAS_DATA;
	if (ret == -ENODEV)
		why(s, "not read, so not proven blank");
	else if (ret)
		why(s, "its ends could not be read (%s), so it is not proven "
		    "blank", strerror(-ret));
	if (s->sig.n)
		why(s, "it holds %s", signature_describe(&s->sig, text,
							 sizeof(text)));
	if (parts[0])
		why(s, "the kernel sees partitions %s", parts);
	if (s->class == SAFETY_BLANK)
		why(s, "no partition table, filesystem, volume or RAID "
		    "signature at its start or end");
}
