/* SPDX-License-Identifier: MIT */
/*
 * Description: one run folder read for kiln fleet, whatever a lab's tree
 * really holds: result.json of every schema version kiln has written,
 * else the newest checkpoint whose length and CRC hold (a run still going,
 * or one cut off), else what is there (an upload cut short). Nothing here
 * fails but memory: a folder that cannot be read says why in its run.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "fleet/fleet.h"
#include "judge/judge.h"
#include "judge/peers.h"
#include "results/folder.h"
#include "results/result_keys.h"
#include "base/jsonread.h"
#include "base/timing.h"
#include "results/result.h"
#include "results/result_target.h"

/* A reason for people: errors are short, paths are the row's own. */
#define WHY 320

/* The states a folder read adds to the run's own (record_state_name). */
static const char *const folder_states[FLEET_STATES - FLEET_CUT_OFF] = {
	"cut off", "partial", "unreadable",
};

const char *fleet_state_name(int state)
{
	if (state >= FLEET_CUT_OFF && state < FLEET_STATES)
		return folder_states[state - FLEET_CUT_OFF];
	return record_state_name(state);
}

/* A WARN's or FAIL's reasons, one string. */
static char *reasons(const struct jsonread_node *t, int *oom)
{
	const struct jsonread_node *list = jsonread_get(t, KEY_REASONS);
	size_t i, used = 0, cap = 1;
	int clean;
	char *out;

	for (i = 0; i < jsonread_count(list); i++)
		cap += strlen(jsonread_str(jsonread_at(list, i), NULL, "")) + 2;
	out = malloc(cap);
	if (!out) {
		*oom = 1;
		return NULL;
	}
	out[0] = 0;
	/* The clean line last: a WARN leads with its warning. */
	for (clean = 0; clean < 2; clean++)
		for (i = 0; i < jsonread_count(list); i++) {
			const struct jsonread_node *r = jsonread_at(list, i);
			char *one;

			if ((strcmp(jsonread_str(r, NULL, ""), JUDGE_CLEAN) == 0) !=
			    clean)
				continue;
			one = fleet_member(r, NULL, oom);
			if (!one)
				return out;
			used += (size_t)snprintf(out + used, cap - used,
						 "%s%s", used ? "; " : "", one);
			free(one);
		}
	return out;
}

/*
 * A phase's rate, 0 when it ran too short to compare: the run's peers
 * judge compared none under PEERS_MIN_SECONDS, and a disk that wrote in
 * milliseconds is not below like disks that wrote for hours.
 */
static double rate(const struct jsonread_node *t, int phase)
{
	struct result_phase p;

	result_target_phase(t, phase, &p);
	if (p.ns < (uint64_t)PEERS_MIN_SECONDS * TIMING_SEC)
		return 0;
	return p.avg_mbps;
}

static const char *mode_name(int i)
{
	return engine_mode_name(i);
}

/* Passes made whole, counted as the run counted them (figures.h). */
static uint64_t passes_made(const struct jsonread_node *t, int *oom)
{
	struct engine_snap s;
	uint64_t n;
	int mode = result_target_index(jsonread_str(t, KEY_MODE, NULL),
				       mode_name, ENGINE_NONE + 1);

	memset(&s, 0, sizeof(s));
	if (result_target_passes(t, &s)) {
		*oom = 1;
		engine_snap_free(&s);
		return 0;
	}
	n = figures_passes(&s, mode < 0 ? ENGINE_WRITE_VERIFY : mode);
	engine_snap_free(&s);
	return n;
}

/* The worse of two verdicts; "" when neither is one kiln writes. */
static const char *worse(const char *a, const char *b)
{
	static const char *const order[] = { "FAIL", "WARN", "PASS" };
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(a, order[i]) || !strcmp(b, order[i]))
			return order[i];
	return "";
}

static void read_disk(const struct jsonread_node *t, int version,
		      struct fleet_disk *d, int *oom)
{
	const char *label = KEY_LABEL;
	int verdict = result_target_verdict(t);

