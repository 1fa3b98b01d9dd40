/* SPDX-License-Identifier: MIT */
#ifndef KILN_CMD_FLEET_H
#define KILN_CMD_FLEET_H

#include "settings/options.h"

/* kiln fleet [--out DIR] ROOT...: its usage, and it once main has
 * started it. */
extern const struct options_cmd fleet_cmd;
int fleet_command(struct options_args *a);

#endif
