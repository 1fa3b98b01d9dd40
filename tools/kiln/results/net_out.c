/* SPDX-License-Identifier: MIT */
/*
 * Description: the network ports under load, told: result.json's
 * network.ports[] (each NIC, its server, its rate, how long iperf3 ran
 * and how often it was started again, its error counters before and
 * after, what LLDP said, its verdict and why), summary.txt's lines and
 * report.html's table: a signal of the results (signal.h), whose burn
 * loads every NIC with a link and an address with its own iperf3 for as
 * long as the disks burn. Nothing when iperf was not set. Not read back:
 * kiln finish and kiln report say no network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/timing.h"
#include "judge/netjudge.h"
#include "results/html.h"
#include "results/result_keys.h"
#include "results/signal.h"
#include "sense/netport.h"
#include "settings/iperfspec.h"

/* How long iperf3 may take to write its JSON once told to stop. */
#define IPERF_STOP_WAIT_S 10

static void rate(struct json *j, const char *key, double bps)
{
	if (bps >= 0)
		json_num(j, key, bps / 1e6);
	else
		json_null(j, key);
}

static void counters(struct json *j, const char *key,
		     const struct netport_counters *c)
{
	int i;

	if (!c->read) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	for (i = 0; i < NETPORT_COUNTERS; i++)
		if (c->v[i] >= 0)
			json_i64(j, netport_counter_names[i], c->v[i]);
	json_end(j);
}

static void growth(struct json *j, const struct netport *p)
{
	int i;

	if (!p->before.read || !p->after.read) {
		json_null(j, KEY_GROWTH);
		return;
	}
	json_begin(j, KEY_GROWTH);
	for (i = 0; i < NETPORT_COUNTERS; i++)
		if (p->before.v[i] >= 0 && p->after.v[i] >= 0)
			json_i64(j, netport_counter_names[i],
				 p->after.v[i] - p->before.v[i]);
	json_end(j);
}

static void lldp(struct json *j, const struct netport *p)
{
	json_begin(j, KEY_LLDP);
	if (p->lldp_heard) {
		json_str(j, KEY_CHASSIS_ID, p->lldp.chassis);
		json_str(j, KEY_PORT_ID, p->lldp.port);
		json_str(j, KEY_SYSTEM_NAME, p->lldp.system[0] ?
			 p->lldp.system : NULL);
		json_str(j, KEY_PORT_DESCRIPTION, p->lldp.port_desc[0] ?
			 p->lldp.port_desc : NULL);
	} else {
		json_str(j, KEY_NOT_HEARD, p->lldp_why[0] ? p->lldp_why :
			 "no LLDP frame heard");
	}
	json_end(j);
}

/* Its slot's insides: each port's, then the ports. */
static void net_slot_free(void *data)
{
	struct net_ports *ports = data;
	int i;

	for (i = 0; i < ports->n; i++)
		netport_free(&ports->port[i]);
	free(ports->port);
}

