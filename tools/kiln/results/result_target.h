/* SPDX-License-Identifier: MIT */
#ifndef KILN_RESULT_TARGET_H
#define KILN_RESULT_TARGET_H

#include <stdint.h>

#include "base/jsonread.h"
#include "judge/record.h"

/* The index i whose namer(i) is name, among 0..n-1; -1 when none is. */
int result_target_index(const char *name, const char *(*namer)(int), int n);

/* A phase of a target (its "phases"), as result.json says it. */
struct result_phase {
	uint64_t bytes;
	uint64_t ns;			/* its seconds */
	unsigned whole_seconds;		/* seconds it was sampled */
	double avg_mbps;		/* 0 when not said */
	double min_mbps;		/* -1 when not said */
	double max_mbps;
	/* its slowest and fastest whole second; min -1 when not said */
	double second_min, second_max;
};

/* Target t's phase (enum engine_phase); all 0 (min -1) when not there. */
void result_target_phase(const struct jsonread_node *t, int phase,
			 struct result_phase *out);

/*
 * Target t's passes (as many as it lists: schema 3 folds them), their
 * totals (schema 3's pass_totals, before it summed from the list), its
 * first failed requests and bad units, into s: 0, or -ENOMEM.
 */
int result_target_passes(const struct jsonread_node *t, struct engine_snap *s);

/* Target t's verdict (enum judge_verdict), or -1 when not one kiln writes. */
int result_target_verdict(const struct jsonread_node *t);

#endif
