/* SPDX-License-Identifier: MIT */
/*
 * Description: what the engine (engine.c) and its workers (worker*.c)
 * both call, below both so that neither calls back into the other: the
 * names of modes, phases, states and retries; each run of a phase kept
 * under the target's lock, the first, last and worst of them
 * (engine_pass_add); the wake of the one who waits on the job.
 */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/engine_private.h"

static const char *const phase_names[PHASES] = {
	"start", "write", "flush", "verify", "read", "end", "guard"
};

const char *engine_phase_name(int phase)
{
	return phase >= 0 && phase < PHASES ? phase_names[phase] : "unknown";
}

const char *engine_mode_name(int mode)
{
	switch (mode) {
	case ENGINE_WRITE_VERIFY: return "write-verify";
	case ENGINE_WRITE: return "write";
	case ENGINE_VERIFY: return "verify";
	case ENGINE_READ: return "read";
	case ENGINE_NONE: return "none";
	}
	return "unknown";
}

const char *engine_state_name(int state)
{
	switch (state) {
	case STATE_RUNNING: return "running";
	case STATE_DONE: return "done";
	case STATE_STOPPED: return "stopped";
	case STATE_STALLED: return "stalled";
	case STATE_VANISHED: return "vanished";
	case STATE_BROKEN: return "broken";
	case STATE_NOT_STARTED: return "not started";
	}
	return "unknown";
}

const char *engine_retry_name(int retry)
{
	switch (retry) {
	case RETRY_NONE: return "not re-read";
	case RETRY_SAME: return "same on re-read";
	case RETRY_GOOD: return "good on re-read";
	case RETRY_CHANGED: return "different on re-read";
	case RETRY_FAILED: return "error on re-read";
	}
	return "unknown";
}

int engine_pass_worse(const struct engine_pass *a, const struct engine_pass *b)
{
	uint64_t fa = (uint64_t)a->errors + a->bad_units;
	uint64_t fb = (uint64_t)b->errors + b->bad_units;

	if (fa != fb)
		return fa > fb;
	if (a->phase == PHASE_FLUSH)
		return a->ns > b->ns;
	/* a's rate below b's, without dividing by a time of 0. */
	return (double)a->bytes * (double)b->ns <
	       (double)b->bytes * (double)a->ns;
}

/*
 * Runs of a phase numbered past the first ENGINE_PASS_EDGE and before the
 * last ENGINE_PASS_EDGE are its middle: once more than ENGINE_PASS_WORST
 * of them are kept, the best goes. Each new run moves one run into the
 * middle, so one goes at most, and the worst ENGINE_PASS_WORST of all the
 * middle runs are what stays (each was compared as it came in).
 */
static void fold(struct engine_target *et, int phase, uint64_t n)
{
	unsigned i, in = 0, best = 0;

	for (i = 0; i < et->npasses; i++) {
		const struct engine_pass *p = &et->passes[i];

		if (p->phase != phase || p->seq <= ENGINE_PASS_EDGE ||
		    p->seq > n - ENGINE_PASS_EDGE)
			continue;
		if (!in++ || engine_pass_worse(&et->passes[best], p))
			best = i;
	}
	if (in <= ENGINE_PASS_WORST)
		return;
	memmove(&et->passes[best], &et->passes[best + 1],
		(et->npasses - best - 1) * sizeof(*et->passes));
	et->npasses--;
	et->folded++;
}

void engine_pass_add(struct engine_target *et, struct engine_pass *p)
{
	struct engine_pass_total *t;

	if (p->phase < 0 || p->phase >= PHASES)
		return;
	t = &et->totals[p->phase];
	t->passes++;
	t->bytes += p->bytes;
	t->ns += p->ns;
	t->errors += p->errors;
	t->bad_units += p->bad_units;
	p->seq = t->passes;
	/* Bounded by the folding: at most ENGINE_PASSES_KEPT + 1 kept. */
	if (et->npasses == et->passes_cap) {
		unsigned cap = et->passes_cap ? et->passes_cap * 2 : 16;
		struct engine_pass *grown;

		if (cap > ENGINE_PASSES_KEPT + 1)
			cap = ENGINE_PASSES_KEPT + 1;
		grown = cap > et->passes_cap ?
			realloc(et->passes, cap * sizeof(*grown)) : NULL;
		if (grown) {
			et->passes = grown;
			et->passes_cap = cap;
		}
	}
	if (et->npasses < et->passes_cap)
		et->passes[et->npasses++] = *p;
	else
		et->folded++;	/* out of memory: counted, not listed */
	if (t->passes > ENGINE_PASSES_WHOLE)
		fold(et, p->phase, t->passes);
}

void engine_wake(struct engine_job *job)
{
	uint64_t one = 1;

	if (job->wake_fd >= 0 && write(job->wake_fd, &one, sizeof(one)) < 0) {
		/* Full or closed: the waiter wakes on its timeout anyway. */
	}
}
