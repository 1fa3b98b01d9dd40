/* SPDX-License-Identifier: MIT */
#ifndef KILN_TALLY_H
#define KILN_TALLY_H

/*
 * The engine's own (worker_phase.c): a worker's tally of where its time went,
 * counted in its own memory as requests complete, with no lock, and
 * published under the target's lock about once a second and at the end
 * of each phase, for snapshots to copy: the bytes and busy time of each
 * zone of the region, every request's time in its phase's histogram, and
 * the slowest requests.
 */
#include "engine/engine_private.h"

/* A request as the tally knows it, kept in its slot. */
struct tally_req {
	uint64_t since;		/* submitted, on the job's clock */
	double share0;		/* the busy-time integral then */
	int side;		/* of the side phase (tally_begin_side) */
};

struct tally {
	struct engine_target *et;
	/*
	 * Busy time shared by the requests in flight: share grows by dt / n
	 * over each stretch dt with n requests in flight, so a request's
	 * share of the busy time is what it grew by while it was out.
	 */
	double share;
	uint64_t share_at;
	unsigned inflight;
	uint64_t zone_size;
	int phase;
	uint32_t pass;
	int entry;		/* this phase's in et->zones; -1: none */
	struct engine_zones cur;
	/*
	 * A second phase whose requests share the disk with the first's
	 * (the guarded write's reads): zones of its own, the same busy time.
	 */
	int side_entry;		/* -1: none */
	struct engine_zones side;
	struct latency_hist latency[PHASES];
	struct engine_slow slow[ENGINE_SLOWEST];
	unsigned nslow;
	uint64_t slow_floor;	/* the fastest kept, once full */
	uint64_t published_at;
};

void tally_init(struct tally *t, struct engine_target *et);

/* A phase starts: a new entry of zones. */
void tally_begin(struct tally *t, int phase, uint32_t pass);

/*
 * A side phase starts beside the one under way, until tally_end(): its
 * requests (tally_req.side) go to zones of their own, and the busy time
 * is shared by every request in flight, of either phase.
 */
void tally_begin_side(struct tally *t, int phase, uint32_t pass);

/* A request goes out at now (the job's clock). */
void tally_submit(struct tally *t, struct tally_req *r, uint64_t now);

/*
 * A request came back at now: it asked for len bytes at region position
 * lin (device offset off) and moved bytes of them (0: failed or retried).
 */
void tally_done(struct tally *t, const struct tally_req *r, uint64_t now,
		uint64_t lin, uint64_t off, uint64_t len, uint64_t bytes);

/* Publishes what was counted when a second has passed since the last. */
void tally_tick(struct tally *t, uint64_t now);

/* The phase ended (or stalled): publishes everything. */
void tally_end(struct tally *t);

#endif
