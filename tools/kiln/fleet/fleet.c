/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln fleet's gathering: every run folder under results
 * trees (a lab server's upload root, sticks copied to a laptop) read into
 * machines, per machine its latest run and the runs behind it, failures
 * first; and the words the page and the CSV share. A tree is taken as it
 * comes: ROOT/kiln-results/MACHINE/RUN/, the kiln-results folder itself,
 * an upload root of MACHINE/RUN/, one machine's folder, or one run
 * folder; foreign files and folders are passed over, and what cannot be
 * read is said on the page, never in the exit code.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "results/folder.h"

int fleet_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* YYYYMMDDTHHMMSSZ-RUNID, as kiln run names its folders. */
static int run_name(const char *s)
{
	int i;

	for (i = 0; i < 16; i++) {
		char c = s[i];

		if (i == 8 ? c != 'T' : i == 15 ? c != 'Z' :
		    (c < '0' || c > '9'))
			return 0;
	}
	return s[16] == '-' && s[17] && strspn(s + 17, "0123456789abcdef") ==
	       strlen(s + 17);
}

/* A run folder: named as kiln names them, or holding a run's files. */
static int is_run(const char *dir, const char *name)
{
	return run_name(name) || exists(dir, "result.json") ||
	       exists(dir, folder_checkpoints[0]) ||
	       exists(dir, folder_checkpoints[1]) ||
	       exists(dir, FOLDER_PROGRESS) ||
	       exists(dir, "summary.txt") || exists(dir, "samples.csv");
}

static int add_run(struct fleet *fl, const char *dir, const char *machine,
		   const char *name)
{
	struct fleet_run *grown;

	if (fl->nruns == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 256;
		grown = realloc(fl->runs, (size_t)fl->cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		fl->runs = grown;
	}
	if (fleet_read_run(dir, machine, name, fl->now, fl->stale,
			   &fl->runs[fl->nruns])) {
		fleet_read_free(&fl->runs[fl->nruns]);
		return -ENOMEM;
	}
	fl->nruns++;
	return fleet_keep_add(fl, fl->nruns - 1);
}

/* The last name of a path, as a machine's or a run's name. */
static const char *base(const char *path, char *buf, size_t len)
{
	char *slash;

	if (!realpath(path, buf))
		snprintf(buf, len, "%s", path);
	while ((slash = strrchr(buf, '/')) && !slash[1] && slash > buf)
		*slash = 0;
	slash = strrchr(buf, '/');
	return slash && slash[1] ? slash + 1 : buf;
}

/*
 * The folders in dir (hidden ones and files passed over): with a machine,
 * its run folders are read; without, each is a machine's folder. With
 * only_is_run, nothing is read: 1 at the first run folder. 0, or -ENOMEM.
 */
static int each_folder(struct fleet *fl, const char *dir, const char *machine,
		       int only_is_run)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	int ret = 0;

	/* Unreadable: a row that says so (a machine's folder, or a tree's). */
	if (!d)
		return only_is_run || errno == ENOENT || errno == ENOTDIR ? 0 :
		       add_run(fl, dir, machine ? machine :
			       base(dir, path, sizeof(path)), "");
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN &&
		    e->d_type != DT_LNK)
			continue;
		/* A link or an unknown type is followed; a folder is one. */
		if (e->d_type != DT_DIR && !fleet_is_dir(path))
			continue;
		if (only_is_run) {
			if (is_run(path, e->d_name))
				ret = 1;
		} else if (machine) {
			if (is_run(path, e->d_name))
				ret = add_run(fl, path, machine, e->d_name);
		} else {
			/* A machine's folder: its run folders, if any. */
			ret = each_folder(fl, path, e->d_name, 0);
		}
	}
	closedir(d);
	return ret;
}

/* One ROOT, whichever of the layouts it is. */
static int walk_root(struct fleet *fl, const char *root)
{
	char path[PATH_MAX], real[PATH_MAX], up[PATH_MAX + 4];
	const char *name;

	snprintf(path, sizeof(path), "%s/kiln-results", root);
	if (fleet_is_dir(path))
		return each_folder(fl, path, NULL, 0);
	if (exists(root, "result.json") ||
	    exists(root, folder_checkpoints[0]) ||
	    exists(root, folder_checkpoints[1]) ||
	    exists(root, FOLDER_PROGRESS)) {
		/* One run folder: its machine is the folder above. */
		snprintf(up, sizeof(up), "%s/..", root);
		return add_run(fl, root, base(up, real, sizeof(real)),
			       base(root, path, sizeof(path)));
	}
	/* A machine's folder holds run folders; a results tree, machines. */
	name = base(root, real, sizeof(real));
	if (strcmp(name, "kiln-results") && each_folder(fl, root, NULL, 1) == 1)
		return each_folder(fl, root, name, 0);
	return each_folder(fl, root, NULL, 0);
}

static int by_machine_then_name(const void *a, const void *b)
{
	const struct fleet_run *x = *(struct fleet_run *const *)a;
	const struct fleet_run *y = *(struct fleet_run *const *)b;
	int c = strcmp(x->machine, y->machine);

	return c ? c : strcmp(x->name, y->name);
}

/* The latest first: by when, then by name (which starts with the time). */
static int by_latest(const void *a, const void *b)
{
	const struct fleet_run *x = *(struct fleet_run *const *)a;
	const struct fleet_run *y = *(struct fleet_run *const *)b;

	return fleet_later(x, y) ? -1 : fleet_later(y, x);
}