static void net_out_json(struct json *j, const struct record *r)
{
	const struct net_ports *ports = record_slot(r, NET_SLOT);
	int i;

	if (!ports)
		return;
	json_begin(j, KEY_NETWORK);
	json_array(j, KEY_PORTS);
	for (i = 0; i < ports->n; i++) {
		const struct netport *p = &ports->port[i];
		const struct iperf *ip = &p->ip;

		json_begin(j, NULL);
		json_str(j, KEY_NAME, p->nic);
		json_str(j, KEY_MAC, p->mac);
		if (p->speed > 0)
			json_i64(j, KEY_SPEED_MBPS, p->speed);
		else
			json_null(j, KEY_SPEED_MBPS);
		json_str(j, KEY_SERVER, p->host);
		json_u64(j, KEY_PORT, p->port);
		rate(j, KEY_MEAN_MBPS, iperf_mean_bps(ip));
		rate(j, KEY_MIN_MBPS, ip->min_bps);
		json_num(j, KEY_SECONDS, ip->seconds);
		json_num(j, KEY_BURN_SECONDS, iperf_window(ip, ip->stop_ns));
		json_u64(j, KEY_RUNS, ip->runs);
		json_u64(j, KEY_RESTARTS, ip->runs ? ip->runs - 1 : 0);
		json_str(j, KEY_ERROR, ip->error[0] ? ip->error : NULL);
		json_begin(j, KEY_COUNTERS);
		counters(j, KEY_BEFORE, &p->before);
		counters(j, KEY_AFTER, &p->after);
		growth(j, p);
		json_end(j);
		lldp(j, p);
		json_str(j, KEY_VERDICT, judge_name(p->verdict));
		json_str(j, KEY_WHY, p->why[0] ? p->why : NULL);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

/* A port's one line: what it is, what it did, and its verdict. */
static void line(const struct netport *p, char *buf, size_t len)
{
	const struct iperf *ip = &p->ip;
	char speed[32] = "link speed unknown", min[48] = "";
	size_t w;

	if (p->speed > 0)
		snprintf(speed, sizeof(speed), "%d Mbit/s", p->speed);
	if (ip->min_bps >= 0)
		snprintf(min, sizeof(min), ", %.0f at the slowest",
			 ip->min_bps / 1e6);
	if (ip->seconds > 0)
		w = (size_t)snprintf(buf, len, "network %s (%s) to %s:%u: "
				     "%.0f Mbit/s mean%s, %.0f s of %.0f, "
				     "%u restart%s", p->nic, speed, p->host,
				     p->port, iperf_mean_bps(ip) / 1e6, min,
				     ip->seconds, iperf_window(ip, ip->stop_ns),
				     ip->runs - 1, ip->runs == 2 ? "" : "s");
	else
		w = (size_t)snprintf(buf, len, "network %s (%s) to %s:%u: "
				     "iperf3 never ran%s%s%s", p->nic, speed,
				     p->host, p->port, ip->error[0] ? " (" : "",
				     ip->error, ip->error[0] ? ")" : "");
	if (w < len && p->lldp_heard)
		w += (size_t)snprintf(buf + w, len - w, ", switch %s port %s",
				      p->lldp.system[0] ? p->lldp.system :
				      p->lldp.chassis, p->lldp.port);
	if (w < len)
		snprintf(buf + w, len - w, ": %s", judge_name(p->verdict));
}

static void net_out_summary(const struct record *r, FILE *f)
{
	const struct net_ports *ports = record_slot(r, NET_SLOT);
	char buf[600];
	int i;

	if (!ports)
		return;
	if (!ports->n)
		fprintf(f, "network: iperf set, but no NIC with a link and an "
			"address was loaded\n");
	for (i = 0; i < ports->n; i++) {
		line(&ports->port[i], buf, sizeof(buf));
		fprintf(f, "%s\n", buf);
	}
}

static void net_out_html(FILE *f, const struct record *r)
{
	const struct net_ports *ports = record_slot(r, NET_SLOT);
	char buf[600], grew[200];
	int i;

	if (!ports)
		return;
	fputs("<h3>Network ports under load</h3>\n<table class=\"net\">\n"
	      "<tr><th class=\"l\">port</th><th class=\"l\">what</th>"
	      "<th class=\"l\">error counters grown</th>"
	      "<th class=\"l\">verdict</th></tr>\n", f);
	for (i = 0; i < ports->n; i++) {
		const struct netport *p = &ports->port[i];

		line(p, buf, sizeof(buf));
		fputs("<tr>", f);
		html_cell(f, p->nic);
		html_cell(f, buf);
		if (!netport_growth(&p->before, &p->after, grew, sizeof(grew)))
			snprintf(grew, sizeof(grew), "none");
		html_cell(f, grew);
		fprintf(f, "<td class=\"%s\">", judge_name(p->verdict));
		html_text(f, p->why[0] ? p->why : judge_name(p->verdict));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * The network beside the disks, for as long as they burn: every NIC with
 * a link and an address, each to its own iperf3 server port.
 */
static void net_start(struct signal_burn *sb)
{
	struct record *r = sb->r;
	struct settings *s = r->s;
	struct net_ports *ports = record_slot_make(r, NET_SLOT, sizeof(*ports),
						   net_slot_free);
	struct netport *found;
	char host[256], err[240];
	unsigned port;
	int i, n;

	found = ports ? calloc(NETPORT_MAX, sizeof(*found)) : NULL;
	if (!found) {
		complain("out of memory: no iperf3 beside the burn");
		return;
	}
	ports->port = found;
	n = netport_find(sb->sysfs, found, NETPORT_MAX);
	if (n <= 0) {
		record_note(r, "iperf: no NIC with a link and an address: "
			    "no network load");
		return;
	}
	for (i = 0; i < n; i++) {
		struct netport *p = &found[ports->n];

		if (iperfspec_server(s->iperf, i, host, sizeof(host), &port,
				     err, sizeof(err))) {
			record_note(r, "iperf: %s not loaded: %s", p->nic, err);
			continue;
		}
		if (p != &found[i])
			*p = found[i];
		netport_start(p, sb->sysfs, IPERF_IPERF3, host, port,
			      sb->start_ns);
		ports->n++;
		fprintf(sb->con, "kiln: iperf3 on %s to %s port %u for the "
			"whole burn\n", p->nic, host, port);
	}
}

static void net_burn(struct signal_burn *sb, enum signal_at at)
{
	struct net_ports *ports = record_slot(sb->r, NET_SLOT);
	int i;

	if (at == SIGNAL_BESIDE && sb->r->s->iperf)
		net_start(sb);
	else if (at == SIGNAL_TICK)
		for (i = 0; ports && i < ports->n; i++)
			netport_tick(&ports->port[i], sb->now);
	else if (at == SIGNAL_UNLOAD)
		for (i = 0; ports && i < ports->n; i++)
			netport_stop(&ports->port[i], sb->sysfs,
				     timing_now_ns(), IPERF_STOP_WAIT_S);
}

/*
 * Its rule (record.h), once the machine is judged (after the stress's and
 * the BMC's, and blame's): each port's WARN is the machine's, said last,
 * since a machine keeps its first eight reasons.
 */
static void net_rule(struct record *r, struct record_disk *d, int final,
		     enum judge_at at)
{
	(void)d;
	(void)final;
	if (at == JUDGE_AT_LAST)
		netjudge_machine(r);
}

const struct signal_ops net_signal = {
	.name = "network",
	.burn = net_burn,
	.judge = net_rule,
	.json_machine = net_out_json,
	.summary = net_out_summary,
	.html = net_out_html,
};
