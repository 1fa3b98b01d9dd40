/* SPDX-License-Identifier: MIT */
#ifndef KILN_PROBE_H
#define KILN_PROBE_H

#include "settings/options.h"

/* kiln probe [--json] PATH...: its usage, and it once main has started it. */
extern const struct options_cmd probe_cmd;
int probe_command(struct options_args *a);

#endif
