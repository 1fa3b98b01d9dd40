/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run, the automatic flow of the boot image: settings
 * (defaults, kiln.cfg, the kernel command line), discovery, the choice of
 * what to do with each disk, a countdown before anything is overwritten,
 * then one burn of every chosen disk at once, with results in the run
 * folder on the stick. Also kiln settings, which the init asks for the
 * settings in force so that nothing is parsed twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"
#include "discover.h"
#include "inventory.h"
#include "kiln.h"
#include "plan.h"
#include "results.h"
#include "run.h"
#include "settings.h"
#include "sysfs.h"
#include "timing.h"

/* What the smoke profile samples: a few minutes even on slow disks. */
#define SMOKE_SPAN (1ull << 30)
/* How long a soak lasts unless duration says. */
#define SOAK_DEFAULT (12 * 3600)
#define MAX_PROTECT 16
#define MAX_CONSOLES 8

struct run {
	struct settings s;
	struct settings_problems problems;
	const char *results;		/* the stick's mount point */
	const char *config;		/* kiln.cfg */
	const char *cmdline;		/* /proc/cmdline */
	dev_t protect[MAX_PROTECT];
	int nprotect;
	char **opts;			/* --KEY=VALUE for the settings */
	int nopts;
};

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("kiln: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/*
 * The invocation's own options (--results, --protect, --config,
 * --cmdline); everything else is a setting, applied after kiln.cfg and the
 * kernel command line.
 */
static int parse_args(struct run *r, int argc, char **argv)
{
	int i;

	r->opts = calloc((size_t)argc + 1, sizeof(*r->opts));
	if (!r->opts)
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], **slot = NULL, *v;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (!strncmp(a, "--results", 9))
			slot = &r->results;
		else if (!strncmp(a, "--config", 8))
			slot = &r->config;
		else if (!strncmp(a, "--cmdline", 9))
			slot = &r->cmdline;
		else if (strncmp(a, "--protect", 9)) {
			r->opts[r->nopts++] = argv[i];
			continue;
		}
		v = strchr(a, '=');
		if (v)
			v++;
		else if (i + 1 < argc)
			v = argv[++i];
		else {
			fprintf(stderr, "kiln: %s needs a value\n", a);
			return -EINVAL;
		}
		if (slot) {
			*slot = v;
		} else {
			struct stat st;

			if (stat(v, &st) < 0 || !S_ISBLK(st.st_mode)) {
				fprintf(stderr, "kiln: --protect %s: not a block "
					"device\n", v);
				return -EINVAL;
			}
			if (r->nprotect < MAX_PROTECT)
				r->protect[r->nprotect++] = st.st_rdev;
		}
	}
	return 0;
}

/* Defaults, kiln.cfg, the kernel command line, then kiln's own options. */
static int load_settings(struct run *r)
{
	char cfg[PATH_MAX], cmdline[8192], err[300], *args[1];
	int ret, n;

	settings_defaults(&r->s);
	if (!r->config && r->results) {
		snprintf(cfg, sizeof(cfg), "%s/kiln.cfg", r->results);
		if (access(cfg, R_OK) == 0)
			r->config = cfg;
	}
	if (r->config) {
		ret = settings_load_cfg(&r->s, r->config, &r->problems);
		if (ret && r->problems.n < SETTINGS_MAX_PROBLEMS)
			snprintf(r->problems.text[r->problems.n++],
				 sizeof(r->problems.text[0]),
				 "cannot read %s: %s", r->config, strerror(-ret));
		r->config = NULL;	/* cfg[] ends here */
	}
	if (sysfs_read(r->cmdline ? r->cmdline : "/proc/cmdline", cmdline,
			  sizeof(cmdline)) >= 0)
		settings_load_cmdline(&r->s, cmdline, &r->problems);
	if (r->nopts) {
		ret = settings_parse_argv(&r->s, r->nopts, r->opts, args, &n,
					  err, sizeof(err));
		if (ret == 0 && n)
			snprintf(err, sizeof(err), "kiln run takes no targets: "
				 "'%s'", r->opts[0]);
		if ((ret || n) && r->problems.n < SETTINGS_MAX_PROBLEMS)
			snprintf(r->problems.text[r->problems.n++],
				 sizeof(r->problems.text[0]), "%s", err);
	}
	return 0;
}

/* The profile fills in what the settings left open. */
static void apply_profile(struct settings *s)
{
	switch (s->profile) {
	case SETTINGS_SMOKE:
		if (!s->span) {
			s->quick = 1;
			s->span = SMOKE_SPAN;
		}
		if (!s->passes && !s->duration)
			s->passes = 1;
		break;
	case SETTINGS_SOAK:
		if (!s->duration && !s->passes)
			s->duration = SOAK_DEFAULT;
		break;
	default:
		if (!s->passes && !s->duration)
			s->passes = 1;
		break;
	}
}

