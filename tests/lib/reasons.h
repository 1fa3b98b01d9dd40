/* SPDX-License-Identifier: MIT */
/*
 * reasons.h: whether a verdict gives a reason, for the unit tests that
 * judge. Include after tap.h.
 */
#ifndef KILN_TEST_REASONS_H
#define KILN_TEST_REASONS_H

#include <string.h>

#include "judge/judge.h"

/* 1 when a reason of j holds text; else 0, and the reasons as comments. */
static int tap_has_reason(const struct judge *j, const char *text)
{
	int i;

	for (i = 0; i < j->nreasons; i++)
		if (strstr(j->reasons[i], text))
			return 1;
	tap_diag("no reason with '%s' in:", text);
	for (i = 0; i < j->nreasons; i++)
		tap_diag("  %s", j->reasons[i]);
	return 0;
}

#endif
