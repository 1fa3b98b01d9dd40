/* SPDX-License-Identifier: MIT */
#ifndef KILN_RUN_PLAN_H
#define KILN_RUN_PLAN_H

#include <stdio.h>

#include "discover/inventory.h"
#include "plan/plan.h"
#include "judge/record.h"
#include "settings/settings.h"

/*
 * kiln run's plan, said on the console: the inventory, what is done to
 * each disk and why, names in the settings that match no disk; each disk
 * to test (and each dead before the burn, a FAIL) put in rec, and a disk
 * missing from expect-disks its failure. *nwrite is how many disks the
 * plan overwrites. 0, or -ENOMEM.
 */
int run_plan_disks(const struct settings *s,
		   const struct discover_inventory *inv, struct record *rec,
		   int *nwrite);

/*
 * The plan's table: a line a disk, or a line for like disks (same size,
 * class, action and reason: "loop0-59 (60 disks)" over it), to f.
 */
void run_plan_print(FILE *f, const struct discover_inventory *inv,
		    const struct plan_item *items);

/*
 * Counts seconds down on every console before nwrite disks are
 * overwritten: 1 when a key on any console (or stdin) stopped it, else 0.
 */
int run_plan_countdown(unsigned seconds, int nwrite);

#endif
