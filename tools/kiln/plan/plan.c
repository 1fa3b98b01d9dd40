/* SPDX-License-Identifier: MIT */
/*
 * Description: the plan, and the one safety decision (see plan.h). What
 * may be done to a target follows from the command, the mode, the
 * target's safety class, consent, its kind, whether kiln created it, and
 * whether it is read-only or given twice; nothing else, and nowhere else.
 * Then the region each target is tested over, how often flash may be
 * written whole, and what the engine is given of the target.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kiln.h"
#include "base/roff.h"
#include "plan/plan.h"

const char *plan_action_name(int action)
{
	switch (action) {
	case PLAN_REFUSE: return "refuse";
	case PLAN_SKIP: return "skip";
	case PLAN_READ: return "read-only";
	case PLAN_WRITE: return "write";
	}
	return "unknown";
}

int plan_writes_mode(int mode)
{
	return mode == SETTINGS_WRITE_VERIFY || mode == SETTINGS_WRITE;
}

static struct plan_decision decided(int action, const char *why)
{
	struct plan_decision d = { action, why, 0 };

	return d;
}

/*
 * Written because of its class: the class rests on samples, so with no
 * consent each span is read and checked before it is written.
 */
static struct plan_decision guarded(const struct plan_input *in,
				    const char *why)
{
	struct plan_decision d = { PLAN_WRITE, why, !in->consent };

	return d;
}

struct plan_decision plan_decide(const struct plan_input *in)
{
	int burn = in->command == PLAN_BURN;

	/* Never written, and for kiln burn not even read: say why instead. */
	if (in->twice)
		return decided(burn ? PLAN_REFUSE : PLAN_SKIP,
			       "the same medium as another target");
	if (in->class == SAFETY_IN_USE)
		return decided(burn ? PLAN_REFUSE : PLAN_SKIP, "in use");
	if (!plan_writes_mode(in->mode))
		return decided(PLAN_READ, "read only");
	if (in->read_only)
		return decided(burn ? PLAN_REFUSE : PLAN_READ,
			       "a read-only device or file");
	if (in->file) {
		if (in->created)
			return decided(PLAN_WRITE, "created by kiln");
		if (in->empty)
			return decided(PLAN_WRITE, "an empty file");
		if (in->class == SAFETY_KILN_DATA)
			return guarded(in, "kiln-data: written by kiln before");
		if (in->consent)
			return decided(PLAN_WRITE,
				       "an existing file, overwritten with "
				       "consent (destroy-data)");
		return decided(burn ? PLAN_REFUSE : PLAN_READ, "an existing "
			       "file that does not hold kiln data");
	}
	if (in->class == SAFETY_BLANK)
		return guarded(in, "blank: proven by reading");
	if (in->class == SAFETY_KILN_DATA)
		return guarded(in, "kiln-data: written by kiln before");
	if (in->consent)
		return decided(PLAN_WRITE, "has data, overwritten with consent "
			       "(destroy-data)");
	return decided(burn ? PLAN_REFUSE : PLAN_READ,
		       "has data; no consent (destroy-data)");
}

/* One row of kiln(1)'s table: a situation, as the decision's inputs. */
struct situation {
	const char *what;
	struct plan_input in;
};

static const char *cell(const struct situation *st, int command, int mode)
{
	struct plan_input in = st->in;
	struct plan_decision d;

	if (command == PLAN_RUN && in.file)
		return "-";
	in.command = command;
	in.mode = mode;
	d = plan_decide(&in);
	switch (d.action) {
	case PLAN_REFUSE: return "refused, exit 2";
	case PLAN_SKIP: return "not touched";
	case PLAN_READ: return "read";
	}
	return d.guarded ? "written, guarded" : "written";
}

/* A cell of the table: tbl(1)'s text block, so a long one wraps. */
static void man_cell(FILE *f, const char *text, const char *sep)
{
	fputs("T{\n", f);
	roff_text(f, text);
	fprintf(f, "T}%s", sep);
}

