/* SPDX-License-Identifier: MIT */
#ifndef KILN_IPERFSPEC_H
#define KILN_IPERFSPEC_H

#include <stddef.h>

/* iperf3's port unless iperf= gives one. */
#define IPERFSPEC_PORT 5201

/*
 * Server k of spec (HOST[:PORT][,HOST[:PORT]]...): the k-th when there
 * are several, else the one, on its PORT + k. 0, or -EINVAL with a
 * reason in err: an empty host, a bad port, fewer servers than NICs.
 */
int iperfspec_server(const char *spec, int k, char *host, size_t hlen,
		     unsigned *port, char *err, size_t errlen);

/* Whether spec reads: 0, or -EINVAL with a reason in err. */
int iperfspec_check(const char *spec, char *err, size_t errlen);

#endif
