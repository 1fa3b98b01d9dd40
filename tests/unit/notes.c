/* SPDX-License-Identifier: MIT */
/*
 * Description: the run's notes for people: a note said of many disks in
 * the same words is one line with a count and the first names, in the
 * place of the first; every other note stays as it was, in its order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "results/notes.h"

/* notes_print() of n notes, as one string (the caller frees it). */
static char *printed(char **notes, int n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		tap_bail("out of memory");
	notes_print(notes, n, f);
	fclose(f);
	return text;
}

int main(int argc, char **argv)
{
	char *notes[70], *text;
	int i;

	tap_args(argc, argv);
	for (i = 0; i < 60; i++) {
		char name[8];

		if (i < 26)
			snprintf(name, sizeof(name), "sd%c", 'a' + i);
		else
			snprintf(name, sizeof(name), "sd%c%c",
				 'a' + i / 26 - 1, 'a' + i % 26);
		if (asprintf(&notes[i], "%s: at most 2 whole-disk writes on "
			     "flash (max-writes), so 2 write passes of its "
			     "1024 MiB region; later passes only verify",
			     name) < 0)
			tap_bail("out of memory");
	}
	notes[60] = strdup("/dev/sdx tested read-only: it holds ext2/3/4 "
			   "filesystem at byte 1080");
	notes[61] = strdup("/dev/sdy tested read-only: it holds ext2/3/4 "
			   "filesystem at byte 1080");
	notes[62] = strdup("the second half of a power-cut test");
	notes[63] = strdup("/dev/sdz tested read-only: it holds an MBR "
			   "partition table");

	text = printed(notes, 64);
	tap_ok(!strcmp(text, "note: 60 disks: at most 2 whole-disk writes on "
		       "flash (max-writes), so 2 write passes of its 1024 MiB "
		       "region; later passes only verify (sda, sdb, sdc, sdd, "
		       "sde, sdf and 54 more)\n"
		       "note: 2 disks tested read-only: it holds ext2/3/4 "
		       "filesystem at byte 1080 (/dev/sdx, /dev/sdy)\n"
		       "note: the second half of a power-cut test\n"
		       "note: /dev/sdz tested read-only: it holds an MBR "
		       "partition table\n"),
	       "60 like notes are one line with a count, two like ones too; "
	       "the others stay, in order");
	free(text);

	text = printed(notes + 62, 2);
	tap_ok(!strcmp(text, "note: the second half of a power-cut test\n"
		       "note: /dev/sdz tested read-only: it holds an MBR "
		       "partition table\n"), "notes unlike each other stay as "
	       "they are");
	free(text);
	{
		char *kiln[] = { "upload: not started: no network",
				 "metrics: not started: no network",
				 "a.img: an existing file, which --size does "
				 "not resize",
				 "b.img: an existing file, which --size does "
				 "not resize" };

		text = printed(kiln, 4);
		tap_ok(!strcmp(text, "note: upload: not started: no network\n"
			       "note: metrics: not started: no network\n"
			       "note: 2 disks: an existing file, which --size "
			       "does not resize (a.img, b.img)\n"),
		       "notes about settings are no disks: never counted as "
		       "such");
		if (strncmp(text, "note: upload", 12))
			tap_diag("%s", text);
		free(text);
	}
	text = printed(notes, 0);
	tap_ok(!strcmp(text, ""), "no notes, no lines");
	free(text);
	for (i = 0; i < 64; i++)
		free(notes[i]);
	return tap_done();
}
