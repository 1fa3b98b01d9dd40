/* SPDX-License-Identifier: MIT */
/*
 * Description: the network ports put under load beside the burn: which
 * NICs (a link and an address), which iperf3 server each one goes to
 * (iperf3 serves one client at a time, so NIC k takes PORT+k), and the
 * error counters the kernel keeps for each, read before and after.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sense/netport.h"
#include "base/sysfs.h"
#include "discover/machine.h"

/* Errors and drops of either direction, and the kinds a driver counts. */
const char *const netport_counter_names[NETPORT_COUNTERS] = {
	"rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
	"rx_crc_errors", "rx_frame_errors", "rx_fifo_errors",
	"tx_fifo_errors", "rx_missed_errors", "rx_over_errors",
	"rx_length_errors", "tx_carrier_errors", "tx_aborted_errors",
};

/* Whether nic has an IPv4 address. */
static int has_address(const struct ifaddrs *all, const char *nic)
{
	const struct ifaddrs *a;

	for (a = all; a; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET &&
		    !strcmp(a->ifa_name, nic))
			return 1;
	return 0;
}

int netport_find(const char *sysroot, struct netport *p, int max)
{
	char dir[PATH_MAX];
	struct machine_nic *nics;
	struct ifaddrs *all = NULL;
	int i, n, count = 0, ret;

	ret = machine_nics_read(sysroot, &nics, &n);
	if (ret)
		return ret;
	if (getifaddrs(&all))
		all = NULL;
	for (i = 0; i < n && count < max; i++) {
		snprintf(dir, sizeof(dir), "%s/class/net/%s", sysroot,
			 nics[i].name);
		if (nics[i].wireless || sysfs_attr_long(dir, "carrier", 0) != 1
		    || !has_address(all, nics[i].name))
			continue;
		memset(&p[count], 0, sizeof(p[count]));
		snprintf(p[count].nic, sizeof(p[count].nic), "%s",
			 nics[i].name);
		snprintf(p[count].mac, sizeof(p[count].mac), "%s",
			 nics[i].mac);
		p[count].speed = nics[i].speed;
		p[count].lldp_fd = -1;
		p[count].ip.fd = -1;
		count++;
	}
	if (all)
		freeifaddrs(all);
	free(nics);
	return count;
}

void netport_counters_read(const char *sysroot, const char *nic,
			   struct netport_counters *c)
{
	char dir[PATH_MAX];
	int i;

	snprintf(dir, sizeof(dir), "%s/class/net/%s/statistics", sysroot,
		 nic);
	c->read = 0;
	for (i = 0; i < NETPORT_COUNTERS; i++) {
		c->v[i] = sysfs_attr_long(dir, netport_counter_names[i], -1);
		if (c->v[i] >= 0)
			c->read = 1;
	}
}

int netport_growth(const struct netport_counters *before,
		   const struct netport_counters *after, char *buf,
		   size_t len)
{
	size_t w = 0;
	int i, grew = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < NETPORT_COUNTERS; i++) {
		if (before->v[i] < 0 || after->v[i] <= before->v[i])
			continue;
		if (w < len)
			w += (size_t)snprintf(buf + w, len - w, "%s%s +%lld",
					      grew ? ", " : "",
					      netport_counter_names[i],
					      (long long)(after->v[i] -
							  before->v[i]));
		grew++;
	}
	return grew;
}

void netport_start(struct netport *p, const char *sysroot,
		   const char *iperf3, const char *host, unsigned port,
		   uint64_t now_ns)
{
	int ret;

	snprintf(p->host, sizeof(p->host), "%s", host);
	p->port = port;
	netport_counters_read(sysroot, p->nic, &p->before);
	ret = lldp_open(p->nic, &p->lldp_fd);
	if (ret)
		snprintf(p->lldp_why, sizeof(p->lldp_why), "%s",
			 strerror(-ret));
	iperf_start(&p->ip, iperf3, p->nic, host, port, now_ns);
}

void netport_tick(struct netport *p, uint64_t now_ns)
{
	iperf_tick(&p->ip, now_ns);
	if (p->lldp_fd >= 0 && lldp_read(p->lldp_fd, &p->lldp))
		p->lldp_heard = 1;
}

void netport_stop(struct netport *p, const char *sysroot, uint64_t now_ns,
		  unsigned wait_s)
{
	iperf_stop(&p->ip, now_ns, wait_s);
	netport_counters_read(sysroot, p->nic, &p->after);
	if (p->lldp_fd >= 0) {
		if (lldp_read(p->lldp_fd, &p->lldp))
			p->lldp_heard = 1;
		close(p->lldp_fd);
		p->lldp_fd = -1;
	}
}

void netport_free(struct netport *p)
{
	iperf_free(&p->ip);
	if (p->lldp_fd >= 0)
		close(p->lldp_fd);
	p->lldp_fd = -1;
}
