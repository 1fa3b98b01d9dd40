/* SPDX-License-Identifier: MIT */
#ifndef KILN_LOCATE_H
#define KILN_LOCATE_H

#include "settings/options.h"

/* kiln locate DISK [--off]: one disk's locate LED (see locate.c). */
extern const struct options_cmd locate_cmd;
int locate_command(struct options_args *a);

#endif
