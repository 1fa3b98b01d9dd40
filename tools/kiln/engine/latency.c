/* SPDX-License-Identifier: MIT */
/*
 * Description: request-time histograms on log buckets (see latency.h):
 * the buckets, percentiles read off them, and their JSON. The engine adds
 * every request's time to one; the confirming re-read adds its reads.
 */
#include <stddef.h>

#include "base/json.h"
#include "engine/latency.h"

#define R10(s) 100 * (s), 125 * (s), 160 * (s), 200 * (s), 250 * (s), \
	315 * (s), 400 * (s), 500 * (s), 630 * (s), 800 * (s)

/* Nanoseconds: 100 us, 125 us, ... 8 s, then 10 s. */
static const uint64_t bounds[LATENCY_BOUNDS] = {
	R10(1000ull), R10(10000ull), R10(100000ull), R10(1000000ull),
	R10(10000000ull), 10000000000ull
};

unsigned latency_bucket(uint64_t ns)
{
	unsigned lo = 0, hi = LATENCY_BOUNDS;

	/* The first bound above ns. */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (bounds[mid] <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t latency_from_ns(unsigned b)
{
	return b && b <= LATENCY_BOUNDS ? bounds[b - 1] : 0;
}

uint64_t latency_to_ns(unsigned b)
{
	return b < LATENCY_BOUNDS ? bounds[b] : UINT64_MAX;
}

uint64_t latency_percentile(const struct latency_hist *h, double q)
{
	uint64_t want, seen = 0, to;
	unsigned b;

	if (!h->n)
		return 0;
	/* The rank of the request at share q, counted from 1. */
	want = (uint64_t)(q * (double)h->n);
	if ((double)want < q * (double)h->n)
		want++;
	if (!want)
		want = 1;
	for (b = 0; b < LATENCY_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= want)
			break;
	}
	to = latency_to_ns(b);
	return to < h->max_ns ? to : h->max_ns;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void latency_json(struct json *j, const char *key,
		  const struct latency_hist *h)
{
	unsigned b;

	json_begin(j, key);
	json_u64(j, "requests", h->n);
	json_num(j, "p50_ms", ms(latency_percentile(h, 0.5)));
	json_num(j, "p99_ms", ms(latency_percentile(h, 0.99)));
	json_num(j, "p999_ms", ms(latency_percentile(h, 0.999)));
	json_num(j, "max_ms", ms(h->max_ns));
	json_num(j, "mean_ms", h->n ? ms(h->sum_ns) / (double)h->n : 0);
	json_array(j, "buckets");
	for (b = 0; b < LATENCY_BUCKETS; b++) {
		if (!h->count[b])
			continue;
		json_begin(j, NULL);
		json_num(j, "from_ms", ms(latency_from_ns(b)));
		if (b < LATENCY_BOUNDS)
			json_num(j, "to_ms", ms(latency_to_ns(b)));
		else
			json_null(j, "to_ms");
		json_u64(j, "count", h->count[b]);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}
