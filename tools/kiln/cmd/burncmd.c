/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln burn, the command: its usage and options, the targets
 * it is given (or, with --mode verify --from RUN_DIR, every disk of that
 * run's record, found by identity), then the walk of burn.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/burn.h"
#include "cmd/burncmd.h"
#include "base/complain.h"
#include "results/folder.h"
#include "base/kiln.h"
#include "base/unit.h"
#include "lab/lab.h"
#include "plan/plan.h"
#include "settings/options.h"
#include "results/result.h"

const struct options_cmd burncmd_cmd = {
	"burn", "[OPTIONS] TARGET...",
	"Burns in block devices or regular files, all at once: every 4 KiB "
	"unit written describes itself (run id, disk, offset, pass) and "
	"carries its CRC32C, is read back and checked, and each target is "
	"judged PASS, WARN or FAIL with its reasons. Every target is opened "
	"and checked before any I/O: one that is in use, given twice, "
	"read-only (for a writing mode) or holds data without consent stops "
	"the burn with exit 2. A missing file is created with --size (never "
	"under /dev, nor one named as a value: h, GiB, 16M, 600). "
	"KILN_CRC32C=portable|sse42|pclmul|vpclmul in the "
	"environment forces a CRC32C implementation.",
	SCOPE_BURN,
};

int burncmd_add_recorded(struct record *r, const struct result_record *rec)
{
	char name[64], path[PATH_MAX];
	int i;

	for (i = 0; i < rec->n; i++) {
		const struct result_disk *rd = &rec->disks[i];
		struct record_disk *d;
		int missing = 0;

		/* Only read in that run, or never started: not written. */
		if (result_disk_unwritten(rd)) {
			record_note(r, "%s: %s: nothing of it to verify",
				    rd->path[0] ? rd->path : rd->identity,
				    result_disk_unwritten(rd));
			continue;
		}
		if (!strncmp(rd->identity, "file:", 5)) {
			snprintf(path, sizeof(path), "%s", rd->identity + 5);
			missing = access(path, F_OK) < 0;
		} else if (identity_find("/sys", rd->identity, name,
					 sizeof(name)) == 0) {
			snprintf(path, sizeof(path), "/dev/%s", name);
		} else {
			snprintf(path, sizeof(path), "%s", rd->path[0] ?
				 rd->path : rd->identity);
			missing = 1;
		}
		d = record_add(r, path, SETTINGS_VERIFY);
		if (!d) {
			complain("out of memory");
			return KILN_EXIT_CANNOT;
		}
		if (missing) {
			snprintf(d->label, sizeof(d->label), "%.60s",
				 strrchr(path, '/') ? strrchr(path, '/') + 1 :
				 path);
			snprintf(d->t.id.identity, sizeof(d->t.id.identity),
				 "%s", rd->identity);
			snprintf(d->failed, sizeof(d->failed),
				 "missing: no disk "
				 "with identity %.180s is attached",
				 rd->identity);
		}
	}
	return 0;
}

/* Where kiln burn keeps a run folder of its own: the stick's layout. */
#define DEFAULT_ROOT "."

/*
 * Without --out every run still keeps its folder, as the stick's layout
 * has it: ./kiln-results/<machine id>/<run folder>/, a new one for each
 * run (-2, -3... when one of this second and run id is there already).
 * made says which of ./kiln-results and its machine's folder kiln makes.
 */
static int default_folder(struct record *r, char *dir, size_t len,
			  int made[2])
{
	size_t n;
	int k;

	if (!r->run_id)
		r->run_id = burn_new_run_id();
	if (!r->machine[0])
		lab_machine_id(r->machine, sizeof(r->machine));
	if (folder_run_path(DEFAULT_ROOT, r->machine, r->run_id, dir, len)) {
		complain("cannot make a run folder for machine %s in the "
			 "current folder: the path is too long (give --out)",
			 r->machine);
		return KILN_EXIT_CANNOT;
	}
	n = strlen(dir);
	for (k = 2; access(dir, F_OK) == 0 && k < 1000; k++)
		snprintf(dir + n, len - n, "-%d", k);
	made[0] = access(DEFAULT_ROOT "/kiln-results", F_OK) < 0;
	*strrchr(dir, '/') = 0;
	made[1] = access(dir, F_OK) < 0;
	dir[strlen(dir)] = '/';
	return 0;
}

/* A run that never started leaves no empty folders behind either. */
static void default_folder_gone(const char *dir, const int made[2])
{
	char parent[PATH_MAX];

	if (access(dir, F_OK) == 0)
		return;
	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = 0;
	if (made[1])
		rmdir(parent);
	if (made[0])
		rmdir(DEFAULT_ROOT "/kiln-results");
}

/*
 * With expect-disks, a target named that is not there is a disk missing
 * from the burn, a FAIL of it, not a usage error: a script that names 60
 * disks, one of them dead, still burns the other 59. A file --size would
 * create is no missing disk.
 */
static int missing_target(const struct settings *s, const char *path)
{
	struct stat st;

	if (!s->expect_disks || stat(path, &st) == 0 || errno != ENOENT)
		return 0;
	return !s->size || !plan_writes_mode(s->mode) ||
	       !strncmp(path, "/dev/", 5);
}

/*
 * A file --size would create whose name reads as a value ("h", "GiB",
 * "16M", "600"): a unit or a number that lost its option, never a target
 * to make and burn. A name with a slash (./h) is a path meant.
 */
static int value_named(const struct settings *s, const char *path)
{
	struct stat st;

	if (!s->size || !plan_writes_mode(s->mode) || strchr(path, '/') ||
	    !settings_value_word(path))
		return 0;
	return lstat(path, &st) < 0 && errno == ENOENT;
}

/* Adds the targets named: 0, or the exit code. */
static int add_targets(struct record *r, const struct options_args *a)
{
	const struct settings *s = &a->s;
	int i;

	for (i = 0; i < a->nargs; i++) {
		if (value_named(s, a->args[i])) {
			complain("refusing to create a file named '%s': it "
				 "reads as a value, a unit or a number apart "
				 "from its option, not a target (./%s names "
				 "a file)", a->args[i], a->args[i]);
			return KILN_EXIT_USAGE;
		}
	}
	for (i = 0; i < a->nargs; i++) {
		const char *path = a->args[i];
		struct record_disk *d = record_add(r, path, s->mode);

		if (!d) {
			complain("out of memory");
			return KILN_EXIT_CANNOT;
		}
		if (!missing_target(s, path))
			continue;
		snprintf(d->label, sizeof(d->label), "%.60s",
			 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		snprintf(d->failed, sizeof(d->failed), "missing: %.200s is not "
			 "there (expect-disks %u)", path, s->expect_disks);
	}
	return 0;
}

/* Fewer targets there than expect-disks says: the run's FAIL, said now. */
static void expect_targets(struct record *r, const struct settings *s)
{
	char count[40];
	int i, there = 0;

	for (i = 0; i < r->n; i++)
		there += strncmp(r->disks[i].failed, "missing:", 8) != 0;
	if (!s->expect_disks || (unsigned)there >= s->expect_disks)
		return;
	snprintf(r->failure, sizeof(r->failure), "%s tested, %u expected "
		 "(expect-disks): a disk is missing",
		 unit_count(count, sizeof(count), (uint64_t)there, "target",
			    NULL), s->expect_disks);
	complain("%s", r->failure);
}

int burncmd_command(struct options_args *a)
{
	struct result_record rec = { 0 };
	struct settings *s = &a->s;
	struct record r;
	char err[512], dir[PATH_MAX];
	int i, ret, made[2] = { 0, 0 };

	if (s->profile == SETTINGS_POWERCUT) {
		complain("profile powercut is kiln run's alone: the boot "
			 "image verifies after the power comes back; with "
			 "kiln burn, --mode write, cut the power, then --mode "
			 "verify --from DIR");
		return KILN_EXIT_USAGE;
	}
	settings_apply_profile(s);
	record_init(&r, "burn", a->argc, a->argv, s);
	if (s->upload && !s->out) {
		complain("--upload sends the run folder: give --out DIR too");
		ret = KILN_EXIT_USAGE;
		goto out;
	}
	if (s->from) {
		ret = result_load(s->from, &rec, err, sizeof(err));
		if (ret) {
			complain("%s", err);
			ret = KILN_EXIT_USAGE;
			goto out;
		}
		for (i = 0; i < rec.n && !rec.disks[i].last_written; i++)
			;
		if (i == rec.n) {
			complain("%s records no pass written to any disk (a "
				 "read or verify run?): nothing to verify; "
				 "give the run folder of the write", s->from);
			ret = KILN_EXIT_USAGE;
			goto out;
		}
		r.from = s->from;
		r.record = &rec;
		r.run_id = rec.run_id;
		if (!a->nargs) {
			ret = burncmd_add_recorded(&r, &rec);
			if (ret)
				goto out;
		}
	}
	ret = add_targets(&r, a);
	if (ret)
		goto out;
	expect_targets(&r, s);
	if (s->run_id_set)
		r.run_id = s->run_id;
	r.out = s->out;
	if (!r.out) {
		ret = default_folder(&r, dir, sizeof(dir), made);
		if (ret)
			goto out;
		r.out = dir;
	}
	ret = burn_run(&r);
	if (!s->out)
		default_folder_gone(dir, made);
out:
	record_free(&r);
	result_record_free(&rec);
	return ret;
}
