/* SPDX-License-Identifier: MIT */
/*
 * Description: one port's iperf3 for the whole burn. kiln starts
 * iperf3 -c HOST -p PORT -t 0 --bind-dev NIC -J, reads its output as it
 * comes (a pipe that is not read stops iperf3), starts it again when it
 * ends early, and stops it with SIGTERM when the burn ends: iperf3 then
 * writes its JSON, every interval in it. From each run kiln takes the
 * bits the intervals moved, the seconds they cover and the slowest whole
 * interval, or iperf3's error, and keeps the JSON of the longest run.
 * A run stopped before it reached its server (a busy machine may not run
 * iperf3, below the disks in priority, before a short burn ends) says so:
 * it is the port's error, never a port with no figures and no reason.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sense/iperf.h"
#include "base/jsonread.h"
#include "base/subproc.h"
#include "base/timing.h"

/* An interval cut short (the last of a run) is no figure of a rate. */
#define WHOLE_SHARE 0.5

void iperf_parse(struct iperf_figures *f, const char *json, size_t len)
{
	const struct jsonread_node *root, *iv, *sum;
	struct jsonread *doc = NULL;
	const char *start = json ? memchr(json, '{', len) : NULL;
	const char *e;
	double secs, bytes;
	size_t i;

	f->seconds = f->bits = 0;
	f->min_bps = -1;
	f->reached = 0;
	f->error[0] = 0;
	/* A warning of iperf3's own may come before the document. */
	if (!start || jsonread_parse(&doc, start, len - (size_t)(start - json),
				     NULL, NULL, 0)) {
		snprintf(f->error, sizeof(f->error), "no result from iperf3");
		return;
	}
	root = jsonread_root(doc);
	/* "start": {"connected": [{"socket": 5, ...}]}: its data streams */
	f->reached = jsonread_count(jsonread_get(jsonread_get(root, "start"),
						 "connected")) > 0;
	iv = jsonread_get(root, "intervals");
	for (i = 0; i < jsonread_count(iv); i++) {
		sum = jsonread_get(jsonread_at(iv, i), "sum");
		/*
		 * An interval is at most IPERF_INTERVAL_S long. iperf3 3.12
		 * stopped before its first one ended says its whole
		 * monotonic clock (seen: 7964.5 s in a run of 1.5 s): not
		 * a measurement, left out.
		 */
		if (jsonread_get_num(sum, "seconds", &secs) ||
		    jsonread_get_num(sum, "bytes", &bytes) || secs <= 0 ||
		    secs > 2.0 * IPERF_INTERVAL_S)
			continue;
		f->seconds += secs;
		f->bits += bytes * 8;
		if (secs >= IPERF_INTERVAL_S * WHOLE_SHARE &&
		    (f->min_bps < 0 || bytes * 8 / secs < f->min_bps))
			f->min_bps = bytes * 8 / secs;
	}
	/* "error": "unable to connect to server: Connection refused" */
	if (!jsonread_get_str(root, "error", &e, NULL))
		snprintf(f->error, sizeof(f->error), "%s", e);
	else if (!jsonread_count(iv))
		snprintf(f->error, sizeof(f->error), "no result from iperf3");
	jsonread_free(doc);
}

/* One run, from now_ns. */
static int run(struct iperf *n, uint64_t now_ns)
{
	/* Nothing of kiln's environment: a lab's URLs may hold secrets. */
	char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C",
			 NULL };
	char port[16], every[16];
	char *argv[] = { n->iperf3, "-c", n->host, "-p", port, "-t", "0",
			 "-i", every, "--bind-dev", n->nic, "-J", NULL };
	int ret;

	snprintf(port, sizeof(port), "%u", n->port);
	snprintf(every, sizeof(every), "%u", IPERF_INTERVAL_S);
	n->len = 0;
	n->runs++;
	n->ended_ns = 0;
	/*
	 * Below the disks in priority, in its own process group and killed
	 * with kiln, as the stress is: it never outlives the burn.
	 */
	ret = subproc_start_low(n->iperf3, argv, envp, &n->pid, &n->fd);
	if (ret) {
		snprintf(n->error, sizeof(n->error), "cannot run %s: %s",
			 n->iperf3, strerror(-ret));
		n->pid = 0;
		n->ended_ns = now_ns;
	}
	return ret;
}

