/* SPDX-License-Identifier: MIT */
#ifndef KILN_WORKER_H
#define KILN_WORKER_H

/*
 * A worker's thread: arg is its struct engine_target (engine_private.h).
 * It runs the target's plan to its end, or until the job stops it, and
 * wakes the job when it ends.
 */
void *worker_run(void *arg);

#endif
