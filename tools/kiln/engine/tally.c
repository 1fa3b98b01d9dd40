/* SPDX-License-Identifier: MIT */
/*
 * Description: a worker's tally of where its time went (see tally.h):
 * zones, request times and the slowest requests, counted lock-free in the
 * worker's memory and published under the target's lock once a second
 * and at each phase's end. Per completion it costs a clock read shared by
 * the batch, a division and a few adds: nothing a 1 MiB request notices.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/tally.h"
#include "base/timing.h"

void tally_init(struct tally *t, struct engine_target *et)
{
	memset(t, 0, sizeof(*t));
	t->et = et;
	t->entry = -1;
	t->side_entry = -1;
	t->zone_size = engine_zone_size(&et->plan);
	if (!t->zone_size)
		t->zone_size = 1;
}

/* A new entry of zones in et->zones for z: its index, or -1. */
static int new_entry(struct engine_target *et, const struct engine_zones *z)
{
	int entry = -1;

	pthread_mutex_lock(&et->lock);
	/* Full: the first write and check stay, the oldest after them goes. */
	if (et->nzones == ENGINE_ZONE_PHASES) {
		memmove(&et->zones[2], &et->zones[3],
			(ENGINE_ZONE_PHASES - 3) * sizeof(*et->zones));
		et->nzones--;
	}
	if (et->nzones == et->zones_cap) {
		unsigned cap = et->zones_cap ? et->zones_cap * 2 : 4;
		struct engine_zones *n;

		if (cap > ENGINE_ZONE_PHASES)
			cap = ENGINE_ZONE_PHASES;
		n = realloc(et->zones, cap * sizeof(*n));
		if (n) {
			et->zones = n;
			et->zones_cap = cap;
		}
	}
	if (et->nzones < et->zones_cap) {
		entry = (int)et->nzones++;
		et->zones[entry] = *z;
	}
	pthread_mutex_unlock(&et->lock);
	return entry;
}

void tally_begin(struct tally *t, int phase, uint32_t pass)
{
	memset(&t->cur, 0, sizeof(t->cur));
	t->cur.pass = pass;
	t->cur.phase = phase;
	t->phase = phase;
	t->pass = pass;
	t->side_entry = -1;
	t->entry = new_entry(t->et, &t->cur);
}

void tally_begin_side(struct tally *t, int phase, uint32_t pass)
{
	/* Only this worker changes the list: no lock to look at its length. */
	int full = t->et->nzones == ENGINE_ZONE_PHASES;

	memset(&t->side, 0, sizeof(t->side));
	t->side.pass = pass;
	t->side.phase = phase;
	t->side_entry = new_entry(t->et, &t->side);
	/* A full list dropped its third entry: the main one moved down. */
	if (full && t->entry > 2)
		t->entry--;
}

/* Brings the busy-time integral up to now. */
static void advance(struct tally *t, uint64_t now)
{
	if (now <= t->share_at)
		return;
	if (t->inflight)
		t->share += (double)(now - t->share_at) / t->inflight;
	t->share_at = now;
}

void tally_submit(struct tally *t, struct tally_req *r, uint64_t now)
{
	advance(t, now);
	t->inflight++;
	r->since = now;
	r->share0 = t->share;
}

/* ns of busy time and bytes at region position lin, over the zones. */
static void zone_add(struct tally *t, struct engine_zones *zs, uint64_t lin,
		     uint64_t len, uint64_t bytes, uint64_t ns)
{
	uint64_t z = lin / t->zone_size;
	uint64_t room = (z + 1) * t->zone_size - lin;

	if (z >= ENGINE_ZONES)
		return;
	/* Nearly always: the request lies in one zone. */
	if (len <= room || z == ENGINE_ZONES - 1) {
		zs->bytes[z] += bytes;
		zs->ns[z] += ns;
		return;
	}
	/* Across zones (small regions): shared by the bytes in each. */
	while (len && z < ENGINE_ZONES) {
		uint64_t part = len < room ? len : room;
		uint64_t b = bytes < part ? bytes : part;
		uint64_t n = (uint64_t)((double)ns * (double)part /
					(double)len);

		zs->bytes[z] += b;
		zs->ns[z] += n;
		bytes -= b;
		ns -= n;
		len -= part;
		z++;
		room = t->zone_size;
	}
}

