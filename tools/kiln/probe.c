/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln probe, the safety class of given disks or image files
 * and the signatures found on them, for people or as JSON. Never writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "identity.h"
#include "json.h"
#include "kiln.h"
#include "options.h"
#include "probe.h"
#include "safety.h"

/* The kernel name of a block device, from sysfs. */
static void kernel_name(dev_t dev, char *out, size_t len)
{
	struct identity id;

	out[0] = 0;
	if (identity_read("/sys", major(dev), minor(dev), 0, &id) == 0)
		snprintf(out, len, "%s", id.name);
}

static const struct options_cmd probe_cmd = {
	"probe", "[--json] PATH...",
	"The safety class of disks or image files, and what was found on "
	"them: in-use, kiln-data, has-data or blank, with the reasons (the "
	"signatures and their byte offsets). Never writes.",
	SCOPE_PROBE,
};

int probe_main(int argc, char **argv)
{
	struct safety_env env = { .sysroot = "/sys", .procroot = "/proc" };
	struct settings set;
	struct json j;
	char err[300], **args;
	int i, n, json, status = KILN_EXIT_PASS;

	settings_defaults(&set);
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return KILN_EXIT_CANNOT;
	i = options_parse(&set, &probe_cmd, argc, argv, args, &n, err,
			  sizeof(err));
	json = set.json;
	settings_free(&set);
	if (i == OPTIONS_HELP || i || !n) {
		if (i == OPTIONS_HELP)
			options_usage(&probe_cmd, stdout);
		else
			fprintf(stderr, "kiln: %s\n", i ? err :
				"no disk or image given (try kiln probe --help)");
		free(args);
		return i == OPTIONS_HELP ? KILN_EXIT_PASS : KILN_EXIT_USAGE;
	}
	json_init(&j);
	json_array(&j, NULL);
	for (i = 0; i < n; i++) {
		struct safety s;
		unsigned long long size = 0;
		char name[64] = "";
		struct stat st;
		int fd, k;

		fd = open(args[i], O_RDONLY | O_CLOEXEC | O_DIRECT);
		if (fd < 0 && errno == EINVAL)
			fd = open(args[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			fprintf(stderr, "kiln: cannot open %s: %s\n", args[i],
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
		safety_classify(&env, name, S_ISBLK(st.st_mode) ? st.st_rdev : 0,
				  fd, size, &s);
		close(fd);
		if (!json) {
			printf("%s: %s: %s\n", args[i],
			       safety_class_name(s.class), s.why);
			continue;
		}
		json_begin(&j, NULL);
		json_str(&j, "path", args[i]);
		json_str(&j, "class", safety_class_name(s.class));
		json_str(&j, "class_reasons", s.why);
		json_array(&j, "signatures");
		for (k = 0; k < s.sig.n; k++) {
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
	free(args);
	return status;
}