static void print_settings(const struct settings *s, FILE *f, int all)
{
	char val[256];
	const char *k;
	int i;

	for (i = 0; (k = settings_key(i)); i++) {
		const char *src = settings_source(s, k);

		if (!all && !strcmp(src, "default"))
			continue;
		settings_get(s, k, val, sizeof(val));
		fprintf(f, "  %-13s %-24s %s\n", k, val[0] ? val : "-", src);
	}
}

static void print_plan(const struct discover_inventory *inv,
		       const struct plan_item *items)
{
	char size[32];
	int i;

	printf("\n%-9s %9s  %-10s %-13s %s\n", "disk", "size", "class",
	       "to do", "because");
	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];

		settings_fmt_size(d->size, size, sizeof(size));
		printf("%-9.9s %9s  %-10s %-13s %.34s\n", d->id.name, size,
		       safety_class_name(d->safety.class),
		       plan_action_name(items[i].action), items[i].why);
	}
	if (!inv->ndisks)
		printf("(no disks found)\n");
	fflush(stdout);
}

/* The consoles the kernel writes to: an operator may be at any of them. */
static int open_consoles(int *fds, struct termios *saved)
{
	char line[256], name[64], path[80];
	FILE *f = fopen("/proc/consoles", "re");
	int n = 0;

	if (!f)
		return 0;
	while (n < MAX_CONSOLES && fgets(line, sizeof(line), f)) {
		struct termios t;
		int fd;

		if (sscanf(line, "%63s", name) != 1)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", name);
		fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (tcgetattr(fd, &saved[n]) == 0) {
			/* A key, not a line: no Enter needed to abort. */
			t = saved[n];
			t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
			t.c_cc[VMIN] = 0;
			t.c_cc[VTIME] = 0;
			tcsetattr(fd, TCSANOW, &t);
			tcflush(fd, TCIFLUSH);
		}
		fds[n++] = fd;
	}
	fclose(f);
	return n;
}

