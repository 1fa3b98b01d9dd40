/* SPDX-License-Identifier: MIT */
/*
 * Description: the one record of a run (see record.h): its disks, notes,
 * verdicts and state, and the judging that turns snapshots of the engine
 * into verdicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kiln.h"
#include "base/secret.h"
#include "base/timing.h"
#include "judge/record.h"
#include "judge/zones.h"

static const char *const state_names[RECORD_STATES] = {
	[RECORD_COMPLETE] = "complete",
	[RECORD_VERIFIED] = "verified",
	[RECORD_PENDING] = "pending",
	[RECORD_INTERRUPTED] = "interrupted",
	[RECORD_RUNNING] = "running",
};

const char *record_state_name(int state)
{
	return state >= 0 && state < RECORD_STATES ? state_names[state] : "?";
}

int record_state_of(const char *name)
{
	int i;

	for (i = 0; name && i < RECORD_STATES; i++)
		if (!strcmp(name, state_names[i]))
			return i;
	return -1;
}

/*
 * argv as the record keeps it (result.json, ocptv.jsonl): a copy with
 * every credential masked (secret.h), the value after --auth-token too.
 */
static char **mask_argv(int argc, char **argv)
{
	char **m = calloc((size_t)argc + 1, sizeof(*m));
	int i;

	for (i = 0; m && i < argc; i++) {
		m[i] = i && secret_takes_next(argv[i - 1]) ?
		       strdup(SECRET_MASK) : secret_masked(argv[i]);
		if (!m[i]) {
			while (i--)
				free(m[i]);
			free(m);
			return NULL;
		}
	}
	return m;
}

void record_init(struct record *r, const char *command, int argc,
		 char **argv, struct settings *s)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
	r->argc = argc;
	r->argv = mask_argv(argc, argv);
	if (!r->argv)
		r->argc = 0;
	r->s = s;
	r->state = RECORD_RUNNING;
	r->started = time(NULL);
	r->t0_ns = timing_now_ns();
	/* machine-id given: the id everywhere, whatever the serial says. */
	if (s && s->machine_id)
		snprintf(r->machine, sizeof(r->machine), "%s", s->machine_id);
}

struct record_disk *record_add(struct record *r, const char *path, int mode)
{
	struct record_disk *grown, *d;
	char *copy = strdup(path);

	grown = copy ? realloc(r->disks, (size_t)(r->n + 1) * sizeof(*grown)) :
		NULL;
	if (!grown) {
		free(copy);
		return NULL;
	}
	r->disks = grown;
	d = &r->disks[r->n++];
	memset(d, 0, sizeof(*d));
	d->path = copy;
	d->mode = mode;
	d->t.fd = -1;
	d->link.ctrl = -1;
	d->peer.group = d->peer.phase = -1;
	vitals_disk_init(&d->sig);
	return d;
}

/* The slot of that name among n, or NULL. */
static void *slot_of(const struct record_slot *slot, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(slot[i].name, name))
			return slot[i].data;
	return NULL;
}

/* The slot of that name among *n of max, made if need be. */
static void *slot_make(struct record_slot *slot, int *n, int max,
		       const char *name, size_t size,
		       void (*free_fn)(void *data))
{
	void *data = slot_of(slot, *n, name);

	if (data || *n == max)
		return data;
	data = calloc(1, size);
	if (data)
		slot[(*n)++] = (struct record_slot){ name, data, free_fn };
	return data;
}

/* Frees n slots, what each holds, then itself. */
static void slots_free(struct record_slot *slot, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (slot[i].free)
			slot[i].free(slot[i].data);
		free(slot[i].data);
	}
}

void *record_slot(const struct record *r, const char *name)
{
	return slot_of(r->slots, r->nslots, name);
}

void *record_slot_make(struct record *r, const char *name, size_t size,
		       void (*free_fn)(void *data))
{
	return slot_make(r->slots, &r->nslots, RECORD_SLOTS, name, size,
			 free_fn);
}

void *record_disk_slot(const struct record_disk *d, const char *name)
{
	return slot_of(d->slots, d->nslots, name);
}

void *record_disk_slot_make(struct record_disk *d, const char *name,
			    size_t size, void (*free_fn)(void *data))
{
	return slot_make(d->slots, &d->nslots, RECORD_DISK_SLOTS, name, size,
			 free_fn);
}

/*
 * A disk's rules of its own burn, after the signals' at JUDGE_AT_HEALTH:
 * its zones, the slowest requests read again, and a verify's run record.
 */