	/* Schema 1 had no label: its name, else its path. */
	if (!jsonread_get(t, label))
		label = jsonread_get(t, KEY_NAME) ? KEY_NAME : KEY_PATH;
	d->label = fleet_member(t, label, oom);
	d->model = fleet_member(t, KEY_MODEL, oom);
	d->serial = fleet_member(t, KEY_SERIAL, oom);
	d->wwn = fleet_member(t, version >= 2 ? KEY_WWN : KEY_WWID, oom);
	d->identity = fleet_member(t, KEY_IDENTITY, oom);
	d->size = jsonread_u64(t, KEY_SIZE, 0);
	d->file = !strcmp(jsonread_str(t, KEY_KIND, ""), "file");
	d->written = jsonread_u64(t, KEY_BYTES_WRITTEN, 0);
	d->read = jsonread_u64(t, KEY_BYTES_READ, 0);
	d->passes = passes_made(t, oom);
	/* Only a verdict kiln writes: the page prints it as it is. */
	snprintf(d->verdict, sizeof(d->verdict), "%s",
		 verdict < 0 ? "" : judge_name(verdict));
	if (!strcmp(d->verdict, "WARN") || !strcmp(d->verdict, "FAIL"))
		d->reasons = reasons(t, oom);
	d->write_mbps = rate(t, PHASE_WRITE);
	d->read_mbps = rate(t, PHASE_VERIFY);
	if (d->read_mbps <= 0)
		d->read_mbps = rate(t, PHASE_READ);
}


/*
 * The machine the run names: its id (a host burn's folder is anywhere,
 * and one machine's runs are one machine's however they were copied),
 * and what a person knows it by.
 */
static void read_machine(const struct jsonread_node *root,
			 struct fleet_run *r, int *oom)
{
	const struct jsonread_node *sys = jsonread_get(root, KEY_SYSTEM);
	const struct signal_column *cols[FLEET_COLUMNS];
	int k, n = signals_columns(cols, FLEET_COLUMNS);
	char *id;

	if (jsonread_type(jsonread_get(root, KEY_MACHINE_ID)) ==
	    JSONREAD_STRING) {
		id = fleet_member(root, KEY_MACHINE_ID, oom);
		if (id && id[0]) {
			free(r->machine);
			r->machine = id;
		} else {
			free(id);
		}
	}
	r->vendor = fleet_member(sys, KEY_VENDOR, oom);
	r->product = fleet_member(sys, KEY_PRODUCT, oom);
	r->mac = fleet_member(sys, KEY_MAC, oom);
	r->address = fleet_member(sys, KEY_ADDRESS, oom);
	r->asset_tag = fleet_member(sys, KEY_ASSET_TAG, oom);
	r->chassis_serial = fleet_member(sys, KEY_CHASSIS_SERIAL, oom);
	for (k = 0; k < n && k < FLEET_COLUMNS; k++)
		r->cols[k] = fleet_member(jsonread_get(root, cols[k]->object),
					  cols[k]->member, oom);
}

/* result.json's "end" (how the disks were left), when the run had one. */
static void read_end(const struct jsonread_node *root, struct fleet_run *r,
		     int *oom)
{
	const struct jsonread_node *e = jsonread_get(root, "end"), *ds, *t;
	int i;

	if (jsonread_type(e) != JSONREAD_OBJECT)
		return;
	r->end_method = fleet_member(e, "method", oom);
	r->machine_serial = fleet_member(e, "machine_serial", oom);
	r->cert_machine_sha = fleet_member(e, "certificate_machine_sha256", oom);
	ds = jsonread_get(e, "disks");
	for (i = 0; i < r->n && i < (int)jsonread_count(ds); i++) {
		t = jsonread_at(ds, (size_t)i);
		r->disks[i].end_state = fleet_member(t, "state", oom);
		r->disks[i].end_result = fleet_member(t, "result", oom);
		r->disks[i].cert_sha = fleet_member(t, "certificate_json_sha256",
					      oom);
	}
}

