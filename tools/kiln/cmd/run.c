/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run, the automatic flow of the boot image: settings
 * (defaults, kiln.cfg, the kernel command line), discovery, the choice of
 * what to do with each disk, a countdown before anything is overwritten,
 * then one burn of every chosen disk at once, with results in the run
 * folder on the stick. Also kiln settings, which the init asks for the
 * settings in force so that nothing is parsed twice.
 */
#include <dirent.h>
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

#include "cmd/burn.h"
#include "cmd/burncmd.h"
#include "base/complain.h"
#include "discover/discover.h"
#include "discover/inventory.h"
#include "cmd/finish.h"
#include "results/folder.h"
#include "base/kiln.h"
#include "lab/lab.h"
#include "settings/options.h"
#include "plan/plan.h"
#include "results/result.h"
#include "cmd/run.h"
#include "settings/settings.h"
#include "base/sysfs.h"
#include "base/timing.h"

/* What the smoke profile samples: a few minutes even on slow disks. */
#define SMOKE_SPAN (1ull << 30)
/* How long a soak lasts unless duration says. */
#define SOAK_DEFAULT (12 * 3600)
#define MAX_CONSOLES 8

static const struct options_cmd run_cmd = {
	"run", "[--results ROOT] [--protect DEV]... [--config FILE] "
	"[--cmdline FILE] [--KEY=VALUE]...",
	"The boot image's automatic flow: the settings (defaults, then "
	"kiln.cfg, then kiln.KEY=VALUE on the kernel command line, then these "
	"options), discovery of every disk and controller, the plan (blank "
	"and kiln-data disks are written, disks that hold data are tested "
	"read-only unless destroy-data names them, disks in use are never "
	"touched), a countdown before anything is overwritten, then one burn "
	"of every chosen disk at once, judged, with results in "
	"ROOT/kiln-results/MACHINE/RUN/ on the stick.",
	SCOPE_RUN,
};

/* --protect DEV: every one a block device, or nothing starts. */
static int protect_devices(const struct settings *s, dev_t *devs,
			   struct settings_problems *p)
{
	int i;

	for (i = 0; i < s->nprotect; i++) {
		struct stat st;

		if (stat(s->protect[i], &st) < 0 || !S_ISBLK(st.st_mode)) {
			options_problem(p, "--protect %s: not a block device",
					s->protect[i]);
			continue;
		}
		devs[i] = st.st_rdev;
	}
	return s->nprotect;
}

/* Names that match no disk found: a typo, said before the countdown. */
static void say_unmatched(const struct settings *s,
			  const struct discover_inventory *inv)
{
	const struct identity **ids;
	char words[600];
	int i;

	ids = calloc((size_t)inv->ndisks + 1, sizeof(*ids));
	if (!ids)
		return;
	for (i = 0; i < inv->ndisks; i++)
		ids[i] = &inv->disks[i].id;
	plan_consent_unmatched(s, ids, inv->ndisks, words, sizeof(words));
	if (words[0])
		complain_out("destroy-data names %s: no such disk (a typo?): "
			     "no consent for it", words);
	free(ids);
	plan_globs_unmatched(s->exclude, inv, words, sizeof(words));
	if (words[0])
		complain_out("exclude names %s: no disk matches (a typo?): "
			     "nothing excluded by it", words);
	plan_globs_unmatched(s->include, inv, words, sizeof(words));
	if (words[0])
		complain_out("include names %s: no disk matches (a typo?)",
			     words);
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
		break;
	case SETTINGS_SOAK:
		/* Passes not given: as many as 12 hours allow. */
		if (!s->duration &&
		    !strcmp(settings_source(s, "passes"), "default"))
			s->duration = SOAK_DEFAULT;
		break;
	case SETTINGS_POWERCUT:
		/* One pass written and flushed; the next boot verifies it. */
		if (s->mode != SETTINGS_READ)
			s->mode = SETTINGS_WRITE;
		s->passes = 1;
		s->duration = 0;
		break;
	}
}

/*
 * ROOT/kiln-results/<id>/ of this machine, and of the earlier form of its
 * id when that differs (folders a kiln before hashed ids filed there: a
 * pending power-cut run, a run cut off). The number of folders, 1 or 2.
 */
static int machine_dirs(const char *results, const struct machine_system *sys,
			char dirs[2][PATH_MAX])
{
	snprintf(dirs[0], PATH_MAX, "%s/kiln-results/%s", results,
		 sys->machine_id);
	if (!sys->machine_id_old[0] ||
	    !strcmp(sys->machine_id_old, sys->machine_id))
		return 1;
	snprintf(dirs[1], PATH_MAX, "%s/kiln-results/%s", results,
		 sys->machine_id_old);
	return 2;
}

