/* SPDX-License-Identifier: MIT */
/*
 * Description: a network port's verdict, on synthetic figures (no
 * network, no time): a port that carried iperf3 for the whole burn near
 * its link speed with no counter growing PASSes; iperf3 that never ran,
 * ended early, ran short of the burn, a mean below iperf-min of the link
 * speed (a speed not known is not judged) and any error counter that
 * grew each WARN, said in its reasons; a port still running is not
 * judged yet.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/timing.h"
#include "judge/judge.h"
#include "judge/netjudge.h"

/* A port that ran s of a burn of w seconds at mbps, on a 1000 Mbit/s link. */
static void port(struct netport *p, double s, double w, double mbps)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->nic, sizeof(p->nic), "eth0");
	snprintf(p->host, sizeof(p->host), "10.0.0.5");
	p->port = 5201;
	p->speed = 1000;
	p->ip.runs = 1;
	p->ip.first_ns = 1 * TIMING_SEC;
	p->ip.stop_ns = p->ip.first_ns + (uint64_t)(w * TIMING_SEC);
	p->ip.seconds = s;
	p->ip.bits = s * mbps * 1e6;
	p->ip.min_bps = mbps * 1e6;
	p->before.read = p->after.read = 1;
}

static int judged(struct netport *p, unsigned min, int verdict,
		  const char *want)
{
	netjudge_port(p, min);
	if (p->verdict != verdict || (want && !strstr(p->why, want)) ||
	    (!want && p->why[0])) {
		tap_diag("%s '%s', want %s '%s'", judge_name(p->verdict),
			 p->why, judge_name(verdict), want ? want : "");
		return 0;
	}
	return 1;
}

static void test_rules(void)
{
	struct netport p;

	port(&p, 3599, 3600, 940);
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL),
	       "the whole burn at 940 of 1000 Mbit/s, nothing grown: PASS");
	port(&p, 3599, 3600, 501);
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL), "501 Mbit/s over 50%%: PASS");
	port(&p, 3599, 3600, 499);
	tap_ok(judged(&p, 50, JUDGE_WARN, "499 Mbit/s on average, below "
		      "iperf-min 50% of its 1000 Mbit/s link"),
	       "499 Mbit/s under 50%% of 1000: WARN");
	port(&p, 3599, 3600, 3);
	tap_ok(judged(&p, 0, JUDGE_PASS, NULL),
	       "iperf-min 0%%: any rate passes");
	port(&p, 3599, 3600, 3);
	p.speed = -1;
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL),
	       "a link speed not known: the rate not judged");

	port(&p, 3239, 3600, 940);
	tap_ok(judged(&p, 50, JUDGE_WARN, "iperf3 ran 3239 s of the burn's "
		      "3600 s"), "under 90%% of the burn: WARN");
	port(&p, 3241, 3600, 940);
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL), "over 90%%: PASS");

	port(&p, 3580, 3600, 940);
	p.ip.runs = 3;
	snprintf(p.ip.error, sizeof(p.ip.error), "control socket has "
		 "closed unexpectedly");
	tap_ok(judged(&p, 50, JUDGE_WARN, "iperf3 ended early 2 times (the "
		      "last: control socket has closed unexpectedly)"),
	       "restarted twice: WARN, with its last error");

	port(&p, 0, 3600, 0);
	p.ip.min_bps = -1;
	snprintf(p.ip.error, sizeof(p.ip.error), "unable to connect to "
		 "server: Connection refused");
	tap_ok(judged(&p, 50, JUDGE_WARN, "iperf3 to 10.0.0.5:5201 never ran: "
		      "unable to connect to server: Connection refused") &&
	       !strstr(p.why, "average"),
	       "never ran: WARN, its error said, no rate judged");

	port(&p, 3599, 3600, 940);
	p.before.v[4] = 3;
	p.after.v[4] = 5;
	p.after.v[2] = 7;
	tap_ok(judged(&p, 50, JUDGE_WARN, "error counters grew during the "
		      "burn: rx_dropped +7, rx_crc_errors +2"),
	       "counters grown: WARN, each said");
	p.after.read = 0;
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL),
	       "counters not read after: no growth claimed");

	port(&p, 10, 3600, 3);
	p.after.v[0] = 1;
	tap_ok(judged(&p, 50, JUDGE_WARN, "ran 10 s of the burn's 3600 s; 3 "
		      "Mbit/s on average") && strstr(p.why, "; error counters"),
	       "several reasons: each said, in one line");

	port(&p, 1, 3600, 3);
	p.ip.stop_ns = 0;
	tap_ok(judged(&p, 50, JUDGE_PASS, NULL),
	       "still running: not judged yet");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_rules);
	return tap_done();
}
