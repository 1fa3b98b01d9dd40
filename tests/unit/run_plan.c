/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run's plan table: like disks (one size, class, action
 * and reason) are one line, their names a range ("loop0-59 (60 disks)"
 * over it), so 60 disks fit a screen; each disk unlike the others keeps
 * its own line; a lone disk's line is as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "cmd/run_plan.h"

static struct discover_disk disks[60];
static struct plan_item items[60];

static char *table(int n, int *lines)
{
	struct discover_inventory inv = { .disks = disks, .ndisks = n };
	char *text = NULL, *p;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		tap_bail("out of memory");
	run_plan_print(f, &inv, items);
	fclose(f);
	for (*lines = 0, p = text; p && *p; p++)
		*lines += *p == '\n';
	return text;
}

int main(int argc, char **argv)
{
	char *text;
	int i, lines;

	tap_args(argc, argv);
	tap_plan(3);
	for (i = 0; i < 60; i++) {
		snprintf(disks[i].id.name, sizeof(disks[i].id.name), "sd%c%c",
			 i < 26 ? 'a' + i : 'a' + i / 26 - 1,
			 i < 26 ? 0 : 'a' + i % 26);
		disks[i].size = 128ULL << 20;
		disks[i].safety.class = SAFETY_BLANK;
		items[i].action = PLAN_WRITE;
		snprintf(items[i].why, sizeof(items[i].why), "blank");
	}
	disks[17].safety.class = SAFETY_HAS_DATA;
	items[17].action = PLAN_READ;
	snprintf(items[17].why, sizeof(items[17].why), "has data: read only");

	text = table(60, &lines);
	tap_ok(text && lines <= 6 && strstr(text, " (59 disks)\n") &&
	       strstr(text, "\nsdr "), "60 disks, one unlike: %d lines",
	       lines);
	if (text && lines > 6)
		tap_diag("%s", text);
	free(text);

	text = table(1, &lines);
	tap_ok(text && lines == 3 && strstr(text, "\nsda "),
	       "one disk: its own line (%d lines)", lines);
	free(text);

	/* Three like disks: "sda-sdc" fits the column, no line of its own. */
	text = table(3, &lines);
	tap_ok(text && lines == 3 && strstr(text, "\nsda-sdc "),
	       "three like disks: one line, sda-sdc");
	if (text && lines != 3)
		tap_diag("%s", text);
	free(text);
	return tap_done();
}
