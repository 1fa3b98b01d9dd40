/* SPDX-License-Identifier: MIT */
#ifndef KILN_OUTCOME_H
#define KILN_OUTCOME_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "discover.h"
#include "engine.h"
#include "health.h"
#include "judge.h"
#include "netcheck.h"
#include "monitor.h"
#include "settings.h"
#include "target.h"

/* The schema of result.json; bump on any change a reader would notice. */
#define OUTCOME_SCHEMA 1

struct outcome_target {
	struct target *t;
	struct engine_target *et;
	struct monitor_target *mt;
	struct judge j;
	const char *safety;	/* why kiln may do what it does here */
	const struct health *before, *after;	/* SMART */
};

/* Everything known about a run, for result.json and summary.txt. */
struct outcome {
	const char *command;		/* "burn" */
	int argc;
	char **argv;
	const struct settings *s;
	uint64_t run_id;
	time_t started, ended;
	uint64_t elapsed_ns;
	const char *state;		/* running, complete, interrupted */
	const char *failure;		/* a FAIL before any disk, or NULL */
	struct machine_firmware firmware;
	const struct netcheck *net;	/* iperf3 beside the burn, or NULL */
	int verdict;			/* enum judge_verdict, overall */
	int exit_code;
	int n;
	struct outcome_target *ot;
	char notes[32][240];		/* said at start, kept in the results */
	int nnotes;
};

/* result.json: the whole run as a versioned document. */
char *outcome_json(const struct outcome *o, size_t *len);

/* The per-target table; final adds the verdict column. */
void outcome_table(const struct outcome *o, FILE *f, int final);

/* summary.txt: what a person reads first. */
void outcome_summary(const struct outcome *o, FILE *f);

/* The network line: what iperf3 beside the burn measured. */
void outcome_network(const struct outcome *o, FILE *f);

/* The verdict in letters readable across a room. */
void outcome_banner(const char *word, FILE *f);

#endif