void plan_man(FILE *f)
{
	static const struct situation rows[] = {
		{ "`in-use`", { .class = SAFETY_IN_USE, .consent = 1 } },
		{ "the same medium, named a second time",
		  { .class = SAFETY_BLANK, .twice = 1 } },
		{ "`blank`", { .class = SAFETY_BLANK } },
		{ "`kiln-data`", { .class = SAFETY_KILN_DATA } },
		{ "`blank` or `kiln-data`, named by `destroy-data`",
		  { .class = SAFETY_BLANK, .consent = 1 } },
		{ "`has-data`", { .class = SAFETY_HAS_DATA } },
		{ "`has-data`, named by `destroy-data`",
		  { .class = SAFETY_HAS_DATA, .consent = 1 } },
		{ "read-only (`ro`, or EROFS on open)",
		  { .class = SAFETY_BLANK, .read_only = 1, .consent = 1 } },
		{ "a file kiln creates (`--size`)",
		  { .class = SAFETY_BLANK, .file = 1, .created = 1 } },
		{ "an empty file", { .class = SAFETY_BLANK, .file = 1,
				     .empty = 1 } },
		{ "a file of kiln data",
		  { .class = SAFETY_KILN_DATA, .file = 1 } },
		{ "any other file", { .class = SAFETY_HAS_DATA, .file = 1 } },
		{ "any other file, `--destroy-data`",
		  { .class = SAFETY_HAS_DATA, .file = 1, .consent = 1 } },
	};
	static const char *const head[] = {
		"target", "kiln run", "kiln run, mode read or verify",
		"kiln burn, mode write or write-verify",
		"kiln burn, mode read or verify",
	};
	size_t i;

	/* 19 + 4 x 11 columns and their gaps fit man's 80 less its indent. */
	fprintf(f, ".TS\nallbox tab(|);\n"
		"lbw(17n) lbw(9n) lbw(9n) lbw(9n) lbw(9n)\n"
		"lw(17n) lw(9n) lw(9n) lw(9n) lw(9n) .\n");
	for (i = 0; i < ARRAY_SIZE(head); i++)
		man_cell(f, head[i], i + 1 < ARRAY_SIZE(head) ? "|" : "\n");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		man_cell(f, rows[i].what, "|");
		man_cell(f, cell(&rows[i], PLAN_RUN, SETTINGS_WRITE_VERIFY),
			 "|");
		man_cell(f, cell(&rows[i], PLAN_RUN, SETTINGS_READ), "|");
		man_cell(f, cell(&rows[i], PLAN_BURN, SETTINGS_WRITE_VERIFY),
			 "|");
		man_cell(f, cell(&rows[i], PLAN_BURN, SETTINGS_READ), "\n");
	}
	fprintf(f, ".TE\n");
}

void plan_choose(const struct settings *s, const struct discover_inventory *inv,
		 struct plan_item *items)
{
	int i, k;

	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];
		const struct pci_controller *c =
			d->controller >= 0 ? &inv->ctrls[d->controller] : NULL;
		struct plan_item *it = &items[i];
		struct plan_input in = { .command = PLAN_RUN, .mode = s->mode,
					 .class = d->safety.class,
					 .consent = plan_consent(s, &d->id),
					 .read_only = d->read_only };
		struct plan_decision dec;
		int twin = -1;

		it->action = PLAN_SKIP;
		it->why[0] = 0;
		if (d->stalled) {
			snprintf(it->why, sizeof(it->why), "%.200s",
				 d->safety.why);
			continue;
		}
		if (d->unusable[0]) {
			snprintf(it->why, sizeof(it->why), "unusable: %.200s",
				 d->unusable);
			continue;
		}
		/* Busy with a sanitize of its own: no I/O failure of it. */
		if (sanstatus_blocks(&d->san)) {
			snprintf(it->why, sizeof(it->why), "%s", d->san.why);
			continue;
		}
		/* A file of some other disk's: kiln burn tests those. */
		if (!strcmp(d->transport, "loop")) {
			snprintf(it->why, sizeof(it->why), "a loop device: "
				 "kiln run tests the machine's disks");
			continue;
		}
		if (s->exclude && plan_matches(s->exclude, d, c)) {
			snprintf(it->why, sizeof(it->why), "excluded");
			continue;
		}
		if (s->include && !plan_matches(s->include, d, c)) {
			snprintf(it->why, sizeof(it->why), "not included");
			continue;
		}
		/* Two paths to one disk (multipath): it is tested once. */
		for (k = 0; k < i && twin < 0; k++)
			if (items[k].action != PLAN_SKIP && d->id.identity[0] &&
			    !strcmp(inv->disks[k].id.identity, d->id.identity))
				twin = k;
		in.twice = twin >= 0;
		dec = plan_decide(&in);
		it->action = dec.action;
		if (twin >= 0)
			snprintf(it->why, sizeof(it->why), "the same medium as "
				 "%s (another path to it): tested once",
				 inv->disks[twin].id.name);
		else if (d->safety.class == SAFETY_IN_USE)
			snprintf(it->why, sizeof(it->why), "in use: %.200s",
				 d->safety.why);
		else if (dec.action == PLAN_READ && !d->safety.scanned)
			/* Unreadable is not "has data": say what it is. */
			snprintf(it->why, sizeof(it->why), "not proven blank: "
				 "%.160s; no consent (destroy-data)",
				 d->safety.why);
		else
			snprintf(it->why, sizeof(it->why), "%s", dec.why);
	}
}

