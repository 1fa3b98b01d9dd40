/* SPDX-License-Identifier: MIT */
/*
 * Description: the network ports and their servers. The iperf key's
 * list: NIC k to the k-th server when several are given, else to PORT+k
 * of the one (5201 unless given), IPv6 in brackets, every bad list a
 * one-line reason. The NICs loaded: a device, a link and an address, in
 * name order (a sysfs tree made here, whose NICs are the running
 * kernel's lo and a name it has not). The error counters read, and
 * their growth said counter by counter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "sense/netport.h"
#include "settings/iperfspec.h"

static int server_is(const char *spec, int k, const char *host,
		     unsigned port)
{
	char h[256], err[240] = "";
	unsigned p = 0;
	int ret = iperfspec_server(spec, k, h, sizeof(h), &p, err,
				   sizeof(err));

	if (ret || strcmp(h, host) || p != port) {
		tap_diag("'%s' NIC %d: %d '%s' %u (%s), want %s %u", spec, k,
			 ret, ret ? "" : h, p, err, host, port);
		return 0;
	}
	return 1;
}

static int spec_bad(const char *spec, const char *want)
{
	char err[240] = "";
	int ret = iperfspec_check(spec, err, sizeof(err));

	if (ret != -EINVAL || !strstr(err, want) || strchr(err, '\n')) {
		tap_diag("'%s': %d '%s', want '%s'", spec, ret, err, want);
		return 0;
	}
	return 1;
}

static void test_spec(void)
{
	char h[256], err[240];
	unsigned p;

	tap_ok(server_is("10.0.0.5", 0, "10.0.0.5", 5201) &&
	       server_is("10.0.0.5", 3, "10.0.0.5", 5204) &&
	       server_is("lab.example:6000", 0, "lab.example", 6000) &&
	       server_is("lab.example:6000", 1, "lab.example", 6001),
	       "one server: NIC k on its PORT+k, 5201 unless given");
	tap_ok(server_is("10.0.2.2:7000,10.0.3.2:7100", 0, "10.0.2.2", 7000) &&
	       server_is("10.0.2.2:7000,10.0.3.2:7100", 1, "10.0.3.2", 7100) &&
	       server_is("a,b:9", 0, "a", 5201) &&
	       server_is("a,b:9", 1, "b", 9),
	       "several: NIC k to the k-th, on its own port");
	tap_ok(server_is("[fd00::1]:5300", 2, "fd00::1", 5302) &&
	       server_is("fd00::1", 0, "fd00::1", 5201) &&
	       server_is("[fd00::1]", 1, "fd00::1", 5202),
	       "IPv6: in brackets with a port, bare without");
	tap_ok(iperfspec_server("a,b", 2, h, sizeof(h), &p, err,
				sizeof(err)) == -EINVAL &&
	       !strcmp(err, "2 servers named: none for NIC 3"),
	       "more NICs than servers: the third said (%s)", err);
	tap_ok(iperfspec_server("a:65535", 1, h, sizeof(h), &p, err,
				sizeof(err)) == -EINVAL &&
	       !strcmp(err, "no port 65536 for NIC 2"),
	       "PORT+k past 65535: said (%s)", err);
	tap_ok(spec_bad("", "'' is not HOST or HOST:PORT") &&
	       spec_bad("a,,b", "'' is not HOST or HOST:PORT") &&
	       spec_bad("a:0", "'a:0' is not") &&
	       spec_bad("a:70000", "'a:70000' is not") &&
	       spec_bad("a:x", "'a:x' is not") && spec_bad(":5201", "is not") &&
	       spec_bad("[fd00::1", "is not") &&
	       spec_bad("[fd00::1]x", "is not") && spec_bad("a,b:", "'b:'"),
	       "bad lists refused in one line: empty hosts, ports 0, past "
	       "65535 or not numbers, brackets not closed");
	tap_ok(iperfspec_check("10.0.2.2:7000,10.0.3.2:7100", err,
			       sizeof(err)) == 0 &&
	       iperfspec_check("h", err, sizeof(err)) == 0,
	       "good lists pass the check");
}

/* A NIC in the tree made under root. */
static void nic(const char *root, const char *name, int device, int carrier,
		const char *speed)
{
	tap_sh("mkdir -p %s/class/net/%s/statistics", root, name);
	if (device)
		tap_sh("mkdir -p %s/class/net/%s/device", root, name);
	tap_put(carrier ? "1\n" : "0\n", "%s/class/net/%s/carrier", root,
		name);
	tap_put(speed, "%s/class/net/%s/speed", root, name);
	tap_put("02:00:00:00:00:01\n", "%s/class/net/%s/address", root, name);
	tap_put("up\n", "%s/class/net/%s/operstate", root, name);
}

