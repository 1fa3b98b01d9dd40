/* SPDX-License-Identifier: MIT */
/*
 * Description: in use is decided over every medium that reaches a
 * disk's bytes, and a set of media too big to be followed whole fails
 * closed: a disk with more partitions than kiln follows is in use
 * ("cannot be checked"), never a disk whose last partitions were left
 * out unseen, so a holder or a mount on one of them is never missed; and
 * one with more than kiln can lock against another kiln is in use too. On
 * small sysfs trees laid out as the kernel lays them out (a fixture's
 * /sys and /proc: no loop device is asked, no process looked at).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "discover/safety.h"

static char top[64];

/*
 * A fresh /sys with disk sdx (8:0) and parts partitions (259:1...), and
 * an empty /proc (no mounts, no swap, no process).
 */
static void machine(int parts)
{
	int i;

	tap_sh("rm -rf %s && mkdir -p %s/sys/block/sdx %s/proc/self", top,
	       top, top);
	tap_put("8:0\n", "%s/sys/block/sdx/dev", top);
	tap_put("", "%s/proc/self/mountinfo", top);
	tap_put("Filename Type Size Used Priority\n", "%s/proc/swaps", top);
	for (i = 1; i <= parts; i++) {
		char dev[32];

		tap_sh("mkdir -p %s/sys/block/sdx/sdx%d/holders", top, i);
		tap_put("1\n", "%s/sys/block/sdx/sdx%d/partition", top, i);
		snprintf(dev, sizeof(dev), "259:%d\n", i);
		tap_put(dev, "%s/sys/block/sdx/sdx%d/dev", top, i);
	}
}

/* Partition n is held by dm-0, as a device mapper table over it. */
static void held(int n)
{
	tap_sh("mkdir -p %s/sys/block/sdx/sdx%d/holders/dm-0", top, n);
}

static void in_use(struct safety *s)
{
	char sys[128], proc[128];
	struct safety_env env = { .sysroot = sys, .procroot = proc };
	struct safety_subject d = { .name = "sdx", .rdev = makedev(8, 0),
				    .fd = -1 };

	snprintf(sys, sizeof(sys), "%s/sys", top);
	snprintf(proc, sizeof(proc), "%s/proc", top);
	safety_in_use(&env, &d, s);
}

static void test_few(void)
{
	struct safety s;

	machine(10);
	in_use(&s);
	tap_ok(s.class != SAFETY_IN_USE, "a disk with 10 idle partitions is "
	       "not in use (%s)", s.why);
	held(9);
	in_use(&s);
	tap_ok(s.class == SAFETY_IN_USE && strstr(s.why, "sdx9 is held by "
						    "dm-0"),
	       "its partition 9 held by dm-0 makes it in use (%s)", s.why);
}

static void test_many_locks(void)
{
	struct safety s;

	/* More media to lock against other kilns than are kept (24). */
	machine(30);
	in_use(&s);
	tap_ok(s.class == SAFETY_IN_USE && strstr(s.why, "cannot be locked"),
	       "a disk with 30 partitions is in use: they cannot all be "
	       "locked against other kilns (%s)", s.why);
	tap_ok(s.nholds <= SAFETY_HOLDS, "no more locks are kept than fit "
	       "(%d)", s.nholds);
}

static void test_many_held(void)
{
	struct safety s;

	/* More media than the set of a disk's reach holds (48). */
	machine(60);
	held(58);
	in_use(&s);
	tap_ok(s.class == SAFETY_IN_USE, "a disk with 60 partitions, the "
	       "58th held, is in use (%s)", s.why);
}

static void test_many_idle(void)
{
	struct safety s;

	machine(60);
	in_use(&s);
	tap_ok(s.class == SAFETY_IN_USE && strstr(s.why, "cannot be checked"),
	       "a disk with more partitions than are followed is in use: "
	       "they cannot be checked (%s)", s.why);
}

static void test_family_cut(void)
{
	struct safety s;

	/* More partitions than the kernel's list is read for (64). */
	machine(70);
	held(69);
	in_use(&s);
	tap_ok(s.class == SAFETY_IN_USE && strstr(s.why, "cannot be checked"),
	       "a disk with 70 partitions, the 69th held, is in use: they "
	       "cannot be checked (%s)", s.why);
}

int main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");

	tap_args(argc, argv);
	snprintf(top, sizeof(top), "%s/kiln-inuse-%d", tmp ? tmp : "/tmp",
		 (int)getpid());
	TAP_RUN(test_few);
	TAP_RUN(test_many_locks);
	TAP_RUN(test_many_held);
	TAP_RUN(test_many_idle);
	TAP_RUN(test_family_cut);
	tap_sh("rm -rf %s", top);
	return tap_done();
}
