/* SPDX-License-Identifier: MIT */
/*
 * Description: the worker's own wait for a CPU (held.h), read from the
 * kernel's schedstat of its thread and published beside its counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/held.h"
#include "engine/worker_private.h"

int held_parse(const char *line, uint64_t *wait_ns)
{
	char *end;
	unsigned long long wait;

	if (!line)
		return -1;
	errno = 0;
	strtoull(line, &end, 10);		/* its time on a CPU */
	if (end == line || *end != ' ' || errno)
		return -1;
	line = end + 1;
	wait = strtoull(line, &end, 10);
	if (end == line || (*end != ' ' && *end != '\n' && *end) || errno)
		return -1;
	*wait_ns = wait;
	return 0;
}

/* The thread's wait so far: 0, or -1 when it cannot be read. */
static int read_wait(uint64_t *wait_ns)
{
	char buf[96];
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return held_parse(buf, wait_ns);
}

void worker_held_open(struct worker *w)
{
	w->held_ok = read_wait(&w->held_base) == 0;
	w->held_look = timing_now_ns();
}

void worker_held_look(struct worker *w, int force)
{
	struct engine_target *et = w->et;
	uint64_t now, wait;

	if (!w->held_ok)
		return;
	now = timing_now_ns();
	if (!force && now - w->held_look < HELD_LOOK_NS)
		return;
	w->held_look = now;
	if (read_wait(&wait) < 0 || wait < w->held_base)
		return;
	/*
	 * Two figures, each whole: a reader between the two stores places
	 * the wait at the look before this one, HELD_LOOK_NS early at most.
	 */
	atomic_store(&et->held_ns, wait - w->held_base);
	atomic_store(&et->held_at, now);
}

void worker_held_close(struct worker *w)
{
	worker_held_look(w, 1);
	w->held_ok = 0;
}
