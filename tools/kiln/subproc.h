/* SPDX-License-Identifier: MIT */
#ifndef KILN_SUBPROC_H
#define KILN_SUBPROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A helper program run beside kiln (smartctl, iperf3), its output read
 * through a pipe that never blocks, so many are read in one loop.
 */

/*
 * Starts path with argv, its stdout (and stderr too, with both) into a
 * pipe: 0 with *pid and *fd (the read end, O_NONBLOCK), or -errno.
 */
int subproc_start(const char *path, char *const argv[], int both, pid_t *pid,
		int *fd);

/*
 * Reads what is there now into *buf (grown as needed, kept NUL-ended):
 * 1 when more may come, 0 at the end of the output (or no memory).
 */
int subproc_read(int fd, char **buf, size_t *len, size_t *cap);

#endif
