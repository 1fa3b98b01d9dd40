/* SPDX-License-Identifier: MIT */
/*
 * Description: the network ports judged. A port under load for the
 * whole burn should have carried iperf3 all along, near its link speed,
 * with no error counter growing: a cable, a transceiver or a switch port
 * that drops or corrupts frames shows there long before a user sees it.
 * None of it touches the disks, so a port WARNs the machine, never FAILs
 * it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/netjudge.h"
#include "judge/judge.h"
#include "judge/record.h"
#include "judge/vitals.h"

__attribute__((format(printf, 2, 3)))
static void why(struct netport *p, const char *fmt, ...)
{
	size_t used = strlen(p->why);
	va_list ap;

	p->verdict = JUDGE_WARN;
	if (used && used + 2 < sizeof(p->why)) {
		memcpy(p->why + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(p->why + used, sizeof(p->why) - used, fmt, ap);
	va_end(ap);
}

void netjudge_port(struct netport *p, unsigned iperf_min)
{
	const struct iperf *ip = &p->ip;
	double window = iperf_window(ip, ip->stop_ns);
	double mean = iperf_mean_bps(ip) / 1e6;
	char grew[200];

	p->verdict = JUDGE_PASS;
	p->why[0] = 0;
	if (!ip->stop_ns)
		return;			/* still running */
	if (ip->seconds <= 0) {
		why(p, "iperf3 to %s:%u never ran: %s", p->host, p->port,
		    ip->error[0] ? ip->error : "no reason known");
	} else {
		if (ip->runs > 1)
			why(p, "iperf3 ended early %u time%s (the last: %s)",
			    ip->runs - 1, ip->runs == 2 ? "" : "s",
			    ip->error[0] ? ip->error : "no reason known");
		if (ip->seconds < window * NETJUDGE_COVER)
			why(p, "iperf3 ran %.0f s of the burn's %.0f s",
			    ip->seconds, window);
		if (p->speed > 0 && mean * 100 < (double)p->speed * iperf_min)
			why(p, "%.0f Mbit/s on average, below iperf-min %u%% "
			    "of its %d Mbit/s link", mean, iperf_min,
			    p->speed);
	}
	if (p->before.read && p->after.read &&
	    netport_growth(&p->before, &p->after, grew, sizeof(grew)))
		why(p, "error counters grew during the burn: %s", grew);
}

void netjudge_machine(struct record *r)
{
	struct net_ports *ports = record_slot(r, NET_SLOT);
	char text[240];
	int i;

	for (i = 0; ports && i < ports->n; i++) {
		struct netport *p = &ports->port[i];

		netjudge_port(p, r->s->iperf_min);
		if (p->verdict == JUDGE_PASS)
			continue;
		snprintf(text, sizeof(text), "network port %s: %s", p->nic,
			 p->why);
		vitals_machine_reason(r, p->verdict, text);
	}
}
