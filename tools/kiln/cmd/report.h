/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_H
#define KILN_REPORT_H

#include "settings/options.h"

/* kiln report RUN_DIR...: its usage, and it once main has started it. */
extern const struct options_cmd report_cmd;
int report_command(struct options_args *a);

#endif
