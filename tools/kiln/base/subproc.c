/* SPDX-License-Identifier: MIT */
/*
 * Description: running helper programs beside kiln and reading their
 * output without blocking (see subproc.h), the one way health.c and the
 * sampler (smartctl) and iperf.c (iperf3) do it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/subproc.h"
#include "base/timing.h"

extern char **environ;

int subproc_start(const char *path, char *const argv[], int err, pid_t *pid,
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
	if (err == SUBPROC_STDERR_PIPE)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	else if (err == SUBPROC_STDERR_NULL)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
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

/*
 * The child's side of subproc_start_low(), between vfork() and exec:
 * system calls only, since it runs on the parent's memory.
 */
static void low_child(const char *path, char *const argv[],
		      char *const envp[], int out, pid_t parent)
{
	struct sched_param sp = { 0 };
	int i;

	/* Killed with the thread that started it; it may be gone already. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* A ^C at kiln's terminal is kiln's to handle: kiln ends the load. */
	setpgid(0, 0);
	/* The system call: musl's sched_setscheduler() is ENOSYS. */
	syscall(SYS_sched_setscheduler, 0, SCHED_IDLE, &sp);
	setpriority(PRIO_PROCESS, 0, 19);
	if (dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3u, ~0u, 0u) < 0)
#endif
		for (i = 3; i < 65536; i++)
			close(i);
	execve(path, argv, envp);
	_exit(127);
}

int subproc_start_low(const char *path, char *const argv[],
		      char *const envp[], pid_t *pid, int *fd)
{
	pid_t parent = getpid(), child;
	int pipefd[2], saved;

	*fd = -1;
	*pid = 0;
	/* What exec would say, said here: the child can only exit 127. */
	if (access(path, X_OK) < 0)
		return -errno;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	/* vfork: the pinned buffers are neither copied nor marked COW. */
	child = vfork();
	if (child == 0)
		low_child(path, argv, envp, pipefd[1], parent);
	saved = errno;
	close(pipefd[1]);
	if (child < 0) {
		close(pipefd[0]);
		return -saved;
	}
	*pid = child;
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

int subproc_reap(pid_t pid)
{
	pid_t got;

	do
		got = waitpid(pid, NULL, WNOHANG);
	while (got < 0 && errno == EINTR);
	return got != 0;
}

/*
 * Ends one job: its pipe closed, and the child waited for. A child whose
 * output ended is about to exit: it gets a second before it is killed.
 */
static void job_end(struct subproc_job *j, int kill_now)
{
	int tries;

	close(j->fd);
	j->fd = -1;
	for (tries = 0; tries < 110; tries++) {
		pid_t got;

		if (tries == (kill_now ? 0 : 100))
			kill(j->pid, SIGKILL);
		got = waitpid(j->pid, &j->status, WNOHANG);
		if (got == j->pid)
			return;
		if (got < 0 && errno != EINTR)
			break;
		usleep(10000);
	}
	j->status = -1;
	j->stuck = j->pid;
}

int subproc_many(struct subproc_job *jobs, int n, unsigned timeout_ms)
{
	struct pollfd *p = calloc((size_t)n + 1, sizeof(*p));
	uint64_t end = timing_now_ns() + (uint64_t)timeout_ms * 1000000;
	int i, k, running = 0, started = 0, ret = 0;

	for (i = 0; i < n; i++) {
		jobs[i].fd = -1;
		jobs[i].pid = 0;
		jobs[i].done = 0;
		jobs[i].status = -1;
		jobs[i].stuck = 0;
		if (!jobs[i].argv || !p ||
		    subproc_start(jobs[i].argv[0], jobs[i].argv, jobs[i].err,
				  &jobs[i].pid, &jobs[i].fd))
			continue;
		running++;
		started++;
	}
	while (running) {
		uint64_t now = timing_now_ns();
		int wait_ms;

		if (now >= end) {
			ret = -ETIMEDOUT;
			break;
		}
		wait_ms = (int)((end - now) / 1000000) + 1;
		for (i = 0, k = 0; i < n; i++)
			if (jobs[i].fd >= 0)
				p[k++] = (struct pollfd){ .fd = jobs[i].fd,
							  .events = POLLIN };
		if (poll(p, (nfds_t)k, wait_ms > 1000 ? 1000 : wait_ms) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			struct subproc_job *j = &jobs[i];

			if (j->fd < 0)
				continue;
			if (subproc_read(j->fd, &j->out, &j->len, &j->cap))
				continue;
			j->done = 1;
			job_end(j, 0);
			running--;
		}
	}
	/* A disk that hangs its helper must not hang kiln. */
	for (i = 0; i < n; i++)
		if (jobs[i].fd >= 0)
			job_end(&jobs[i], 1);
	free(p);
	if (!started && n)
		return -ENOENT;
	return ret;
}

void subproc_wake_to_end(pid_t pid)
{
	struct sched_param sp = { 0 };
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		syscall(SYS_sched_setscheduler, pid, SCHED_OTHER, &sp);
		return;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			syscall(SYS_sched_setscheduler, atoi(e->d_name),
				SCHED_OTHER, &sp);
	closedir(d);
}
