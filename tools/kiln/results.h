/* SPDX-License-Identifier: MIT */
#ifndef KILN_RESULTS_H
#define KILN_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The run folder, written as the run goes. Results may live on a FAT
 * stick that loses power at any moment: FAT has no journal and a rename
 * is not atomic across a power cut, so checkpoints alternate between
 * checkpoint-a.json and checkpoint-b.json, each headed by a sequence
 * number, its length and a CRC32C, and the newer one that checks is the
 * state of the run. A cut loses at most one checkpoint period.
 */
struct results {
	char *dir;
	FILE *samples;		/* samples.csv, appended every second */
	uint64_t seq;		/* checkpoints written */
};

/* Makes the folder (and its parents) and starts samples.csv. */
int results_open(struct results *r, const char *dir, char *err, size_t len);

/* Writes the next checkpoint over the older of the two, and syncs it. */
int results_checkpoint(struct results *r, const char *doc, size_t len);

/* Writes a file in the folder whole, synced: name.tmp then a rename. */
int results_write(struct results *r, const char *name, const void *data,
		  size_t len);

/*
 * Copies the kernel's log (a /dev/kmsg) into kmsg.log, as dmesg prints
 * it: the records of this boot still in the kernel's ring.
 */
int results_write_kmsg(struct results *r, const char *kmsg);

/* Syncs samples.csv to the medium. */
int results_sync(struct results *r);

void results_close(struct results *r);

/*
 * Reads a checkpoint file back: 0 and its sequence number when its length
 * and CRC hold, -EBADMSG when torn. Used by tests and by whoever picks up
 * the results of a run that lost power.
 */
int results_read_checkpoint(const char *path, uint64_t *seq, char **doc,
			    size_t *len);

#endif
