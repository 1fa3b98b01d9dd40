/* SPDX-License-Identifier: MIT */
#ifndef KILN_PEERS_OUT_H
#define KILN_PEERS_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * Peers, links and the solo phase told: in result.json (each target's
 * "firmware", "transport", "link", "solo" and "peers"; the run's
 * "controllers" and "peer_groups"), read back from it for kiln finish,
 * and in summary.txt.
 */
void peers_out_json_disk(struct json *j, const struct record *r,
			 const struct record_disk *d);
void peers_out_json(struct json *j, const struct record *r);

/* The run's controllers (before its disks), then each disk's part. */
int peers_out_restore(const struct jsonread_node *doc, struct record *r);
void peers_out_restore_disk(const struct jsonread_node *t,
			    const struct record *r, struct record_disk *d);

/* The controllers and like-disk groups, for summary.txt. */
void peers_out_summary(const struct record *r, FILE *f);

/* A disk's line: alone, its link and how much of it was used; or none. */
void peers_out_disk_line(const struct record *r, const struct record_disk *d,
			 FILE *f);

#endif
