/* SPDX-License-Identifier: MIT */
#ifndef KILN_LLDP_H
#define KILN_LLDP_H

#include <stddef.h>

/* LLDP's EtherType (IEEE 802.1AB). */
#define LLDP_ETHERTYPE 0x88cc

/*
 * What the switch says of the port it is: IEEE 802.1AB's chassis id and
 * port id (the mandatory TLVs), its system name and port description,
 * each as text (a MAC address subtype as aa:bb:cc:dd:ee:ff, a network
 * address as its dotted or colon form, the rest as printable ASCII).
 */
struct lldp {
	char chassis[128], port[128], system[128], port_desc[128];
};

/*
 * Reads one Ethernet frame (destination, source, EtherType 0x88cc, the
 * LLDPDU): 0 and *l, or -EINVAL for a frame that is not a well-formed
 * LLDPDU (chassis id, port id and TTL first and in that order, every TLV
 * within the frame, an End TLV or the frame's end after them).
 */
int lldp_parse(struct lldp *l, const unsigned char *frame, size_t len);

/*
 * A receiver on one NIC: a raw socket for EtherType 0x88cc that joins
 * the nearest-bridge group 01:80:c2:00:00:0e. 0 and *fd (non-blocking),
 * or -errno (a NIC not there, not root).
 */
int lldp_open(const char *nic, int *fd);

/* Reads what came on fd: 1 when a frame was parsed into *l, else 0. */
int lldp_read(int fd, struct lldp *l);

#endif
