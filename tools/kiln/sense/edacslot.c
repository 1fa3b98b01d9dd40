/* SPDX-License-Identifier: MIT */
/*
 * Description: EDAC's DIMM labels matched to SMBIOS slots (see
 * edacslot.h): the label whole ("DIMM_A1", ghes_edac's "P0 CHANNEL A
 * DIMM 0"), else the locator as a word of it ("CPU1_DIMM_A1"), with the
 * bank locator as a word too to tell apart slots of one name on two
 * sockets.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sense/edacslot.h"

/* Whether word is in s with no letter or digit either side of it. */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word), len = strlen(s), i;

	if (!n || n > len)
		return 0;
	for (i = 0; i + n <= len; i++) {
		if (strncasecmp(s + i, word, n))
			continue;
		if ((i == 0 || !isalnum((unsigned char)s[i - 1])) &&
		    !isalnum((unsigned char)s[i + n]))
			return 1;
	}
	return 0;
}

/* How well label names d: 0 not at all, more is better. */
static int score(const char *label, const struct smbios_dimm *d)
{
	char both[132];

	if (!d->locator[0])
		return 0;
	snprintf(both, sizeof(both), "%s %s", d->bank, d->locator);
	if (d->bank[0] && !strcasecmp(label, both))
		return 4;
	if (!strcasecmp(label, d->locator))
		return 3;
	if (!has_word(label, d->locator))
		return 0;
	return d->bank[0] && has_word(label, d->bank) ? 2 : 1;
}

const struct smbios_dimm *edacslot_of(const char *label,
				      const struct smbios_dimm *d, int n)
{
	const struct smbios_dimm *best = NULL;
	int i, top = 0, tie = 0, v;

	if (!label || !label[0])
		return NULL;
	for (i = 0; i < n; i++) {
		if (!(v = score(label, &d[i])))
			continue;
		if (v > top) {
			top = v;
			best = &d[i];
			tie = 0;
		} else if (v == top) {
			tie = 1;
		}
	}
	return tie ? NULL : best;
}

void edacslot_match(struct sensors *s, const struct smbios_dimm *d, int n)
{
	const struct smbios_dimm *m;
	int i;

	for (i = 0; i < s->nedac; i++) {
		struct sensors_edac *e = &s->edac[i];

		e->slot[0] = 0;
		/* A controller's label is its driver's name. */
		if (!strchr(e->where, '/'))
			continue;
		if ((m = edacslot_of(e->label, d, n)))
			snprintf(e->slot, sizeof(e->slot), "%s", m->locator);
	}
}
