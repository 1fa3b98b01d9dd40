/* SPDX-License-Identifier: MIT */
#ifndef KILN_DEADLINE_H
#define KILN_DEADLINE_H

#include <stdint.h>

/*
 * Work that can block on a dead disk (opening it, reading it to class it)
 * run under the burn's deadline: each item in a thread of its own, all at
 * once, and the caller waits at most timeout_ns for them all. One disk
 * that does not answer can then be failed as stalled while the others go
 * on: kiln never hangs on one disk.
 *
 * done[i] is 1 for each item whose fn returned in time. An item whose fn
 * did not is still in use by its thread, which is left to run: the caller
 * must leave that item (and what it points to) alone, never freeing it.
 * Returns 0, or -errno when the threads could not be started (then none
 * ran and done[] is all 0).
 */
int deadline_each(void (*fn)(void *item), void *items, size_t size, int n,
		  uint64_t timeout_ns, int *done);

#endif
