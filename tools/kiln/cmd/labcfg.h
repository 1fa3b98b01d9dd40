/* SPDX-License-Identifier: MIT */
#ifndef KILN_LABCFG_H
#define KILN_LABCFG_H

#include <stddef.h>

#include "settings/settings.h"

/*
 * The lab server's file for this machine (s->lab is set) ending in ext
 * (".cfg" its settings, ".expect" the machine it should be): <id>ext,
 * else default<ext>. Its text in *text (to free) and its URL in url. 0
 * got it; 1 the server has none for this machine nor a default (both
 * 404): nothing to read; -errno it could not be fetched, why says why in
 * a line.
 */
int labcfg_fetch(const struct settings *s, const char *ext, char **text,
		 size_t *len, char *url, size_t ulen, char *why, size_t wlen);

#endif