/* The newest pending power-cut folder in machine_dir, kept in best. */
static void find_pending(const char *machine_dir, char *best, size_t blen)
{
	struct dirent *e;
	DIR *d = opendir(machine_dir);
	char path[PATH_MAX];
	struct result_record rec;
	char err[300];

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *was = strrchr(best, '/');

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", machine_dir, e->d_name);
		if (result_load(path, &rec, err, sizeof(err)))
			continue;
		/* Folder names begin with the time: the newest one wins. */
		if (!strcmp(rec.state, "pending") &&
		    (!was || strcmp(e->d_name, was + 1) > 0))
			snprintf(best, blen, "%s", path);
		result_record_free(&rec);
	}
	closedir(d);
}

int run_finish_cut_off(const char *results, const struct machine_system *sys,
		       FILE *con, void (*done)(const char *dir, void *arg),
		       void *arg)
{
	char dirs[2][PATH_MAX];
	int i, n = machine_dirs(results, sys, dirs), finished = 0;

	for (i = 0; i < n; i++)
		finished += finish_machine(dirs[i], con, done, arg);
	return finished;
}

int run_find_pending(const char *results, const struct machine_system *sys,
		     char *out, size_t len)
{
	char dirs[2][PATH_MAX];
	int i, n = machine_dirs(results, sys, dirs);

	if (len)
		out[0] = 0;
	for (i = 0; i < n; i++)
		find_pending(dirs[i], out, len);
	return len && out[0] != 0;
}

/* Marks a pending folder verified: its result.json says so from now on. */
static void mark_verified(const char *dir)
{
	static const char from[] = "\"state\": \"pending\"";
	static const char to[] = "\"state\": \"verified\"";
	struct folder f = { .dir = (char *)dir };
	char path[PATH_MAX], *doc = NULL, *at;
	size_t len = 0, got;
	FILE *in;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	in = fopen(path, "re");
	if (!in)
		return;
	doc = malloc(1 << 26);
	got = doc ? fread(doc, 1, (1 << 26) - 1, in) : 0;
	fclose(in);
	if (doc) {
		doc[got] = 0;
		len = got;
		/* kiln's own writer: the state is one line, written so. */
		at = strstr(doc, from);
		if (at && len + sizeof(to) < (1u << 26)) {
			memmove(at + sizeof(to) - 1, at + sizeof(from) - 1,
				len - (size_t)(at - doc) - (sizeof(from) - 1) +
					1);
			memcpy(at, to, sizeof(to) - 1);
			len += sizeof(to) - sizeof(from);
			folder_write(&f, "result.json", doc, len);
		}
	}
	free(doc);
}

/*
 * Boot 2 of powercut: before anything else, the pending folder this
 * machine left is verified against its record, in a run folder of its
 * own that names it. The exit code of that verify, or -1 when none waits.
 */
static int verify_pending(const struct settings *run, const char *machine,
			  const char *pending, char *folder, size_t flen)
{
	struct result_record rec;
	struct settings s;
	struct record r;
	char err[300];
	int code;

	if (result_load(pending, &rec, err, sizeof(err))) {
		complain_out("%s", err);
		return KILN_EXIT_CANNOT;
	}
	settings_defaults(&s, SCOPE_RUN);
	s.mode = SETTINGS_VERIFY;
	s.deadline = run->deadline;
	s.interval = run->interval;
	s.checkpoint = run->checkpoint;
	s.qd = run->qd;
	s.bs = run->bs;
	record_init(&r, "run", 0, NULL, &s);
	r.from = pending;
	r.record = &rec;
	r.run_id = rec.run_id;
	r.pending_of = pending;
	r.kmsg = 1;
	complain_out(
		"a power-cut test is pending: verifying %s, written before the "
		"power was cut, first",
		pending);
	code = burncmd_add_recorded(&r, &rec);
	if (!code) {
		folder_run_path(run->results, machine, rec.run_id, folder,
				flen);
		r.out = folder;
		record_note(&r, "the second half of a power-cut test: what the "
			    "disks kept of run %016llx, written and flushed "
			    "before the power was cut (%s)",
			    (unsigned long long)rec.run_id, pending);
		code = burn_run(&r);
		if (code != KILN_EXIT_USAGE && code != KILN_EXIT_CANNOT)
			mark_verified(pending);
	}
	record_free(&r);
	result_record_free(&rec);
	settings_free(&s);
	return code;
}

