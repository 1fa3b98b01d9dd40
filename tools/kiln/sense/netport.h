/* SPDX-License-Identifier: MIT */
#ifndef KILN_NETPORT_H
#define KILN_NETPORT_H

#include <stdint.h>

#include "sense/iperf.h"
#include "sense/lldp.h"

/* Ports put under load at most; more are said and left alone. */
#define NETPORT_MAX 16

/* The error counters of /sys/class/net/NIC/statistics kiln watches. */
#define NETPORT_COUNTERS 13
extern const char *const netport_counter_names[NETPORT_COUNTERS];

struct netport_counters {
	int read;			/* 0: none could be read */
	int64_t v[NETPORT_COUNTERS];	/* -1: that one not there */
};

/*
 * One NIC under load for the whole burn: what it is, its iperf3, its
 * error counters before and after, what LLDP said on it, its verdict.
 */
struct netport {
	char nic[32], mac[32];
	int speed;			/* Mbit/s, -1 unknown */
	char host[256];			/* its server */
	unsigned port;
	struct iperf ip;
	struct netport_counters before, after;
	int lldp_fd;			/* -1: not listening */
	int lldp_heard;
	char lldp_why[96];		/* not listening: why */
	struct lldp lldp;
	int verdict;			/* enum judge_verdict */
	char why[240];			/* its WARN reasons, "" none */
};

/*
 * The NICs to load, in name order: a device behind them (not lo, a
 * bridge or a bond), a link (carrier 1) and an IPv4 address. NICs are
 * read under sysroot (its class/net); their addresses are the running
 * kernel's. At most max, their count returned, or -errno.
 */
int netport_find(const char *sysroot, struct netport *p, int max);

/* Reads the counters of nic under sysroot. */
void netport_counters_read(const char *sysroot, const char *nic,
			   struct netport_counters *c);

/*
 * What grew from before to after, said as "rx_crc_errors +3, rx_dropped
 * +12" in buf: the number of counters that grew.
 */
int netport_growth(const struct netport_counters *before,
		   const struct netport_counters *after, char *buf,
		   size_t len);

/*
 * A port's load begun at now_ns, to host:port: its counters read, its
 * LLDP receiver opened (lldp_why says why not), its iperf3 started.
 */
void netport_start(struct netport *p, const char *sysroot,
		   const char *iperf3, const char *host, unsigned port,
		   uint64_t now_ns);

/*
 * Now and then: iperf3's output read (a run that ended is started again
 * IPERF_RESTART_S after), and LLDP's frames.
 */
void netport_tick(struct netport *p, uint64_t now_ns);

/* The load ended: iperf3 stopped (at most wait_s), the counters read. */
void netport_stop(struct netport *p, const char *sysroot, uint64_t now_ns,
		  unsigned wait_s);

/* Its iperf3 killed if still running, its LLDP socket closed. */
void netport_free(struct netport *p);

#endif
