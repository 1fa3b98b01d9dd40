/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run's choice of disks and its countdown: the plan of
 * every disk found (what to do and why), each chosen disk put in the run
 * record, the names in the settings that match no disk, then a countdown
 * on every console before anything is overwritten, stopped by any key.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/kiln.h"
#include "base/names.h"
#include "engine/endstep.h"
#include "cmd/run_plan.h"
#include "plan/plan.h"
#include "settings/settings.h"

#define MAX_CONSOLES 8

/* Names that match no disk found: a typo, said before the countdown. */
static void say_unmatched(const struct settings *s,
			  const struct discover_inventory *inv)
{
	const struct identity **ids;
	char words[600];
	int i;

	ids = calloc((size_t)inv->ndisks + 1, sizeof(*ids));
	if (!ids)
		return;
	for (i = 0; i < inv->ndisks; i++)
		ids[i] = &inv->disks[i].id;
	plan_consent_unmatched(s, ids, inv->ndisks, words, sizeof(words));
	if (words[0])
		complain_out("destroy-data names %s: no such disk (a typo?): "
			     "no consent for it", words);
	for (i = 0; i < inv->ndisks; i++) {
		char named[1200];

		plan_consent_by_name(s, ids[i], named, sizeof(named));
		if (named[0])
			complain_out("%s", named);
	}
	free(ids);
	plan_globs_unmatched(s->exclude, inv, words, sizeof(words));
	if (words[0])
		complain_out("exclude names %s: no disk matches (a typo?): "
			     "nothing excluded by it", words);
	plan_globs_unmatched(s->include, inv, words, sizeof(words));
	if (words[0])
		complain_out("include names %s: no disk matches (a typo?)",
			     words);
}

/* Two disks the plan says the same of: one line serves both. */
static int alike(const struct discover_disk *a, const struct plan_item *pa,
		 const struct discover_disk *b, const struct plan_item *pb)
{
	return a->size == b->size && a->safety.class == b->safety.class &&
	       pa->action == pb->action && !strcmp(pa->why, pb->why);
}

void run_plan_print(FILE *f, const struct discover_inventory *inv,
		    const struct plan_item *items)
{
	const char **names = calloc((size_t)inv->ndisks + 1, sizeof(*names));
	char *said = calloc((size_t)inv->ndisks + 1, 1), size[32], list[400];
	int i, j, n, own;

	fprintf(f, "\n%-9s %9s  %-10s %-13s %s\n", "disk", "size", "class",
		"to do", "because");
	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];

		if (said && said[i])
			continue;
		/* Like disks a line ("loop0-59"), so 60 disks fit a screen. */
		snprintf(list, sizeof(list), "%s", d->id.name);
		for (n = 0, j = i; names && said && j < inv->ndisks; j++)
			if (!said[j] && alike(d, &items[i], &inv->disks[j],
					      &items[j])) {
				names[n++] = inv->disks[j].id.name;
				said[j] = 1;
			}
		own = n > 1 && names_ranges(names, (size_t)n, list,
					    sizeof(list)) >= 0 &&
		      strlen(list) > 9;
		if (own)
			fprintf(f, "%s (%d disks)\n", list, n);
		settings_fmt_size(d->size, size, sizeof(size));
		fprintf(f, "%-9.9s %9s  %-10s %-13s %.34s\n",
			own ? "" : list, size,
			safety_class_name(d->safety.class),
			plan_action_name(items[i].action), items[i].why);
	}
	if (!inv->ndisks)
		fprintf(f, "(no disks found)\n");
	fflush(f);
	free(names);
	free(said);
}

/* The disks of the plan in the record: those it tests, and the dead. */
static int add_disks(const struct settings *s,
		     const struct discover_inventory *inv,
		     const struct plan_item *items, struct record *rec,
		     int *nwrite)
{
	int i;

	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];
		struct record_disk *rd;
		char path[80];
		int mode = items[i].action == PLAN_WRITE ? s->mode :
			   SETTINGS_READ;

		snprintf(path, sizeof(path), "/dev/%s", d->id.name);
		/* Dead before the burn: a FAIL, and the others go on. */
		if (d->stalled) {
			rd = record_add(rec, path, mode);
			if (!rd)
				return -ENOMEM;
			snprintf(rd->label, sizeof(rd->label), "%s",
				 d->id.name);
			rd->t.id = d->id;
			snprintf(rd->failed, sizeof(rd->failed), "%s",
				 d->safety.why);
			continue;
		}
		if (items[i].action == PLAN_SKIP) {
			record_note(rec, "%s not tested: %s", d->id.name,
				    items[i].why);
			continue;
		}
		rd = record_add(rec, path, mode);
		if (!rd)
			return -ENOMEM;
		/*
		 * Discovery's identity until the gate opens it: a disk that
		 * stalls being opened is still named in the results.
		 */
		rd->t.id = d->id;
		/* What the countdown announces is what the plan writes. */
		/* profile erase writes only what destroy-data names. */
		if (items[i].action == PLAN_WRITE && plan_writes_mode(mode) &&
		    (s->profile != SETTINGS_ERASE || plan_consent(s, &d->id)))
			(*nwrite)++;
		if (items[i].action == PLAN_READ && plan_writes_mode(s->mode) &&
		    s->profile == SETTINGS_ERASE)
			record_note(rec, "%s not erased: %s", d->id.name,
				    items[i].why);
		else if (items[i].action == PLAN_READ &&
			 plan_writes_mode(s->mode))
			record_note(rec, "%s tested read-only: %s", d->id.name,
				    items[i].why);
	}
	return 0;
}

