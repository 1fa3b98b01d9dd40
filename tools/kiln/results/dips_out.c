/* SPDX-License-Identifier: MIT */
/*
 * Description: the seconds most disks dipped together (judge/dips.c) in
 * result.json and summary.txt, said once, as the machine's or a
 * controller's, so that a reader sees why no disk WARNed "unstable" for
 * them: dips_signal. Nothing reads them back: a restored record finds
 * them again from its samples.
 */
#include <stdio.h>

#include "judge/dips.h"
#include "results/result_keys.h"
#include "results/signal.h"

static const char *ctrl_name(const struct record *r, int c)
{
	return c >= 0 && c < r->links.n ? r->links.ctrls[c].pci.pci : "?";
}

/* The record's shared seconds; none found yet: none. */
static const struct dips *dips_of(const struct record *r)
{
	static const struct dips none;
	const struct dips *d = record_slot(r, DIPS_SLOT);

	return d ? d : &none;
}

/* The run's "shared_dips". */
static void dips_json(struct json *j, const struct record *r)
{
	const struct dips *d = dips_of(r);
	int i;

	json_array(j, KEY_SHARED_DIPS);
	for (i = 0; i < d->n; i++) {
		json_begin(j, NULL);
		json_num(j, KEY_SECOND, d->s[i].ms / 1000.0);
		json_str(j, KEY_CONTROLLER, d->s[i].ctrl < 0 ? NULL :
			 ctrl_name(r, d->s[i].ctrl));
		json_u64(j, KEY_DIPPED, d->s[i].dipped);
		json_u64(j, KEY_BUSY, d->s[i].busy);
		json_end(j);
	}
	json_array_end(j);
}

/* summary.txt's lines: the machine's dips, then each controller's. */
static void dips_summary(const struct record *r, FILE *f)
{
	const struct dips *d = dips_of(r);
	char line[400], name[64];
	int i, c;

	dips_text(d, -1, NULL, line, sizeof(line));
	if (line[0])
		fprintf(f, "dips: %s\n", line);
	for (c = 0; c < r->links.n; c++) {
		for (i = 0; i < d->n; i++)
			if (d->s[i].ctrl == c)
				break;
		if (i == d->n)
			continue;
		snprintf(name, sizeof(name), "controller %s", ctrl_name(r, c));
		dips_text(d, c, name, line, sizeof(line));
		if (line[0])
			fprintf(f, "dips: %s\n", line);
	}
}

/*
 * Its rule (record.h), before any disk is judged "unstable": the seconds
 * most disks dipped together are the machine's or a controller's.
 */
static void dips_rule(struct record *r, struct record_disk *d, int final,
		      enum judge_at at)
{
	(void)d;
	(void)final;
	if (at == JUDGE_AT_FIRST)
		dips_judge(r);
}

const struct signal_ops dips_signal = {
	.name = "dips",
	.judge = dips_rule,
	.json = dips_json,
	.summary_trouble = dips_summary,
};
