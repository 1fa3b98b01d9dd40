/* SPDX-License-Identifier: MIT */
#ifndef KILN_FIGURES_H
#define KILN_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "engine/engine.h"

/*
 * The run's figures, each with one definition and one function, which
 * every output calls (docs/design.md, "One figure, one value"): the
 * console, the status line, the per-disk table, summary.txt, report.html,
 * result.json, the OCP output, the metrics, the fleet page and fleet.csv.
 * An output that says a figure computes it here, never on its own.
 */

/* The two directions a rate goes, said with it. */
enum figures_dir { FIGURES_WRITE, FIGURES_READ, FIGURES_DIRS };

/* "write", "read". */
const char *figures_dir_name(int dir);

/*
 * A phase's rate, MB/s (10^6 bytes a second): its bytes over the time
 * the disk was busy with them, every run of the phase; 0 when it did not
 * run.
 */
double figures_rate(const struct engine_snap *s, int phase);

/*
 * A direction's rate, MB/s: write is the write phase; read the verify
 * and read phases together, their bytes over their busy time.
 */
double figures_dir_rate(const struct engine_snap *s, int dir);

/*
 * The direction a disk moved fastest in, and that rate (what it "ran
 * at", and what its share of a link is of): -1 and 0 when it moved
 * nothing.
 */
int figures_top_rate(const struct engine_snap *s, double *mbps);

/*
 * A phase's slowest and fastest pass, MB/s, each its bytes over its busy
 * time (the runs kept: engine.h). 1 when two or more runs moved bytes,
 * else 0 (no spread to say). The phase's rate lies between them, so
 * min <= figures_rate() <= max always.
 */
int figures_pass_range(const struct engine_snap *s, int phase, double *min,
		       double *max);

/*
 * The passes a disk made whole in mode (enum engine_mode): the runs of
 * its last phase (the write, verify or read that ends a pass), one cut
 * short not counted.
 */
uint64_t figures_passes(const struct engine_snap *s, int mode);

/*
 * Passes said for several disks: "5 passes", or "101-107 passes" when
 * they differ. A count is of passes each disk made, never a sum.
 */
char *figures_passes_text(uint64_t lo, uint64_t hi, char *buf, size_t len);

/*
 * The first bad unit: the lowest byte of the first pass that found any,
 * however many were listed. 0 when none (look at bad_units first).
 */
uint64_t figures_first_bad(const struct engine_snap *s);

struct record;

/*
 * A controller's rate in a direction, MB/s: the sum of its disks' rates
 * in that direction (figures_dir_rate()), so it is never below any one
 * of them.
 */
double figures_ctrl_rate(const struct record *r, int ctrl, int dir);

/* The run's duration in whole seconds, from the command's start. */
uint64_t figures_duration_s(const struct record *r);

/*
 * When the run ended, as said beside its start: the start and the
 * duration, so the two times are as far apart as the duration says
 * whatever the clock did (a lab's boot may set it mid-run), and a run
 * finished later from a checkpoint ends where that checkpoint saw it.
 */
time_t figures_ended(const struct record *r);

#endif
