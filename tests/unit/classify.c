/* SPDX-License-Identifier: MIT */
/*
 * Description: the safety class read from a disk's bytes (the samples
 * of safety_classify(), not the guard's): all 0x00 or all 0xff is blank
 * with that byte; a unit of the other blank byte, or one byte of
 * anything else, is data at that byte; this disk's kiln units with the
 * rest blank are kiln-data. The disk is sdx of a fixture's /sys over a
 * file of 4 MiB, so it is read whole.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/unit.h"
#include "discover/safety.h"

#define SIZE (4u << 20)
#define IDENT 0x0123456789abcdefull

static char top[64];
static unsigned char disk[SIZE];

/* The class of disk as sdx, over a file that holds it. */
static void classify(struct safety *s)
{
	char sys[128], proc[128], path[128];
	struct safety_env env = { .sysroot = sys, .procroot = proc };
	struct safety_subject d = { .name = "sdx", .rdev = makedev(8, 0),
				    .size = SIZE, .ident = IDENT };

	snprintf(sys, sizeof(sys), "%s/sys", top);
	snprintf(proc, sizeof(proc), "%s/proc", top);
	snprintf(path, sizeof(path), "%s/disk.img", top);
	if (tap_write(top, "disk.img", disk, SIZE))
		tap_bail("cannot write %s", path);
	d.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d.fd < 0)
		tap_bail("cannot open %s", path);
	memset(s, 0, sizeof(*s));
	safety_classify(&env, &d, s);
	close(d.fd);
}

static void test_blank(void)
{
	struct safety s;

	memset(disk, 0x00, SIZE);
	classify(&s);
	tap_ok(s.class == SAFETY_BLANK && s.blank_byte == 0x00,
	       "all 0x00 is blank, 0x00 (%s)", s.why);
	memset(disk, 0xff, SIZE);
	classify(&s);
	tap_ok(s.class == SAFETY_BLANK && s.blank_byte == 0xff,
	       "all 0xff is blank, 0xff (%s)", s.why);
}

static void test_data(void)
{
	struct safety s;

	memset(disk, 0x00, SIZE);
	memset(disk + (1u << 20), 0xff, UNIT_SIZE);
	classify(&s);
	tap_ok(s.class == SAFETY_HAS_DATA &&
	       strstr(s.why, "unknown data at byte 1048576"),
	       "a unit of 0xff among 0x00 is data at it (%s)", s.why);
	memset(disk, 0xff, SIZE);
	memset(disk + (2u << 20), 0x00, UNIT_SIZE);
	classify(&s);
	tap_ok(s.class == SAFETY_HAS_DATA &&
	       strstr(s.why, "unknown data at byte 2097152"),
	       "a unit of 0x00 among 0xff is data at it (%s)", s.why);
	memset(disk, 0x00, SIZE);
	disk[(1u << 20) + 4095] = 0x01;
	classify(&s);
	tap_ok(s.class == SAFETY_HAS_DATA &&
	       strstr(s.why, "unknown data at byte 1052671"),
	       "one byte 0x01 at the end of a unit of 0x00 is data at that "
	       "byte (%s)", s.why);
	memset(disk, 0xff, SIZE);
	disk[3u << 20] = 0xfe;
	classify(&s);
	tap_ok(s.class == SAFETY_HAS_DATA &&
	       strstr(s.why, "unknown data at byte 3145728"),
	       "one byte 0xfe in 0xff is data at that byte (%s)", s.why);
}

static void test_kiln(void)
{
	static struct unit_ctx ctx;
	struct unit_key k = { 0x77, IDENT, 0, 1 };
	struct safety s;

	unit_ctx_init(&ctx, k.run_id);
	memset(disk, 0xff, SIZE);
	unit_fill(&ctx, disk, 4 * UNIT_SIZE, k);
	classify(&s);
	tap_ok(s.class == SAFETY_KILN_DATA && s.blank_byte == 0xff &&
	       s.kiln_units >= 4,
	       "this disk's units, the rest 0xff, are kiln-data (%s)", s.why);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	snprintf(top, sizeof(top), "/tmp/kiln-classify.%d", (int)getpid());
	tap_sh("rm -rf %s && mkdir -p %s/sys/block/sdx %s/proc/self", top,
	       top, top);
	tap_put("8:0\n", "%s/sys/block/sdx/dev", top);
	tap_put("", "%s/proc/self/mountinfo", top);
	tap_put("Filename Type Size Used Priority\n", "%s/proc/swaps", top);
	TAP_RUN(test_blank);
	TAP_RUN(test_data);
	TAP_RUN(test_kiln);
	tap_sh("rm -rf %s", top);
	return tap_done();
}
