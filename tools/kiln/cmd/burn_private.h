/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_PRIVATE_H
#define KILN_BURN_PRIVATE_H

/*
 * What the parts of one burn share, and only they: burn.c walks them in
 * order (open and check, start, loop, finish); burn_start.c, burn_loop.c
 * and burn_finish.c each hold one of those steps.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "judge/monitor.h"
#include "judge/record.h"
#include "judge/sampler.h"
#include "discover/safety.h"
#include "results/folder.h"

struct lab;

/* The machinery of one burn; the facts of the run are in the record. */
struct burn {
	struct record *r;
	struct settings *s;
	struct safety_env env;		/* the machine's /sys and /proc */
	struct engine_job job;
	/* disks that burn (not failed before) */
	int ne;
	struct engine_target **ets;	/* ne of them */
	struct record_disk **burning;	/* ...and their disks */
	struct engine_counters *counters;
	const char **labels;
	struct unit_ctx *ctx;
	struct monitor mon;
	struct sampler smp;		/* the machine's own signals */
	struct folder res;
	int have_results;
	struct lab *lab;		/* the lab's servers; NULL: none */
	/* the console: stdout, or stderr under --json */
	FILE *con;
	/* each logged disk's kernel error lines when last said; NULL */
	unsigned *kernel_said;
};

/* Set by SIGINT, SIGTERM, SIGHUP or a closed console: the run ends. */
extern volatile sig_atomic_t burn_interrupted;

/* The exit of a third interrupt: 1 once a checkpoint judged a FAIL, else 4. */
extern volatile sig_atomic_t burn_forced_code;

/*
 * A checkpoint of r is in its folder: from now a third interrupt names
 * kiln finish r->out, and exits 1 if r had failed.
 */
void burn_checkpointed(const struct record *r);

/* From here a signal stops job's workers too, not only the walk. */
void burn_catch(struct engine_job *job);

/* A closed console (kiln burn ... | head) ends the run like SIGTERM. */
void burn_console_check(struct burn *b);

/* burn_start.c: results folder, plan, SMART before, then the engine. */
int burn_start(struct burn *b);
/* SMART before (after 0) or after the run, for the disks that have it. */
void burn_start_health(struct burn *b, int after);

/* burn_loop.c: watches the workers until they end. */
void burn_loop(struct burn *b);
/* A checkpoint of the record in the run folder (and to the lab). */
void burn_loop_checkpoint(struct burn *b);

/* burn_finish.c: SMART after, the judgement, the results: the exit code. */
int burn_finish(struct burn *b);
/* One results file written (and sent to the lab): 0, or -errno, said. */
int burn_finish_keep(struct burn *b, const char *name, const void *data,
		     size_t len);

/* burn_end.c: end= checked before any I/O (0, or an exit code). */
int burn_end_check(struct burn *b);
/* Each disk left as end= asks, after the judgement, then judged again. */
void burn_end(struct burn *b);
/* The certificates, into the folder (and to the lab), digests kept. */
void burn_end_certs(struct burn *b);

/* burn_fault.c: NVMe logs before (after 0) or after the run. */
void burn_fault_logs(struct burn *b, int after);
/* Telemetry and rma-<serial>.txt of each FAILed disk, into the folder. */
void burn_fault_keep(struct burn *b);

#endif
