/* SPDX-License-Identifier: MIT */
#ifndef KILN_SUBPROC_H
#define KILN_SUBPROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A helper program run beside kiln (smartctl, iperf3), its output read
 * through a pipe that never blocks, so many are read in one loop.
 */

/* Where a helper's stderr goes. */
enum subproc_stderr {
	SUBPROC_STDERR_KEEP,	/* kiln's own stderr */
	SUBPROC_STDERR_PIPE,	/* into the pipe, with stdout */
	SUBPROC_STDERR_NULL,	/* /dev/null: stdout must stay clean JSON */
};

/*
 * Starts path with argv, its stdout (and stderr, as err says) into a
 * pipe: 0 with *pid and *fd (the read end, O_NONBLOCK), or -errno.
 */
int subproc_start(const char *path, char *const argv[], int err, pid_t *pid,
		  int *fd);

/*
 * Starts a load that runs beside the disks (stressapptest), its stdout
 * and stderr into the pipe: below every thread of kiln's in priority
 * (SCHED_IDLE, nice 19), with envp as its whole environment (nothing of
 * kiln's, such as a lab's credentials), no descriptor of kiln's but the
 * pipe (a disk it held open would look in use), in a process group of
 * its own (a ^C at the terminal is kiln's, which then stops it), and
 * killed when the thread that started it ends, so it never outlives
 * kiln. 0 or -errno.
 */
int subproc_start_low(const char *path, char *const argv[],
		      char *const envp[], pid_t *pid, int *fd);

/*
 * Every thread of pid out of SCHED_IDLE (nice 19 stays), before it is
 * told to stop: on a machine whose CPUs are all busy an idle-class
 * thread never runs, not even to die, so a load asked to stop would
 * outlive kiln. The system call: musl's sched_setscheduler() is ENOSYS.
 */
void subproc_wake_to_end(pid_t pid);

/*
 * Reads what is there now into *buf (grown as needed, kept NUL-ended):
 * 1 when more may come, 0 at the end of the output (or no memory).
 */
int subproc_read(int fd, char **buf, size_t *len, size_t *cap);

/* One program of many run side by side by subproc_many(). */
struct subproc_job {
	char *const *argv;	/* argv[0] is the path; NULL: not run */
	int err;		/* enum subproc_stderr */
	char *out;		/* its output, NUL-ended; the caller frees */
	size_t len;
	int done;		/* its output ended */
	int status;		/* its wait status; -1 when not known */
	/*
	 * Still running at the timeout: killed, but a process inside a
	 * hung disk's ioctl cannot die until the disk answers, so it is
	 * never waited for here; subproc_reap() it later.
	 */
	pid_t stuck;
	pid_t pid;		/* private */
	int fd;
	size_t cap;
};

/*
 * Runs the n jobs at once and reads their output until every one has
 * ended or timeout_ms has passed: 0, -ETIMEDOUT when some were still
 * running (their output so far is kept), -ENOENT when none could start.
 */
int subproc_many(struct subproc_job *jobs, int n, unsigned timeout_ms);

/* Waits for a killed child without blocking: 1 gone, 0 not yet. */
int subproc_reap(pid_t pid);

#endif
