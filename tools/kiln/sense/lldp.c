/* SPDX-License-Identifier: MIT */
/*
 * Description: the switch and port a NIC is plugged into, as LLDP says
 * them (IEEE 802.1AB): a small receiver, so the image packs no lldpd.
 * Switches send an LLDPDU every 30 s to the nearest-bridge group; kiln
 * listens on every port under load and keeps the last one heard.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sense/lldp.h"

enum { TLV_END, TLV_CHASSIS, TLV_PORT, TLV_TTL, TLV_PORT_DESC,
       TLV_SYSTEM };

/* The subtypes that hold a MAC address, a network address. */
#define CHASSIS_MAC 4
#define CHASSIS_ADDR 5
#define PORT_MAC 3
#define PORT_ADDR 4
/* IANA's address families, as the network address subtype gives them. */
#define FAMILY_IPV4 1
#define FAMILY_IPV6 2

static void text(char *out, size_t size, const unsigned char *p, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n && w + 1 < size; i++)
		out[w++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	out[w] = 0;
}

/* An id TLV's value: its subtype byte, then the id. */
static int id(char *out, size_t size, const unsigned char *p, size_t n,
	      int mac, int addr)
{
	size_t i, w = 0;

	if (n < 2)
		return -EINVAL;
	if (p[0] == mac && n == 7) {
		for (i = 1; i < 7; i++)
			w += (size_t)snprintf(out + w, size - w, "%s%02x",
					      i > 1 ? ":" : "", p[i]);
	} else if (p[0] == addr && n == 6 && p[1] == FAMILY_IPV4) {
		inet_ntop(AF_INET, p + 2, out, (socklen_t)size);
	} else if (p[0] == addr && n == 18 && p[1] == FAMILY_IPV6) {
		inet_ntop(AF_INET6, p + 2, out, (socklen_t)size);
	} else {
		text(out, size, p + 1, n - 1);
	}
	return 0;
}

int lldp_parse(struct lldp *l, const unsigned char *frame, size_t len)
{
	size_t at = 14, n;
	unsigned type, k = 0;

	memset(l, 0, sizeof(*l));
	if (len < at || frame[12] != LLDP_ETHERTYPE >> 8 ||
	    frame[13] != (LLDP_ETHERTYPE & 0xff))
		return -EINVAL;
	while (at + 2 <= len) {
		/* A TLV's head: 7 bits of type, 9 of length. */
		type = frame[at] >> 1;
		n = (size_t)(frame[at] & 1) << 8 | frame[at + 1];
		at += 2;
		if (at + n > len)
			return -EINVAL;
		/* The first three are chassis id, port id and TTL. */
		if (k < 3 && type != k + 1)
			return -EINVAL;
		if (type == TLV_END)
			return n ? -EINVAL : 0;
		if ((type == TLV_CHASSIS &&
		     id(l->chassis, sizeof(l->chassis), frame + at, n,
			CHASSIS_MAC, CHASSIS_ADDR)) ||
		    (type == TLV_PORT &&
		     id(l->port, sizeof(l->port), frame + at, n, PORT_MAC,
			PORT_ADDR)) ||
		    (type == TLV_TTL && n < 2))
			return -EINVAL;
		if (type == TLV_PORT_DESC)
			text(l->port_desc, sizeof(l->port_desc), frame + at, n);
		else if (type == TLV_SYSTEM)
			text(l->system, sizeof(l->system), frame + at, n);
		at += n;
		k++;
	}
	/* No End TLV: the frame's end does, once the three are there. */
	return k >= 3 && at == len ? 0 : -EINVAL;
}

int lldp_open(const char *nic, int *fd)
{
	static const unsigned char group[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00,
						0x0e };
	struct sockaddr_ll a = { .sll_family = AF_PACKET,
				 .sll_protocol = htons(LLDP_ETHERTYPE) };
	struct packet_mreq m = { .mr_type = PACKET_MR_MULTICAST,
				 .mr_alen = 6 };
	int s, ret;

	*fd = -1;
	a.sll_ifindex = (int)if_nametoindex(nic);
	if (!a.sll_ifindex)
		return -errno;
	s = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		   htons(LLDP_ETHERTYPE));
	if (s < 0)
		return -errno;
	m.mr_ifindex = a.sll_ifindex;
	memcpy(m.mr_address, group, sizeof(group));
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    setsockopt(s, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &m,
		       sizeof(m)) < 0) {
		ret = -errno;
		close(s);
		return ret;
	}
	*fd = s;
	return 0;
}

int lldp_read(int fd, struct lldp *l)
{
	unsigned char frame[1600];
	struct lldp got;
	ssize_t n;
	int heard = 0;

	while ((n = recv(fd, frame, sizeof(frame), 0)) > 0)
		if (!lldp_parse(&got, frame, (size_t)n)) {
			*l = got;
			heard = 1;
		}
	return heard;
}
