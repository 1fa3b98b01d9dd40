/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's version, the one file that is built with it, so a
 * new version rebuilds this file alone (the Makefile rewrites its input
 * only when the version changes) and result.json never says a stale one.
 */
#include "base/version.h"

#ifndef KILN_VERSION
#error "the Makefile passes KILN_VERSION"
#endif

const char *version_string(void)
{
	return KILN_VERSION;
}
