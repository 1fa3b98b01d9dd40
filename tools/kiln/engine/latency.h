/* SPDX-License-Identifier: MIT */
#ifndef KILN_LATENCY_H
#define KILN_LATENCY_H

#include <stdint.h>

/*
 * A histogram of request times on log buckets: ten a decade (the R10
 * preferred numbers 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8) from 100 us
 * to 10 s, one below 100 us and one from 10 s up. Adding a time is a
 * short binary search and three adds, cheap enough for every request.
 */
#define LATENCY_BOUNDS 51
#define LATENCY_BUCKETS (LATENCY_BOUNDS + 1)

struct latency_hist {
	uint64_t count[LATENCY_BUCKETS];
	uint64_t n;
	uint64_t sum_ns;
	uint64_t max_ns;
};

/* The bucket of a time: 0 under 100 us, LATENCY_BOUNDS from 10 s up. */
unsigned latency_bucket(uint64_t ns);

/* Where bucket b starts (0 for the first) and ends (UINT64_MAX: the last). */
uint64_t latency_from_ns(unsigned b);
uint64_t latency_to_ns(unsigned b);

static inline void latency_add(struct latency_hist *h, uint64_t ns)
{
	h->count[latency_bucket(ns)]++;
	h->n++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/*
 * The time under which a share q (0.5, 0.99, 0.999) of the requests
 * completed: the upper end of the bucket that holds it, never above the
 * slowest request (so it errs slow by at most a bucket, 25%); 0 when
 * there are none.
 */
uint64_t latency_percentile(const struct latency_hist *h, double q);

struct json;

/*
 * The histogram as a JSON object under key: requests, p50_ms, p99_ms,
 * p999_ms, max_ms, mean_ms and the buckets that counted anything, each
 * {from_ms, to_ms (null: no end), count}.
 */
void latency_json(struct json *j, const char *key,
		  const struct latency_hist *h);

#endif
