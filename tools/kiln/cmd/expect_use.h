/* SPDX-License-Identifier: MIT */
#ifndef KILN_EXPECT_USE_H
#define KILN_EXPECT_USE_H

#include <stddef.h>
#include <sys/types.h>

#include "discover/expect.h"
#include "judge/record.h"
#include "settings/options.h"
#include "settings/settings.h"

/*
 * The expect file in force: expect=FILE (relative to the results medium
 * when kiln run has one), else kiln run's ROOT/expect.cfg when it is
 * there. 1 with *e loaded (the caller frees it) and path set, 0 when
 * none, -1 with err said (a bad setting).
 */
int expect_use_load(const struct settings *s, int run, struct expect **e,
		    char *path, size_t plen, char *err, size_t elen);

/*
 * inv against e into r (r->expect, r->expect_file), its differences said
 * on the console; the machine's verdict takes them when it is judged.
 * 0 or -ENOMEM.
 */
int expect_use_check(struct record *r, const struct expect *e,
		     const char *path, const struct discover_inventory *inv,
		     const dev_t *skip, int nskip);

/*
 * kiln burn: with expect=FILE and no expectation yet (kiln run sets its
 * own), the file read and the machine under sysroot held to it. 0, or
 * the exit code (2: a file that does not parse).
 */
int expect_use_burn(struct record *r, const char *sysroot);

/*
 * kiln run: the expect file read (one that does not parse goes into p,
 * so the run does not start) and inv held to it, the protected disks
 * (boot and results media) left out; its disks= replaces expect-disks,
 * said in a note. lab_text (NULL: none), fetched from lab_url, is the
 * lab server's file for this machine: it comes after expect= (which
 * wins) and before the stick's expect.cfg. 0 or -ENOMEM.
 */
int expect_use_run(struct settings *s, struct settings_problems *p,
		   const struct discover_inventory *inv, const dev_t *skip,
		   int nskip, const char *lab_text, const char *lab_url,
		   struct record *r);

#endif
