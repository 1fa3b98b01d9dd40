/* SPDX-License-Identifier: MIT */
#ifndef KILN_RESULT_H
#define KILN_RESULT_H

#include <stddef.h>

#include "record.h"

/*
 * The schema of result.json. A renamed or removed field raises it (an added
 * field is documented without); readers read every version kiln has
 * written. 2: targets' "wwid" became "wwn", as in inventory.json.
 */
#define RESULT_SCHEMA 2

/* result.json of the run as the record holds it now; NULL on no memory. */
char *result_json(const struct record *r, size_t *len);

#endif
