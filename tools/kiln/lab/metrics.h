/* SPDX-License-Identifier: MIT */
#ifndef KILN_METRICS_H
#define KILN_METRICS_H

#include <stddef.h>

#include "base/http_url.h"
#include "judge/record.h"

/*
 * Live metrics to a Prometheus Pushgateway (the setting metrics=), so a
 * lab's Prometheus and Grafana watch every machine as it burns. Every
 * interval the caller hands in the run as it stands; a worker thread PUTs
 * the newest text to BASE/metrics/job/kiln/machine/<machine id>, which
 * replaces that machine's group whole (a disk or a temperature no longer
 * known goes with it). A body not yet sent is replaced by a newer one, a
 * push that fails is not retried (the next interval's is newer), and no
 * call waits on the network: a slow or absent gateway never holds the
 * burn. The last push, at the end, says the run is over and its verdict;
 * nothing is ever deleted from the gateway.
 *
 * The gauges (metrics_text.c lists them with their HELP): per disk,
 * labelled disk (its label in this run), serial, model and identity:
 * phase, the pass it is in and the passes it made, engine state, bytes
 * written and read, MB/s over the status line's last interval (0 once it
 * is done), its write and verify averages as the table says them, I/O
 * errors, bad units, temperature when known, verdict so far (0 PASS, 1
 * WARN, 2 FAIL); per run: state (0 running, 1 complete, 2 interrupted),
 * verdict, elapsed seconds, disks, bytes written and read by them all and
 * the fewest passes any made, and an info gauge with the run id and
 * kiln's version.
 */

/* How long one push may take, whatever the gateway does. */
#define METRICS_TIMEOUT_MS 5000

struct metrics;

/* What the pusher did, for the results. */
struct metrics_stats {
	unsigned pushes;	/* accepted by the gateway */
	unsigned failures;	/* refused, or no answer */
	unsigned dropped;	/* replaced by a newer one before it went */
	char last_error[240];	/* "" when the last push was accepted */
};

/*
 * Starts the pusher for url (the gateway's base, http_url.h: with its
 * credentials and CA) and the group of this machine ("unknown" when
 * machine is empty). 0 or -errno, err says why.
 */
int metrics_start(struct metrics **m, const struct http_url *url,
		  const char *machine, char *err, size_t len);

/*
 * The run as it stands, to push next: c is each disk's latest counters
 * (NULL: the record's snapshots); the signals' gauges (a disk's
 * temperature) say what the record holds. Never waits on the network.
 * 0, -ENOMEM, or -ESHUTDOWN after metrics_finish().
 */
int metrics_update(struct metrics *m, const struct record *r,
		   const struct engine_counters *c);

/*
 * The next line for the console ("metrics: http://lab:9091/...: connection
 * refused"): 1 when one was copied into line, 0 when there is none. The
 * pusher keeps the last 16.
 */
int metrics_said(struct metrics *m, char *line, size_t len);

void metrics_stats(struct metrics *m, struct metrics_stats *st);

/*
 * The last push: the run over (its state and verdict in r), retried until
 * it arrives or timeout_ms pass. 0 when the gateway took it, else the
 * last error (-ETIMEDOUT when none came back in time). No update after.
 */
int metrics_finish(struct metrics *m, const struct record *r,
		   const struct engine_counters *c, unsigned timeout_ms);

/* Stops the worker (cutting short a push on its way) and frees all. */
void metrics_free(struct metrics *m);

/*
 * The text exposition format (version 0.0.4) of the run as it stands:
 * c as for metrics_update. NUL-terminated, the caller's to free; NULL
 * when out of memory.
 */
char *metrics_text(const struct record *r, const struct engine_counters *c,
		   size_t *len);

#endif
