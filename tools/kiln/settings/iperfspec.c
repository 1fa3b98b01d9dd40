/* SPDX-License-Identifier: MIT */
/*
 * Description: the iperf key's list of iperf3 servers, HOST[:PORT]
 * separated by commas, and the server each NIC goes to: an iperf3 server
 * serves one client at a time, so with one server NIC k takes PORT+k.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "settings/iperfspec.h"
#include "settings/settings.h"

/* Entry k of a comma-separated list into out: its count, or -EINVAL. */
static int entry(const char *spec, int k, char *out, size_t len)
{
	const char *p = spec, *end;
	int i = 0;

	for (;;) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (i == k) {
			if ((size_t)(end - p) >= len)
				return -EINVAL;
			memcpy(out, p, (size_t)(end - p));
			out[end - p] = 0;
		}
		i++;
		if (!*end)
			return i;
		p = end + 1;
	}
}

/* HOST[:PORT] (an IPv6 HOST in brackets) into host and *port. */
static int host_port(const char *text, char *host, size_t hlen,
		     unsigned *port)
{
	const char *colon = strrchr(text, ':'), *close = strchr(text, ']');
	size_t n = strlen(text);
	unsigned u = 0;

	*port = IPERFSPEC_PORT;
	if (text[0] == '[') {
		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		colon = close[1] ? close + 1 : NULL;
		text++;
		n = (size_t)(close - text);
	} else if (colon && strchr(text, ':') != colon) {
		colon = NULL;		/* a bare IPv6 address, no port */
	} else if (colon) {
		n = (size_t)(colon - text);
	}
	if (colon && (settings_parse_uint(colon + 1, 65535, &u) || !u))
		return -EINVAL;
	if (colon)
		*port = u;
	if (!n || n >= hlen)
		return -EINVAL;
	memcpy(host, text, n);
	host[n] = 0;
	return 0;
}

int iperfspec_server(const char *spec, int k, char *host, size_t hlen,
		     unsigned *port, char *err, size_t errlen)
{
	char one[300] = "";
	int n = entry(spec, 0, one, sizeof(one));

	if (n > 1 && k >= n) {
		snprintf(err, errlen, "%d servers named: none for NIC %d", n,
			 k + 1);
		return -EINVAL;
	}
	if (entry(spec, n > 1 ? k : 0, one, sizeof(one)) < 0) {
		snprintf(err, errlen, "a server's name is too long");
		return -EINVAL;
	}
	if (host_port(one, host, hlen, port)) {
		snprintf(err, errlen, "'%.100s' is not HOST or HOST:PORT", one);
		return -EINVAL;
	}
	/* One server for every NIC: each its own port of it. */
	if (n == 1)
		*port += (unsigned)k;
	if (*port > 65535) {
		snprintf(err, errlen, "no port %u for NIC %d", *port, k + 1);
		return -EINVAL;
	}
	return 0;
}

int iperfspec_check(const char *spec, char *err, size_t errlen)
{
	char host[256];
	unsigned port;
	int n = entry(spec, 0, host, sizeof(host)), k;

	for (k = 0; k < (n > 1 ? n : 1); k++)
		if (iperfspec_server(spec, k, host, sizeof(host), &port, err,
				     errlen))
			return -EINVAL;
	return 0;
}