static void print_settings(const struct settings *s, FILE *f)
{
	const struct settings_key *k;
	char val[256];
	int i;

	for (i = 0; (k = settings_key_at(i)); i++) {
		const char *src = settings_source(s, k->name);

		if (!strcmp(src, "default"))
			continue;
		settings_get(s, k->name, val, sizeof(val));
		fprintf(f, "  %-13s %-24s %s\n", k->name, val[0] ? val : "-",
			src);
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
	complain_out(
		"%d disk%s will be OVERWRITTEN. Press any key on any console "
		"to stop.",
		nwrite, nwrite == 1 ? "" : "s");
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

/* A run folder finished at this boot goes to the lab server too. */
static void send_finished(const char *dir, void *arg)
{
	const struct record *r = arg;

	lab_send_folder(r->s->upload, r->machine, dir, stdout);
}

/*
 * No stick, but a lab server (PXE): the run folder is kept in RAM and the
 * upload is where the results live, so the server must answer before
 * anything is touched. 0, or an exit code.
 */
static int upload_only(struct settings *s, struct record *r, char *folder,
		       size_t len)
{
	free(s->results);
	s->results = strdup(LAB_RAM_RESULTS);
	if (!s->results) {
		complain_out("out of memory");
		return KILN_EXIT_CANNOT;
	}
	r->lab.upload_only = 1;
	folder_run_path(s->results, r->machine, r->run_id, folder, len);
	printf("kiln: no stick: the results live at the lab server %s "
	       "(kept in RAM meanwhile)\n", s->upload);
	if (lab_reach(s->upload, LAB_REACH_SECONDS, stdout)) {
		complain_out("not starting: without a stick the lab server "
			     "is the only results medium; nothing was "
			     "touched");
		return KILN_EXIT_CANNOT;
	}
	return 0;
}

/* A run that did not start: the operator pulls the stick and reads why. */
static void write_not_started(const char *folder, const char *why,
			      const struct settings_problems *p)
{
	struct folder res;
	char err[300], *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	if (!folder || folder_open(&res, folder, 1 << 20, 0, err, sizeof(err)))
		return;
	f = open_memstream(&text, &len);
	if (f) {
		fprintf(f, "kiln run: NOT STARTED: %s\n", why);
		for (i = 0; p && i < p->n; i++)
			fprintf(f, "  %s\n", p->text[i]);
		fclose(f);
		folder_write(&res, "summary.txt", text, len);
	}
	folder_write_kmsg(&res, "/dev/kmsg");
	folder_close(&res);
	free(text);
}

int run_main(int argc, char **argv)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .read_disks = 1 };
	struct settings_problems problems = { 0 };
	struct discover_inventory inv;
	struct plan_item *items = NULL;
	struct settings s;
	struct record rec;
	char folder[PATH_MAX], err[300], **args;
	dev_t protect[SETTINGS_MAX_PROTECT];
	int i, n, nwrite = 0, code, pending_code = -1;

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return KILN_EXIT_CANNOT;
	if (options_load(&s, &run_cmd, argc, argv, args, &n, &problems) ==
	    OPTIONS_HELP) {
		options_usage(&run_cmd, stdout);
		free(args);
		return KILN_EXIT_PASS;
	}
	if (n)
		options_problem(&problems, "kiln run takes no targets: '%s'",
				args[0]);
	o.protect = protect;
	o.nprotect = protect_devices(&s, protect, &problems);
	o.deadline_ns = (uint64_t)s.deadline * TIMING_SEC;
	/* Every key checked before anything else, as every command does. */
	if (!problems.n && settings_check(&s, err, sizeof(err)))
		options_problem(&problems, "%s", err);
	record_init(&rec, "run", argc, argv, &s);
	rec.run_id = s.run_id_set ? s.run_id : burn_new_run_id();
	rec.kmsg = 1;

	printf("kiln run %016llx: settings in force (not defaults):\n",
	       (unsigned long long)rec.run_id);
	print_settings(&s, stdout);
	fflush(stdout);

	if (discover_scan(&o, &inv)) {
		complain_out("discovery failed: out of memory");
		record_free(&rec);
		settings_free(&s);
		free(args);
		return KILN_EXIT_CANNOT;
	}
	folder[0] = 0;
	snprintf(rec.machine, sizeof(rec.machine), "%s", inv.sys.machine_id);
	if (s.results)
		folder_run_path(s.results, inv.sys.machine_id, rec.run_id,
				folder, sizeof(folder));

	if (problems.n) {
		for (i = 0; i < problems.n; i++)
			complain_out("bad setting: %s", problems.text[i]);
		complain_out(
			"not starting: fix the settings above (kiln.cfg or the "
			"kernel command line)");
		write_not_started(folder[0] ? folder : NULL, "bad settings",
				  &problems);
		code = KILN_EXIT_USAGE;
		goto out;
	}
	apply_profile(&s);
	if (s.profile == SETTINGS_POWERCUT && !s.results) {
		complain_out("profile powercut needs a results medium (the "
			     "stick): the next boot verifies what this one "
			     "writes from its record");
		code = KILN_EXIT_USAGE;
		goto out;
	}
	if (s.results) {
		char pending[PATH_MAX], vfolder[PATH_MAX];

		/* Cut off at the last boot: finished from its checkpoint. */
		run_finish_cut_off(s.results, &inv.sys, stdout,
				   s.upload ? send_finished : NULL, &rec);
		if (run_find_pending(s.results, &inv.sys, pending,
				     sizeof(pending))) {
			/* Verified into a folder under the id of today. */
			pending_code = verify_pending(&s, inv.sys.machine_id,
						      pending, vfolder,
						      sizeof(vfolder));
			/* Its folder has the same second: keep them apart. */
			if (!strcmp(vfolder, folder))
				snprintf(folder + strlen(folder),
					 sizeof(folder) - strlen(folder), "-2");
		}
	}
	if (!s.results && s.upload) {
		code = upload_only(&s, &rec, folder, sizeof(folder));
		if (code)
			goto out;
	}
	if (s.profile == SETTINGS_POWERCUT) {
		rec.powercut = 1;
		if (s.after == SETTINGS_REBOOT)
			complain_out("profile powercut with after=reboot: a "
				     "warm reboot does not cut the drives' "
				     "power; cut it by hand, or use "
				     "after=poweroff");
	}

	putchar('\n');
	inventory_print(&inv, stdout);
	items = calloc((size_t)inv.ndisks + 1, sizeof(*items));
	if (!items) {
		complain_out("out of memory");
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	plan_choose(&s, &inv, items);
	print_plan(&inv, items);
	say_unmatched(&s, &inv);

	for (i = 0; i < inv.ndisks; i++) {
		const struct discover_disk *d = &inv.disks[i];
		char path[80];
		int mode = items[i].action == PLAN_WRITE ? s.mode :
			   SETTINGS_READ;

		snprintf(path, sizeof(path), "/dev/%s", d->id.name);
		/* Dead before the burn: a FAIL, and the others go on. */
		if (d->stalled) {
			struct record_disk *rd = record_add(&rec, path, mode);

			if (!rd) {
				complain_out("out of memory");
				code = KILN_EXIT_CANNOT;
				goto out;
			}
			snprintf(rd->label, sizeof(rd->label), "%s",
				 d->id.name);
			rd->t.id = d->id;
			snprintf(rd->failed, sizeof(rd->failed), "%s",
				 d->safety.why);
			continue;
		}
		if (items[i].action == PLAN_SKIP) {
			record_note(&rec, "%s not tested: %s", d->id.name,
				    items[i].why);
			continue;
		}
		if (!record_add(&rec, path, mode)) {
			complain_out("out of memory");
			code = KILN_EXIT_CANNOT;
			goto out;
		}
		/* What the countdown announces is what the plan writes. */
		if (items[i].action == PLAN_WRITE && plan_writes_mode(mode))
			nwrite++;
		if (items[i].action == PLAN_READ && plan_writes_mode(s.mode))
			record_note(&rec, "%s tested read-only: %s", d->id.name,
				    items[i].why);
	}
	if (s.expect_disks && (unsigned)inv.ndisks < s.expect_disks) {
		snprintf(rec.failure, sizeof(rec.failure), "%d disk%s found, "
			 "%u expected (expect-disks): a disk is missing",
			 inv.ndisks, inv.ndisks == 1 ? "" : "s",
			 s.expect_disks);
		complain_out("%s", rec.failure);
	}
	if (!rec.n)
		complain_out("nothing to test: %s",
			     inv.ndisks ? "no disk may be tested"
					: "no disks found");
	if (!s.results)
		complain_out("no results medium: results on the console only");

	if (nwrite && s.countdown && countdown(s.countdown, nwrite)) {
		complain_out(
			"stopped by a key press before any write: nothing was "
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
	if (rec.powercut && !strcmp(rec.state, "pending")) {
		int k;

		for (k = 0; k < 3; k++)
			printf("\n    *** CUT THE POWER NOW ***  (the next "
			       "boot verifies what the disks kept)\n");
		fflush(stdout);
	}
out:
	/* The worse of the pending verify and this run. */
	if (pending_code == KILN_EXIT_FAIL ||
	    (pending_code > 0 && code == KILN_EXIT_PASS))
		code = pending_code;
	free(items);
	record_free(&rec);
	discover_free(&inv);
	settings_free(&s);
	free(args);
	return code;
}
