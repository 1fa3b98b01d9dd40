/* SPDX-License-Identifier: MIT */
/*
 * Description: the per-disk table of a running burn, on made-up figures:
 * 60 disks behind three controllers fit 80 columns several a line, each
 * disk's MB/s written and read apart, each controller's disks under its
 * name with their MB/s written and read together, the
 * slowest running disk marked once (a finished one never), a disk's
 * done and time left in five columns, and names cut (their ends kept),
 * never the width.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/disktable.h"

static char *table(const struct disktable_row *rows, int n,
		   const char *const *groups, int ng, int width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		tap_bail("out of memory");
	disktable_write(f, "00:05:00", rows, n, groups, ng, width);
	fclose(f);
	return text;
}

/* Lines of text, and the longest of them. */
static int lines(const char *text, int *longest)
{
	int n = 0, len = 0;

	*longest = 0;
	for (; *text; text++) {
		if (*text != '\n') {
			len++;
			continue;
		}
		if (len > *longest)
			*longest = len;
		len = 0;
		n++;
	}
	return n;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (text = strstr(text, what); text; text = strstr(text + 1, what))
		n++;
	return n;
}

static void test_sixty(void)
{
	static const char *const ctrls[] = { "0000:03:00.0 SAS",
		"0000:04:00.0 SAS", "0000:00:17.0 SATA AHCI" };
	struct disktable_row rows[60];
	char names[60][8], want[64];
	char *text;
	int i, n, longest, ok = 1;

	for (i = 0; i < 60; i++) {
		snprintf(names[i], sizeof(names[i]), "sd%c%c",
			 i < 26 ? 'a' + i : 'a' + i / 26 - 1,
			 i < 26 ? ' ' : 'a' + i % 26);
		names[i][strcspn(names[i], " ")] = 0;
		rows[i] = (struct disktable_row){ names[i], i / 20, 200 + i,
						  150 + i, 50, 0.45, 1800 + i,
						  NULL };
	}
	rows[37].mbps = rows[37].write = 12.5;	/* the slowest */
	rows[37].read = 0;
	/* Finished: never the slowest. */
	rows[5].mbps = rows[5].write = rows[5].read = 0;
	rows[5].state = "done";
	rows[5].done = 1;
	text = table(rows, 60, ctrls, 3, 80);
	n = lines(text, &longest);
	/* Two a line, write and read apart: ten lines a controller. */
	if (!tap_ok(longest <= 80 && n <= 1 + 3 + 3 * 10,
		    "60 disks in 80 columns: %d lines, the longest %d", n,
		    longest))
		tap_diag("%s", text);
	for (i = 0; i < 60 && ok; i++) {
		snprintf(want, sizeof(want), "%c%-4s ", i == 37 ? '*' : ' ',
			 names[i]);
		ok = count(text, want) == 1;
		if (!ok)
			tap_diag("%s: '%s' %d times", names[i], want,
				 count(text, want));
	}
	tap_ok(ok, "every disk once, by name");
	tap_ok(count(text, "*") == 2 && strstr(text, "; * slowest\n") &&
	       strstr(text, " *sdal   12    0  45% 30m37"),
	       "the slowest marked once, with its figures (and the legend)");
	tap_ok(strstr(text, " sdf     0    0 100%  done") != NULL,
	       "a finished disk says done, not a time left");
	tap_ok(strstr(text, "\n  0000:03:00.0 SAS: 20 disks, write 3035 "
			    "read 950 MB/s\n") &&
	       strstr(text, "\n  0000:04:00.0 SAS: 20 disks, write 3416 "
			    "read 950 MB/s\n") &&
	       strstr(text, "\n  0000:00:17.0 SATA AHCI: 20 disks, "
			    "write 3990 read 1000 MB/s\n") &&
	       strstr(text, "SAS: 20") < strstr(text, "sda ") &&
	       strstr(text, "sdt ") < strstr(text, "0000:04:00.0") &&
	       strstr(text, "0000:04:00.0") < strstr(text, "sdu "),
	       "grouped by controller, in order, each with its disks' sum");
	tap_ok(!strncmp(text, "00:05:00 per disk: MB/s write, read since the "
			"last table, done, left", 67),
	       "the heading says when and what the columns are");
	free(text);
}

static void test_edges(void)
{
	struct disktable_row rows[] = {
		{ "a-label-much-longer", -1, 15000, 15000, 0, -1, -1, NULL },
		{ "loop1", 7, 300, 100, 200, 0.999, 5 * 3600 + 60 * 7, NULL },
		{ "loop2", -1, 10, 0, 10, 0.1, 0, "stalled" },
	};
	char *text = table(rows, 3, NULL, 0, 80);
	int longest;

	tap_ok(strstr(text, "\n  disks: 3 disks, write 15100 read 210 "
			    "MB/s\n") &&
	       strstr(text, " ~much-longer  15k    0    ?     ?") &&
	       strstr(text, " *loop1         100  200 100%  5h07") &&
	       strstr(text, " loop2           0   10  10% stall"),
	       "no controller: one group; a long name cut to its end, a big rate in "
	       "thousands, unknowns \"?\", a state in five columns");
	free(text);
	text = table(rows, 3, NULL, 0, 20);
	lines(text, &longest);
	tap_ok(count(text, "\n    ") + count(text, "\n   *") == 3,
	       "too narrow for two: one a line (longest %d)", longest);
	free(text);
	rows[0].state = "done";
	text = table(rows, 2, NULL, 0, 80);
	tap_ok(!strchr(text, '*'), "one disk running: nothing to mark");
	free(text);
}

static void test_eta(void)
{
	char b[16];

	tap_ok(!strcmp(disktable_fmt_eta(-1, b, sizeof(b)), "?") &&
	       !strcmp(disktable_fmt_eta(0, b, sizeof(b)), "0m00") &&
	       !strcmp(disktable_fmt_eta(3599, b, sizeof(b)), "59m59") &&
	       !strcmp(disktable_fmt_eta(3600, b, sizeof(b)), "1h00") &&
	       !strcmp(disktable_fmt_eta(99 * 3600 + 3599, b, sizeof(b)),
		       "99h59") &&
	       !strcmp(disktable_fmt_eta(1204 * 3600, b, sizeof(b)),
		       "1204h"),
	       "time left in at most five columns");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_sixty);
	TAP_RUN(test_edges);
	TAP_RUN(test_eta);
	return tap_done();
}