int iperf_start(struct iperf *n, const char *iperf3, const char *nic,
		const char *host, unsigned port, uint64_t now_ns)
{
	memset(n, 0, sizeof(*n));
	n->fd = -1;
	n->min_bps = -1;
	snprintf(n->iperf3, sizeof(n->iperf3), "%s", iperf3);
	snprintf(n->nic, sizeof(n->nic), "%s", nic);
	snprintf(n->host, sizeof(n->host), "%s", host);
	n->port = port;
	n->first_ns = now_ns;
	return run(n, now_ns);
}

/* The run's end: its figures added to the port's, its JSON kept. */
static void fold(struct iperf *n, uint64_t now_ns)
{
	struct iperf_figures f;
	int status = 0;

	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	waitpid(n->pid, &status, 0);
	n->pid = 0;
	n->ended_ns = now_ns;
	iperf_parse(&f, n->out, n->len);
	n->seconds += f.seconds;
	n->bits += f.bits;
	if (f.min_bps >= 0 && (n->min_bps < 0 || f.min_bps < n->min_bps))
		n->min_bps = f.min_bps;
	/* Stopped by kiln is the end asked for, not an error of the run. */
	if (n->stop_ns && strstr(f.error, "interrupt"))
		f.error[0] = 0;
	/*
	 * ... but a port with no figures at all, its last run stopped short
	 * of its test, says how far it got: not even under way (our SIGTERM
	 * came before iperf3 caught it: no document), still connecting (the
	 * interrupt, no stream), or connected with no interval yet.
	 */
	if (n->stop_ns && !n->seconds && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGTERM)
		snprintf(f.error, sizeof(f.error), "never reached its server: "
			 "stopped before it was under way");
	else if (n->stop_ns && !n->seconds && !f.error[0])
		snprintf(f.error, sizeof(f.error), "%s", f.reached ?
			 "reached its server, but stopped before its test "
			 "began" : "never reached its server: still "
			 "connecting when the burn ended");
	if (f.error[0])
		snprintf(n->error, sizeof(n->error), "%s", f.error);
	if (n->out && (!n->kept || f.seconds > n->best_seconds)) {
		free(n->kept);
		n->kept = n->out;
		n->kept_len = n->len;
		n->best_seconds = f.seconds;
		n->out = NULL;
		n->len = n->cap = 0;
	}
}

/* 1 while the run's output goes on, 0 once it ended. */
static int drain(struct iperf *n)
{
	size_t before;

	while (n->fd >= 0) {
		before = n->len;
		if (!subproc_read(n->fd, &n->out, &n->len, &n->cap))
			return 0;
		if (n->len == before)
			return 1;	/* nothing more for now */
	}
	return 0;
}

void iperf_tick(struct iperf *n, uint64_t now_ns)
{
	if (n->stop_ns || !n->runs)
		return;
	if (n->pid && !drain(n))
		fold(n, now_ns);
	if (!n->pid && now_ns - n->ended_ns >= IPERF_RESTART_S * TIMING_SEC)
		run(n, now_ns);
}

void iperf_stop(struct iperf *n, uint64_t now_ns, unsigned wait_s)
{
	struct timespec t0, now;
	int killed = 0;

	if (!n->runs || n->stop_ns)
		return;
	n->stop_ns = now_ns;
	if (!n->pid)
		return;
	/* Out of the idle class first, or a busy machine never runs it. */
	subproc_wake_to_end(n->pid);
	kill(n->pid, SIGTERM);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (drain(n)) {
		struct pollfd p = { .fd = n->fd, .events = POLLIN };

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= (time_t)wait_s) {
			kill(n->pid, SIGKILL);
			killed = 1;
			break;
		}
		poll(&p, 1, 1000);
	}
	fold(n, now_ns);
	if (killed && !strcmp(n->error, "no result from iperf3"))
		snprintf(n->error, sizeof(n->error), "no result from iperf3: "
			 "it wrote none in %u s after it was told to stop, "
			 "and was killed", wait_s);
}

double iperf_window(const struct iperf *n, uint64_t now_ns)
{
	uint64_t end = n->stop_ns ? n->stop_ns : now_ns;

	return n->runs && end > n->first_ns ?
	       (double)(end - n->first_ns) / TIMING_SEC : 0;
}

double iperf_mean_bps(const struct iperf *n)
{
	return n->seconds > 0 ? n->bits / n->seconds : -1;
}

void iperf_free(struct iperf *n)
{
	if (n->pid) {
		kill(n->pid, SIGKILL);
		waitpid(n->pid, NULL, 0);
		n->pid = 0;
	}
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	free(n->out);
	free(n->kept);
	n->out = n->kept = NULL;
}
