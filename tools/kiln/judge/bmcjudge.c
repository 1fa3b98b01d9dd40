/* SPDX-License-Identifier: MIT */
/*
 * Description: the BMC signal's rule (see bmcjudge.h), reached through
 * its judge hook (results/bmc_out.c).
 */
#include <stdio.h>

#include "judge/bmcjudge.h"
#include "judge/record.h"
#include "judge/vitals.h"
#include "sense/bmc.h"

/*
 * The BMC's event log: an entry added during the run of a critical class
 * FAILs the machine; a log that could not be read, or was cleared or
 * wrapped during the run (so entries may be lost), WARNs it. No BMC, or
 * bmc=0: nothing judged.
 */
void bmcjudge(struct record *r)
{
	struct bmc *b = record_slot(r, BMC_SLOT);
	char what[120];
	int i, crit = 0, first = -1;

	if (!b)
		return;
	b->verdict = JUDGE_PASS;
	b->why[0] = 0;
	if (b->state == BMC_OFF || b->state == BMC_ABSENT)
		return;
	for (i = 0; i < b->nkept; i++)
		if (sel_class(&b->kept[i]) != SEL_FACT && !crit++)
			first = i;
	if (crit) {
		sel_describe(&b->kept[first], what, sizeof(what));
		snprintf(b->why, sizeof(b->why), "the BMC logged %d critical "
			 "event%s during the run, the first (record %04Xh) "
			 "%s: %s", crit, crit == 1 ? "" : "s",
			 b->kept[first].id,
			 sel_class_name(sel_class(&b->kept[first])), what);
		b->verdict = JUDGE_FAIL;
		vitals_machine_reason(r, JUDGE_FAIL, b->why);
		return;
	}
	if (b->state == BMC_UNREAD || !b->end_read)
		snprintf(b->why, sizeof(b->why), "the BMC's event log could not "
			 "be read %s: %s", b->state == BMC_UNREAD ?
			 "before the burn" : "after the burn",
			 b->problem[0] ? b->problem : "no reason known");
	else if (b->change.cleared)
		snprintf(b->why, sizeof(b->why), "the BMC's event log was "
			 "cleared during the run: what it logged before the "
			 "clear is lost");
	else if (b->change.wrapped)
		snprintf(b->why, sizeof(b->why), "the BMC's event log wrapped "
			 "during the run (entries of the start are gone): "
			 "entries may be lost");
	else if (b->change.overflow)
		snprintf(b->why, sizeof(b->why), "the BMC's event log filled "
			 "during the run: the BMC dropped events");
	if (b->why[0]) {
		b->verdict = JUDGE_WARN;
		vitals_machine_reason(r, JUDGE_WARN, b->why);
	}
}
