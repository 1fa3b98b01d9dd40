/* SPDX-License-Identifier: MIT */
/*
 * Description: the guarded write's check of what a disk holds before a
 * write: the blank byte and kiln units of this disk (any run, torn ones
 * too) may be overwritten; anything else stops it at that unit: another
 * disk's units, a unit of this disk at another offset, the other blank
 * byte, one stray byte, a torn unit with a piece of somebody's data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/crc32c.h"
#include "engine/guard.h"

#define IDENT 0xabcdef0123456789ull
#define OLD_RUN 0x1111222233334444ull
#define NEW_RUN 0x5555666677778888ull
#define CUT_RUN 0x9999aaaabbbbccccull
#define UNITS 8

static struct unit_ctx run_ctx, old_ctx, cut_ctx;
static _Alignas(16) unsigned char buf[UNITS * UNIT_SIZE];

static struct unit_key key(uint64_t run, uint64_t off, uint32_t pass)
{
	struct unit_key k = { run, IDENT, off, pass };

	return k;
}

/* guard_check of buf at device offset base, with a fresh guard. */
static size_t check(int byte, uint64_t base)
{
	struct guard g;
	size_t k;

	if (guard_init(&g, &run_ctx, IDENT, byte))
		tap_bail("guard_init");
	k = guard_check(&g, buf, sizeof(buf), base);
	guard_free(&g);
	return k;
}

static void test_blank(void)
{
	memset(buf, 0, sizeof(buf));
	tap_ok(check(0, 0) == sizeof(buf), "zeros may be overwritten");
	tap_ok(check(-1, 0) == sizeof(buf), "... also when the class saw "
	       "no blank byte");
	tap_ok(check(0xff, 0) == 0, "zeros on a disk whose blank byte is "
	       "0xff stop it at once");
	memset(buf, 0xff, sizeof(buf));
	tap_ok(check(0xff, 0) == sizeof(buf), "0xff on a 0xff disk may be");
	memset(buf, 0, sizeof(buf));
	buf[5 * UNIT_SIZE + 4095] = 1;
	tap_ok(check(0, 0) == 5 * UNIT_SIZE, "one stray byte stops it at its "
	       "unit (%zu)", check(0, 0));
}

static void test_units(void)
{
	const uint64_t base = 1ull << 30;
	struct unit_key other;
	size_t i;

	unit_fill(&old_ctx, buf, sizeof(buf), key(OLD_RUN, base, 3));
	tap_ok(check(0, base) == sizeof(buf), "this disk's units of an "
	       "earlier run, each at its own offset, may be overwritten");
	tap_ok(check(0, base + UNIT_SIZE) == 0, "... but not read at another "
	       "offset: a unit of this disk that moved is not its own");
	memset(buf + 2 * UNIT_SIZE, 0, UNIT_SIZE);
	tap_ok(check(0, base) == sizeof(buf), "kiln units and blank units "
	       "mixed may be");
	other = key(OLD_RUN, base + 3 * UNIT_SIZE, 3);
	other.ident ^= 1;
	unit_fill(&old_ctx, buf + 3 * UNIT_SIZE, UNIT_SIZE, other);
	tap_ok(check(0, base) == 3 * UNIT_SIZE, "another disk's unit stops it");
	unit_fill(&old_ctx, buf, sizeof(buf), key(OLD_RUN, base, 3));
	buf[6 * UNIT_SIZE + 100] ^= 0x10;
	tap_ok(check(0, base) == 6 * UNIT_SIZE, "a kiln unit with a flipped "
	       "bit is not proven kiln's: it stops it");
	for (i = 0; i < UNITS; i++)
		unit_fill(&run_ctx, buf + i * UNIT_SIZE, UNIT_SIZE,
			  key(NEW_RUN, base + i * UNIT_SIZE, 1));
	tap_ok(check(0, base) == sizeof(buf), "units of this very run may be");
}

/* Unit i torn: pieces from pass 3, the rest from pass 2 (or blank). */
static void tear(size_t i, uint64_t off, unsigned mask, int blank_rest)
{
	_Alignas(16) unsigned char a[UNIT_SIZE], b[UNIT_SIZE];
	unsigned j;

	unit_fill(&old_ctx, a, UNIT_SIZE, key(OLD_RUN, off, 3));
	unit_fill(&old_ctx, b, UNIT_SIZE, key(OLD_RUN, off, 2));
	if (blank_rest)
		memset(b, 0, UNIT_SIZE);
	for (j = 0; j < UNIT_SIZE / 512; j++)
		memcpy(buf + i * UNIT_SIZE + j * 512,
		       (mask & (1u << j) ? a : b) + j * 512, 512);
}