static int by_rank(const void *a, const void *b)
{
	const struct fleet_machine *x = a, *y = b;
	int rx = fleet_rank(x->runs[0]), ry = fleet_rank(y->runs[0]);

	return rx != ry ? rx - ry : strcmp(x->id, y->id);
}

/*
 * Of two copies of one run (a stick copied off, and its upload), whether a
 * tells more than b: a finished document, else the later checkpoint; the
 * same, then the older: a copy that did not keep its times only ever
 * looks newer, and would make a run cut off look running.
 */
static int tells_more(const struct fleet_run *a, const struct fleet_run *b)
{
	int fa = a->state < FLEET_RUNNING, fb = b->state < FLEET_RUNNING;

	if (fa != fb)
		return fa;
	/* verified since it was pending, interrupted by kiln finish... */
	if (fa && a->state != b->state)
		return a->state < b->state;
	if (a->checkpoint != b->checkpoint)
		return a->checkpoint > b->checkpoint;
	/* Running or cut off follows from the times: not a tie-break. */
	if (a->changed != b->changed)
		return a->changed < b->changed;
	if (a->state != b->state)
		return a->state < b->state;
	return strcmp(a->dir, b->dir) < 0;
}

/* Runs into machines, each run once. */
static int group(struct fleet *fl)
{
	struct fleet_run **all, **sorted;
	int i, j, n = 0;

	all = calloc((size_t)fl->nruns + 1, sizeof(*all));
	sorted = calloc((size_t)fl->nruns + 1, sizeof(*sorted));
	fl->machines = calloc((size_t)fl->nruns + 1, sizeof(*fl->machines));
	if (!all || !sorted || !fl->machines) {
		free(all);
		free(sorted);
		return -ENOMEM;
	}
	/* The runs stay where they are: pointers are cheaper to move. */
	for (i = 0; i < fl->nruns; i++)
		sorted[i] = &fl->runs[i];
	if (fl->nruns)
		qsort(sorted, (size_t)fl->nruns, sizeof(*sorted),
		      by_machine_then_name);
	for (i = 0; i < fl->nruns; i++) {
		struct fleet_run *r = sorted[i];
		struct fleet_run *last = n ? all[n - 1] : NULL;

		if (last && !strcmp(last->machine, r->machine) &&
		    !strcmp(last->name, r->name)) {
			if (tells_more(r, last))
				all[n - 1] = r;
			continue;
		}
		all[n++] = r;
	}
	free(sorted);
	for (i = 0; i < n; i = j) {
		struct fleet_machine *m = &fl->machines[fl->n++];

		for (j = i; j < n && !strcmp(all[j]->machine, all[i]->machine);)
			j++;
		m->id = all[i]->machine;
		m->n = j - i;
		m->runs = malloc((size_t)m->n * sizeof(*m->runs));
		if (!m->runs) {
			free(all);
			return -ENOMEM;
		}
		memcpy(m->runs, all + i, (size_t)m->n * sizeof(*m->runs));
		qsort(m->runs, (size_t)m->n, sizeof(*m->runs), by_latest);
		/* Cut down while read, and the latest after all: whole. */
		if (fleet_keep_whole(fl, m->runs[0])) {
			free(all);
			return -ENOMEM;
		}
	}
	free(all);
	if (fl->n)
		qsort(fl->machines, (size_t)fl->n, sizeof(*fl->machines),
		      by_rank);
	return 0;
}

int fleet_gather(struct fleet *fl)
{
	int i, ret = 0;

	for (i = 0; !ret && i < fl->nroots; i++)
		ret = walk_root(fl, fl->roots[i]);
	fleet_keep_done(fl);
	if (!ret)
		ret = group(fl);
	return ret;
}

void fleet_free(struct fleet *fl)
{
	int i;

	fleet_keep_done(fl);
	for (i = 0; i < fl->nruns; i++)
		fleet_read_free(&fl->runs[i]);
	for (i = 0; i < fl->n; i++)
		free(fl->machines[i].runs);
	free(fl->runs);
	free(fl->machines);
	for (i = 0; i < fl->nshown; i++)
		free(fl->refused_last[i]);
}

/*
 * The lab server's refused token claims (scripts/labserver.sh, issue 38):
 * counted, and the last FLEET_REFUSED_SHOWN kept for the page. A file
 * that cannot be read is said on the page, never in the exit code.
 */
void fleet_read_refused(struct fleet *fl, const char *path)
{
	char *line = NULL, *keep[FLEET_REFUSED_SHOWN] = { NULL };
	size_t cap = 0;
	ssize_t len;
	int i, n = 0;
	FILE *f;

	fl->refused_path = path;
	f = fopen(path, "re");
	if (!f) {
		fl->refused_err = errno;
		return;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		free(keep[n % FLEET_REFUSED_SHOWN]);
		keep[n % FLEET_REFUSED_SHOWN] = line;
		line = NULL;
		cap = 0;
		n++;
	}
	if (ferror(f))
		fl->refused_err = errno ? errno : EIO;
	free(line);
	fclose(f);
	fl->nrefused = n;
	fl->nshown = n < FLEET_REFUSED_SHOWN ? n : FLEET_REFUSED_SHOWN;
	/* The ring's oldest first. */
	for (i = 0; i < fl->nshown; i++)
		fl->refused_last[i] = keep[(n - fl->nshown + i) %
					   FLEET_REFUSED_SHOWN];
}
