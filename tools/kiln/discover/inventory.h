/* SPDX-License-Identifier: MIT */
#ifndef KILN_INVENTORY_H
#define KILN_INVENTORY_H

#include <stdio.h>

#include "discover/discover.h"

/*
 * The schema of inventory.json; bump on any change a reader would notice.
 * 2: a disk's "enclosure" and "slot" (strings) became "slot", an object
 * {enclosure, slot (a number), name}, there only when the disk has one.
 */
#define INVENTORY_SCHEMA 2

/* The inventory as a tree for an 80-column console. */
void inventory_print(const struct discover_inventory *inv, FILE *f);

/* The inventory as a versioned JSON document (NULL on no memory). */
char *inventory_json(const struct discover_inventory *inv, size_t *len);

#endif
