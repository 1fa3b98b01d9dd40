/* SPDX-License-Identifier: MIT */
#ifndef KILN_DEADLINE_PRIVATE_H
#define KILN_DEADLINE_PRIVATE_H

/*
 * What deadline.c and deadline_alone.c share: how a child lets go of
 * every descriptor of kiln's. Nobody else includes this file.
 */
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/*
 * Every descriptor but keep closed, in this process only; system calls
 * only, as alone_child() needs.
 */
__attribute__((no_sanitize("address", "thread", "undefined")))
static inline void deadline_close_all_but(int keep)
{
	int fd;

	if (keep > 0)
		syscall(SYS_close_range, 0u, (unsigned)keep - 1, 0u);
	if (syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0)
		return;
	/* Before Linux 5.9: one by one, as far as the table goes. */
	for (fd = keep + 1; fd < 4096; fd++)
		syscall(SYS_close, fd);
}

#endif