static void test_torn(void)
{
	const uint64_t base = 8ull << 20;

	unit_fill(&old_ctx, buf, sizeof(buf), key(OLD_RUN, base, 3));
	tear(2, base + 2 * UNIT_SIZE, 0x0f, 0);
	tap_ok(check(0, base) == sizeof(buf), "a unit torn between two passes "
	       "of this disk, header new, may be overwritten");
	tear(3, base + 3 * UNIT_SIZE, 0xf0, 0);
	tap_ok(check(0, base) == sizeof(buf), "... header old too");
	tear(4, base + 4 * UNIT_SIZE, 0x3c, 1);
	tap_ok(check(0, base) == sizeof(buf), "... and one torn with blank "
	       "sectors");
	tear(5, base + 5 * UNIT_SIZE, 0x0f, 0);
	memset(buf + 5 * UNIT_SIZE + 6 * 512, 'x', 512);
	tap_ok(check(0, base) == 5 * UNIT_SIZE, "a torn unit with one piece "
	       "of other data stops it");
	unit_fill(&old_ctx, buf, sizeof(buf), key(OLD_RUN, base, 3));
	tear(0, base, 0x01, 1);
	memset(buf, 0, 512);
	memcpy(buf, "KILNUNIT", 8);
	tap_ok(check(0, base) == 0, "a first piece that only looks like a "
	       "header is not one");
}

/*
 * A run cut short by a power cut in its first pass over a disk an earlier
 * run had written (kiln run's powercut): the units it was writing are
 * torn between the two runs, and are kiln's as much as either.
 */
static void test_torn_runs(void)
{
	const uint64_t base = 16ull << 20;
	_Alignas(16) unsigned char a[UNIT_SIZE], b[UNIT_SIZE];
	unsigned j, mask;
	size_t i;

	for (mask = 0x0f; mask; mask = mask == 0x0f ? 0xf0 : 0) {
		for (i = 0; i < UNITS; i++)
			unit_fill(i < 3 ? &cut_ctx : &old_ctx,
				  buf + i * UNIT_SIZE, UNIT_SIZE,
				  key(i < 3 ? CUT_RUN : OLD_RUN,
				      base + i * UNIT_SIZE, i < 3 ? 1 : 7));
		unit_fill(&cut_ctx, a, UNIT_SIZE,
			  key(CUT_RUN, base + 3 * UNIT_SIZE, 1));
		unit_fill(&old_ctx, b, UNIT_SIZE,
			  key(OLD_RUN, base + 3 * UNIT_SIZE, 7));
		for (j = 0; j < UNIT_SIZE / 512; j++)
			memcpy(buf + 3 * UNIT_SIZE + j * 512,
			       (mask & (1u << j) ? a : b) + j * 512, 512);
		tap_ok(check(0, base) == sizeof(buf), "a unit torn between "
		       "a run cut short and the run before it, header %s, "
		       "may be overwritten (%zu)", mask == 0x0f ? "new" :
		       "old", check(0, base));
	}
	unit_fill(&cut_ctx, buf, sizeof(buf), key(CUT_RUN, base, 1));
	memcpy(buf + 3 * UNIT_SIZE + 7 * 512, b + 7 * 512, 512);
	buf[3 * UNIT_SIZE + 7 * 512 + 9] ^= 1;
	tap_ok(check(0, base) == 3 * UNIT_SIZE, "... but not with a piece "
	       "that is neither run's");
}

/*
 * A region at an offset that is not a multiple of 4 KiB (--offset 512):
 * the units kiln wrote before lie 4 KiB apart from byte 0, so each read
 * begins and ends inside one; those parts are kiln's too.
 */
static void test_offset(void)
{
	static _Alignas(16) unsigned char disk[(UNITS + 1) * UNIT_SIZE];
	const uint64_t base = 32ull << 20;
	const size_t in = 512;
	struct guard g;
	size_t k;

	unit_fill(&old_ctx, disk, sizeof(disk), key(OLD_RUN, base, 2));
	memset(disk + 4 * UNIT_SIZE, 0, UNIT_SIZE);
	if (guard_init(&g, &run_ctx, IDENT, 0))
		tap_bail("guard_init");
	k = guard_check(&g, disk + in, UNITS * UNIT_SIZE, base + in);
	tap_ok(k == UNITS * UNIT_SIZE, "kiln units read from 512 bytes into "
	       "one may be overwritten (%zu)", k);
	disk[in + 100] ^= 1;
	k = guard_check(&g, disk + in, UNITS * UNIT_SIZE, base + in);
	tap_ok(k == 0, "... but a byte of other data in the part of the "
	       "first stops it at once (%zu)", k);
	disk[in + 100] ^= 1;
	disk[UNITS * UNIT_SIZE + 100] ^= 1;
	k = guard_check(&g, disk + in, UNITS * UNIT_SIZE, base + in);
	tap_ok(k == UNITS * UNIT_SIZE - in, "... and one in the part of the "
	       "last stops it there (%zu)", k);
	guard_free(&g);
	disk[UNITS * UNIT_SIZE + 100] ^= 1;
	if (guard_init(&g, &run_ctx, IDENT, 0))
		tap_bail("guard_init");
	k = guard_check(&g, disk + in, UNIT_SIZE, base + in);
	tap_ok(k == UNIT_SIZE, "a first read of 4 KiB, two parts and no whole "
	       "unit, may be overwritten: the second part's header names the "
	       "run (%zu)", k);
	guard_free(&g);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	crc32c_init();
	unit_ctx_init(&run_ctx, NEW_RUN);
	unit_ctx_init(&old_ctx, OLD_RUN);
	unit_ctx_init(&cut_ctx, CUT_RUN);
	TAP_RUN(test_blank);
	TAP_RUN(test_units);
	TAP_RUN(test_torn);
	TAP_RUN(test_torn_runs);
	TAP_RUN(test_offset);
	return tap_done();
}
