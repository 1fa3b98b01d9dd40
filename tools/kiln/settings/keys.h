/* SPDX-License-Identifier: MIT */
#ifndef KILN_SETTINGS_KEYS_H
#define KILN_SETTINGS_KEYS_H

#include <stddef.h>
#include <stdio.h>

#include "settings/settings.h"

/*
 * The key table's insides, shared by the files of settings/ (and the unit
 * test that holds them): how a key's text is read (its type), where a key
 * sits in the table, and how a key is named in a message.
 */
enum key_type { KEY_ENUM, KEY_SIZE, KEY_UINT, KEY_DURATION, KEY_FLAG,
		KEY_STRING, KEY_RUNID, KEY_SPAN, KEY_MAXW, KEY_CONSENT,
		KEY_PATHS, KEY_SHARE, KEY_PERCENT,
		/* a string never shown: said as *** (auth-token) */
		KEY_SECRET };

/* What quick samples: this much in all, a third each at start, middle, end. */
#define KEY_QUICK_DEFAULT (3ull << 30)
/* The largest request: registered buffers are capped at 1 GiB each anyway. */
#define KEY_MAX_BS (64ull << 20)
/* The unit of every request, region and span. */
#define KEY_UNIT (4096ull)

/* The key's place in the table: its index into struct settings' source. */
int settings_key_index(const struct settings_key *k);

/* A key as its source writes it: --bs on kiln's command line, else bs. */
const char *settings_key_as_given(int source, const char *key, char *buf,
				  size_t len);

/*
 * settings_defaults() and settings_man() over a table of the caller's:
 * the unit test's made-up keys show what no key of kiln's shows yet.
 */
void settings_defaults_from(struct settings *s,
			    const struct settings_key *keys, int n,
			    unsigned command);
void settings_man_from(FILE *f, const struct settings_key *keys, int n);

#endif
