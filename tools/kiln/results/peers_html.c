/* SPDX-License-Identifier: MIT */
/*
 * Description: the peers, the links and the solo phase as a signal of
 * the table (peers_signal, see signal.h): their fields of result.json and
 * their reading back, and their lines of summary.txt (peers_out.c), and
 * their parts of report.html here: a disk's line beside it in the
 * inventory tree, and the limit it ran at in its own section.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/html.h"
#include "results/peers_out.h"
#include "results/result_keys.h"
#include "results/signal.h"

/* Beside a disk in the inventory tree: its summary.txt line, trimmed. */
static void peers_html_disk(FILE *f, const struct record *r,
			    const struct record_disk *d)
{
	char *s = NULL, *p;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);

	if (!m)
		return;
	peers_out_disk_line(r, d, m);
	if (fclose(m)) {
		free(s);
		return;
	}
	for (p = s; *p == ' '; p++)
		;
	p[strcspn(p, "\n")] = 0;
	if (*p) {
		fputs(": ", f);
		html_text(f, p);
	}
	free(s);
}

/* In a disk's own section: the limit it ran at, and how close. */
static void peers_html_limit(FILE *f, const struct record *r,
			     const struct record_disk *d)
{
	char lim[300];

	if (!peers_out_limit(r, d, lim, sizeof(lim))[0])
		return;
	fputs("<p class=\"limit\">limit: ", f);
	html_text(f, lim);
	fputs("</p>\n", f);
}

/*
 * The run's controllers and groups, then each target's part, which
 * names them; after every target is read, as a disk's reading needs
 * nothing of them.
 */
static int peers_read(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *targets = jsonread_get(doc, KEY_TARGETS);
	int i;

	if (peers_out_restore(doc, r))
		return -ENOMEM;
	for (i = 0; i < r->n && (size_t)i < jsonread_count(targets); i++)
		peers_out_restore_disk(jsonread_at(targets, (size_t)i), r,
				       &r->disks[i]);
	return 0;
}

/*
 * Its rule (record.h), after every disk: links at every look, like disks
 * once every disk has finished.
 */
static void peers_rule(struct record *r, struct record_disk *d, int final,
		       enum judge_at at)
{
	(void)d;
	if (at == JUDGE_AT_RUN)
		peers_judge(r, final);
}

const struct signal_ops peers_signal = {
	.name = "peers",
	.judge = peers_rule,
	.json = peers_out_json,
	.json_disk = peers_out_json_disk,
	.read = peers_read,
	.summary_tail = peers_out_summary,
	.summary_disk_head = peers_out_disk_line,
	.html_disk = peers_html_disk,
	.html_disk_section = peers_html_limit,
};
