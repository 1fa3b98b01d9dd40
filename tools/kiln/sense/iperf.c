/* SPDX-License-Identifier: MIT */
/*
 * Description: iperf3 against a lab server while the disks burn. kiln
 * needs two numbers from its JSON (the sender's and the receiver's bits
 * per second of the whole test) or its error, and keeps the rest as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sense/iperf.h"
#include "base/subproc.h"

/* The number after "key": within the object that follows section. */
static double number_in(const char *json, const char *section, const char *key)
{
	const char *p = strstr(json, section);
	char *end;
	double v;

	if (!p || !(p = strstr(p, key)) || !(p = strchr(p + strlen(key), ':')))
		return -1;
	v = strtod(p + 1, &end);
	if (end == p + 1)
		return -1;
	/* Output cut off inside a number lost digits: no number, then. */
	end += strspn(end, " \t\r\n");
	return *end == ',' || *end == '}' ? v : -1;
}

void iperf_parse(struct iperf *n, const char *json)
{
	const char *e;
	double sent = number_in(json, "\"sum_sent\"", "\"bits_per_second\"");
	double recv =
		number_in(json, "\"sum_received\"", "\"bits_per_second\"");

	n->sent_mbps = sent >= 0 ? sent / 1e6 : -1;
	n->received_mbps = recv >= 0 ? recv / 1e6 : -1;
	/* "error": "unable to connect to server: Connection refused" */
	e = strstr(json, "\"error\"");
	if (e && (e = strchr(e + 7, '"'))) {
		size_t len = strcspn(e + 1, "\"");

		if (len >= sizeof(n->error))
			len = sizeof(n->error) - 1;
		memcpy(n->error, e + 1, len);
		n->error[len] = 0;
	} else if (n->received_mbps < 0 && !n->error[0]) {
		snprintf(n->error, sizeof(n->error), "no result from iperf3");
	}
}

int iperf_start(struct iperf *n, const char *iperf3, const char *spec,
		unsigned seconds)
{
	char host[256], port[16] = "5201", secs[16], *colon;
	char *argv[] = { (char *)iperf3, "-J", "-c", host, "-p", port, "-t",
			 secs, NULL };
	int ret;

	memset(n, 0, sizeof(*n));
	n->fd = -1;
	n->sent_mbps = n->received_mbps = -1;
	n->seconds = seconds;
	snprintf(n->server, sizeof(n->server), "%s", spec);
	snprintf(host, sizeof(host), "%s", spec);
	colon = strrchr(host, ':');
	if (colon && !strchr(colon + 1, ']')) {
		*colon = 0;
		snprintf(port, sizeof(port), "%.15s", colon + 1);
	}
	snprintf(secs, sizeof(secs), "%u", seconds);
	ret = subproc_start(iperf3, argv, SUBPROC_STDERR_KEEP, &n->pid,
			    &n->fd);
	if (ret)
		snprintf(n->error, sizeof(n->error), "cannot run %s: %s",
			 iperf3, strerror(-ret));
	return ret;
}

void iperf_poll(struct iperf *n)
{
	size_t before;

	while (n->fd >= 0) {
		before = n->len;
		if (!subproc_read(n->fd, &n->out, &n->len, &n->cap)) {
			close(n->fd);
			n->fd = -1;
			return;
		}
		if (n->len == before)
			return;		/* nothing more for now */
	}
}

void iperf_finish(struct iperf *n, unsigned wait_s)
{
	struct timespec t0, now;

	if (!n->pid || n->done)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (n->fd >= 0) {
		struct pollfd p = { .fd = n->fd, .events = POLLIN };

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= (time_t)wait_s) {
			kill(n->pid, SIGKILL);
			snprintf(n->error, sizeof(n->error),
				 "iperf3 did not end "
				 "in time");
			break;
		}
		poll(&p, 1, 1000);
		iperf_poll(n);
	}
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	waitpid(n->pid, NULL, 0);
	n->done = 1;
	if (n->out && !n->error[0])
		iperf_parse(n, n->out);
	else if (!n->out && !n->error[0])
		snprintf(n->error, sizeof(n->error), "no output from iperf3");
}

void iperf_free(struct iperf *n)
{
	if (n->pid && !n->done) {
		kill(n->pid, SIGKILL);
		waitpid(n->pid, NULL, 0);
	}
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	free(n->out);
	n->out = NULL;
}