#define QUICK_PIECES 3

int plan_region(const struct settings *s, const struct target *t,
		struct engine_plan *p, char *err, size_t errlen)
{
	uint64_t end, len, piece;
	unsigned lbs = t->lbs;
	char a[48], b[48], c[48];

	if (lbs > UNIT_SIZE) {
		snprintf(err, errlen,
			 "%s: logical block size %u is above 4096, "
			 "which kiln does not test yet", t->path, lbs);
		return -ENOTSUP;
	}
	if (s->offset % lbs || s->span % lbs) {
		snprintf(err, errlen, "%s: --offset and --span must be "
			 "multiples of its logical block size, %u bytes",
			 t->path, lbs);
		return -EINVAL;
	}
	if (s->offset >= t->size) {
		snprintf(err, errlen, "%s is too small: %s, --offset is %s",
			 t->path, settings_fmt_size(t->size, a, sizeof(a)),
			 settings_size_given(s, "offset", s->offset, b,
					     sizeof(b)));
		return -EINVAL;
	}
	end = t->size;
	if (s->span && !s->quick) {
		if (s->span > t->size - s->offset) {
			snprintf(err, errlen,
				 "%s is too small: --offset %s + --span %s "
				 "is past its end at %s", t->path,
				 settings_size_given(s, "offset", s->offset, a,
						     sizeof(a)),
				 settings_size_given(s, "span", s->span, b,
						     sizeof(b)),
				 settings_fmt_size(t->size, c, sizeof(c)));
			return -EINVAL;
		}
		end = s->offset + s->span;
	}
	len = (end - s->offset) / UNIT_SIZE * UNIT_SIZE;
	if (!len) {
		snprintf(err, errlen, "%s is too small: %s%s%s, less than "
			 "one 4 KiB unit", t->path,
			 settings_fmt_size(end - s->offset, a, sizeof(a)),
			 s->offset ? " from offset " : "", s->offset ?
			 settings_size_given(s, "offset", s->offset, b,
					     sizeof(b)) : "");
		return -EINVAL;
	}

	p->next = 1;
	p->ext[0].offset = s->offset;
	p->ext[0].length = len;
	/* Quick: a third at the start, the middle and the end. */
	piece = s->span / QUICK_PIECES / UNIT_SIZE * UNIT_SIZE;
	if (s->quick && !piece) {
		snprintf(err, errlen,
			 "bad value for --span: %s is less than three 4 KiB "
			 "units", settings_size_given(s, "span", s->span, a,
						      sizeof(a)));
		return -EINVAL;
	}
	if (s->quick && QUICK_PIECES * piece < len) {
		p->next = QUICK_PIECES;
		p->ext[0].length = piece;
		p->ext[1].offset = s->offset + (len / 2 - piece / 2) /
						 UNIT_SIZE * UNIT_SIZE;
		p->ext[1].length = piece;
		p->ext[2].offset = s->offset + len - piece;
		p->ext[2].length = piece;
		len = QUICK_PIECES * piece;
	}
	p->region = len;
	return 0;
}

void plan_write_cap(const struct settings *s, const struct target *t,
		    struct engine_plan *p, char *note, size_t len)
{
	unsigned cap = s->max_writes;
	uint64_t passes;

	note[0] = 0;
	p->write_passes = 0;
	if (p->mode != ENGINE_WRITE_VERIFY && p->mode != ENGINE_WRITE)
		return;
	/* Flash wears: a long soak must not use up an SSD's endurance. */
	if (!s->max_writes_set)
		cap = t->kind == TARGET_BLOCK && t->id.rotational == 0 ? 2 : 0;
	if (!cap)
		return;
	passes = (uint64_t)cap * t->size / p->region;
	p->write_passes = passes > 1000000 ? 1000000 :
			  passes ? (unsigned)passes : 1;
	/* Said only where it binds: more passes than writes allowed. */
	if (s->duration || s->passes > p->write_passes)
		snprintf(note, len, "%s: at most %u whole-disk writes%s, so %u "
			 "write pass%s of its %llu MiB region; later passes "
			 "only verify", t->id.name, cap, s->max_writes_set ?
			 " (max-writes)" : " on flash (max-writes)",
			 p->write_passes, p->write_passes == 1 ? "" : "es",
			 (unsigned long long)(p->region >> 20));
}

static int disk_gone(const void *t)
{
	return target_check(t) == -ENODEV;
}

void plan_disk(const struct target *t, struct engine_disk *d)
{
	d->fd = t->fd;
	d->ident = t->ident;
	d->lbs = t->lbs;
	d->gone = disk_gone;
	d->gone_arg = t;
}