static void slow_floor(struct tally *t)
{
	unsigned i;

	t->slow_floor = t->slow[0].ns;
	for (i = 1; i < t->nslow; i++)
		if (t->slow[i].ns < t->slow_floor)
			t->slow_floor = t->slow[i].ns;
}

/* Keeps the slowest requests, one entry an offset (passes repeat them). */
static void slow_note(struct tally *t, int phase, uint32_t pass, uint64_t off,
		      uint64_t len, uint64_t ns)
{
	struct engine_slow *s = NULL;
	unsigned i;

	if (t->nslow == ENGINE_SLOWEST && ns <= t->slow_floor)
		return;
	for (i = 0; i < t->nslow; i++) {
		if (t->slow[i].offset != off)
			continue;
		if (ns <= t->slow[i].ns)
			return;
		s = &t->slow[i];
		break;
	}
	if (!s && t->nslow < ENGINE_SLOWEST)
		s = &t->slow[t->nslow++];
	for (i = 0; !s && i < t->nslow; i++)
		if (t->slow[i].ns == t->slow_floor)
			s = &t->slow[i];
	s->offset = off;
	s->length = len;
	s->ns = ns;
	s->phase = phase;
	s->pass = pass;
	if (t->nslow == ENGINE_SLOWEST)
		slow_floor(t);
}

void tally_done(struct tally *t, const struct tally_req *r, uint64_t now,
		uint64_t lin, uint64_t off, uint64_t len, uint64_t bytes)
{
	/* Time the process did not run can make the job's clock step back. */
	uint64_t ns = now > r->since ? now - r->since : 0;
	double busy;

	advance(t, now);
	busy = t->share - r->share0;
	if (t->inflight)
		t->inflight--;
	if (r->side && t->side_entry >= 0) {
		zone_add(t, &t->side, lin, len, bytes,
			 busy > 0 ? (uint64_t)busy : 0);
		latency_add(&t->latency[t->side.phase], ns);
		slow_note(t, t->side.phase, t->side.pass, off, len, ns);
		return;
	}
	zone_add(t, &t->cur, lin, len, bytes, busy > 0 ? (uint64_t)busy : 0);
	latency_add(&t->latency[t->phase], ns);
	slow_note(t, t->phase, t->pass, off, len, ns);
}

static int slower_first(const void *a, const void *b)
{
	const struct engine_slow *x = a, *y = b;

	return x->ns > y->ns ? -1 : x->ns < y->ns;
}

static void publish(struct tally *t, int ended)
{
	struct engine_target *et = t->et;

	t->cur.ended = ended;
	t->side.ended = ended;
	pthread_mutex_lock(&et->lock);
	if (t->entry >= 0 && (unsigned)t->entry < et->nzones)
		et->zones[t->entry] = t->cur;
	if (t->side_entry >= 0 && (unsigned)t->side_entry < et->nzones)
		et->zones[t->side_entry] = t->side;
	memcpy(et->latency, t->latency, sizeof(et->latency));
	memcpy(et->slowest, t->slow, t->nslow * sizeof(*t->slow));
	et->nslowest = t->nslow;
	qsort(et->slowest, et->nslowest, sizeof(*et->slowest), slower_first);
	pthread_mutex_unlock(&et->lock);
}

void tally_tick(struct tally *t, uint64_t now)
{
	if (now - t->published_at < TIMING_SEC)
		return;
	t->published_at = now;
	publish(t, 0);
}

void tally_end(struct tally *t)
{
	publish(t, 1);
	t->side_entry = -1;
}
