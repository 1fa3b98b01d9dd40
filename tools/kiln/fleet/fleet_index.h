/* SPDX-License-Identifier: MIT */
#ifndef KILN_FLEET_INDEX_H
#define KILN_FLEET_INDEX_H

/* What fleet_index.c (the reader) and fleet_index_write.c share. */


/*
 * The index's own fields; the rest are result.json's names (result_keys.h)
 * for the same things. A changed field raises INDEX_VERSION: an index of
 * another version is passed over for result.json, never misread.
 */
#define INDEX_SCHEMA		"kiln-fleet-index"
#define INDEX_VERSION		1
#define IKEY_RESULT_BYTES	"result_bytes"
#define IKEY_DISKS		"disks"
#define IKEY_PASSES_MADE	"passes_made"
#define IKEY_WRITE_MBPS		"write_mbps"
#define IKEY_READ_MBPS		"read_mbps"

/* An index larger than this is not one kiln wrote: result.json instead. */
#define INDEX_MAX_BYTES (4u << 20)

#endif
