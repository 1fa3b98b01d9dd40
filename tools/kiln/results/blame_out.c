/* SPDX-License-Identifier: MIT */
/*
 * Description: the placing of transfer errors (judge/blame.c) in
 * result.json, summary.txt and on a controller's line, so a reader sees
 * at once whether the bad units that read back good were put on a disk,
 * a controller or the machine, and why: blame_signal. A restored
 * record decides the place again from its facts (the disks', the
 * machine's memory errors), which its read hook finds read back before
 * it.
 */
#include <errno.h>
#include <stdio.h>

#include "judge/blame.h"
#include "results/result_keys.h"
#include "results/signal.h"

/* The record's blame; none judged yet: no transfer errors placed. */
static const struct blame *blame_of(const struct record *r)
{
	static const struct blame none;
	const struct blame *b = record_slot(r, BLAME_SLOT);

	return b ? b : &none;
}

/* The run's "blame": place, controller, disks, units, memory, reason. */
static void blame_json(struct json *j, const struct record *r)
{
	const struct blame *b = blame_of(r);
	int i;

	json_begin(j, KEY_BLAME);
	json_str(j, KEY_PLACE, blame_place_name(b->place));
	json_str(j, KEY_CONTROLLER, b->place == BLAME_CONTROLLER ?
		 r->links.ctrls[b->ctrl].pci.pci : NULL);
	json_u64(j, KEY_UNITS_GOOD_ON_REREAD, b->units);
	json_array(j, KEY_DISKS);
	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] &&
		    blame_transfer(&r->disks[i].snap))
			json_str(j, NULL, r->disks[i].label);
	json_array_end(j);
	json_str(j, KEY_MEMORY_SUSPECTED, b->memory ? b->memory_why : NULL);
	json_str(j, KEY_REASON, b->reason[0] ? b->reason : NULL);
	json_end(j);
}

/* summary.txt's "transfer errors:" line, when there were any. */
static void blame_summary(const struct record *r, FILE *f)
{
	const struct blame *b = blame_of(r);

	const char *one = "?";
	int i;

	for (i = 0; i < r->n; i++)
		if (!r->disks[i].failed[0] && blame_transfer(&r->disks[i].snap))
			one = r->disks[i].label;
	switch (b->place) {
	case BLAME_DISK:
		fprintf(f, "transfer errors: placed on %s, the one disk that "
			"had them (bad units that read back good)\n", one);
		break;
	case BLAME_CONTROLLER:
		fprintf(f, "transfer errors: placed on controller %s, not its "
			"%d disks that had them (they WARN)\n",
			r->links.ctrls[b->ctrl].pci.pci, b->ndisks);
		break;
	case BLAME_MACHINE:
		fprintf(f, "transfer errors: placed on the machine, not the "
			"%d disk%s that had them (%s WARN)\n", b->ndisks,
			b->ndisks == 1 ? "" : "s",
			b->ndisks == 1 ? "it" : "they");
		break;
	}
}

/* For kiln report, which reads verdicts and does not judge again. */
static int blame_read(const struct jsonread_node *doc, struct record *r)
{
	struct blame *b = record_slot_make(r, BLAME_SLOT, sizeof(*b), NULL);

	(void)doc;
	if (!b)
		return -ENOMEM;
	blame_decide(r, b);
	return 0;
}

/* On controller k's line: the FAIL placed there. */
static const char *blame_ctrl(const struct record *r, int k, char *buf,
			      size_t len)
{
	const struct blame *b = blame_of(r);

	if (b->place != BLAME_CONTROLLER || b->ctrl != k)
		return NULL;
	snprintf(buf, len, "FAIL: %s", b->reason);
	return buf;
}

/*
 * Its rule (record.h), once the machine is judged: it may add a FAIL of
 * the machine.
 */
static void blame_rule(struct record *r, struct record_disk *d, int final,
		       enum judge_at at)
{
	(void)d;
	(void)final;
	if (at == JUDGE_AT_LAST)
		blame_judge(r);
}

const struct signal_ops blame_signal = {
	.name = "blame",
	.judge = blame_rule,
	.json = blame_json,
	.read = blame_read,
	.summary_trouble = blame_summary,
	.ctrl = blame_ctrl,
};
