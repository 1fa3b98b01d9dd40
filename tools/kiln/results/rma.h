/* SPDX-License-Identifier: MIT */
#ifndef KILN_RMA_H
#define KILN_RMA_H

#include <stddef.h>
#include <stdio.h>

#include "judge/record.h"

/*
 * rma-<serial>.txt: what a FAILed disk's vendor asks for with a return,
 * in one plain-text file of the run folder (docs/results.md): model,
 * serial, firmware, WWN, capacity, power-on hours; the failure with its
 * reasons, the I/O errors and the bad units with their offsets and
 * classes; the SMART or NVMe logs before and after the run.
 */

/*
 * The file's name for disk d: rma-<serial>.txt when the serial is a
 * safe file name ([A-Za-z0-9._-] only), else rma-<identity hash>.txt.
 */
void rma_name(const struct record_disk *d, char *out, size_t len);

/* The file's text for disk d of r (malloc()ed, *len bytes); NULL: ENOMEM. */
char *rma_text(const struct record *r, const struct record_disk *d,
	       size_t *len);

/*
 * Every FAILed disk's RMA file of r written into the run folder dir
 * (folder_write_in(): whole or not at all): 0, or the first -errno.
 * kiln finish's; a burn writes its own as it writes its other files.
 */
int rma_write_all(const struct record *r, const char *dir);

/*
 * summary.txt's line of a FAILed disk of r: its RMA file, and its
 * telemetry log kept (or why not), when r has a run folder.
 */
void rma_summary(const struct record *r, const struct record_disk *d,
		 FILE *f);

#endif