int fleet_read_doc(const struct jsonread_node *root, struct fleet_run *r,
		    char *why, size_t len)
{
	const struct jsonread_node *targets = jsonread_get(root, KEY_TARGETS);
	const char *state = jsonread_str(root, KEY_STATE, "");
	int version, oom = 0, i, n;

	version = result_schema(root, why, len);
	if (version < 0)
		return version;
	r->state = record_state_of(state);
	if (r->state < 0) {
		snprintf(why, len, "a state this kiln does not know: \"%.40s\"",
			 state);
		return -EBADMSG;
	}
	snprintf(r->started, sizeof(r->started), "%s",
		 jsonread_str(root, KEY_STARTED, ""));
	r->start = timing_parse_utc(r->started);
	r->clock_trusted = jsonread_bool(root, KEY_CLOCK_TRUSTED, 0);
	r->elapsed = jsonread_num(root, KEY_ELAPSED_SECONDS, 0);
	snprintf(r->run_id, sizeof(r->run_id), "%s",
		 jsonread_str(root, KEY_RUN_ID, ""));
	r->kiln_version = fleet_member(root, KEY_KILN_VERSION, &oom);
	read_machine(root, r, &oom);
	if (jsonread_type(jsonread_get(root, KEY_FAILURE)) == JSONREAD_STRING)
		r->failure = fleet_member(root, KEY_FAILURE, &oom);
	if (jsonread_type(jsonread_get(root, KEY_PENDING_OF)) ==
	    JSONREAD_STRING)
		r->pending_of = fleet_member(root, KEY_PENDING_OF, &oom);
	r->results_lost = !jsonread_bool(root, KEY_RESULTS_COMPLETE, 1);
	snprintf(r->verdict, sizeof(r->verdict), "%s",
		 worse(jsonread_str(root, KEY_VERDICT, ""), ""));

	n = (int)jsonread_count(targets);
	if (jsonread_type(targets) != JSONREAD_ARRAY)
		n = 0;
	r->disks = calloc((size_t)n + 1, sizeof(*r->disks));
	if (!r->disks)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		read_disk(jsonread_at(targets, i), version, &r->disks[i], &oom);
		r->n++;
		/* Not judged yet: the worst of its disks so far. */
		if (r->state == FLEET_RUNNING)
			snprintf(r->verdict, sizeof(r->verdict), "%s",
				 worse(r->verdict, r->disks[i].verdict));
	}
	read_end(root, r, &oom);
	return oom ? -ENOMEM : 0;
}

/* The folder changed when st did, if that is later. */
static void newer_st(struct fleet_run *r, const struct stat *st, time_t *at)
{
	if (st->st_mtime > r->changed)
		r->changed = st->st_mtime;
	if (at)
		*at = st->st_mtime;
}

static void newer(struct fleet_run *r, const char *path, time_t *at)
{
	struct stat st;

	if (stat(path, &st) == 0)
		newer_st(r, &st, at);
}

/* Progress checkpoints tried, the newest first, before giving up. */
#define FLEET_PROGRESS_TRIED 4

/*
 * What reading a whole result.json or checkpoint allocates, kept for the
 * next (kiln fleet reads its runs one after another, in one thread): a
 * record is hundreds of KiB, which musl's malloc maps and unmaps anew
 * each time, and each time its pages fault in again. Its documents are
 * its own until the next read (fleet_read_release() frees it).
 */
static struct jsonread_room room;

void fleet_read_release(void)
{
	jsonread_room_free(&room);
}

/*
 * The newest checkpoint whose length and CRC hold, read into r: the run
 * folder's two (a stick's), and an uploaded folder's newest few under
 * progress/ (folder.h). 0, -ENOENT (none there), -EBADMSG with why,
 * -ENOMEM.
 */
