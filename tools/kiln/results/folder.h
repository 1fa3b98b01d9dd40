/* SPDX-License-Identifier: MIT */
#ifndef KILN_FOLDER_H
#define KILN_FOLDER_H

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
struct folder {
	char *dir;
	int dfd;		/* dir, opened once: files are made under it */
	FILE *samples;		/* samples.csv, appended every second */
	int samples_lost;	/* a sample could not be written */
	uint64_t seq;		/* checkpoints written */
	/* the file of the newest good checkpoint: 1, 2 */
	int good;
	uint64_t reserved;	/* bytes held in .reserve for the last files */
	int made;		/* kiln made the folder */
};

/*
 * Makes the run folder (and its parents), which must be absent or empty
 * (two runs' files never mix), proves it writable by holding reserve
 * bytes in .reserve (room for the files written at the end), checks that
 * room for more bytes is free too (samples and checkpoints as the run
 * goes), and starts samples.csv. 0, or -errno with one line in err:
 * -EEXIST not empty, -EPERM others may write in it (newfile_others()),
 * -ENOSPC no room; nothing is left behind then.
 */
int folder_open(struct folder *r, const char *dir, uint64_t reserve,
		uint64_t more, char *err, size_t len);

/* Gives the reserved room back, for the files written at the end. */
void folder_release(struct folder *r);

/* Room a run's results take: held to the end, and written as it goes. */
void folder_room(int disks, uint64_t seconds, uint64_t *reserve,
		 uint64_t *more);

/*
 * Writes the next checkpoint over the one that is not the newest good one,
 * and syncs it: whatever is torn, one good checkpoint stays.
 */
int folder_checkpoint(struct folder *r, const char *doc, size_t len);

/*
 * Writes a file in the folder whole, synced: name.tmp then a rename, never
 * through a link planted at either (newfile_write()).
 */
int folder_write(struct folder *r, const char *name, const void *data,
		  size_t len);

/* folder_write() in the folder dir; data NULL (out of memory): -ENOMEM. */
int folder_write_in(const char *dir, const char *name, const void *data,
		    size_t len);

/*
 * Copies the kernel's log (a /dev/kmsg) into kmsg.log, as dmesg prints
 * it: the records of this boot still in the kernel's ring.
 */
int folder_write_kmsg(struct folder *r, const char *kmsg);

/*
 * Whether others may write in the run folder dir (newfile_others()): 1
 * with one line in why, for a command that writes into a folder it was
 * given to say so before it does.
 */
int folder_others(const char *dir, char *why, size_t len);

/* Syncs samples.csv to the medium. */
int folder_sync(struct folder *r);

void folder_close(struct folder *r);

/* A run that never started: its folder goes again, as if never made. */
void folder_discard(struct folder *r);

/*
 * The path of a new run folder under a results root, as the stick lays
 * them out: ROOT/kiln-results/<machine id>/<YYYYMMDDTHHMMSSZ>-<run id>,
 * stamped now. kiln run and kiln burn without --out both make it here.
 * 0, or -ENAMETOOLONG.
 */
int folder_run_path(const char *root, const char *machine, uint64_t run_id,
		    char *out, size_t len);

/*
 * Whether the run folder dir and a target overlap, before either is
 * made: the target inside the folder, the folder under the target's path
 * (both by real path, and by device and inode for bind mounts), or the
 * folder on a filesystem of the target (a block device: the disk itself,
 * one of its partitions, or a device built on them, such as dm or md,
 * as sysfs under sysroot says). 1 with one line in why naming both, else
 * 0 (also when it cannot be told: opening the target says why then).
 */
int folder_overlaps(const char *sysroot, const char *dir, const char *target,
		    char *why, size_t len);

/* The two checkpoint files, written in turn: "checkpoint-a.json", -b. */
extern const char *const folder_checkpoints[2];

/*
 * On a lab server a run's progress never replaces a file (an upload
 * creates and never replaces): each checkpoint and summary so far goes
 * under a name of its own, numbered by the checkpoint's sequence number,
 * in the run folder's subfolder "progress":
 * "progress/checkpoint-000042.json", "progress/summary-000042.txt".
 * kiln fleet reads the newest checkpoint of those that hold.
 */
#define FOLDER_PROGRESS "progress"

/*
 * The name of progress file kind ("checkpoint", "summary") number seq,
 * ext its extension ("json"): 0, or -ENAMETOOLONG.
 */
int folder_progress_name(const char *kind, uint64_t seq, const char *ext,
			 char *out, size_t len);

/*
 * The sequence numbers of the checkpoints in dir's progress folder,
 * largest first, at most max of them: how many (0 when none).
 */
int folder_progress_seqs(const char *dir, uint64_t *seqs, int max);

/*
 * The newest checkpoint in dir whose length and CRC hold: 0, its path and
 * sequence number (seq may be NULL); -ENOENT when none holds.
 */
int folder_newest(const char *dir, char *path, size_t len, uint64_t *seq);

/*
 * Reads a checkpoint file back: 0 and its sequence number when its length
 * and CRC hold, -EBADMSG when torn. Used by tests and by whoever picks up
 * the results of a run that lost power.
 */
int folder_read_checkpoint(const char *path, uint64_t *seq, char **doc,
			    size_t *len);

#endif