static void test_find(void)
{
	char root[] = "/tmp/kiln-netport-XXXXXX";
	struct netport p[4];
	int n;

	if (!mkdtemp(root))
		tap_bail("mkdtemp: %s", strerror(errno));
	/* lo has 127.0.0.1 in every kernel; the others have no address. */
	nic(root, "lo", 1, 1, "10000\n");
	nic(root, "kilnnoaddr0", 1, 1, "1000\n");
	nic(root, "kilnbridge0", 0, 1, "1000\n");
	n = netport_find(root, p, 4);
	tap_ok(n == 1 && !strcmp(p[0].nic, "lo") && p[0].speed == 10000 &&
	       !strcmp(p[0].mac, "02:00:00:00:00:01") && p[0].lldp_fd == -1,
	       "the NIC with a device, a link and an address is found, its "
	       "speed and MAC read; one with no address, one with no device "
	       "are not (%d found)", n);
	tap_put("0\n", "%s/class/net/lo/carrier", root);
	tap_ok(netport_find(root, p, 4) == 0, "no link (carrier 0): not found");
	tap_sh("rm -rf %s", root);
}

static void test_counters(void)
{
	char root[] = "/tmp/kiln-netport-XXXXXX", grew[200];
	struct netport_counters a, b;

	if (!mkdtemp(root))
		tap_bail("mkdtemp: %s", strerror(errno));
	nic(root, "eth0", 1, 1, "1000\n");
	tap_put("3\n", "%s/class/net/eth0/statistics/rx_crc_errors", root);
	tap_put("10\n", "%s/class/net/eth0/statistics/rx_dropped", root);
	tap_put("0\n", "%s/class/net/eth0/statistics/tx_errors", root);
	netport_counters_read(root, "eth0", &a);
	tap_ok(a.read && a.v[4] == 3 && a.v[2] == 10 && a.v[1] == 0 &&
	       a.v[0] == -1, "the counters there are read, the rest -1");
	tap_put("5\n", "%s/class/net/eth0/statistics/rx_crc_errors", root);
	tap_put("22\n", "%s/class/net/eth0/statistics/rx_dropped", root);
	netport_counters_read(root, "eth0", &b);
	tap_ok(netport_growth(&a, &b, grew, sizeof(grew)) == 2 &&
	       !strcmp(grew, "rx_dropped +12, rx_crc_errors +2"),
	       "growth said counter by counter: %s", grew);
	tap_ok(netport_growth(&b, &b, grew, sizeof(grew)) == 0 && !grew[0],
	       "no growth: nothing said");
	tap_put("1\n", "%s/class/net/eth0/statistics/rx_crc_errors", root);
	netport_counters_read(root, "eth0", &a);
	tap_ok(netport_growth(&b, &a, grew, sizeof(grew)) == 0,
	       "a counter that went down (a driver reset) is no growth");
	netport_counters_read(root, "gone0", &a);
	tap_ok(!a.read, "a NIC with no statistics: none read");
	tap_sh("rm -rf %s", root);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_spec);
	TAP_RUN(test_find);
	TAP_RUN(test_counters);
	return tap_done();
}