int run_plan_disks(const struct settings *s,
		   const struct discover_inventory *inv, struct record *rec,
		   int *nwrite)
{
	struct plan_item *items;
	int ret;

	*nwrite = 0;
	putchar('\n');
	inventory_print(inv, stdout);
	items = calloc((size_t)inv->ndisks + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	plan_choose(s, inv, items);
	run_plan_print(stdout, inv, items);
	/* Said before the countdown: what the disks hold after the run. */
	if (s->profile == SETTINGS_ERASE)
		printf("profile erase: no burn pass; each disk destroy-data "
		       "names is left by end=%s, read back, and certified; "
		       "the others are left as they are\n",
		       endstep_method_name(s->end));
	else if (s->end != SETTINGS_END_KEEP)
		printf("then: each disk written whole that PASSes or WARNs is "
		       "%s (end=%s), read back, and certified\n",
		       s->end == SETTINGS_END_DISCARD ? "discarded" :
		       s->end == SETTINGS_END_ZERO ? "zeroed" :
		       s->sanitize_fallback == SETTINGS_FALLBACK_ZERO ?
		       "sanitized by its own command, or zeroed where it has "
		       "none" : "sanitized by its own command where it has "
		       "one", endstep_method_name(s->end));
	if (s->hidden == SETTINGS_HIDDEN_RESTORE)
		printf("hidden=restore: what each disk destroy-data names "
		       "hides from the OS is made reachable first (NVMe "
		       "namespaces attached, an HPA removed until the next "
		       "power cycle)\n");
	say_unmatched(s, inv);
	ret = add_disks(s, inv, items, rec, nwrite);
	free(items);
	if (ret)
		return ret;
	if (s->expect_disks && (unsigned)inv->ndisks < s->expect_disks) {
		snprintf(rec->failure, sizeof(rec->failure), "%d disk%s found, "
			 "%u expected (expect-disks): a disk is missing",
			 inv->ndisks, inv->ndisks == 1 ? "" : "s",
			 s->expect_disks);
		complain_out("%s", rec->failure);
	}
	if (!rec->n)
		complain_out("nothing to test: %s",
			     inv->ndisks ? "no disk may be tested"
					 : "no disks found");
	return 0;
}

/* The consoles the kernel writes to: an operator may be at any of them. */
static int open_consoles(int *fds, struct termios *saved)
{
	char line[256], name[64], path[80];
	FILE *f = fopen("/proc/consoles", "re");
	int n = 0;

	if (!f)
		return 0;
	while (n < MAX_CONSOLES && fgets(line, sizeof(line), f)) {
		struct termios t;
		int fd;

		if (sscanf(line, "%63s", name) != 1)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", name);
		fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (tcgetattr(fd, &saved[n]) == 0) {
			/* A key, not a line: no Enter needed to abort. */
			t = saved[n];
			t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
			t.c_cc[VMIN] = 0;
			t.c_cc[VTIME] = 0;
			tcsetattr(fd, TCSANOW, &t);
			tcflush(fd, TCIFLUSH);
		}
		fds[n++] = fd;
	}
	fclose(f);
	return n;
}

int run_plan_countdown(unsigned seconds, int nwrite)
{
	struct termios saved[MAX_CONSOLES];
	struct pollfd p[MAX_CONSOLES + 1];
	int fds[MAX_CONSOLES], n, i, aborted = 0;
	unsigned left;

	n = open_consoles(fds, saved);
	for (i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	/* Standard input too, when kiln run is started by hand. */
	p[n] = (struct pollfd){ .fd = isatty(0) ? 0 : -1, .events = POLLIN };
	complain_out(
		"%d disk%s will be OVERWRITTEN. Press any key on any console "
		"to stop.",
		nwrite, nwrite == 1 ? "" : "s");
	for (left = seconds; left > 0 && !aborted; left--) {
		printf("kiln: writing in %u s\n", left);
		fflush(stdout);
		if (poll(p, (nfds_t)n + 1, 1000) > 0)
			aborted = 1;
	}
	for (i = 0; i < n; i++) {
		tcsetattr(fds[i], TCSANOW, &saved[i]);
		close(fds[i]);
	}
	return aborted;
}
