/* SPDX-License-Identifier: MIT */
#ifndef KILN_PROBE_H
#define KILN_PROBE_H

/* kiln probe [--json] PATH...: argv[0] is "probe". */
int probe_main(int argc, char **argv);

#endif
