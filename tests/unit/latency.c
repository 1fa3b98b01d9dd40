/* SPDX-License-Identifier: MIT */
/*
 * Description: request-time histograms: every time lands in the bucket
 * whose bounds hold it (ten a decade from 100 us to 10 s, one below and
 * one above), percentiles err slow by at most a bucket and never exceed
 * the slowest request, and the JSON lists the buckets that counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "engine/latency.h"

#define US 1000ull
#define MS 1000000ull

static void test_buckets(void)
{
	unsigned b, ok = 1;

	tap_ok(latency_bucket(0) == 0 && latency_bucket(99 * US) == 0 &&
	       latency_bucket(100 * US) == 1,
	       "under 100 us is bucket 0; 100 us starts bucket 1");
	tap_ok(latency_bucket(10000 * MS) == LATENCY_BOUNDS &&
	       latency_bucket(UINT64_MAX) == LATENCY_BOUNDS &&
	       latency_bucket(10000 * MS - 1) == LATENCY_BOUNDS - 1,
	       "10 s and over is the last bucket");
	for (b = 0; b < LATENCY_BUCKETS; b++) {
		uint64_t from = latency_from_ns(b), to = latency_to_ns(b);

		if (latency_bucket(from) != b ||
		    (to != UINT64_MAX && latency_bucket(to - 1) != b) ||
		    (b && from != latency_to_ns(b - 1)) || from >= to)
			ok = 0;
	}
	tap_ok(ok, "every bucket holds its own bounds, back to back");
	tap_ok(latency_to_ns(latency_bucket(5 * MS) - 1) == 5 * MS &&
	       latency_to_ns(latency_bucket(20 * MS) - 1) == 20 * MS &&
	       latency_to_ns(latency_bucket(500 * MS) - 1) == 500 * MS &&
	       latency_from_ns(latency_bucket(1250 * US)) == 1250 * US &&
	       latency_from_ns(latency_bucket(3150 * MS)) == 3150 * MS,
	       "bounds are round numbers: 5, 20, 500 ms, 1.25 ms, 3.15 s");
	tap_ok(LATENCY_BUCKETS == 52, "52 buckets: 50 in five decades and "
	       "one at each end");
}

static void test_percentiles(void)
{
	struct latency_hist h;
	unsigned i;

	memset(&h, 0, sizeof(h));
	tap_ok(latency_percentile(&h, 0.99) == 0, "no requests: 0");
	for (i = 0; i < 990; i++)
		latency_add(&h, 1100 * US);
	for (i = 0; i < 9; i++)
		latency_add(&h, 30 * MS);
	latency_add(&h, 700 * MS);
	tap_ok(h.n == 1000 && h.max_ns == 700 * MS, "counted: 1000, max 700 ms");
	tap_ok(latency_percentile(&h, 0.5) == 1250 * US,
	       "p50 of 1.1 ms requests is the end of their bucket, 1.25 ms");
	tap_ok(latency_percentile(&h, 0.99) == 1250 * US,
	       "p99: the 990th of 1000 is still 1.1 ms");
	tap_ok(latency_percentile(&h, 0.999) == 31500 * US,
	       "p99.9: the 999th is 30 ms, in the bucket to 31.5 ms");
	tap_ok(latency_percentile(&h, 1.0) == 700 * MS,
	       "p100 is the slowest request itself, not its bucket's end");
	memset(&h, 0, sizeof(h));
	latency_add(&h, 20 * US);
	tap_ok(latency_percentile(&h, 0.5) == 20 * US,
	       "never above the slowest request");
}

static void test_json(void)
{
	struct latency_hist h;
	struct json j;
	char *doc;
	size_t len;

	memset(&h, 0, sizeof(h));
	latency_add(&h, 1100 * US);
	latency_add(&h, 1100 * US);
	latency_add(&h, 12000 * MS);
	json_init(&j);
	latency_json(&j, NULL, &h);
	doc = json_take(&j, &len);
	tap_ok(doc && strstr(doc, "\"requests\": 3") &&
	       strstr(doc, "\"max_ms\": 12000.000") &&
	       strstr(doc, "\"from_ms\": 1.000") &&
	       strstr(doc, "\"to_ms\": 1.250") && strstr(doc, "\"count\": 2") &&
	       strstr(doc, "\"from_ms\": 10000.000") &&
	       strstr(doc, "\"to_ms\": null") &&
	       !strstr(doc, "\"from_ms\": 0.100"),
	       "JSON: figures in ms, and only the buckets that counted");
	if (doc && !strstr(doc, "\"requests\": 3"))
		tap_diag("%s", doc);
	free(doc);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_buckets);
	TAP_RUN(test_percentiles);
	TAP_RUN(test_json);
	return tap_done();
}
