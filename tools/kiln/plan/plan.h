/* SPDX-License-Identifier: MIT */
#ifndef KILN_PLAN_H
#define KILN_PLAN_H

#include <stddef.h>

#include "discover/discover.h"
#include "engine/engine.h"
#include "settings/settings.h"
#include "discover/target.h"

/*
 * The plan: what kiln may do to each target, and over which region. The
 * safety rule of DESIGN.md is decided in exactly one function,
 * plan_decide(); kiln burn, kiln run and the countdown all ask it.
 */
enum plan_command { PLAN_BURN, PLAN_RUN };

enum plan_action {
	PLAN_REFUSE,		/* kiln burn: exit 2, nothing touched */
	PLAN_SKIP,		/* kiln run: not touched at all */
	PLAN_READ,		/* tested read-only */
	PLAN_WRITE,		/* written and verified */
};

/* Everything the decision rests on, and nothing else. */
struct plan_input {
	int command;		/* enum plan_command */
	int mode;		/* enum settings_mode asked for */
	int class;		/* enum safety_class */
	int consent;		/* destroy-data names it */
	int file;		/* a regular file, not a block device */
	int created;		/* kiln created the file for this run */
	int empty;		/* a file of size 0 */
	int read_only;		/* the device or file cannot be written */
	int twice;		/* the same medium as another target */
};

struct plan_decision {
	int action;		/* enum plan_action */
	const char *why;	/* in words, for the plan and the results */
	/*
	 * PLAN_WRITE because of its class, not consent: the guarded write
	 * (every span read and found blank or kiln's before it is written).
	 */
	int guarded;
};

/* The one decision of what may be done to a target. */
struct plan_decision plan_decide(const struct plan_input *in);

/* Whether a mode writes. */
int plan_writes_mode(int mode);

/*
 * Whether the settings consent to overwriting this disk: destroy-data=1,
 * or its serial, WWN or identity is in the destroy-data list.
 */
int plan_consent(const struct settings *s, const struct identity *id);

/*
 * When destroy-data names this disk by its kernel name (sdb, /dev/sdb),
 * which is no consent, and by nothing that is: the one line that says so
 * and what to give instead (its serial, WWN, or identity), into out;
 * else "".
 */
void plan_consent_by_name(const struct settings *s, const struct identity *id,
			  char *out, size_t len);

/*
 * The words of the destroy-data list that name none of the n disks, comma
 * separated into out ("" when all match): a typo in a serial must be seen
 * before the countdown, not after a disk was left untested. A disk's
 * kernel name is no typo: plan_consent_by_name() says it.
 */
void plan_consent_unmatched(const struct settings *s,
			    const struct identity *const *ids, int n,
			    char *out, size_t len);

/*
 * Whether word names the disk: its kernel name (with or without /dev/),
 * serial, WWN (with or without naa./eui.) or the identity kiln prints, as
 * consent reads them; kiln locate finds its disk so.
 */
int plan_names(const char *word, const struct identity *id);

/*
 * Whether any of the globs matches the disk's name, serial, WWN (with or
 * without its naa./eui. prefix), model, or its controller's PCI address or
 * driver. Case does not matter. Globs are separated by commas; an item
 * with blanks in it matches as a whole ("Samsung SSD 870*") or by any of
 * its words ("sda sdb").
 */
int plan_matches(const char *globs, const struct discover_disk *d,
		 const struct pci_controller *c);

/*
 * The globs (or words of them) that match no disk of inv, comma separated
 * into out ("" when all match): an exclude that misses is a disk written.
 */
void plan_globs_unmatched(const char *globs,
			  const struct discover_inventory *inv,
			  char *out, size_t len);

/* What kiln run does with one disk of inv (include, exclude, decision). */
struct plan_item {
	int action;		/* enum plan_action: SKIP, READ or WRITE */
	char why[240];
};

void plan_choose(const struct settings *s, const struct discover_inventory *inv,
		 struct plan_item *items);

/*
 * The region of t the settings ask for, aligned and inside it, into p;
 * 0, or -EINVAL (bad usage) / -ENOTSUP with a one-line reason in err.
 */
int plan_region(const struct settings *s, const struct target *t,
		struct engine_plan *p, char *err, size_t errlen);

/*
 * How many region writes p allows t (max-writes, or 2 whole-disk writes on
 * flash), into p->write_passes; a line for the notes in note when the cap
 * can bind ("" when not).
 */
void plan_write_cap(const struct settings *s, const struct target *t,
		    struct engine_plan *p, char *note, size_t len);

/*
 * What a worker needs of t, for engine_target_new(): its descriptor, its
 * identity's hash, its block size, and how to tell it has gone (sysfs,
 * target_check()); t must outlive the engine.
 */
void plan_disk(const struct target *t, struct engine_disk *d);

const char *plan_action_name(int action);

/*
 * kiln(1)'s safety table, made from plan_decide(): a tbl(1) table of
 * every situation and what each command does (kiln --man safety;
 * tests/unit/plan.c holds docs/kiln.1 to it).
 */
void plan_man(FILE *f);

#endif
