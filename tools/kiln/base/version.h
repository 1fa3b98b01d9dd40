/* SPDX-License-Identifier: MIT */
#ifndef KILN_VERSION_H
#define KILN_VERSION_H

/* kiln's version (git describe at build time): one place says it. */
const char *version_string(void);

#endif
