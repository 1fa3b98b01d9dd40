/* SPDX-License-Identifier: MIT */
#ifndef KILN_NETJUDGE_H
#define KILN_NETJUDGE_H

#include <stdint.h>

#include "sense/netport.h"

struct record;

/*
 * The net signal's slot of the record (NET_SLOT, record_slot()): every
 * port under load, made when iperf is asked for (its ports loaded) or
 * read back; none: no network test.
 */
#define NET_SLOT "network"

struct net_ports {
	int n;
	struct netport *port;		/* NETPORT_MAX of them (owned) */
};

/* A port that ran less than this share of the burn did not keep up. */
#define NETJUDGE_COVER 0.9

/*
 * One port judged once its iperf3 was stopped, on its figures alone: it
 * WARNs when iperf3 never ran, ended early (each restart), ran less than
 * NETJUDGE_COVER of the burn, moved less on average than iperf_min % of
 * its link speed (a speed not known is not judged), or when any of its
 * error counters grew. p->verdict and p->why say it.
 */
void netjudge_port(struct netport *p, unsigned iperf_min);

/*
 * Every port of the record judged (its slot); each one's WARN is the
 * machine's, after the machine's own (vitals_judge_machine()).
 */
void netjudge_machine(struct record *r);

#endif
