/* SPDX-License-Identifier: MIT */
/*
 * Description: stressapptest beside the burn (see stress.h): its memory
 * share worked out, the program started below the disks in priority, its
 * output read a line at a time (a bad DIMM can say millions of lines, so
 * none is kept but the facts), and it stopped at the end, never waited
 * for longer than a bound.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/subproc.h"
#include "base/timing.h"
#include "sense/stress.h"
#include "settings/settings.h"

/* Its run time: kiln stops it, so this is only a bound (a year). */
#define STRESS_SECONDS "31536000"

static const char *const end_names[] = { "not started", "running",
					 "stopped", "died" };

const char *stress_end_name(int end)
{
	return end >= 0 && end < STRESS_ENDS ? end_names[end] : NULL;
}

int stress_end_of(const char *name)
{
	int i;

	for (i = 0; name && i < STRESS_ENDS; i++)
		if (!strcmp(name, end_names[i]))
			return i;
	return -1;
}

const char *stress_what_name(int what)
{
	static const char *const names[] = { "off", "memory", "cpu",
					     "memory,cpu" };

	return names[what & 3];
}

uint64_t stress_memory(uint64_t left, uint64_t size, unsigned percent,
		       char *note, size_t len)
{
	uint64_t want, got;

	note[0] = 0;
	/* In two steps: a percentage of 16 EiB must not wrap. */
	want = size ? size : left / 100 * percent + left % 100 * percent / 100;
	got = want < left ? want : left;
	got &= ~((1ull << 20) - 1);
	if (got < STRESS_MIN_MEMORY) {
		snprintf(note, len, "the memory plan leaves %" PRIu64 " MiB, "
			 "less than the %llu MiB a memory stress needs: none",
			 left >> 20, STRESS_MIN_MEMORY >> 20);
		return 0;
	}
	if (got < (want & ~((1ull << 20) - 1)))
		snprintf(note, len, "stress-memory asks for %" PRIu64
			 " MiB and the memory plan leaves %" PRIu64 " MiB: "
			 "the stress takes that", want >> 20, got >> 20);
	return got;
}

void stress_not_started(struct stress *st, int what, const char *fmt, ...)
{
	va_list ap;

	memset(st, 0, sizeof(*st));
	st->fd = -1;
	st->what = what;
	st->end = STRESS_NOT_STARTED;
	snprintf(st->tool, sizeof(st->tool), "%s", STRESS_TOOL);
	va_start(ap, fmt);
	vsnprintf(st->problem, sizeof(st->problem), fmt, ap);
	va_end(ap);
}

/* The program in kiln's PATH, as a shell would find it: 0 or -ENOENT. */
static int find_tool(char *path, size_t len)
{
	const char *p = getenv("PATH");
	size_t n;

	if (!p)
		p = "/usr/sbin:/usr/bin:/sbin:/bin";
	for (; *p; p += n + (p[n] == ':')) {
		n = strcspn(p, ":");
		if (!n)
			continue;
		snprintf(path, len, "%.*s/%s", (int)n, p, STRESS_TOOL);
		if (access(path, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

int stress_start(struct stress *st, int what, uint64_t memory_bytes,
		 unsigned cpus)
{
	char path[4096], mb[24], copy[16], cpu[16], delay[16], pause[16];
	/* Nothing of kiln's environment: a lab's URLs may hold secrets. */
	char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C",
			 NULL };
	char *argv[] = { path, "-s", STRESS_SECONDS, "-M", mb, "-m", copy,
			 "-C", cpu, "--pause_delay", delay, "--pause_duration",
			 pause, NULL };
	int ret;

	stress_not_started(st, what, "%s", "");
	if (!cpus)
		cpus = 1;
	st->copy_threads = what & SETTINGS_STRESS_MEMORY ? cpus : 0;
	st->cpu_threads = what & SETTINGS_STRESS_CPU ? cpus : 0;
	st->memory_bytes = what & SETTINGS_STRESS_MEMORY ? memory_bytes :
			   STRESS_CPU_MEMORY;
	snprintf(mb, sizeof(mb), "%" PRIu64, st->memory_bytes >> 20);
	snprintf(copy, sizeof(copy), "%u", st->copy_threads);
	snprintf(cpu, sizeof(cpu), "%u", st->cpu_threads);
	snprintf(delay, sizeof(delay), "%u", STRESS_PAUSE_DELAY);
	snprintf(pause, sizeof(pause), "%u", STRESS_PAUSE_DURATION);
	if (find_tool(path, sizeof(path))) {
		snprintf(st->problem, sizeof(st->problem), "%s is not in "
			 "PATH: no memory or CPU load beside the disks",
			 STRESS_TOOL);
		return -ENOENT;
	}
	ret = subproc_start_low(path, argv, envp, &st->pid, &st->fd);
	if (ret) {
		snprintf(st->problem, sizeof(st->problem), "%s could not "
			 "start: %s", path, strerror(-ret));
		return ret;
	}
	st->end = STRESS_RUNNING;
	st->start_ns = timing_now_ns();
	return 0;
}

/* The hex number after key in line: 1 and *v, or 0. */
static int hex_after(const char *line, const char *key, uint64_t *v)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return 0;
	p += strlen(key);
	errno = 0;
	*v = strtoull(p, &end, 16);
	return end != p && !errno;
}

/*
 * "Report Error: miscompare : DIMM Unknown : 1 : 0s" counts; "Hardware
 * Error: miscompare on CPU 0(0x1) at 0x7f9a6da0c078(0x645a84:DIMM
 * Unknown): read:0x000000ba00000008, reread:0x000000ba00000008
 * expected:0x0000000800000008" names one (1.0.6's words; later ones
 * say "CPU 0(<-1)"). Both are said for each, but either may be missing
 * (a priority below the log's, a line cut), so the larger count holds.
 */
void stress_parse_line(struct stress *st, const char *line)
{
	const char *p;
	uint64_t a, e, f;

	p = strstr(line, "Report Error: miscompare :");
	if (p) {
		p = strchr(p + 26, ':');
		if (p)
			st->reported += strtoull(p + 1, NULL, 10);
	} else if ((p = strstr(line, "miscompare on ")) &&
		   (p = strstr(p, " at 0x")) && hex_after(p, " at 0x", &a) &&
		   hex_after(p, "read:0x", &f) &&
		   hex_after(p, "expected:0x", &e)) {
		st->detailed++;
		if (st->nkept < STRESS_KEPT)
			st->kept[st->nkept++] = (struct stress_miscompare){
				.address = a, .expected = e, .found = f };
	} else if ((p = strstr(line, "Status: "))) {
		snprintf(st->status, sizeof(st->status), "%s", p);
	}
	st->miscompares = st->reported > st->detailed ? st->reported :
			  st->detailed;
	if (line[strspn(line, " \t\r")])
		snprintf(st->last, sizeof(st->last), "%s", line);
}

/* What came through the pipe, cut into lines. */
static void take(struct stress *st, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n' && st->used < sizeof(st->line) - 1) {
			st->line[st->used++] = buf[i];
			continue;
		}
		/* A line longer than the buffer is cut, the rest dropped. */
		if (buf[i] != '\n')
			continue;
		st->line[st->used] = 0;
		stress_parse_line(st, st->line);
		st->used = 0;
	}
}

