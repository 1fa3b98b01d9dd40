/* SPDX-License-Identifier: MIT */
/*
 * Description: a worker's tally, driven with a clock made by hand: a zone
 * gets the bytes moved in it and the busy time of its requests, a moment
 * shared by the requests then in flight (so the zone of one slow request
 * among fast ones is slow, and the zones add up to the busy time); a
 * request across zones is split by bytes; every request's time lands in
 * its phase's histogram; the slowest 20 are kept, one an offset, slowest
 * first; a long soak keeps the first two phases and the latest; readers
 * see it all through engine_snapshot, published once a second and at a
 * phase's end.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/engine.h"
#include "engine/tally.h"
#include "base/timing.h"

#define MiB 1048576ull
#define MS 1000000ull

static const struct engine_disk disk = { .fd = -1 };

static struct engine_target *new_target(uint64_t region)
{
	struct engine_plan plan;

	memset(&plan, 0, sizeof(plan));
	plan.mode = ENGINE_WRITE_VERIFY;
	plan.ext[0].length = region;
	plan.next = 1;
	plan.region = region;
	return engine_target_new(&disk, &plan);
}

static void snap(struct engine_target *et, struct engine_snap *s)
{
	if (engine_snapshot(et, s))
		tap_bail("out of memory");
}

/* One request at a time, each 10 ms but zone 42's, which takes 100 ms. */
static void test_serial(void)
{
	struct engine_target *et = new_target(100 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req r;
	uint64_t now = 5 * MS, z, ok_ns = 1, ok_bytes = 1;

	tally_init(&t, et);
	tally_begin(&t, PHASE_WRITE, 1);
	for (z = 0; z < 100; z++) {
		tally_submit(&t, &r, now);
		now += z == 42 ? 100 * MS : 10 * MS;
		tally_done(&t, &r, now, z * MiB, 4096 + z * MiB, MiB, MiB);
	}
	tally_end(&t);
	snap(et, &s);
	for (z = 0; z < 100; z++) {
		ok_ns &= s.zones[0].ns[z] == (z == 42 ? 100 : 10) * MS;
		ok_bytes &= s.zones[0].bytes[z] == MiB;
	}
	tap_ok(s.nzones == 1 && s.zones[0].phase == PHASE_WRITE &&
	       s.zones[0].pass == 1 && s.zones[0].ended,
	       "a phase is one entry of zones, ended when it ended");
	tap_ok(ok_bytes, "each zone has its bytes");
	tap_ok(ok_ns, "one at a time, a zone's busy time is its requests' "
	       "time: 10 ms, and 100 ms in zone 42");
	tap_ok(s.latency[PHASE_WRITE].n == 100 &&
	       s.latency[PHASE_WRITE].max_ns == 100 * MS &&
	       s.latency[PHASE_VERIFY].n == 0,
	       "every request's time is in its phase's histogram");
	tap_ok(s.nslowest == 20 && s.slowest[0].offset == 4096 + 42 * MiB &&
	       s.slowest[0].ns == 100 * MS && s.slowest[0].length == MiB &&
	       s.slowest[0].phase == PHASE_WRITE && s.slowest[0].pass == 1,
	       "the slowest request comes first, with its device offset");
	engine_snap_free(&s);
	engine_target_free(et);
}

/*
 * Two in flight: one request in zone 0 takes 100 ms while ten in zone 1
 * take 10 ms each, one after another, beside it.
 */
static void test_shared(void)
{
	struct engine_target *et = new_target(100 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req slow, fast;
	uint64_t now = 0, sum = 0;
	int i;

	tally_init(&t, et);
	tally_begin(&t, PHASE_VERIFY, 1);
	tally_submit(&t, &slow, now);
	for (i = 0; i < 10; i++) {
		tally_submit(&t, &fast, now);
		now += 10 * MS;
		tally_done(&t, &fast, now, MiB + (uint64_t)i * 65536, 0,
			   65536, 65536);
	}
	tally_done(&t, &slow, now, 0, 0, MiB, MiB);
	tally_end(&t);
	snap(et, &s);
	for (i = 0; i < ENGINE_ZONES; i++)
		sum += s.zones[0].ns[i];
	tap_ok(s.zones[0].ns[0] == 50 * MS && s.zones[0].ns[1] == 50 * MS,
	       "busy time is shared by the requests in flight: the slow one "
	       "gets half of its 100 ms, the ten beside it the other half");
	tap_ok(sum == 100 * MS, "the zones add up to the time the disk was "
	       "busy");
	tap_ok(s.latency[PHASE_VERIFY].n == 11 &&
	       s.latency[PHASE_VERIFY].max_ns == 100 * MS,
	       "...while each request's own time is its whole time");
	engine_snap_free(&s);
	engine_target_free(et);
}

/* A small region: a 1 MiB request covers many zones. */
static void test_across(void)
{
	struct engine_target *et = new_target(10 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req r;
	uint64_t zs = engine_zone_size(&et->plan), bytes = 0, ns = 0;
	int i, spread = 1;

	tally_init(&t, et);
	tally_begin(&t, PHASE_READ, 1);
	tally_submit(&t, &r, 0);
	tally_done(&t, &r, 10 * MS, 0, 0, MiB, MiB);
	tally_end(&t);
	snap(et, &s);
	for (i = 0; i < ENGINE_ZONES; i++) {
		bytes += s.zones[0].bytes[i];
		ns += s.zones[0].ns[i];
		if (i < 9)
			spread &= s.zones[0].bytes[i] == zs;
	}
	tap_ok(zs == 104858 && spread && s.zones[0].bytes[9] == MiB - 9 * zs &&
	       bytes == MiB && ns > 10 * MS - 20 && ns <= 10 * MS,
	       "a request across zones is split by bytes, its time with them");
	engine_snap_free(&s);
	engine_target_free(et);
}

static void test_slowest(void)
{
	struct engine_target *et = new_target(100 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req r;
	uint64_t now = 0;
	unsigned i, ok = 1;

	tally_init(&t, et);
	tally_begin(&t, PHASE_WRITE, 1);
	for (i = 0; i < 30; i++) {
		tally_submit(&t, &r, now);
		now += (1 + i % 7 * 10 + i) * MS;
		tally_done(&t, &r, now, i * MiB, i * MiB, MiB, MiB);
	}
	tally_begin(&t, PHASE_VERIFY, 1);
	/* Offset 0 again, slower now: one entry, the slower time. */
	tally_submit(&t, &r, now);
	now += 500 * MS;
	tally_done(&t, &r, now, 0, 0, MiB, MiB);
	tally_end(&t);
	snap(et, &s);
	for (i = 1; i < s.nslowest; i++)
		ok &= s.slowest[i - 1].ns >= s.slowest[i].ns &&
		      s.slowest[i].offset != 0;
	tap_ok(s.nslowest == 20 && ok, "the slowest 20 are kept, slowest "
	       "first");
	tap_ok(s.slowest[0].offset == 0 && s.slowest[0].ns == 500 * MS &&
	       s.slowest[0].phase == PHASE_VERIFY,
	       "an offset slow twice is one entry, with its slower time");
	/* The times are 1 + i % 7 * 10 + i ms: the 19th slowest is 34 ms. */
	tap_ok(s.slowest[19].ns == 34 * MS,
	       "...and the fastest of the 30 are the ones left out");
	engine_snap_free(&s);
	engine_target_free(et);
}

static void test_phases(void)
{
	struct engine_target *et = new_target(100 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req r;
	uint32_t p;

	tally_init(&t, et);
	for (p = 1; p <= 40; p++) {
		tally_begin(&t, p % 2 ? PHASE_WRITE : PHASE_VERIFY, p);
		tally_submit(&t, &r, p * MS);
		tally_done(&t, &r, p * MS + MS, 0, 0, MiB, MiB);
		tally_end(&t);
	}
	snap(et, &s);
	tap_ok(s.nzones == ENGINE_ZONE_PHASES && s.zones[0].pass == 1 &&
	       s.zones[1].pass == 2 && s.zones[2].pass == 11 &&
	       s.zones[ENGINE_ZONE_PHASES - 1].pass == 40,
	       "a long soak keeps the first two phases and the latest 30");
	engine_snap_free(&s);
	engine_target_free(et);
}

static void test_publish(void)
{
	struct engine_target *et = new_target(100 * MiB);
	struct engine_snap s;
	struct tally t;
	struct tally_req r;
	uint64_t now = 3 * TIMING_SEC;

	tally_init(&t, et);
	tally_begin(&t, PHASE_WRITE, 1);
	tally_tick(&t, now);
	tally_submit(&t, &r, now);
	tally_done(&t, &r, now + MS, 0, 0, MiB, MiB);
	tally_tick(&t, now + MS);
	snap(et, &s);
	tap_ok(s.nzones == 1 && !s.zones[0].bytes[0] && !s.latency[1].n,
	       "within a second of the last, nothing new is published");
	engine_snap_free(&s);
	tally_tick(&t, now + TIMING_SEC);
	snap(et, &s);
	tap_ok(s.zones[0].bytes[0] == MiB && !s.zones[0].ended &&
	       s.latency[PHASE_WRITE].n == 1,
	       "a second later it is, the phase still under way");
	engine_snap_free(&s);
	engine_target_free(et);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_serial);
	TAP_RUN(test_shared);
	TAP_RUN(test_across);
	TAP_RUN(test_slowest);
	TAP_RUN(test_phases);
	TAP_RUN(test_publish);
	return tap_done();
}
