/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run, the automatic flow of the boot image: settings
 * (defaults, kiln.cfg, the kernel command line, read by main), discovery,
 * what the last boot left (a run cut off, a pending power-cut test), the
 * choice of what to do with each disk and a countdown before anything is
 * overwritten (run_plan.c), then one burn of every chosen disk at once,
 * with results in the run folder on the stick.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/burn.h"
#include "cmd/burncmd.h"
#include "cmd/expect_use.h"
#include "cmd/labcfg.h"
#include "base/http_url.h"
#include "base/secret.h"
#include "base/complain.h"
#include "discover/discover.h"
#include "discover/inventory.h"
#include "fleet/fleet.h"
#include "judge/bmcjudge.h"
#include "sense/bmc.h"
#include "cmd/finish.h"
#include "results/folder.h"
#include "base/kiln.h"
#include "base/newfile.h"
#include "lab/lab.h"
#include "settings/options.h"
#include "plan/plan.h"
#include "results/result.h"
#include "cmd/run.h"
#include "cmd/run_plan.h"
#include "settings/settings.h"
#include "base/sysfs.h"
#include "base/timing.h"

const struct options_cmd run_cmd = {
	"run", "[--results ROOT] [--protect DEV]... [--config FILE] "
	"[--cmdline FILE] [--powercut-file FILE] [--KEY=VALUE]...",
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
		if (rec.state == RECORD_PENDING &&
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
	char err[PATH_MAX + 300];

	fleet_index_drop(dir);
	if (result_set_state(dir, RECORD_VERIFIED, err, sizeof(err)))
		complain_out("%s: the next boot verifies it again", err);
	else if (fleet_index_redo(dir, err, sizeof(err)))
		complain("no index beside %s/result.json: %s", dir, err);
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


/* A run folder finished at this boot goes to the lab server too. */
static void send_finished(const char *dir, void *arg)
{
	const struct record *r = arg;

	lab_send_folder(r->s, r->machine, dir, stdout);
}

/*
 * No stick, but a lab server (PXE): the run folder is kept in RAM and the
 * upload is where the results live, so the server must answer before
 * anything is touched. 0, or an exit code.
 */
static int upload_only(struct settings *s, struct record *r, char *folder,
		       size_t len)
{
	char shown[HTTP_URL_HOST_MAX + HTTP_URL_PATH_MAX];

	free(s->results);
	s->results = strdup(LAB_RAM_RESULTS);
	if (!s->results) {
		complain_out("out of memory");
		return KILN_EXIT_CANNOT;
	}
	r->lab.upload_only = 1;
	folder_run_path(s->results, r->machine, r->run_id, folder, len);
	printf("kiln: no stick: the results live at the lab server %s "
	       "(kept in RAM meanwhile)\n",
	       secret_mask(s->upload, shown, sizeof(shown)));
	if (lab_reach(s, LAB_REACH_SECONDS, stdout)) {
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

/*
 * What stops a run before anything is touched: a bad setting (said on
 * the console and on the stick), a power-cut test with no stick. 0, or
 * the exit code.
 */
static int may_start(struct settings *s, const struct settings_problems *p,
		     const char *folder)
{
	int i;

	if (p->n) {
		for (i = 0; i < p->n; i++)
			complain_out("bad setting: %s", p->text[i]);
		complain_out(
			"not starting: fix the settings above (kiln.cfg or the "
			"kernel command line)");
		write_not_started(folder[0] ? folder : NULL, "bad settings", p);
		return KILN_EXIT_USAGE;
	}
	settings_apply_profile(s);
	if (s->profile == SETTINGS_POWERCUT && !s->results) {
		complain_out("profile powercut needs a results medium (the "
			     "stick): the next boot verifies what this one "
			     "writes from its record");
		return KILN_EXIT_USAGE;
	}
	return 0;
}

/*
 * What the last boot left on the stick, before this run: a run cut off is
 * finished from its checkpoint, a pending power-cut run verified. The
 * verify's exit code, or -1 when none waited.
 */
static int last_boot(const struct settings *s,
		     const struct machine_system *sys, struct record *rec,
		     char *folder, size_t flen)
{
	char pending[PATH_MAX], vfolder[PATH_MAX];
	int code = -1;

	/* Cut off at the last boot: finished from its checkpoint. */
	run_finish_cut_off(s->results, sys, stdout,
			   s->upload ? send_finished : NULL, rec);
	if (run_find_pending(s->results, sys, pending, sizeof(pending))) {
		/* Verified into a folder under the id of today. */
		code = verify_pending(s, sys->machine_id, pending, vfolder,
				      sizeof(vfolder));
		/* Its folder has the same second: keep them apart. */
		if (!strcmp(vfolder, folder))
			snprintf(folder + strlen(folder), flen - strlen(folder),
				 "-2");
	}
	return code;
}

/*
 * Boot 1 of powercut, its writes flushed: the power is to be cut. With a
 * BMC the init cuts it (powercut-file says so, once the init has synced
 * and unmounted the stick); without one a person does.
 */
static void cut_power(const struct record *rec)
{
	const char *file = rec->s->powercut_file;
	const struct bmc *b = record_slot(rec, BMC_SLOT);
	int bmc = b && (b->state == BMC_READ || b->state == BMC_UNREAD);
	const char *say = bmc ? "bmc\n" : "none\n";
	int k, fd, ret;

	if (file) {
		/* Never through a link planted at its name. */
		fd = newfile_over(file);
		ret = fd < 0 ? fd : newfile_write_all(fd, say, strlen(say));
		if (fd >= 0 && close(fd) && !ret)
			ret = -errno;
		if (ret) {
			complain_out("cannot write %s: %s: the power is not cut "
				     "through the BMC", file, strerror(-ret));
			bmc = 0;
		}
	}
	bmc = bmc && file;
	for (k = 0; k < 3; k++)
		printf(bmc ? "\n    *** THE BMC CUTS THE POWER NOW ***  (once "
		       "the stick is unmounted; the next boot verifies what "
		       "the disks kept)\n" :
		       "\n    *** CUT THE POWER NOW ***  (the next "
		       "boot verifies what the disks kept)\n");
	fflush(stdout);
}

/* The burn of every chosen disk, once the countdown let it start. */
static int burn(struct record *rec, const struct discover_inventory *inv,
		char *folder)
{
	int code;

	rec->inventory = inventory_json(inv, &rec->inventory_len);
	rec->out = folder[0] ? folder : NULL;
	code = burn_run(rec);
	if (rec->powercut && rec->state == RECORD_PENDING)
		cut_power(rec);
	return code;
}

/*
 * From the settings checked to the burn: what the last boot left, the
 * stick or the lab server, the plan and the countdown. The exit code.
 */
static int run(struct settings *s, const struct settings_problems *p,
	       const struct discover_inventory *inv, struct record *rec,
	       char *folder, size_t flen, int *pending_code)
{
	int code, nwrite;

	code = may_start(s, p, folder);
	if (code)
		return code;
	if (s->results)
		*pending_code = last_boot(s, &inv->sys, rec, folder, flen);
	if (!s->results && s->upload) {
		code = upload_only(s, rec, folder, flen);
		if (code)
			return code;
	}
	/*
	 * The boot that verified a power-cut test starts no new one, or a
	 * BMC that cuts the power would have the machine cut it for ever.
	 */
	if (s->profile == SETTINGS_POWERCUT && *pending_code >= 0) {
		complain_out("the power-cut test is verified: this boot starts "
			     "no new one (set another profile on the stick, or "
			     "boot again for another power-cut test)");
		return KILN_EXIT_PASS;
	}
	if (s->profile == SETTINGS_POWERCUT) {
		rec->powercut = 1;
		if (s->after == SETTINGS_REBOOT)
			complain_out("profile powercut with after=reboot: a "
				     "warm reboot does not cut the drives' "
				     "power; cut it by hand, or use "
				     "after=poweroff");
	}
	if (run_plan_disks(s, inv, rec, &nwrite)) {
		complain_out("out of memory");
		return KILN_EXIT_CANNOT;
	}
	if (!s->results)
		complain_out("no results medium: results on the console only");
	if (nwrite && s->countdown &&
	    run_plan_countdown(s->countdown, nwrite)) {
		complain_out(
			"stopped by a key press before any write: nothing was "
			"written");
		write_not_started(folder[0] ? folder : NULL,
				  "stopped by a key press during the countdown",
				  NULL);
		return KILN_EXIT_INTERRUPTED;
	}
	return burn(rec, inv, folder);
}

/*
 * lab=URL: the lab server's settings read into a's, after kiln.cfg and
 * before the kernel command line. 0 read or none there; -errno when the
 * server could not be asked, said in why (the caller decides, by
 * lab-config, whether the run goes on).
 */
static int lab_settings(struct options_args *a, char *said, size_t slen)
{
	char url[2 * HTTP_URL_PATH_MAX], why[240], err[300], *text;
	size_t len;
	int ret;

	ret = labcfg_fetch(&a->s, ".cfg", &text, &len, url, sizeof(url), why,
			   sizeof(why));
	if (ret == 1) {
		snprintf(said, slen, "lab server %s has no settings for this "
			 "machine (nor a default.cfg): the stick's and the "
			 "command line's", a->s.lab);
		secret_mask(said, said, slen);
		return 0;
	}
	if (ret) {
		snprintf(said, slen, "lab server: cannot fetch %s: %s",
			 url[0] ? url : a->s.lab, why);
		secret_mask(said, said, slen);
		return ret;
	}
	settings_free(&a->s);
	memset(&a->problems, 0, sizeof(a->problems));
	options_load_lab(&a->s, &run_cmd, a->argc, a->argv, a->args,
			 &a->nargs, &a->problems, text, len, url);
	if (!a->problems.n && settings_check(&a->s, err, sizeof(err)))
		options_problem(&a->problems, "%s", err);
	snprintf(said, slen, "settings from the lab server: %s", url);
	free(text);
	return 0;
}

/*
 * lab=URL and no expect= of its own: the lab server's expect file for
 * this machine, its text in *text (to free; NULL when the lab has none)
 * and its URL in url. 0, or -errno said in said.
 */
static int lab_expect(const struct settings *s, char **text, char *url,
		      size_t ulen, char *said, size_t slen)
{
	char why[240];
	size_t len;
	int ret;

	ret = labcfg_fetch(s, ".expect", text, &len, url, ulen, why,
			   sizeof(why));
	if (ret == 1) {
		*text = NULL;
		return 0;
	}
	if (ret)
		snprintf(said, slen, "lab server: cannot fetch %s: %s",
			 url[0] ? url : s->lab, why);
	else
		snprintf(said, slen, "the expected machine from the lab "
			 "server: %s", url);
	secret_mask(said, said, slen);
	return ret;
}

int run_command(struct options_args *a)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .read_disks = 1 };
	struct settings *s = &a->s;
	struct discover_inventory inv;
	struct record rec;
	char folder[PATH_MAX], lab_said[2 * HTTP_URL_PATH_MAX + 300] = "";
	char expect_said[sizeof(lab_said)] = "";
	char expect_url[2 * HTTP_URL_PATH_MAX] = "", *expect_text = NULL;
	int code, pending_code = -1, lab_ret = 0;

	if (s->lab && !a->problems.n) {
		lab_ret = lab_settings(a, lab_said, sizeof(lab_said));
		complain_out("%s", lab_said);
	}
	if (s->lab && !a->problems.n && !lab_ret && !s->expect) {
		lab_ret = lab_expect(s, &expect_text, expect_url,
				     sizeof(expect_url), expect_said,
				     sizeof(expect_said));
		if (expect_said[0])
			complain_out("%s", expect_said);
		if (lab_ret)
			snprintf(lab_said, sizeof(lab_said), "%s",
				 expect_said);
	}
	o.protect = a->protect;
	o.nprotect = a->nprotect;
	o.deadline_ns = (uint64_t)s->deadline * TIMING_SEC;
	/* Device-mapper devices only when disks are named (include). */
	o.mapped = s->include != NULL;
	o.machine_id = s->machine_id;
	record_init(&rec, "run", a->argc, a->argv, s);
	rec.run_id = s->run_id_set ? s->run_id : burn_new_run_id();
	rec.kmsg = 1;
	if (lab_said[0])
		record_note(&rec, "%s", lab_said);
	if (expect_text && expect_said[0])
		record_note(&rec, "%s", expect_said);

	printf("kiln run %016llx: settings in force (not defaults):\n",
	       (unsigned long long)rec.run_id);
	print_settings(s, stdout);
	fflush(stdout);

	if (discover_scan(&o, &inv)) {
		complain_out("discovery failed: out of memory");
		free(expect_text);
		record_free(&rec);
		return KILN_EXIT_CANNOT;
	}
	folder[0] = 0;
	snprintf(rec.machine, sizeof(rec.machine), "%s", inv.sys.machine_id);
	if (s->results)
		folder_run_path(s->results, inv.sys.machine_id, rec.run_id,
				folder, sizeof(folder));
	if (lab_ret && s->lab_config == SETTINGS_LAB_REQUIRED) {
		/* Nothing touched: the operator reads why on the stick. */
		complain_out("not starting: lab-config=required and the lab "
			     "server's settings could not be fetched");
		write_not_started(folder[0] ? folder : NULL, lab_said, NULL);
		code = KILN_EXIT_CANNOT;
	} else if (expect_use_run(s, &a->problems, &inv, a->protect,
				  a->nprotect, expect_text, expect_url,
				  &rec)) {
		complain_out("out of memory");
		code = KILN_EXIT_CANNOT;
	} else {
		code = run(s, &a->problems, &inv, &rec, folder,
			   sizeof(folder), &pending_code);
	}
	/* The worse of the pending verify and this run. */
	if (pending_code == KILN_EXIT_FAIL ||
	    (pending_code > 0 && code == KILN_EXIT_PASS))
		code = pending_code;
	free(expect_text);
	record_free(&rec);
	discover_free(&inv);
	return code;
}
