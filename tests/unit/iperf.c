/* SPDX-License-Identifier: MIT */
/*
 * Description: what kiln takes from iperf3 -J: the sender's and the
 * receiver's bits per second of the whole test as Mbit/s, or iperf3's own
 * error; an empty or cut-off document is "no result from iperf3", never a
 * crash or a rate made of a number's first digits. The documents are real
 * iperf3 output (tests/fixtures/iperf3/README says how they were made),
 * and one run of the real iperf3 against a closed port goes through
 * iperf_start and iperf_finish.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "sense/iperf.h"

#define FIXTURES "tests/fixtures/iperf3/"

static void parse(struct iperf *n, const char *json)
{
	memset(n, 0, sizeof(*n));
	n->fd = -1;
	iperf_parse(n, json);
}

static int near(double x, double y)
{
	return fabs(x - y) < 1e-6;
}

static void test_good(void)
{
	char *doc = tap_slurp(FIXTURES "good.json", NULL), *cut, *at;
	struct iperf n;

	parse(&n, doc);
	tap_ok(near(n.sent_mbps, 18751.2241307616) &&
	       near(n.received_mbps, 18750.3244894369) && !n.error[0],
	       "a good run: sum_sent and sum_received bits/s as Mbit/s "
	       "(%.3f, %.3f)", n.sent_mbps, n.received_mbps);

	/* Cut inside the received rate's number: its digits are gone. */
	at = strstr(strstr(doc, "\"sum_received\""), "\"bits_per_second\"");
	cut = strndup(doc, (size_t)(at - doc) + strlen("\"bits_per_second\":"));
	parse(&n, cut);
	tap_ok(near(n.sent_mbps, 18751.2241307616) && n.received_mbps == -1 &&
	       !strcmp(n.error, "no result from iperf3"),
	       "cut before the received rate: no result, the sent rate kept");
	free(cut);

	/* Cut inside the number: 18750324489.4369 read as 18750 bits/s. */
	cut = strndup(doc, (size_t)(at - doc) + strlen("\"bits_per_second\":") +
		      6);
	parse(&n, cut);
	tap_ok(n.received_mbps == -1 &&
	       !strcmp(n.error, "no result from iperf3"),
	       "cut inside the received rate: no result, not a rate of its "
	       "first digits (%f)", n.received_mbps);
	free(cut);

	cut = strndup(doc, (size_t)(strstr(doc, "\"end\":\t{") - doc));
	parse(&n, cut);
	tap_ok(n.sent_mbps == -1 && n.received_mbps == -1 &&
	       !strcmp(n.error, "no result from iperf3"),
	       "cut before the end section: no result, no rate");
	free(cut);
	free(doc);
}

static void test_errors(void)
{
	char *doc = tap_slurp(FIXTURES "refused.json", NULL);
	char longer[600];
	struct iperf n;

	parse(&n, doc);
	tap_ok(n.sent_mbps == -1 && n.received_mbps == -1 &&
	       !strcmp(n.error, "unable to connect to server: Connection "
		       "refused"), "iperf3's own error is kept: %s", n.error);
	free(doc);

	parse(&n, "");
	tap_ok(n.sent_mbps == -1 && n.received_mbps == -1 &&
	       !strcmp(n.error, "no result from iperf3"),
	       "an empty document: no result from iperf3");
	parse(&n, "{\n\t\"start\":\t{\n\t\t\"connected\":\t[");
	tap_ok(!strcmp(n.error, "no result from iperf3"),
	       "a document cut at its start: no result from iperf3");
	parse(&n, "iperf3: error - the server is busy running a test\n");
	tap_ok(!strcmp(n.error, "no result from iperf3"),
	       "not JSON at all: no result from iperf3");
	parse(&n, "{\"error\"");
	tap_ok(!strcmp(n.error, "no result from iperf3"),
	       "cut right after \"error\": no result, no read past the end");
	parse(&n, "{\"error\": \"control socket has clo");
	tap_ok(!strcmp(n.error, "control socket has clo"),
	       "cut inside the error: what there is of it");

	memset(longer, 'x', sizeof(longer));
	memcpy(longer, "{\"error\": \"", 11);
	memcpy(longer + sizeof(longer) - 3, "\"}", 3);
	parse(&n, longer);
	tap_ok(strlen(n.error) == sizeof(n.error) - 1 && n.error[0] == 'x',
	       "an error longer than its room is cut, never overruns");

	parse(&n, "{\"end\": {\"sum_sent\": {\"bits_per_second\": 1e9}, "
	      "\"sum_received\": {\"bits_per_second\": 5e8}}, "
	      "\"error\": \"interrupt - the client has terminated\"}");
	tap_ok(n.sent_mbps == 1000 && n.received_mbps == 500 &&
	       !strcmp(n.error, "interrupt - the client has terminated"),
	       "a run cut short: its rates and its error both kept");
}

/* A port on loopback that nothing listens on (a moment ago). */
static int closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static void test_real(void)
{
	struct iperf n;
	char spec[64];
	int port = closed_port();

	if (access(IPERF_IPERF3, X_OK)) {
		tap_skip("%s is not installed", IPERF_IPERF3);
		tap_skip("%s is not installed", IPERF_IPERF3);
		return;
	}
	if (port < 0)
		tap_bail("no loopback port: %s", strerror(errno));
	snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
	tap_ok(iperf_start(&n, IPERF_IPERF3, spec, 1) == 0 &&
	       !strcmp(n.server, spec) && n.seconds == 1,
	       "iperf_start runs iperf3 against HOST:PORT");
	iperf_finish(&n, 30);
	tap_ok(n.done && n.sent_mbps == -1 && n.received_mbps == -1 &&
	       strstr(n.error, "Connection refused"),
	       "...and iperf_finish reads its error: %s", n.error);
	iperf_free(&n);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_good);
	TAP_RUN(test_errors);
	TAP_RUN(test_real);
	return tap_done();
}
