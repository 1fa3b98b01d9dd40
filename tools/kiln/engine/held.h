/* SPDX-License-Identifier: MIT */
#ifndef KILN_HELD_H
#define KILN_HELD_H

#include <stdint.h>

/*
 * The host's hold on a worker: how long the kernel kept the worker's
 * thread runnable but waiting for a CPU. A busy host (stressapptest
 * beside the burn, a build on a lab machine) can keep one disk's worker
 * off the CPU for seconds while the others run: that disk is asked for
 * nothing then, and its seconds dip alone, so the dip is no machine's
 * (dips.h needs most disks) and would be blamed on the disk. The kernel
 * says the wait in /proc/thread-self/schedstat ("CONFIG_SCHED_INFO":
 * time on the CPU, time waiting for one, timeslices, in ns), and adds a
 * wait only when the thread runs again: a worker held for three seconds
 * shows them after the fact, and the monitor gives them back to the
 * seconds they took (monitor_held()).
 */

/*
 * How often a worker reads its figure: ten times a second at most, each
 * an open, a read and a close (no descriptor is held: a run of 1,024
 * targets has none to spare under an image's hard limit of 4,096).
 */
#define HELD_LOOK_NS 100000000ull

/*
 * The wait for a CPU in a schedstat line ("RUN WAIT SLICES\n", the
 * second figure) into *wait_ns: 0, or -1 when the line is not one.
 */
int held_parse(const char *line, uint64_t *wait_ns);

#endif
