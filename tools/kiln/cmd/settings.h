/* SPDX-License-Identifier: MIT */
#ifndef KILN_CMD_SETTINGS_H
#define KILN_CMD_SETTINGS_H

#include "settings/options.h"

/*
 * kiln settings [--get KEY] [same options as run]: its usage, and it once
 * main has started it.
 */
extern const struct options_cmd settings_cmd;
int settings_command(struct options_args *a);

#endif
