/* SPDX-License-Identifier: MIT */
#ifndef KILN_NETJUDGE_H
#define KILN_NETJUDGE_H

#include <stdint.h>

#include "sense/netport.h"

struct record;
struct vitals_machine;

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

/* Every port of the record judged; each one's WARN is the machine's. */
void netjudge_machine(struct record *r, struct vitals_machine *m);

#endif
