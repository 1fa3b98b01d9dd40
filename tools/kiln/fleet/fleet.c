/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln fleet ROOT...: every run folder under results trees
 * (a lab server's upload root, sticks copied to a laptop) in one page and
 * one CSV: per machine its latest run and the runs behind it, failures
 * first, and like disks compared across machines. A tree is taken as it
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

#include "base/newfile.h"
#include "fleet/fleet.h"
#include "results/folder.h"
#include "base/json.h"
#include "base/kiln.h"
#include "settings/options.h"

const struct options_cmd fleet_cmd = {
	"fleet", "[--out DIR] ROOT...",
	"Reads every run folder under the results trees given (a lab "
	"server's upload root, kiln-results folders copied off sticks, one "
	"machine's folder) and writes DIR/fleet.html (one self-contained "
	"page, no script) and DIR/fleet.csv: per machine its latest run "
	"(verdict, state, failing disks and why, warnings, start, duration, "
	"kiln version) with the runs behind it, failures first, and disks of "
	"one model and capacity compared across machines. A run with "
	"checkpoints (an uploaded one's are under progress/, the newest "
	"read) and no result.json is running, or cut off once its newest "
	"checkpoint is older than --stale. When a machine's latest run left "
	"its disks with end=discard or end=zero, its row links its "
	"cert-machine.html and DIR/fleet-certificates.html holds a batch of "
	"certificates, a printed page a machine. What cannot be read is said on "
	"the page; a DIR others can write is said too. Exit 0 written, 2 no "
	"ROOT or one that is not a folder, 3 DIR cannot be written.",
	SCOPE_FLEET,
};

time_t fleet_when(const struct fleet_run *r)
{
	return r->clock_trusted && r->start ? r->start : r->changed;
}

int fleet_rank(const struct fleet_run *r)
{
	if (!strcmp(r->verdict, "FAIL"))
		return 0;
	if (r->state == FLEET_UNREADABLE || r->state == FLEET_PARTIAL)
		return 1;
	if (r->state == FLEET_CUT_OFF)
		return 2;
	if (!strcmp(r->verdict, "WARN") || r->state == FLEET_INTERRUPTED)
		return 3;
	if (r->state == FLEET_RUNNING)
		return 4;
	if (r->state == FLEET_PENDING)
		return 5;
	return 6;
}

/* The length of the UTF-8 sequence at s that is printable, else 0. */
static int utf8_len(const unsigned char *s)
{
	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	/* C1 controls (U+0080-U+009F) are not shown either. */
	if (*s < 0x80 || (s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	return (int)json_utf8_len(s);
}

void fleet_text(FILE *f, const char *s, int how)
{
	int html = how == FLEET_HTML;
	const unsigned char *p = (const unsigned char *)s;
	int n;

	while (p && *p) {
		n = utf8_len(p);
		if (!n) {
			fprintf(f, "\\x%02x", *p++);
			continue;
		}
		if (*p == '\\')
			fputs("\\\\", f);
		else if (html && *p == '&')
			fputs("&amp;", f);
		else if (html && *p == '<')
			fputs("&lt;", f);
		else if (html && *p == '>')
			fputs("&gt;", f);
		else if (html && *p == '"')
			fputs("&quot;", f);
		else if (how == FLEET_CSV && *p == '"')
			fputs("\"\"", f);
		else if (html && *p == '\'')
			fputs("&#39;", f);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

void fleet_disk_name(FILE *f, const struct fleet_disk *d, int how)
{
	fleet_text(f, d->label, how);
	fputs(" (", f);
	if (d->model[0] || d->serial[0]) {
		fleet_text(f, d->model, how);
		fputs(d->model[0] && d->serial[0] ? " " : "", f);
		fleet_text(f, d->serial[0] ? d->serial : "", how);
	} else {
		fleet_text(f, d->identity, how);
	}
	fputc(')', f);
}

char *fleet_age(double seconds, char *buf, size_t len)
{
	unsigned long long s = seconds > 0 ? (unsigned long long)seconds : 0;

	if (s < 60)
		snprintf(buf, len, "%llus", s);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%lluh%02llum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, len, "%llud%02lluh", s / 86400, s / 3600 % 24);
	return buf;
}

static int is_dir(const char *path)
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
	return 0;
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
		if (!is_dir(path))
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
	if (is_dir(path))
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
	const struct fleet_run *x = a, *y = b;
	int c = strcmp(x->machine, y->machine);

	return c ? c : strcmp(x->name, y->name);
}

/* The latest first: by when, then by name (which starts with the time). */
static int by_latest(const void *a, const void *b)
{
	const struct fleet_run *x = *(struct fleet_run *const *)a;
	const struct fleet_run *y = *(struct fleet_run *const *)b;
	time_t wx = fleet_when(x), wy = fleet_when(y);

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return strcmp(y->name, x->name);
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
	struct fleet_run **all;
	int i, j, n = 0;

	if (fl->nruns)
		qsort(fl->runs, (size_t)fl->nruns, sizeof(*fl->runs),
		      by_machine_then_name);
	all = calloc((size_t)fl->nruns + 1, sizeof(*all));
	fl->machines = calloc((size_t)fl->nruns + 1, sizeof(*fl->machines));
	if (!all || !fl->machines) {
		free(all);
		return -ENOMEM;
	}
	for (i = 0; i < fl->nruns; i++) {
		struct fleet_run *r = &fl->runs[i];
		struct fleet_run *last = n ? all[n - 1] : NULL;

		if (last && !strcmp(last->machine, r->machine) &&
		    !strcmp(last->name, r->name)) {
			if (tells_more(r, last))
				all[n - 1] = r;
			continue;
		}
		all[n++] = r;
	}
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
	}
	free(all);
	if (fl->n)
		qsort(fl->machines, (size_t)fl->n, sizeof(*fl->machines),
		      by_rank);
	return 0;
}

static void fleet_free(struct fleet *fl)
{
	int i;

	for (i = 0; i < fl->nruns; i++)
		fleet_read_free(&fl->runs[i]);
	for (i = 0; i < fl->n; i++)
		free(fl->machines[i].runs);
	free(fl->runs);
	free(fl->machines);
}

/*
 * Both files, each whole or not at all (a .tmp renamed), made under the
 * folder's descriptor so that a link planted there is never followed; a
 * folder others can write is said. 0 or -errno.
 */
static int write_out(const char *dir, const char *html, size_t hlen,
		     const char *csv, size_t clen, const char *certs,
		     size_t cerlen)
{
	char why[PATH_MAX + 100];
	int dfd, ret;

	if (!html || !csv)
		return -ENOMEM;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	dfd = newfile_dir(dir);
	if (dfd < 0)
		return dfd;
	if (newfile_others(dfd, dir, why, sizeof(why)))
		fprintf(stderr, "kiln: fleet: %s\n", why);
	ret = newfile_write(dfd, "fleet.csv", csv, clen);
	/* Before the page that links to it. */
	if (!ret && certs)
		ret = newfile_write(dfd, "fleet-certificates.html", certs,
				    cerlen);
	if (!ret)
		ret = newfile_write(dfd, "fleet.html", html, hlen);
	close(dfd);
	return ret;
}

int fleet_command(struct options_args *a)
{
	struct fleet_like_group *groups = NULL;
	struct fleet fl = { 0 };
	const struct settings *s = &a->s;
	char **args = a->args, *html = NULL, *csv = NULL, *certs = NULL;
	const char *dir;
	size_t hlen = 0, clen = 0, cerlen = 0;
	int i, n = a->nargs, ngroups = 0, ret, code = KILN_EXIT_PASS, any = 0;

	for (i = 0; i < n; i++) {
		if (!is_dir(args[i])) {
			fprintf(stderr, "kiln: %s: %s\n", args[i], access(
				args[i], F_OK) ? strerror(errno) :
				"not a folder");
			code = KILN_EXIT_USAGE;
			goto out;
		}
	}
	fl.now = time(NULL);
	fl.stale = s->stale;
	fl.roots = args;
	fl.nroots = n;
	fl.out = s->out ? s->out : ".";
	ret = 0;
	for (i = 0; !ret && i < n; i++)
		ret = walk_root(&fl, args[i]);
	if (!ret)
		ret = group(&fl);
	if (!ret)
		ret = fleet_like_groups(&fl, &groups, &ngroups);
	if (ret) {
		fprintf(stderr, "kiln: fleet: %s\n", strerror(-ret));
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	dir = fl.out;
	/* There first, so the page's links to the runs are from it. */
	if (mkdir(dir, 0755) && errno != EEXIST)
		fl.out = NULL;
	html = fleet_page_html(&fl, groups, ngroups, &hlen);
	csv = fleet_csv_text(&fl, &clen);
	certs = fleet_certs_html(&fl, &cerlen, &any);
	if (!certs) {
		ret = -ENOMEM;
	} else {
		if (!any) {
			free(certs);
			certs = NULL;
		}
		ret = write_out(dir, html, hlen, csv, clen, certs, cerlen);
	}
	if (ret) {
		fprintf(stderr, "kiln: cannot write fleet.html and fleet.csv "
			"in %s: %s\n", dir, strerror(-ret));
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	printf("kiln fleet: %d machine%s, %d run folder%s: %s/fleet.html, "
	       "%s/fleet.csv\n", fl.n, fl.n == 1 ? "" : "s", fl.nruns,
	       fl.nruns == 1 ? "" : "s", dir, dir);
out:
	free(html);
	free(csv);
	free(certs);
	fleet_like_free(groups, ngroups);
	fleet_free(&fl);
	return code;
}