static void burn_rules(struct record *r, struct record_disk *d)
{
	unsigned lost = d->snap.bad_by_class[UNIT_ZEROED] +
			d->snap.bad_by_class[UNIT_STALE];

	zones_judge(&d->snap, r->s->bs, d->t.id.rotational, &d->j);
	reread_judge(r, d);
	/* What was flushed before and is not there: said as such. */
	if (d->ep.mode == ENGINE_VERIFY && r->from && lost)
		judge_reason(&d->j, JUDGE_FAIL, "lost flushed writes: %u "
			     "units read back an older pass or nothing, "
			     "though the disk acknowledged their flush", lost);
	/* Without the record a verify cannot see what is not there. */
	if (d->ep.mode == ENGINE_VERIFY && !r->from)
		judge_reason(&d->j, JUDGE_WARN, "verified without the "
			     "run record (--from RUN_DIR): a shrunk "
			     "disk or a lost pass cannot be seen");
	/* Nor can it tell a last pass cut short from lost writes. */
	if (d->ep.mode == ENGINE_VERIFY && !r->from &&
	    d->snap.bad_by_class[UNIT_STALE])
		judge_reason(&d->j, JUDGE_FAIL, "units of an older "
			     "pass: lost writes, or a last pass cut "
			     "short, which only the run record (--from "
			     "RUN_DIR) can tell apart");
}

void record_judge(struct record *r, record_rules *rules, int final,
		  int interrupted)
{
	int i, stop = 0, guarded = 0;

	/* Restored from a document, a disk's snapshot is its own. */
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] && r->disks[i].et) {
			engine_snap_free(&r->disks[i].snap);
			engine_snapshot(r->disks[i].et, &r->disks[i].snap);
		}
	rules(r, NULL, final, JUDGE_AT_FIRST);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->failed[0]) {
			/* Never ran: so result.json and kiln finish say. */
			d->snap.c.state = STATE_NOT_STARTED;
			snprintf(d->snap.why, sizeof(d->snap.why), "%s",
				 d->failed);
			memset(&d->j, 0, sizeof(d->j));
			d->j.verdict = JUDGE_FAIL;
			d->j.nreasons = 1;
			snprintf(d->j.reasons[0], sizeof(d->j.reasons[0]), "%s",
				 d->failed);
			continue;
		}
		judge_target(&d->snap, d->mt, &d->j);
		rules(r, d, final, JUDGE_AT_HEALTH);
		burn_rules(r, d);
		rules(r, d, final, JUDGE_AT_DISK);
	}
	rules(r, NULL, final, JUDGE_AT_RUN);
	rules(r, NULL, final, JUDGE_AT_LAST);
	r->verdict = r->sig.j.verdict;
	for (i = 0; i < r->n; i++) {
		stop |= r->disks[i].j.interrupted;
		guarded |= r->disks[i].snap.guard_stopped;
		if (r->disks[i].j.verdict > r->verdict)
			r->verdict = r->disks[i].j.verdict;
	}
	/* A run that tested nothing, or missed a disk, proves nothing. */
	if (r->failure[0] || !r->n)
		r->verdict = JUDGE_FAIL;
	/* Lost results outrank an interruption: nothing proves the run. */
	if (r->verdict == JUDGE_FAIL)
		r->exit_code = KILN_EXIT_FAIL;
	else if (guarded && !strcmp(r->command, "burn"))
		/* A target found to hold data: kiln burn's refusal, late. */
		r->exit_code = KILN_EXIT_USAGE;
	else if (r->results_lost)
		r->exit_code = KILN_EXIT_CANNOT;
	else if (stop || interrupted)
		r->exit_code = KILN_EXIT_INTERRUPTED;
	else
		r->exit_code = KILN_EXIT_PASS;
	r->state = !final ? RECORD_RUNNING : stop || interrupted ?
		   RECORD_INTERRUPTED : RECORD_COMPLETE;
	/* Boot 1 of powercut is half a test: the next boot finishes it. */
	if (final && r->powercut && r->state == RECORD_COMPLETE &&
	    r->verdict != JUDGE_FAIL)
		r->state = RECORD_PENDING;
}

void record_free(struct record *r)
{
	int i;

	free(r->expect);
	r->expect = NULL;
	for (i = 0; r->argv && i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	r->argv = NULL;
	r->argc = 0;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		engine_snap_free(&d->snap);
		engine_target_free(d->et);
		vitals_disk_free(&d->sig);
		slots_free(d->slots, d->nslots);
		free((char *)d->path);
	}
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	slots_free(r->slots, r->nslots);
	free(r->lab.lost);
	links_free(&r->links);
	peers_free(&r->peers);
	vitals_machine_free(&r->sig);
	free(r->notes);
	free(r->disks);
	free(r->inventory);
	memset(r, 0, sizeof(*r));
}
