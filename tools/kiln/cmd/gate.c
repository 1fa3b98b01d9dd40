/* SPDX-License-Identifier: MIT */
/*
 * Description: the gate before any I/O (see gate.h). Every target is
 * opened and classed at once, each under the burn's deadline (a dead disk
 * FAILs as stalled, the others go on); then plan_decide(), the one safety
 * decision, says for each what may be done: refused (kiln burn exits 2
 * naming why), skipped, read or written; then its region. With --from,
 * each disk is matched to the run record by identity and verified as the
 * record says.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/deadline.h"
#include "cmd/gate.h"
#include "base/complain.h"
#include "base/kiln.h"
#include "results/result.h"
#include "base/timing.h"

struct gate {
	struct record *r;
	struct settings *s;
	const struct safety_env *env;
};

static int engine_mode(int mode)
{
	switch (mode) {
	case SETTINGS_WRITE: return ENGINE_WRITE;
	case SETTINGS_VERIFY: return ENGINE_VERIFY;
	case SETTINGS_READ: return ENGINE_READ;
	}
	return ENGINE_WRITE_VERIFY;
}

/* Drops disk i from the record: kiln run does not touch it after all. */
static void drop_disk(struct record *r, int i)
{
	struct record_disk *d = &r->disks[i];

	target_close(&d->t);
	free((char *)d->path);
	memmove(d, d + 1, (size_t)(r->n - i - 1) * sizeof(*d));
	r->n--;
}

/* Why a target is refused, in the one line kiln burn exits 2 with. */
static void refuse(const struct settings *s, const struct record_disk *d,
		   const struct record_disk *twin)
{
	const struct target *t = &d->t;
	char named[1200];

	if (twin)
		complain("given twice: %s and %s are the same medium (%s)",
			 twin < d ? twin->path : d->path,
			 twin < d ? d->path : twin->path, t->id.identity[0] ?
			 t->id.identity : twin->t.id.identity);
	else if (t->safety.class == SAFETY_IN_USE)
		complain("refusing to touch %s: it is in use (%s)", d->path,
			 t->safety.why);
	else if (t->read_only)
		complain(
			"refusing to write %s: it is read-only (--mode read or "
			"verify reads it)",
			d->path);
	else if (t->kind == TARGET_FILE)
		complain("refusing to write %s: an existing file that does not "
			 "hold kiln data%s%s (give --destroy-data to overwrite "
			 "it)", d->path, t->safety.sig.n ? "; " : "",
			 t->safety.sig.n ? t->safety.why : "");
	else {
		/* Meant as consent, by the one name that is none: say so. */
		plan_consent_by_name(s, &t->id, named, sizeof(named));
		if (named[0])
			complain("refusing to write %s: %s; %s", d->path,
				 t->safety.why, named);
		else
			complain("refusing to write %s: %s (give "
				 "--destroy-data to overwrite it)", d->path,
				 t->safety.why);
	}
}

/* Gives each disk a label unique in this run: its files are named by it. */
static void label_disks(struct record *r)
{
	int i, k, same;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->t.id.name[0])
			snprintf(d->label, sizeof(d->label), "%s",
				 d->t.id.name);
		for (k = 0, same = 1; k < i; k++)
			if (!strcmp(r->disks[k].label, d->label))
				same++;
		if (same > 1)
			snprintf(d->label + strlen(d->label),
				 sizeof(d->label) - strlen(d->label), "-%d",
				 same);
	}
}

/*
 * --from: the disk must be in the run record, and is verified as that
 * record says: its region, the last pass written, where a cut-short pass
 * stopped. A disk now smaller than what was written FAILs as shrunk.
 */