static int read_checkpoint(const char *dir, struct fleet_run *r, char *why,
			   size_t len)
{
	struct jsonread *doc = NULL;
	char path[PATH_MAX], bestpath[PATH_MAX], name[64], *body = NULL, *one;
	char *json = NULL;
	size_t blen = 0, olen;
	uint64_t seq, seqs[FLEET_PROGRESS_TRIED];
	int i, n, ret, seen = 0, best = -1;

	if (result_checkpoint_too_large(dir, why, len))
		return -EBADMSG;
	n = folder_progress_seqs(dir, seqs, FLEET_PROGRESS_TRIED);
	for (i = 0; i < 2 + n; i++) {
		if (i < 2) {
			snprintf(name, sizeof(name), "%s",
				 folder_checkpoints[i]);
		} else {
			/* Newest first: an older one counts only if it holds. */
			if (best >= 2)
				break;
			folder_progress_name("checkpoint", seqs[i - 2], "json",
					     name, sizeof(name));
		}
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (i >= 2 && result_too_large(path, why, len))
			return -EBADMSG;
		ret = folder_read_checkpoint(path, &seq, &one, &olen);
		if (ret == -ENOMEM)
			goto nomem;
		seen |= ret != -ENOENT;
		if (ret || (best >= 0 && seq <= r->checkpoint)) {
			if (!ret)
				free(one);
			continue;
		}
		free(body);
		body = one;
		blen = olen;
		best = i;
		r->checkpoint = seq;
		snprintf(bestpath, sizeof(bestpath), "%s", path);
	}
	if (best < 0) {
		snprintf(why, len, "no checkpoint whose length and CRC hold");
		return seen ? -EBADMSG : -ENOENT;
	}
	newer(r, bestpath, &r->checkpoint_at);
	/*
	 * The CRC holds for the bytes after the header line: "result": {...}}
	 * (folder.c). With the brace the header opened, they are one
	 * document, and exactly the bytes the CRC vouched for are parsed.
	 */
	json = malloc(blen + 1);
	if (!json)
		goto nomem;
	json[0] = '{';
	memcpy(json + 1, body, blen);
	ret = jsonread_parse_in(&room, &doc, json, blen + 1, NULL, why, len);
	if (ret == -ENOMEM)
		goto nomem;
	if (!ret)
		ret = fleet_read_doc(jsonread_get(jsonread_root(doc), KEY_RESULT), r,
			       why, len);
	jsonread_free(doc);
	free(json);
	free(body);
	return ret;
nomem:
	free(json);
	free(body);
	return -ENOMEM;
}

/* An upload cut short: what the folder holds, for the row. */
static void holds(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;
	int n = 0;

	out[0] = 0;
	if (!d)
		return;
	while ((e = readdir(d)) && used < len) {
		if (e->d_name[0] == '.')
			continue;
		if (n++ < 4)
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 n > 1 ? ", " : "", e->d_name);
	}
	if (n > 4 && used < len)
		snprintf(out + used, len - used, " and %d more", n - 4);
	closedir(d);
}

static char *dupf(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", a, b, c);
	return s;
}

/* r empty again but for where it is: 0, or -ENOMEM. */
static int reset(struct fleet_run *r, const char *dir, const char *machine,
		 const char *name)
{
	struct stat st;

	fleet_read_free(r);
	memset(r, 0, sizeof(*r));
	r->machine = strdup(machine);
	r->dir = strdup(dir);
	r->name = strdup(name);
	if (stat(dir, &st) == 0)
		r->changed = st.st_mtime;
	return r->machine && r->dir && r->name ? 0 : -ENOMEM;
}