/* Counts down; 1 when a key on any console stopped it. */
static int countdown(unsigned seconds, int nwrite)
{
	struct termios saved[MAX_CONSOLES];
	struct pollfd p[MAX_CONSOLES + 1];
	int fds[MAX_CONSOLES], n, i, aborted = 0;
	unsigned left;

	n = open_consoles(fds, saved);
	for (i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	/* Standard input too, when kiln run is started by hand. */
	p[n] = (struct pollfd){ .fd = isatty(0) ? 0 : -1, .events = POLLIN };
	say("%d disk%s will be OVERWRITTEN. Press any key on any console "
	    "to stop.", nwrite, nwrite == 1 ? "" : "s");
	for (left = seconds; left > 0 && !aborted; left--) {
		printf("kiln: writing in %u s\n", left);
		fflush(stdout);
		if (poll(p, (nfds_t)n + 1, 1000) > 0)
			aborted = 1;
	}
	for (i = 0; i < n; i++) {
		tcsetattr(fds[i], TCSANOW, &saved[i]);
		close(fds[i]);
	}
	return aborted;
}

/* ROOT/kiln-results/<machine id>/<YYYYMMDDTHHMMSZ>-<run id> */
static int run_folder(const char *root, const char *machine, uint64_t run_id,
		      char *out, size_t len)
{
	char stamp[32];

	timing_fmt_utc(time(NULL), 1, stamp, sizeof(stamp));
	if (snprintf(out, len, "%s/kiln-results/%s/%s-%016llx", root, machine,
		     stamp, (unsigned long long)run_id) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Results of a run that did not start: the operator pulls the stick and reads why. */
static void write_not_started(const char *folder, const char *why,
			      const struct settings_problems *p)
{
	struct results res;
	char err[300], *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	if (!folder || results_open(&res, folder, err, sizeof(err)))
		return;
	f = open_memstream(&text, &len);
	if (f) {
		fprintf(f, "kiln run: NOT STARTED: %s\n", why);
		for (i = 0; p && i < p->n; i++)
			fprintf(f, "  %s\n", p->text[i]);
		fclose(f);
		results_write(&res, "summary.txt", text, len);
	}
	results_write_kmsg(&res, "/dev/kmsg");
	results_close(&res);
	free(text);
}

int run_main(int argc, char **argv)
{
	struct run r;
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .read_disks = 1 };
	struct discover_inventory inv;
	struct plan_item *items = NULL;
	struct record rec;
	char folder[PATH_MAX], err[300];
	int i, ret, nwrite = 0, code;

	memset(&r, 0, sizeof(r));
	ret = parse_args(&r, argc, argv);
	if (ret) {
		free(r.opts);
		return ret == 1 ? KILN_HELP : KILN_EXIT_USAGE;
	}
	load_settings(&r);
	/* Every key checked before anything else, as every command does. */
	if (!r.problems.n && settings_check(&r.s, err, sizeof(err)) &&
	    r.problems.n < SETTINGS_MAX_PROBLEMS)
		snprintf(r.problems.text[r.problems.n++],
			 sizeof(r.problems.text[0]), "%s", err);
	record_init(&rec, "run", argc, argv, &r.s);
	rec.run_id = r.s.run_id_set ? r.s.run_id : burn_new_run_id();
	rec.kmsg = 1;

	printf("kiln run %016llx: settings in force (not defaults):\n",
	       (unsigned long long)rec.run_id);
	print_settings(&r.s, stdout, 0);
	fflush(stdout);

	o.protect = r.protect;
	o.nprotect = r.nprotect;
	if (discover_scan(&o, &inv)) {
		say("discovery failed: out of memory");
		record_free(&rec);
		settings_free(&r.s);
		free(r.opts);
		return KILN_EXIT_CANNOT;
	}
	folder[0] = 0;
	if (r.results)
		run_folder(r.results, inv.sys.machine_id, rec.run_id, folder,
			   sizeof(folder));

	if (r.problems.n) {
		for (i = 0; i < r.problems.n; i++)
			say("bad setting: %s", r.problems.text[i]);
		say("not starting: fix the settings above (kiln.cfg or the "
		    "kernel command line)");
		write_not_started(folder[0] ? folder : NULL, "bad settings",
				  &r.problems);
		code = KILN_EXIT_USAGE;
		goto out;
	}
	apply_profile(&r.s);

	putchar('\n');
	inventory_print(&inv, stdout);
	items = calloc((size_t)inv.ndisks + 1, sizeof(*items));
	if (!items) {
		say("out of memory");
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	plan_choose(&r.s, &inv, items);
	print_plan(&inv, items);

	for (i = 0; i < inv.ndisks; i++) {
		const struct discover_disk *d = &inv.disks[i];
		char path[80];
		int mode = items[i].action == PLAN_WRITE ? r.s.mode :
			   SETTINGS_READ;

		if (items[i].action == PLAN_SKIP) {
			record_note(&rec, "%s not tested: %s", d->id.name,
				    items[i].why);
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", d->id.name);
		if (!record_add(&rec, path, mode)) {
			say("out of memory");
			code = KILN_EXIT_CANNOT;
			goto out;
		}
		/* What the countdown announces is what the plan writes. */
		if (items[i].action == PLAN_WRITE && plan_writes_mode(mode))
			nwrite++;
		if (items[i].action == PLAN_READ && plan_writes_mode(r.s.mode))
			record_note(&rec, "%s tested read-only: %s", d->id.name,
				    items[i].why);
	}
	if (r.s.expect_disks && (unsigned)inv.ndisks < r.s.expect_disks) {
		snprintf(rec.failure, sizeof(rec.failure), "%d disk%s found, "
			 "%u expected (expect-disks): a disk is missing",
			 inv.ndisks, inv.ndisks == 1 ? "" : "s",
			 r.s.expect_disks);
		say("%s", rec.failure);
	}
	if (!rec.n)
		say("nothing to test: %s", inv.ndisks ? "no disk may be tested"
		    : "no disks found");
	if (!r.results)
		say("no results medium: results on the console only");

	if (nwrite && r.s.countdown && countdown(r.s.countdown, nwrite)) {
		say("stopped by a key press before any write: nothing was "
		    "written");
		write_not_started(folder[0] ? folder : NULL,
				  "stopped by a key press during the countdown",
				  NULL);
		code = KILN_EXIT_INTERRUPTED;
		goto out;
	}

	rec.inventory = inventory_json(&inv, &rec.inventory_len);
	rec.out = folder[0] ? folder : NULL;
	code = burn_run(&rec);
out:
	free(items);
	record_free(&rec);
	discover_free(&inv);
	settings_free(&r.s);
	free(r.opts);
	return code;
}

int run_settings_main(int argc, char **argv)
{
	struct run r;
	const char *get = NULL;
	char val[512];
	int i, nargs = 0;
	char **rest;

	memset(&r, 0, sizeof(r));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest)
		return KILN_EXIT_CANNOT;
	/* --get KEY is ours; the rest is as kiln run takes it. */
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--get") && i + 1 < argc)
			get = argv[++i];
		else if (!strncmp(argv[i], "--get=", 6))
			get = argv[i] + 6;
		else
			rest[nargs++] = argv[i];
	}
	i = parse_args(&r, nargs, rest);
	if (i) {
		free(rest);
		free(r.opts);
		return i == 1 ? KILN_HELP : KILN_EXIT_USAGE;
	}
	load_settings(&r);
	for (i = 0; i < r.problems.n; i++)
		fprintf(stderr, "kiln: bad setting: %s\n", r.problems.text[i]);
	if (get) {
		if (!settings_get(&r.s, get, val, sizeof(val))) {
			fprintf(stderr, "kiln: unknown setting '%s'\n", get);
			i = KILN_EXIT_USAGE;
		} else {
			/* The value in force, even when another key was bad. */
			printf("%s\n", val);
			i = KILN_EXIT_PASS;
		}
	} else {
		print_settings(&r.s, stdout, 1);
		i = r.problems.n ? KILN_EXIT_USAGE : KILN_EXIT_PASS;
	}
	settings_free(&r.s);
	free(r.opts);
	free(rest);
	return i;
}