static int match_record(struct gate *b, struct record_disk *d)
{
	const struct result_disk *rd = result_find(b->r->record,
						   d->t.id.identity);
	const struct engine_plan *p;
	uint64_t end = 0;
	int e;

	if (!rd) {
		complain("%s is not in the run record of %s (its identity is "
			 "%s)", d->path, b->r->from, d->t.id.identity);
		return KILN_EXIT_USAGE;
	}
	if (result_disk_unwritten(rd)) {
		complain("%s: %s (%s): nothing of it to verify", d->path,
			 result_disk_unwritten(rd), b->r->from);
		return KILN_EXIT_USAGE;
	}
	p = &rd->ep;
	for (e = 0; e < p->next; e++)
		if (p->ext[e].offset + p->ext[e].length > end)
			end = p->ext[e].offset + p->ext[e].length;
	if (d->t.size < rd->size || d->t.size < end) {
		snprintf(d->failed, sizeof(d->failed),
			 "shrank: %llu bytes now, "
			 "%llu when it was written (run %016llx)",
			 (unsigned long long)d->t.size,
			 (unsigned long long)rd->size,
			 (unsigned long long)b->r->run_id);
		return 0;
	}
	if (!rd->last_written) {
		snprintf(d->failed, sizeof(d->failed), "the run record says no "
			 "pass was written to it: nothing to verify");
		return 0;
	}
	d->ep = *p;
	d->ep.mode = ENGINE_VERIFY;
	d->ep.write_passes = 0;
	d->ep.verify_pass = rd->last_written;
	d->ep.verify_cut = rd->complete ? 0 : rd->last_reached;
	if (!rd->complete && rd->last_written > 1)
		record_note(b->r,
			    "%s: pass %u was cut short at byte %llu of its "
			    "region: what it reached is checked for pass %u, "
			    "the rest for pass %u",
			    d->path, rd->last_written,
			    (unsigned long long)rd->last_reached,
			    rd->last_written, rd->last_written - 1);
	else if (!rd->complete)
		record_note(b->r,
			    "%s: pass 1 was cut short at byte %llu of its "
			    "region: what it reached is checked; the rest "
			    "was never written and is not read",
			    d->path, (unsigned long long)rd->last_reached);
	return 0;
}

/*
 * Opens every target and decides what may be done to it, before any I/O:
 * 0, or the exit code (files created for this run are removed again).
 */
/* One target opened and classed in a thread of its own. */
struct opening {
	struct target t;
	const struct safety_env *env;
	const char *path;
	int writes;
	uint64_t create;
	int ret;
	char err[PATH_MAX + 300];
};

static void open_one(void *arg)
{
	struct opening *o = arg;

	o->ret = target_open(&o->t, o->env, o->path, o->writes, o->create,
			     o->err, sizeof(o->err));
}

/*
 * Opens every target at once under the deadline (opening and classing
 * read each disk, and a dead one must not hang the rest), each in a child
 * process that hands the descriptor back, so a disk that never answers is
 * left behind and kiln can still exit: a target that does not answer
 * FAILs as stalled. 0, or an exit code.
 */
static int open_all(struct gate *b, struct opening **out, int *late_)
{
	struct record *r = b->r;
	struct opening *o = calloc((size_t)r->n + 1, sizeof(*o));
	int *done = calloc((size_t)r->n + 1, sizeof(*done));
	int i, late = 0;

	*out = NULL;
	for (i = 0; o && done && i < r->n; i++) {
		o[i].t.fd = -1;
		o[i].env = b->env;
		o[i].path = r->disks[i].path;
		o[i].writes = plan_writes_mode(r->disks[i].mode);
		o[i].create = o[i].writes ? b->s->size : 0;
		/* Missing from the record: nothing to open. */
		if (r->disks[i].failed[0])
			o[i].path = NULL;
	}
	if (!o || !done ||
	    deadline_apart(open_one, o, sizeof(*o), r->n,
			   (long)offsetof(struct opening, t.fd),
			   (uint64_t)b->s->deadline * TIMING_SEC, done)) {
		complain("out of memory");
		free(o);
		free(done);
		return KILN_EXIT_CANNOT;
	}
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (done[i] || d->failed[0])
			continue;
		late = 1;
		snprintf(d->failed, sizeof(d->failed), "stalled: no answer in "
			 "%u s while it was opened and read to class it",
			 b->s->deadline);
		snprintf(d->label, sizeof(d->label), "%.60s",
			 strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 :
			 d->path);
		/* Never opened: named by its path (kiln run: discovery's). */
		if (!d->t.id.name[0])
			snprintf(d->t.id.name, sizeof(d->t.id.name), "%s",
				 d->label);
	}
	free(done);
	/* A target still being opened keeps its item: leave them all then. */
	*out = o;
	*late_ = late;
	return 0;
}

