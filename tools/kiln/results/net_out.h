/* SPDX-License-Identifier: MIT */
#ifndef KILN_NET_OUT_H
#define KILN_NET_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "judge/record.h"

/*
 * The network ports under load told (sense/netport.h): result.json's
 * top-level "network" object with its "ports", a line a port in
 * summary.txt (and so on the console at the end), and a table in
 * report.html's machine section. Nothing when iperf was not set.
 */

void net_out_json(struct json *j, const struct record *r);

/* "network eth0 (1000 Mbit/s) to 10.0.0.5:5201: 941 Mbit/s mean, ...". */
void net_out_summary(const struct record *r, FILE *f);

void net_out_html(FILE *f, const struct record *r);

#endif
