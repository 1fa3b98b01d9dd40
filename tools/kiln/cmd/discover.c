/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln discover: the machine, its storage controllers and
 * every disk with its safety class, as a tree or as inventory.json; an
 * expect file of this machine written (--expect-out), or this machine
 * held to one (--expect).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/kiln.h"
#include "base/newfile.h"
#include "base/timing.h"
#include "cmd/discover.h"
#include "discover/expect.h"
#include "discover/inventory.h"
#include "settings/settings.h"

const struct options_cmd discover_cmd = {
	"discover", "[--json] [--protect DEV]... [--sysfs-root DIR] "
	"[--expect FILE] [--expect-out FILE]",
	"The machine, its storage controllers and every disk under them with "
	"its identity, link and safety class, as an 80-column tree or as "
	"JSON (schema kiln-inventory). Every disk's contents are read to "
	"class it, never written. --expect-out also writes an expect file "
	"of this machine (the protected disks left out); --expect says how "
	"this machine differs from an expect file, exit 1 on any difference.",
	SCOPE_DISCOVER,
};

/* --expect FILE: each difference said; an exit code. */
static int check_expect(const char *path,
			const struct discover_inventory *inv,
			const dev_t *skip, int nskip)
{
	struct expect_diffs *d = malloc(sizeof(*d));
	struct expect *e = malloc(sizeof(*e));
	char err[400];
	int i, n, ret = KILN_EXIT_CANNOT;

	if (!d || !e) {
		fprintf(stderr, "kiln: out of memory\n");
		goto out;
	}
	if (expect_load(path, e, err, sizeof(err))) {
		fprintf(stderr, "kiln: bad setting: expect: %s\n", err);
		ret = KILN_EXIT_USAGE;
		goto out;
	}
	n = expect_check(e, inv, skip, nskip, d);
	for (i = 0; i < d->n; i++)
		fprintf(stderr, "kiln: machine FAIL: %s\n", d->line[i]);
	if (d->more)
		fprintf(stderr, "kiln: machine FAIL: %d differences more\n",
			d->more);
	if (!n)
		fprintf(stderr, "kiln: the machine is as %s expects\n", path);
	ret = n ? KILN_EXIT_FAIL : KILN_EXIT_PASS;
out:
	free(d);
	free(e);
	return ret;
}

/*
 * --expect-out FILE: this machine as an expect file. An exit code. Only a
 * regular file (or a new one) is written: FILE naming a disk, by mistake
 * or a typo, must never get the text (fopen's "w" would write into it).
 */
static int write_expect(const char *path,
			const struct discover_inventory *inv,
			const dev_t *skip, int nskip)
{
	/* Never through a link, never a file with another name too. */
	int fd = newfile_over(path);
	FILE *f;
	int bad;

	if (fd == -EINVAL || fd == -ELOOP || fd == -EMLINK) {
		fprintf(stderr, "kiln: --expect-out %s: %s: nothing written\n",
			path, fd == -EINVAL ? "not a regular file" :
			fd == -ELOOP ? "a symbolic link" :
			"a file with another name too");
		return KILN_EXIT_USAGE;
	}
	if (fd < 0) {
		fprintf(stderr, "kiln: %s: %s\n", path, strerror(-fd));
		return KILN_EXIT_CANNOT;
	}
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "kiln: %s: %s\n", path, strerror(errno));
		close(fd);
		return KILN_EXIT_CANNOT;
	}
	expect_write(inv, skip, nskip, f);
	bad = ferror(f);
	bad |= fclose(f);
	if (bad) {
		fprintf(stderr, "kiln: %s: could not be written\n", path);
		return KILN_EXIT_CANNOT;
	}
	fprintf(stderr, "kiln: wrote the expect file %s\n", path);
	return KILN_EXIT_PASS;
}

int discover_command(struct options_args *a)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .read_disks = 1,
				      .loops = 1 };
	const struct settings *s = &a->s;
	struct discover_inventory inv;
	char procroot[PATH_MAX];
	int ret;

	o.machine_id = s->machine_id;
	if (s->sysfs_root) {
		/* A fixture: its /proc is beside its /sys; no disks to read. */
		o.sysroot = s->sysfs_root;
		snprintf(procroot, sizeof(procroot), "%s/../proc",
			 s->sysfs_root);
		o.procroot = procroot;
		o.read_disks = 0;
	}
	o.protect = a->protect;
	o.nprotect = a->nprotect;
	o.deadline_ns = (uint64_t)s->deadline * TIMING_SEC;

	ret = discover_scan(&o, &inv);
	if (ret) {
		fprintf(stderr, "kiln: discovery failed: %s\n", strerror(-ret));
		return KILN_EXIT_CANNOT;
	}
	ret = s->expect_out ? write_expect(s->expect_out, &inv, a->protect,
					   a->nprotect) : KILN_EXIT_PASS;
	if (!ret && s->expect)
		ret = check_expect(s->expect, &inv, a->protect, a->nprotect);
	if (ret == KILN_EXIT_USAGE || ret == KILN_EXIT_CANNOT) {
		/* Said; nothing else printed. */
	} else if (s->json) {
		size_t len;
		char *doc = inventory_json(&inv, &len);

		if (!doc) {
			fprintf(stderr, "kiln: out of memory\n");
			ret = KILN_EXIT_CANNOT;
		} else {
			fwrite(doc, 1, len, stdout);
		}
		free(doc);
	} else {
		inventory_print(&inv, stdout);
	}
	discover_free(&inv);
	return ret;
}
