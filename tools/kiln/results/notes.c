/* SPDX-License-Identifier: MIT */
/*
 * Description: notes said once with a count (see notes.h). A note about a
 * disk starts with its name ("sdb: ...", "/dev/sdb tested read-only:
 * ..."); notes whose words after the name are the same are one line.
 * A note about a setting ("upload: not started: ...") is no disk's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/notes.h"
#include "settings/settings.h"

/* Names listed in a line said for many disks; the rest are counted. */
#define NOTES_NAMES 6

/* Where the words after a note's subject start; NULL when it has none. */
static const char *after_subject(const char *note)
{
	size_t n = strcspn(note, ": ");

	return n && (note[n] == ':' || note[n] == ' ') ? note + n : NULL;
}

/* A note whose subject is a setting ("upload: ...") is about no disk. */
static int of_setting(const char *note, const char *words)
{
	char key[64];

	snprintf(key, sizeof(key), "%.*s", (int)(words - note), note);
	return settings_key(key) != NULL;
}

static int same_words(const char *a, const char *b)
{
	const char *x = after_subject(a), *y = after_subject(b);

	return x && y && !strcmp(x, y) && !of_setting(a, x) &&
	       !of_setting(b, y);
}

void notes_print(char *const *notes, int n, FILE *f)
{
	char *said = calloc((size_t)n + 1, 1);
	int i, k, count, listed;

	for (i = 0; i < n; i++) {
		if (said && said[i])
			continue;
		for (k = i + 1, count = 1; said && k < n; k++)
			count += same_words(notes[i], notes[k]);
		if (count == 1) {
			fprintf(f, "note: %s\n", notes[i]);
			continue;
		}
		fprintf(f, "note: %d disks%s (", count,
			after_subject(notes[i]));
		for (k = i, listed = 0; k < n; k++) {
			if (k != i && !same_words(notes[i], notes[k]))
				continue;
			said[k] = 1;
			if (listed++ < NOTES_NAMES)
				fprintf(f, "%s%.*s", listed > 1 ? ", " : "",
					(int)(after_subject(notes[k]) -
					      notes[k]), notes[k]);
		}
		if (count > NOTES_NAMES)
			fprintf(f, " and %d more", count - NOTES_NAMES);
		fprintf(f, ")\n");
	}
	free(said);
}
