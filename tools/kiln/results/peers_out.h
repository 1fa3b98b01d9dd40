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
 * and in summary.txt: the parts of peers_signal (peers_html.c), which
 * result.c, restore.c, summary.c and report*.c reach through the table.
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

/* A disk's lines: alone, its link, its controller; the limit it ran at. */
void peers_out_disk_line(const struct record *r, const struct record_disk *d,
			 FILE *f);

/* A share this near a quarter, a third, a half... is said in words. */
#define PEERS_OUT_WORDS_NEAR 0.02

/*
 * The limit a disk ran at and how close, in words: the nearest of its
 * own rate alone, its link and its controller's PCIe link ("ran at 550
 * MB/s, 91% of its SATA link (6.0 Gbps, 600 MB/s)", "a quarter of the
 * controller's PCIe 3.0 x8"), or that it has none known (a loop device,
 * a RAID volume); "" when it moved nothing. For summary.txt, report.html
 * and result.json alike.
 */
char *peers_out_limit(const struct record *r, const struct record_disk *d,
		      char *buf, size_t len);

#endif