static int read_run(const char *dir, const char *machine, const char *name,
		    time_t now, uint64_t stale, struct fleet_run *r)
{
	struct jsonread *doc = NULL;
	char path[PATH_MAX], why[WHY] = "", cwhy[WHY] = "", what[200];
	int ret = 0, have_result, have_st;
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (reset(r, dir, machine, name))
		return -ENOMEM;
	/* A folder kiln may not read is on the page, not passed over. */
	if (access(dir, R_OK | X_OK) < 0) {
		r->state = FLEET_UNREADABLE;
		r->problem = dupf("the folder cannot be read: ",
				  strerror(errno), "");
		return r->problem ? 0 : -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/result.json", dir);
	/* There but not readable is not "absent". */
	have_st = stat(path, &st) == 0;
	have_result = have_st || errno != ENOENT;
	/*
	 * Too large to read is neither torn nor failed: an older checkpoint
	 * would show the run as it was long before its end.
	 */
	/*
	 * The run's index (fleet_index.c) says what the page reads of a
	 * result.json it still matches, in a hundredth of its bytes.
	 */
	if (have_st) {
		ret = fleet_index_read(dir, &st, r);
		if (!ret) {
			newer_st(r, &st, NULL);
			if (r->state == FLEET_RUNNING &&
			    now - r->changed > (time_t)stale)
				r->state = FLEET_CUT_OFF;
			return 0;
		}
		/* Stale, torn or none: result.json itself, as before. */
		if (reset(r, dir, machine, name))
			return -ENOMEM;
		ret = 0;
	}
	if (have_result && (result_too_large(path, why, sizeof(why)) ||
			    (ret = jsonread_load_in(&room, &doc, path, NULL,
						    why, sizeof(why))) ==
				    -E2BIG)) {
		jsonread_free(doc);
		r->state = FLEET_UNREADABLE;
		newer(r, path, NULL);
		r->problem = dupf(ret == -E2BIG ? "result.json is too large "
				  "to read: " : "", why, "");
		return r->problem ? 0 : -ENOMEM;
	}
	if (have_result) {
		if (!ret)
			ret = fleet_read_doc(jsonread_root(doc), r, why, sizeof(why));
		else if (!why[0])
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		jsonread_free(doc);
		newer(r, path, NULL);
		if (ret == -ENOMEM)
			return ret;
		if (!ret) {
			/* Written while running (by hand?): as a checkpoint. */
			if (r->state == FLEET_RUNNING &&
			    now - r->changed > (time_t)stale)
				r->state = FLEET_CUT_OFF;
			return 0;
		}
		/* Torn or foreign: the checkpoints may still tell the run. */
		if (reset(r, dir, machine, name))
			return -ENOMEM;
		newer(r, path, NULL);
	}

	ret = read_checkpoint(dir, r, cwhy, sizeof(cwhy));
	if (ret == -ENOMEM)
		return ret;
	if (!ret) {
		if (r->state == FLEET_RUNNING &&
		    now - r->checkpoint_at > (time_t)stale)
			r->state = FLEET_CUT_OFF;
		if (!have_result)
			return 0;
		r->problem = dupf("result.json cannot be read (", why,
				  "): shown from its newest good checkpoint");
		return r->problem ? 0 : -ENOMEM;
	}

	/* Nothing tells the run: say what is there. */
	if (reset(r, dir, machine, name))
		return -ENOMEM;
	if (have_result) {
		r->state = FLEET_UNREADABLE;
		newer(r, path, NULL);
		r->problem = dupf("result.json: ", why, ret == -EBADMSG ?
				  "; and no good checkpoint" : "");
	} else if (ret == -EBADMSG) {
		r->state = FLEET_UNREADABLE;
		r->problem = dupf("no result.json, and ", cwhy, "");
	} else {
		r->state = FLEET_PARTIAL;
		holds(dir, what, sizeof(what));
		r->problem = dupf("no result.json and no checkpoint (an upload "
				  "cut short?); it holds: ", what[0] ? what :
				  "nothing", "");
	}
	return r->problem ? 0 : -ENOMEM;
}

int fleet_read_run(const char *dir, const char *machine, const char *name,
		   time_t now, uint64_t stale, struct fleet_run *r)
{
	char path[PATH_MAX];
	int ret = read_run(dir, machine, name, now, stale, r);

	snprintf(path, sizeof(path), "%s/report.html", dir);
	r->has_report = access(path, R_OK) == 0;
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	r->has_summary = access(path, R_OK) == 0;
	snprintf(path, sizeof(path), "%s/cert-machine.html", dir);
	r->has_certs = access(path, R_OK) == 0;
	return ret;
}

void fleet_read_free(struct fleet_run *r)
{
	int i;

	for (i = 0; r->disks && i < r->n; i++) {
		struct fleet_disk *d = &r->disks[i];

		free(d->label);
		free(d->model);
		free(d->serial);
		free(d->wwn);
		free(d->identity);
		free(d->reasons);
		free(d->end_state);
		free(d->end_result);
		free(d->cert_sha);
	}
	free(r->disks);
	free(r->machine);
	free(r->vendor);
	free(r->product);
	free(r->mac);
	free(r->address);
	free(r->asset_tag);
	free(r->chassis_serial);
	for (i = 0; i < FLEET_COLUMNS; i++)
		free(r->cols[i]);
	free(r->dir);
	free(r->name);
	free(r->problem);
	free(r->kiln_version);
	free(r->failure);
	free(r->pending_of);
	free(r->end_method);
	free(r->machine_serial);
	free(r->cert_machine_sha);
}