/* Reads what is there: 1 while the pipe is open. */
static int drain(struct stress *st)
{
	char buf[4096];
	ssize_t n;

	while (st->fd >= 0) {
		n = read(st->fd, buf, sizeof(buf));
		if (n > 0) {
			take(st, buf, (size_t)n);
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 1;
		close(st->fd);
		st->fd = -1;
		if (st->used)
			take(st, "\n", 1);
	}
	return 0;
}

/* How it died, from its wait status and its last words. */
static void died(struct stress *st, int status)
{
	char how[64];

	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d%s",
			 WTERMSIG(status), WTERMSIG(status) == SIGKILL ?
			 " (the OOM killer?)" : "");
	else
		snprintf(how, sizeof(how), "exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	snprintf(st->problem, sizeof(st->problem), "%s %s %.0f s into the "
		 "burn%s%.120s", st->tool, how, st->seconds,
		 st->last[0] ? "; its last line: " : "", st->last);
}

static void ran(struct stress *st)
{
	st->seconds = (double)(timing_now_ns() - st->start_ns) / 1e9;
}

void stress_poll(struct stress *st)
{
	int status;
	pid_t got;

	if (st->end != STRESS_RUNNING)
		return;
	drain(st);
	do
		got = waitpid(st->pid, &status, WNOHANG);
	while (got < 0 && errno == EINTR);
	ran(st);
	if (got == 0)
		return;
	drain(st);
	st->end = STRESS_DIED;
	st->pid = 0;
	if (got < 0)
		snprintf(st->problem, sizeof(st->problem), "%s is gone: %s",
			 st->tool, strerror(errno));
	else
		died(st, status);
}

void stress_stop(struct stress *st, unsigned wait_s)
{
	uint64_t end;
	int status, killed = 0;
	pid_t got = 0;

	stress_poll(st);
	if (st->end != STRESS_RUNNING)
		goto out;
	ran(st);
	subproc_wake_to_end(st->pid);
	kill(st->pid, SIGTERM);
	end = timing_now_ns() + (uint64_t)wait_s * TIMING_SEC;
	for (;;) {
		drain(st);
		got = waitpid(st->pid, &status, WNOHANG);
		if (got != 0 && !(got < 0 && errno == EINTR))
			break;
		if (timing_now_ns() >= end) {
			if (killed)
				break;
			/* Ten seconds more for the kill; then it is left. */
			subproc_wake_to_end(st->pid);
			kill(st->pid, SIGKILL);
			killed = 1;
			end = timing_now_ns() + 10 * TIMING_SEC;
		}
		usleep(20000);
	}
	st->end = STRESS_STOPPED;
	if (killed) {
		size_t at = strlen(st->note);

		snprintf(st->note + at, sizeof(st->note) - at, "%s%s did not "
			 "end within %u s of being asked: killed",
			 at ? "; " : "", st->tool, wait_s);
	}
	st->pid = 0;
out:
	if (st->fd >= 0) {
		close(st->fd);
		st->fd = -1;
	}
}