/* Consent that names no target: a typo in a serial, said before any I/O. */
static void say_unmatched(struct gate *b)
{
	struct record *r = b->r;
	const struct identity **ids = calloc((size_t)r->n + 1, sizeof(*ids));
	char words[600];
	int i, n = 0;

	if (!ids || !b->s->destroy_list) {
		free(ids);
		return;
	}
	for (i = 0; i < r->n; i++)
		if (r->disks[i].t.fd >= 0)
			ids[n++] = &r->disks[i].t.id;
	plan_consent_unmatched(b->s, ids, n, words, sizeof(words));
	if (words[0])
		record_note(r, "destroy-data names %s: no such disk here, so "
			    "no consent for it (serials, WWNs or identities "
			    "such as loop:/path; never kernel names)", words);
	/* kiln run says these of every disk it found, in its plan. */
	for (i = 0; i < n && !strcmp(r->command, "burn"); i++) {
		char named[1200];

		plan_consent_by_name(b->s, ids[i], named, sizeof(named));
		if (named[0])
			record_note(r, "%s", named);
	}
	free(ids);
}

/* Disks the record has written that no target named: not verified, said. */
static void say_unnamed(struct record *r)
{
	const struct result_record *rec = r->record;
	int i, k;

	for (i = 0; i < rec->n; i++) {
		const struct result_disk *rd = &rec->disks[i];

		if (!rd->last_written)
			continue;
		for (k = 0; k < r->n; k++)
			if (!strcmp(r->disks[k].t.id.identity, rd->identity))
				break;
		if (k == r->n)
			record_note(r, "%s (%s) is in the run record but was "
				    "not named: not verified (name no target "
				    "to verify every disk of the record)",
				    rd->path[0] ? rd->path : rd->identity,
				    rd->identity);
	}
}

/* The one decision for each opened target: 0, or exit 2 on a refusal. */
static int decide(struct gate *b, int command,
		       const struct opening *opened)
{
	struct record *r = b->r;
	struct settings *s = b->s;
	int i, k, ret;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i], *twin = NULL;
		struct plan_input in = { .command = command, .mode = d->mode };
		int writes = plan_writes_mode(d->mode);

		if (d->failed[0])
			/* missing, or stalled: a FAIL already */
			continue;
		/*
		 * Named twice: the open that lost (O_EXCL, the lock; opens
		 * run at once, so either one) only said "busy".
		 */
		for (k = 0; k < (opened[i].ret ? r->n : i) && !twin; k++)
			if (k != i && r->disks[k].t.fd >= 0 &&
			    (opened[i].ret ?
			     target_names_same(d->path, &r->disks[k].t) :
			     target_same(&r->disks[k].t, &d->t)))
				twin = &r->disks[k];
		ret = opened[i].ret;
		if (ret && !twin) {
			complain("%s", opened[i].err);
			return target_bad_name(ret) ? KILN_EXIT_USAGE :
			       KILN_EXIT_CANNOT;
		}
		if (r->record && !twin) {
			ret = match_record(b, d);
			if (ret)
				return ret;
			if (d->failed[0])
				continue;
		}
		if (d->t.safety.notes[0])
			record_note(r, "%s: %s", d->path, d->t.safety.notes);
		in.twice = twin != NULL;
		in.class = d->t.safety.class;
		in.consent = plan_consent(s, &d->t.id);
		in.file = d->t.kind == TARGET_FILE;
		in.created = d->t.created;
		in.empty = d->t.kind == TARGET_FILE && !d->t.size;
		in.read_only = d->t.read_only;
		d->plan = plan_decide(&in);
		if (d->plan.action == PLAN_REFUSE) {
			refuse(s, d, twin);
			return KILN_EXIT_USAGE;
		}
		if (d->plan.action == PLAN_SKIP)
			record_note(r, "%s not tested: %s%s%s", d->path,
				    d->plan.why, twin ? " " : "",
				    twin ? twin->path : "");
		if (d->plan.action == PLAN_READ && writes) {
			record_note(r, "%s tested read-only: %s", d->path,
				    d->plan.why);
			d->mode = SETTINGS_READ;
		}
	}
	say_unmatched(b);
	if (r->record)
		say_unnamed(r);
	/* kiln run does not touch these after all (opened[] is done with). */
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] &&
		    r->disks[i].plan.action == PLAN_SKIP)
			drop_disk(r, i--);
	return 0;
}

