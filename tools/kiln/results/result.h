/* SPDX-License-Identifier: MIT */
#ifndef KILN_RESULT_H
#define KILN_RESULT_H

#include <limits.h>
#include <stddef.h>

#include "base/jsonread.h"
#include "judge/record.h"

/*
 * The schema of result.json. A renamed or removed field raises it (an added
 * field is documented without); readers read every version kiln has
 * written. 2: targets' "wwid" became "wwn", as in inventory.json. 3: a
 * byte of a string that is not UTF-8 is the text \xNN, a backslash \x5c,
 * valid UTF-8 as it is (before, every byte above 0x7e was a code point);
 * and a target's "passes" lists every run of a phase only up to 16 of
 * them, then the first, last and worst (engine.h); "pass_totals" counts
 * them all. Version 4: "network" holds a port each in "ports" (iperf3 on
 * every NIC for the whole burn); its received_mbps, sent_mbps and
 * iperf3_server are gone.
 */
#define RESULT_SCHEMA 4
#define RESULT_SCHEMA_NAME "kiln-result"	/* "schema" */
#define RESULT_SCHEMA_UTF8 3

/*
 * The one check of every reader of a run's document (result.json, a
 * checkpoint's "result"): that root is a kiln-result of a schema version
 * this kiln reads. Its version (1 to RESULT_SCHEMA), a document before
 * RESULT_SCHEMA_UTF8 marked so its strings read as they were written;
 * else -EBADMSG with one line in err.
 */
int result_schema(const struct jsonread_node *root, char *err,
		  size_t errlen);

/*
 * What every reader of a run record takes (jsonread.h's limits): a record
 * past them is too large, said as such and never read as a failed run.
 */
#define RESULT_MAX_BYTES JSONREAD_MAX_BYTES
#define RESULT_MAX_NODES JSONREAD_MAX_NODES

/*
 * The record is bounded by its disks: a run takes RESULT_MAX_TARGETS
 * targets at most (four 106-bay JBODs and the head node's own), and lists RESULT_DETAIL_BUDGET errors and as many bad
 * units in all, shared among its targets (max-detail a target, less when
 * many targets would list more). tests/unit/bounded.c holds that the
 * largest record so made is under every reader's limits.
 */
#define RESULT_MAX_TARGETS 1024
#define RESULT_DETAIL_BUDGET 32768

/* The errors (and bad units) listed a target: want, or its share. */
static inline unsigned result_max_detail(unsigned want, int targets)
{
	unsigned share = RESULT_DETAIL_BUDGET / (unsigned)(targets > 0 ?
							  targets : 1);

	return want < share ? want : share;
}

/*
 * -EFBIG, with "PATH is N bytes, over the limit of M that kiln reads" in
 * err, when the file at path is larger than a reader takes; else 0 (a
 * missing file is 0: the reader says what it finds).
 */
int result_too_large(const char *path, char *err, size_t errlen);

/*
 * The same for the run folder dir's checkpoints: one too large is the
 * newest (a record only grows), so the other must not stand in for it.
 */
int result_checkpoint_too_large(const char *dir, char *err, size_t errlen);

/* result.json of the run as the record holds it now; NULL on no memory. */
char *result_json(const struct record *r, size_t *len);

/* A disk as a run record remembers it: what a later verify must know. */
struct result_disk {
	char identity[PATH_MAX + 64];
	char path[PATH_MAX];
	uint64_t size;
	struct engine_plan ep;		/* the region, as it was burnt */
	uint32_t last_written;		/* the last pass written; 0: none */
	uint64_t last_reached;		/* where that pass stopped */
	int complete;			/* it covered the whole region */
	const char *verdict;		/* PASS, WARN, FAIL, or NULL */
	/* FAILed before its burn (missing, stalled while classed): no region */
	int not_started;
};

/*
 * Why a disk of a record has nothing of it to verify (only read, or never
 * started in that run), or NULL when it was written.
 */
static inline const char *result_disk_unwritten(const struct result_disk *d)
{
	if (d->not_started)
		return "never started in the recorded run (it FAILed before "
		       "its burn)";
	if (!d->last_written && (d->ep.mode == ENGINE_READ ||
				 d->ep.mode == ENGINE_VERIFY))
		return "only read in the recorded run, never written";
	if (d->ep.mode == ENGINE_NONE)
		return "erased in the recorded run (profile erase): no pass "
		       "was written";
	return NULL;
}

/* A run record read back: result.json, or its newest good checkpoint. */
struct result_record {
	int schema_version;
	uint64_t run_id;
	uint64_t bs;
	int state;			/* enum record_state; -1 unknown */
	char verdict[8];		/* "" while running */
	int from_checkpoint;		/* result.json was missing or torn */
	int n;
	struct result_disk *disks;
	/* the document read, kept for strings */
	struct jsonread *doc;
};

/*
 * Reads the run record of the run folder dir (every schema version kiln
 * has written): 0, or -errno with a one-line reason in err.
 */
int result_load(const char *dir, struct result_record *rec, char *err,
		size_t errlen);
void result_record_free(struct result_record *rec);

/*
 * Sets the state of the run folder dir's result.json (a pending power-cut
 * folder becomes verified), written whole and atomically as every file of
 * a run folder is: 0, or -errno with one line in err. A document this kiln
 * cannot read is left as it is.
 */
int result_set_state(const char *dir, enum record_state state, char *err,
		     size_t errlen);

/* The recorded disk with that identity, or NULL. */
const struct result_disk *result_find(const struct result_record *rec,
				      const char *identity);

#endif
