/* SPDX-License-Identifier: MIT */
#ifndef KILN_CMD_DISCOVER_H
#define KILN_CMD_DISCOVER_H

#include "settings/options.h"

/*
 * kiln discover [--json] [--protect DEV]... [--sysfs-root DIR]: its usage,
 * and it once kiln's main has read and checked its options.
 */
extern const struct options_cmd discover_cmd;
int discover_command(struct options_args *a);

#endif
