/* SPDX-License-Identifier: MIT */
#ifndef KILN_SURVEY_H
#define KILN_SURVEY_H

/* kiln discover [--json] [--sysfs-root DIR] [--protect DEV]...: argv[0] is "discover". */
int survey_discover_main(int argc, char **argv);

/* kiln probe [--json] PATH...: the safety class of disks or image files. */
int survey_probe_main(int argc, char **argv);

#endif
