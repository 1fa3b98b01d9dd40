/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART health through smartctl. kiln reads the few counters
 * a burn-in must watch (sectors reallocated, pending, uncorrectable; link
 * CRC errors; NVMe media errors and critical warnings; SCSI grown
 * defects) before and after the run; judge.c decides what a change means.
 * smartctl's text is kept whole in the results for a person to read.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "health.h"

extern char **environ;

/* "1,234" -> 1234; -1 when no number starts there. */
static long long number(const char *p)
{
	long long v = 0;
	int any = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p; p++) {
		if (*p == ',')
			continue;
		if (*p < '0' || *p > '9')
			break;
		v = v * 10 + (*p - '0');
		any = 1;
	}
	return any ? v : -1;
}

static const char *after(const char *line, const char *label)
{
	size_t n = strlen(label);

	return strncmp(line, label, n) ? NULL : line + n;
}

void health_parse(const char *text, struct health *h)
{
	const char *line = text, *v;

	h->passed = -1;
	h->realloc = h->pending = h->uncorrectable = h->crc_errors = -1;
	h->media_errors = h->critical_warning = h->grown_defects = -1;
	while (line && *line) {
		const char *next = strchr(line, '\n');
		char buf[512];
		size_t n = next ? (size_t)(next - line) : strlen(line);
		int id, at = 0;
		long long raw;

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = 0;
		line = next ? next + 1 : NULL;

		if (strstr(buf, "self-assessment test result: PASSED") ||
		    !strcmp(buf, "SMART Health Status: OK"))
			h->passed = 1;
		else if (strstr(buf, "self-assessment test result: FAILED") ||
			 (!strncmp(buf, "SMART Health Status:", 20) &&
			  strcmp(buf, "SMART Health Status: OK")))
			h->passed = 0;
		else if ((v = after(buf, "Critical Warning:")))
			h->critical_warning = strtoll(v, NULL, 16);
		else if ((v = after(buf, "Media and Data Integrity Errors:")))
			h->media_errors = number(v);
		else if ((v = after(buf, "Elements in grown defect list:")))
			h->grown_defects = number(v);
		/* ID# NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW */
		else if (sscanf(buf, "%d %*s 0x%*x %*d %*d %*s %*s %*s %*s %n",
				&id, &at) == 1 && at > 0 &&
			 (raw = number(buf + at)) >= 0) {
			switch (id) {
			case 5: h->realloc = raw; break;
			case 197: h->pending = raw; break;
			case 198: h->uncorrectable = raw; break;
			case 199: h->crc_errors = raw; break;
			}
		}
	}
}

int health_read(const char *smartctl, const char *dev, unsigned timeout_s,
		struct health *h)
{
	char *argv[] = { (char *)smartctl, "-H", "-A", (char *)dev, NULL };
	posix_spawn_file_actions_t fa;
	struct timespec t0, now;
	size_t cap = 0;
	int pipefd[2], status, ret = 0;
	pid_t pid;

	memset(h, 0, sizeof(*h));
	health_parse("", h);
	if (access(smartctl, X_OK) < 0)
		return -errno;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	ret = -posix_spawn(&pid, smartctl, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= (time_t)timeout_s) {
			/* A disk that hangs SMART commands must not hang kiln. */
			kill(pid, SIGKILL);
			ret = -ETIMEDOUT;
			break;
		}
		if (poll(&p, 1, 1000) <= 0)
			continue;
		if (h->len + 4096 + 1 > cap) {
			char *grown = realloc(h->text, cap ? cap * 2 : 16384);

			if (!grown) {
				kill(pid, SIGKILL);
				ret = -ENOMEM;
				break;
			}
			h->text = grown;
			cap = cap ? cap * 2 : 16384;
		}
		n = read(pipefd[0], h->text + h->len, 4096);
		if (n <= 0)
			break;
		h->len += (size_t)n;
	}
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (h->text) {
		h->text[h->len] = 0;
		health_parse(h->text, h);
	}
	/* smartctl's exit status is a bit mask of findings: the text says more. */
	h->ran = !ret && h->len > 0;
	return ret;
}

void health_free(struct health *h)
{
	free(h->text);
	h->text = NULL;
	h->len = 0;
}
