/* SPDX-License-Identifier: MIT */
/*
 * Description: running a helper program beside kiln and reading its
 * output without blocking (see spawn.h), the one way health.c (smartctl)
 * and netcheck.c (iperf3) do it.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <unistd.h>

#include "subproc.h"

extern char **environ;

int subproc_start(const char *path, char *const argv[], int both, pid_t *pid,
		int *fd)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], ret;

	*fd = -1;
	*pid = 0;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	/* The read side never blocks: many children are read in one loop. */
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (both)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	ret = -posix_spawn(pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		*pid = 0;
		return ret;
	}
	*fd = pipefd[0];
	return 0;
}

int subproc_read(int fd, char **buf, size_t *len, size_t *cap)
{
	ssize_t n;

	if (*len + 4096 + 1 > *cap) {
		size_t grown = *cap ? *cap * 2 : 16384;
		char *p = realloc(*buf, grown);

		if (!p)
			return 0;
		*buf = p;
		*cap = grown;
	}
	n = read(fd, *buf + *len, 4096);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 1;
	if (n <= 0)
		return 0;
	*len += (size_t)n;
	(*buf)[*len] = 0;
	return 1;
}
