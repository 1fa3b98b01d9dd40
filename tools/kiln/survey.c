/* SPDX-License-Identifier: MIT */
/*
 * Description: the read-only commands: kiln discover (the inventory of the
 * machine) and kiln probe (the safety class of given disks or images).
 * Neither ever writes to a disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "burn.h"
#include "kiln.h"
#include "discover.h"
#include "inventory.h"
#include "json.h"
#include "survey.h"

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "kiln: %s '%s' (try kiln help)\n", what, arg);
	return KILN_EXIT_USAGE;
}

int survey_discover_main(int argc, char **argv)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .read_disks = 1 };
	struct discover_inventory inv;
	char procroot[PATH_MAX];
	dev_t protect[16];
	int i, json = 0, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return KILN_HELP;
		if (!strcmp(a, "--json") || !strcmp(a, "--json=1")) {
			json = 1;
			continue;
		}
		if (!strncmp(a, "--sysfs-root=", 13))
			v = a + 13;
		else if (!strncmp(a, "--protect=", 10))
			v = a + 10;
		else if ((!strcmp(a, "--sysfs-root") || !strcmp(a, "--protect")) &&
			 i + 1 < argc)
			v = argv[++i];
		else
			return usage_error("unknown option", a);

		if (!strncmp(a, "--sysfs-root", 12)) {
			/* A fixture: its /proc is beside its /sys; no disks to read. */
			o.sysroot = v;
			snprintf(procroot, sizeof(procroot), "%s/../proc", v);
			o.procroot = procroot;
			o.read_disks = 0;
		} else {
			struct stat st;

			if (stat(v, &st) < 0 || !S_ISBLK(st.st_mode)) {
				fprintf(stderr, "kiln: --protect %s: not a block "
					"device\n", v);
				return KILN_EXIT_USAGE;
			}
			if (o.nprotect == (int)(sizeof(protect) / sizeof(protect[0])))
				return usage_error("too many --protect", v);
			protect[o.nprotect++] = st.st_rdev;
		}
	}
	o.protect = protect;

	ret = discover_scan(&o, &inv);
	if (ret) {
		fprintf(stderr, "kiln: discovery failed: %s\n", strerror(-ret));
		return KILN_EXIT_CANNOT;
	}
	if (json) {
		size_t len;
		char *doc = inventory_json(&inv, &len);

		if (!doc) {
			discover_free(&inv);
			fprintf(stderr, "kiln: out of memory\n");
			return KILN_EXIT_CANNOT;
		}
		fwrite(doc, 1, len, stdout);
		free(doc);
	} else {
		inventory_print(&inv, stdout);
	}
	discover_free(&inv);
	return KILN_EXIT_PASS;
}

/* The kernel name of a block device, from sysfs. */
static void kernel_name(dev_t dev, char *out, size_t len)
{
	struct identity id;

	out[0] = 0;
	if (identity_read("/sys", major(dev), minor(dev), 0, &id) == 0)
		snprintf(out, len, "%s", id.name);
}

int survey_probe_main(int argc, char **argv)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev" };
	struct json j;
	int i, json = 0, status = KILN_EXIT_PASS, any = 0;

	json_init(&j);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return KILN_HELP;
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-')
			return usage_error("unknown option", argv[i]);
		else
			any = 1;
	}
	if (!any) {
		fprintf(stderr, "kiln: no disk or image given (try kiln help)\n");
		return KILN_EXIT_USAGE;
	}
	json_array(&j, NULL);
	for (i = 1; i < argc; i++) {
		struct safety s;
		struct safety_env env;
		unsigned long long size = 0;
		char name[64] = "";
		struct stat st;
		int fd;

		if (argv[i][0] == '-')
			continue;
		fd = open(argv[i], O_RDONLY | O_CLOEXEC | O_DIRECT);
		if (fd < 0 && errno == EINVAL)
			fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			fprintf(stderr, "kiln: cannot open %s: %s\n", argv[i],
				strerror(errno));
			status = KILN_EXIT_CANNOT;
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (S_ISBLK(st.st_mode)) {
			if (ioctl(fd, BLKGETSIZE64, &size) < 0)
				size = 0;
			kernel_name(st.st_rdev, name, sizeof(name));
		} else {
			size = (unsigned long long)st.st_size;
		}
		env = discover_safety_env(&o);
		safety_classify(&env, name, S_ISBLK(st.st_mode) ? st.st_rdev : 0,
				  fd, size, &s);
		close(fd);
		if (!json) {
			printf("%s: %s: %s\n", argv[i],
			       safety_class_name(s.class), s.why);
			continue;
		}
		json_begin(&j, NULL);
		json_str(&j, "path", argv[i]);
		json_str(&j, "class", safety_class_name(s.class));
		json_str(&j, "reasons", s.why);
		json_array(&j, "signatures");
		for (int k = 0; k < s.sig.n; k++) {
			json_begin(&j, NULL);
			json_str(&j, "what", s.sig.hits[k].what);
			json_u64(&j, "offset", s.sig.hits[k].offset);
			json_end(&j);
		}
		json_array_end(&j);
		json_end(&j);
	}
	json_array_end(&j);
	if (json) {
		size_t len;
		char *doc = json_take(&j, &len);

		if (doc)
			fwrite(doc, 1, len, stdout);
		free(doc);
	}
	json_free(&j);
	return status;
}
