/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine as a lab knows it (see lab.h): its id (the
 * DMI serial when real, else the first wired NIC's MAC), and for the run
 * record its vendor, product, serials and asset tag, and every NIC with
 * its MAC and IPv4 address, so a lab finds the machine by any port.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/machine.h"
#include "lab/lab.h"
#include "judge/record.h"

/* The machine and its NICs, and the id chosen from them; nics to free. */
static int machine_of(struct machine_system *sys, struct machine_nic **nics)
{
	int n = 0;

	*nics = NULL;
	machine_system_read("/sys", "/proc", sys);
	if (machine_nics_read("/sys", nics, &n))
		n = 0;
	machine_id_choose(sys, *nics, n);
	return n;
}

void lab_machine_id(char *out, size_t len)
{
	struct machine_system sys;
	struct machine_nic *nics;

	machine_of(&sys, &nics);
	free(nics);
	snprintf(out, len, "%s", sys.machine_id[0] ? sys.machine_id :
		 "unknown");
}

/*
 * The IPv4 address of the interface name; with any, else that of any
 * interface but loopback.
 */
static void address_of(const char *name, int any, char *out, size_t len)
{
	struct ifaddrs *all, *a;
	int pass;

	out[0] = 0;
	if (getifaddrs(&all))
		return;
	for (pass = 0; pass < 1 + !!any && !out[0]; pass++)
		for (a = all; a && !out[0]; a = a->ifa_next) {
			const struct sockaddr_in *in =
				(const struct sockaddr_in *)a->ifa_addr;

			if (!in || in->sin_family != AF_INET ||
			    (a->ifa_flags & IFF_LOOPBACK) ||
			    (!pass && strcmp(a->ifa_name, name)))
				continue;
			inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)len);
		}
	freeifaddrs(all);
}

static void lab_machine_system(struct record *r,
			       const struct machine_system *sys,
			       const struct machine_nic *nics, int n)
{
	struct record_system *m = &r->system;
	int i, pick = -1;

	snprintf(m->vendor, sizeof(m->vendor), "%s", sys->vendor);
	snprintf(m->product, sizeof(m->product), "%s", sys->product);
	snprintf(m->serial, sizeof(m->serial), "%s", sys->serial);
	/* The wired NIC that is up, else the first wired one. */
	for (i = 0; i < n; i++) {
		if (nics[i].wireless || !nics[i].mac[0])
			continue;
		if (pick < 0 || (!strcmp(nics[i].state, "up") &&
				 strcmp(nics[pick].state, "up")))
			pick = i;
	}
	m->mac[0] = 0;
	if (pick >= 0)
		snprintf(m->mac, sizeof(m->mac), "%s", nics[pick].mac);
	address_of(pick >= 0 ? nics[pick].name : "", 1, m->address,
		   sizeof(m->address));
	snprintf(m->asset_tag, sizeof(m->asset_tag), "%s", sys->asset_tag);
	snprintf(m->chassis_serial, sizeof(m->chassis_serial), "%s",
		 sys->chassis_serial);
	/* Every NIC, so a lab finds the machine by any port it sees. */
	for (m->nnics = 0, i = 0; i < n && m->nnics < RECORD_NICS; i++) {
		struct record_nic *k = &m->nics[m->nnics++];

		snprintf(k->name, sizeof(k->name), "%s", nics[i].name);
		snprintf(k->mac, sizeof(k->mac), "%s", nics[i].mac);
		address_of(nics[i].name, 0, k->address, sizeof(k->address));
	}
}

void lab_machine_read(struct record *r)
{
	struct machine_system sys;
	struct machine_nic *nics;
	int n = machine_of(&sys, &nics);

	if (!r->machine[0])
		snprintf(r->machine, sizeof(r->machine), "%s",
			 sys.machine_id[0] ? sys.machine_id : "unknown");
	lab_machine_system(r, &sys, nics, n);
	free(nics);
}
