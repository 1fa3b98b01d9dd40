/* SPDX-License-Identifier: MIT */
#ifndef KILN_LINKERR_OUT_H
#define KILN_LINKERR_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * Link error counters (judge/linkerr.h) in result.json, read back by the
 * same file, and told to people. A target's "link_errors" is an object
 * with a member a counter, named "SOURCE COUNTER" ("phy-7:0:5
 * invalid_dword_count", "drive icrc_errors"), each {source, phy (the SAS
 * phy, or null for the drive's own), counter, before, after, growth,
 * error}; the run's "sas_phys" lists the machine's SAS phys, each {phy,
 * owner, controller, in_use, counters: {NAME: {before, after, growth,
 * error}}}, so that the judging of a restored run places growth as the
 * run did. A figure not read is null. The field names are this file's.
 */

void linkerr_out_disk(struct json *j, const struct record_disk *d);
void linkerr_out_machine(struct json *j, const struct record *r);

/* A target's counters from its object; the machine's phys (restore.c). */
void linkerr_out_read_disk(const struct jsonread_node *t,
			   struct record_disk *d);
int linkerr_out_read_machine(const struct jsonread_node *doc,
			     struct record *r);

/*
 * The counters of a disk that grew, for people: "phy-7:0:5
 * invalid_dword_count 0 -> 250 (+250), ..."; "" when none grew.
 */
char *linkerr_out_grown(const struct record_disk *d, char *buf, size_t len);

/* summary.txt's lines of a disk: its grown counters, if any. */
void linkerr_out_text_disk(const struct record_disk *d, FILE *f);

#endif