/*
 * hidden=restore: what each disk hides made reachable, before its region
 * is planned (an HPA removed grows it). Only with destroy-data naming the
 * disk, the consent its writes need; any other is said and left.
 */
static void restore_hidden(struct gate *b)
{
	struct record *r = b->r;
	const char *why;
	int i;

	if (b->s->hidden != SETTINGS_HIDDEN_RESTORE)
		return;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		struct hidden *h = &d->t.hidden;

		if (d->failed[0] || d->t.fd < 0 || h->state != HIDDEN_FOUND)
			continue;
		why = hidden_restore_refused(b->s->hidden ==
					     SETTINGS_HIDDEN_RESTORE, r->record != NULL,
					     plan_consent(b->s, &d->t.id),
					     d->plan.action == PLAN_WRITE &&
					     plan_writes_mode(d->mode));
		if (why)
			snprintf(h->restored, sizeof(h->restored), "%s", why);
		else
			hidden_restore(d->t.fd, b->env->sysroot, d->t.id.name,
				       d->t.rdev, h, &d->t.size);
		record_note(r, "%s: hidden=restore: %s", d->path, h->restored);
	}
}

int gate_open(struct record *r_, struct settings *s_,
	      const struct safety_env *env)
{
	struct gate g = { r_, s_, env }, *b = &g;
	struct record *r = b->r;
	struct settings *s = b->s;
	int command = strcmp(r->command, "run") ? PLAN_BURN : PLAN_RUN;
	struct opening *opened;
	char err[PATH_MAX + 200], note[300];
	int i, ret, late;

	ret = open_all(b, &opened, &late);
	if (ret)
		return ret;
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] && !opened[i].ret)
			r->disks[i].t = opened[i].t;
	ret = decide(b, command, opened);
	if (!late)
		free(opened);
	if (ret)
		return ret;
	/* Another kiln on the same bytes, by any path: taken here, held. */
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->failed[0] || d->t.fd < 0)
			continue;
		ret = target_claim(&d->t, err, sizeof(err));
		if (ret) {
			complain("%s", err);
			return ret == -EBUSY ? KILN_EXIT_USAGE : KILN_EXIT_CANNOT;
		}
	}
	restore_hidden(b);
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->failed[0] || r->record)
			continue;	/* the region is the record's */
		/* profile=erase: no pass; the gates above were a burn's. */
		d->ep.mode = s->profile == SETTINGS_ERASE ? ENGINE_NONE :
			     engine_mode(d->mode);
		ret = plan_region(s, &d->t, &d->ep, err, sizeof(err));
		if (ret) {
			complain("%s", err);
			return ret == -EINVAL ? KILN_EXIT_USAGE
					      : KILN_EXIT_CANNOT;
		}
		/* Written for its class alone: read and checked first. */
		d->ep.guard = d->plan.action == PLAN_WRITE &&
			      d->plan.guarded && plan_writes_mode(d->mode);
		d->ep.guard_byte = d->t.safety.blank_byte;
		plan_write_cap(s, &d->t, &d->ep, note, sizeof(note));
		if (note[0])
			record_note(r, "%s", note);
		if (d->t.created && s->size)
			record_note(r, "%s created, %llu bytes", d->path,
				    (unsigned long long)s->size);
		if (s->size && !d->t.created && d->t.kind == TARGET_FILE)
			record_note(r, "%s: an existing file, which --size "
				    "does not resize",
				    d->path);
	}
	label_disks(r);
	return 0;
}

