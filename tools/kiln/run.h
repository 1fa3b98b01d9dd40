/* SPDX-License-Identifier: MIT */
#ifndef KILN_RUN_H
#define KILN_RUN_H

/*
 * kiln run [--results ROOT] [--protect DEV]... [--config FILE]
 *          [--cmdline FILE] [--KEY=VALUE]...: argv[0] is "run".
 */
int run_main(int argc, char **argv);

#endif
