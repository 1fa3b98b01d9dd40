/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_PRIVATE_H
#define KILN_BURN_PRIVATE_H

/*
 * What the parts of one burn share, and only they: burn.c walks them in
 * order (open and check, start, loop, finish); burn_start.c, burn_loop.c
 * and burn_finish.c each hold one of those steps, each calling only the
 * parts below it (burn_signal.c, burn_keep.c, burn_fault.c, then loop,
 * start, finish in that order: make check-layers holds them to it).
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
#include "results/signal.h"

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
	struct signal_burn sig;		/* what their burn hooks are given */
	struct folder res;
	int have_results;
	struct lab *lab;		/* the lab's servers; NULL: none */
	/* set by a signal or a closed console: the run ends (burn_signal.c) */
	volatile sig_atomic_t *stop;
	/* the console: stdout, or stderr under --json */
	FILE *con;
	/* each logged disk's kernel error lines when last said; NULL */
	unsigned *kernel_said;
};

/*
 * burn_signal.c: SIGINT, SIGTERM and SIGHUP end the run from now (SIGPIPE
 * ignored); the flag they set, which struct burn's stop points at.
 */
volatile sig_atomic_t *burn_signals(void);

/*
 * A checkpoint of r is in its folder: from now a third interrupt names
 * kiln finish r->out, and exits 1 if r had failed.
 */
void burn_checkpointed(const struct record *r);

/* From here a signal stops job's workers too (NULL: no more). */
void burn_catch(struct engine_job *job);

/* A closed console (kiln burn ... | head) ends the run like SIGTERM. */
void burn_console_check(struct burn *b);

/*
 * burn_start.c: results folder, plan, the signals before, then the
 * engine.
 */
int burn_start(struct burn *b);

/* burn_loop.c: watches the workers until they end. */
void burn_loop(struct burn *b);
/* A checkpoint of the record in the run folder (and to the lab). */
void burn_loop_checkpoint(struct burn *b);

/* burn_finish.c: SMART after, the judgement, the results: the exit code. */
int burn_finish(struct burn *b);

/*
 * burn_keep.c: one results file written (and sent to the lab): 0, or
 * -EIO, said.
 */
int burn_keep(struct burn *b, const char *name, const void *data, size_t len);

/* burn_end.c: end= checked before any I/O (0, or an exit code). */
int burn_end_check(struct burn *b);
/* Each disk left as end= asks, after the judgement, then judged again. */
void burn_end(struct burn *b);
/* The certificates, into the folder (and to the lab), digests kept. */
void burn_end_certs(struct burn *b);

/*
 * burn_fault.c: telemetry and rma-<serial>.txt of each FAILed disk, into
 * the folder.
 */
void burn_fault_keep(struct burn *b);

#endif
