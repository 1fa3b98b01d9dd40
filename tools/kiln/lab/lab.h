/* SPDX-License-Identifier: MIT */
#ifndef KILN_LAB_H
#define KILN_LAB_H

#include <stddef.h>
#include <stdio.h>

#include "judge/record.h"

/*
 * A run handed to a lab's servers as it goes (settings upload= and
 * metrics=): the run folder by HTTP PUT (upload.c), live gauges to a
 * Pushgateway (metrics.c). The burn calls these at its few moments; none
 * waits on the network except lab_settle and lab_finish, which are
 * bounded. A server that is down never stops or fails the burn: what did
 * not arrive is said on the console and kept in the record (r->lab).
 */
struct lab;

/* Without a stick the run folder is kept here, in RAM (kiln run). */
#define LAB_RAM_RESULTS "/run/kiln"
/* ...and the lab server is asked this long before giving up, exit 3. */
#define LAB_REACH_SECONDS 60

/*
 * Before the burn: the uploader for r->out (the run folder: its name is
 * the folder's on the server) and the metrics pusher, each when its
 * setting is given; *lp stays NULL when neither is. The machine id is
 * r->machine, read from this machine when empty. Never fails the run: a
 * pusher that cannot start is said and noted.
 */
void lab_start(struct lab **lp, struct record *r, FILE *con);

/* A file of the run folder, as it is now (copied): queued to upload. */
void lab_put(struct lab *l, const char *name, const void *data, size_t len);

/* A file of the local run folder, read when its turn comes. */
void lab_put_file(struct lab *l, const char *name);

/*
 * The run's progress: checkpoint number seq (the local file checkpoint,
 * read now) and the summary so far, each under a name of its own
 * (folder_progress_name()), since nothing on the server is replaced.
 */
void lab_progress(struct lab *l, uint64_t seq, const char *checkpoint,
		  const char *summary, size_t len);

/*
 * The folder a run's files go to on the server, below the machine's:
 * the run folder's name, with the run id added when the name does not
 * hold it already (two runs given the same --out name never meet).
 */
void lab_run_folder(const char *dir, uint64_t run_id, char *out, size_t len);

/* Every interval: the gauges as they stand, and what the pushers said. */
void lab_tick(struct lab *l, struct record *r);

/*
 * The run is judged: samples.csv and kmsg.log go too, everything queued
 * is waited for (bounded), the last push of metrics says the verdict, and
 * what has not arrived is kept in r->lab for result.json.
 */
void lab_settle(struct lab *l, struct record *r);

/*
 * The last files (result.json, summary.txt) are queued: waits for them
 * (bounded), says on the console what never arrived. When the upload is
 * where the results live (r->lab.upload_only), a file lost there is a
 * result lost: r->results_lost is set.
 */
void lab_finish(struct lab *l, struct record *r);

void lab_free(struct lab *l);

/*
 * Before anything is touched, when the upload is the only results medium:
 * whether the server of s->upload answers at all (any HTTP status: a 401
 * too), asked every few
 * seconds for at most seconds. 0, or -errno after saying why on con.
 */
int lab_reach(const struct settings *s, unsigned seconds, FILE *con);

/*
 * A whole run folder sent at once (one finished at this boot, kiln
 * finish's path): every regular file in dir but its two checkpoints
 * under s->upload's <machine>/<lab_run_folder()>/ (the run id read from
 * its result.json). A file that had arrived before is found there with
 * the same bytes. 0 when all arrived, else -errno (said).
 */
int lab_send_folder(const struct settings *s, const char *machine,
		    const char *dir, FILE *con);

/* The machine id of this machine, as discovery chooses it. */
void lab_machine_id(char *out, size_t len);

/* This machine into r: its id (when r->machine is empty), r->system. */
void lab_machine_read(struct record *r);

#endif
