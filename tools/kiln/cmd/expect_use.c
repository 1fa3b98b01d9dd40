// SPDX-License-Identifier: MIT
/*
 * Description: the expected machine in a run: its file found (expect=,
 * the lab server's, or expect.cfg on the stick), read before anything is
 * touched, and the machine discovery found held to it, each difference
 * for the machine's verdict (judge/vitals_judge.c FAILs it) and
 * result.json.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/kiln.h"
#include "cmd/expect_use.h"

int expect_use_load(const struct settings *s, int run, struct expect **e,
		    char *path, size_t plen, char *err, size_t elen)
{
	*e = NULL;
	if (s->expect && s->expect[0] != '/' && run && s->results)
		snprintf(path, plen, "%s/%s", s->results, s->expect);
	else if (s->expect)
		snprintf(path, plen, "%s", s->expect);
	else if (run && s->results)
		snprintf(path, plen, "%s/expect.cfg", s->results);
	else
		return 0;
	/* The default is there or not; a file named must be there. */
	if (!s->expect && access(path, F_OK))
		return 0;
	*e = malloc(sizeof(**e));
	if (!*e) {
		snprintf(err, elen, "%s: out of memory", path);
		return -1;
	}
	if (expect_load(path, *e, err, elen)) {
		free(*e);
		*e = NULL;
		return -1;
	}
	return 1;
}

int expect_use_check(struct record *r, const struct expect *e,
		     const char *path, const struct discover_inventory *inv,
		     const dev_t *skip, int nskip)
{
	int i, n;

	free(r->expect);
	r->expect = malloc(sizeof(*r->expect));
	if (!r->expect)
		return -ENOMEM;
	snprintf(r->expect_file, sizeof(r->expect_file), "%s", path);
	n = expect_check(e, inv, skip, nskip, r->expect);
	if (!n)
		printf("kiln: the machine is as %s expects\n", path);
	for (i = 0; i < r->expect->n; i++)
		complain_out("machine FAIL: %s (%s)", r->expect->line[i],
			     path);
	if (r->expect->more)
		complain_out("machine FAIL: %d differences more (%s)",
			     r->expect->more, path);
	return 0;
}

int expect_use_burn(struct record *r, const char *sysroot)
{
	struct discover_options o = { .procroot = "/proc", .devroot = "/dev" };
	struct discover_inventory inv;
	char path[PATH_MAX], err[600], procroot[PATH_MAX];
	struct expect *e;
	int ret;

	if (r->expect || !r->s->expect)
		return 0;
	ret = expect_use_load(r->s, 0, &e, path, sizeof(path), err,
			      sizeof(err));
	if (ret < 0) {
		complain("bad setting: expect: %s", err);
		return KILN_EXIT_USAGE;
	}
	/* --sysfs-root (tests): the machine the sensors see; its /proc too. */
	o.sysroot = r->s->sysfs_root ? r->s->sysfs_root : sysroot;
	if (strcmp(o.sysroot, "/sys")) {
		snprintf(procroot, sizeof(procroot), "%s/../proc", o.sysroot);
		o.procroot = procroot;
	}
	ret = discover_tree(&o, &inv);
	if (!ret) {
		ret = expect_use_check(r, e, path, &inv, NULL, 0);
		discover_free(&inv);
	}
	free(e);
	if (ret) {
		complain("out of memory");
		return KILN_EXIT_CANNOT;
	}
	return 0;
}

/* The lab server's text parsed into *e: 1, or -1 with err said. */
static int lab_load(const char *text, const char *url, struct expect **e,
		    char *path, size_t plen, char *err, size_t elen)
{
	snprintf(path, plen, "%s", url);
	*e = malloc(sizeof(**e));
	if (!*e) {
		snprintf(err, elen, "%s: out of memory", url);
		return -1;
	}
	if (expect_parse(text, url, *e, err, elen)) {
		free(*e);
		*e = NULL;
		return -1;
	}
	return 1;
}

int expect_use_run(struct settings *s, struct settings_problems *p,
		   const struct discover_inventory *inv, const dev_t *skip,
		   int nskip, const char *lab_text, const char *lab_url,
		   struct record *r)
{
	char path[PATH_MAX], err[600];
	struct expect *e;
	int ret;

	if (!s->expect && lab_text)
		ret = lab_load(lab_text, lab_url, &e, path, sizeof(path), err,
			       sizeof(err));
	else
		ret = expect_use_load(s, 1, &e, path, sizeof(path), err,
				      sizeof(err));

	if (ret < 0) {
		/* A bad setting: the run does not start, and says why. */
		options_problem(p, "expect: %s", err);
		return 0;
	}
	if (!ret)
		return 0;
	if (e->disks >= 0 && s->expect_disks) {
		record_note(r, "disks=%d in %s replaces expect-disks=%u",
			    e->disks, path, s->expect_disks);
		s->expect_disks = 0;
	}
	ret = expect_use_check(r, e, path, inv, skip, nskip);
	free(e);
	return ret;
}
