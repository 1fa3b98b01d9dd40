/* SPDX-License-Identifier: MIT */
#ifndef KILN_BMC_OUT_H
#define KILN_BMC_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * The BMC told (sense/bmc.h): result.json's top-level "bmc" object, each
 * entry added with its 16 bytes, so kiln finish and kiln report read it
 * back and judge it the same; its line in summary.txt and its table in
 * report.html. Nothing with bmc=0.
 */

void bmc_out_json(struct json *j, const struct record *r);

/* The bmc object of doc into r (restore.c): 0, nothing when absent. */
int bmc_out_read(const struct jsonread_node *doc, struct record *r);

/* "bmc: 10.0.0.5, 2 entries added during the run, none critical: PASS". */
void bmc_out_summary(const struct record *r, FILE *f);

void bmc_out_html(FILE *f, const struct record *r);

#endif
