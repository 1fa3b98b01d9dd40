/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk's fault and locate LEDs (see leds.h): its SES bay's
 * files first, since the kernel already maps disk to bay there; else
 * ledctl, run beside kiln with a timeout, for SGPIO and VMD.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/subproc.h"
#include "lab/leds.h"

/* ledctl's pattern for an LED, on or off (ledctl(8), IBPI names). */
static const char *pattern(enum enclosure_led led, int on)
{
	if (led == ENCLOSURE_LOCATE)
		return on ? "locate" : "locate_off";
	/* normal: the drive's LEDs as they are when nothing is wrong */
	return on ? "failure" : "normal";
}

/*
 * What ledctl said of itself: its lines that start "ledctl:" (its config
 * notices go to stdout without it), each once, joined; else its exit.
 */
static void ledctl_words(const char *out, int status, char *buf, size_t len)
{
	const char *p = out;
	size_t used = 0;

	buf[0] = 0;
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		char line[200];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		if (strncmp(line, "ledctl:", 7) || strstr(buf, line + 8))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "; " : "", line + 8);
		if (used >= len)
			return;
	}
	if (!buf[0] && status >= 0 && WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (!buf[0])
		snprintf(buf, len, "no answer");
}

void leds_set_many(const struct leds_disk *d, int n, enum enclosure_led led,
		   int on, int *ret, char *why, size_t whylen)
{
	struct subproc_job *jobs = calloc((size_t)n + 1, sizeof(*jobs));
	char (*arg)[300] = calloc((size_t)n + 1, sizeof(*arg));
	char *(*argv)[4] = calloc((size_t)n + 1, sizeof(*argv));
	int i, any = 0;

	for (i = 0; i < n; i++) {
		char *w = why + (size_t)i * whylen;
		const char *ledctl = d[i].ledctl ? d[i].ledctl : LEDS_LEDCTL;
		int r;

		w[0] = 0;
		ret[i] = -ENODEV;
		if (d[i].slot) {
			r = enclosure_led_set(d[i].slot, led, on);
			ret[i] = r ? r : LEDS_SES;
			if (r)
				snprintf(w, whylen, "%s/%s: %s", d[i].slot->dir,
					 led == ENCLOSURE_FAULT ? "fault" :
					 "locate", strerror(-r));
			continue;
		}
		if (!d[i].devnode) {
			snprintf(w, whylen, "in no enclosure bay kiln can see");
			continue;
		}
		if (access(ledctl, X_OK)) {
			snprintf(w, whylen, "in no enclosure bay, and %s is "
				 "not there for SGPIO or VMD", ledctl);
			continue;
		}
		if (!jobs || !arg || !argv) {
			snprintf(w, whylen, "out of memory");
			ret[i] = -ENOMEM;
			continue;
		}
		snprintf(arg[i], sizeof(arg[i]), "%s=%s", pattern(led, on),
			 d[i].devnode);
		argv[i][0] = (char *)ledctl;
		argv[i][1] = arg[i];
		jobs[i].argv = argv[i];
		jobs[i].err = SUBPROC_STDERR_PIPE;
		any = 1;
	}
	if (any && subproc_many(jobs, n, LEDS_LEDCTL_MS) == -ETIMEDOUT) {
		/* Said below, per disk; a stuck one is left to the kernel. */
	}
	for (i = 0; any && i < n; i++) {
		char *w = why + (size_t)i * whylen, line[200];

		if (!jobs[i].argv)
			continue;
		ledctl_words(jobs[i].out, jobs[i].status, line, sizeof(line));
		if (jobs[i].stuck) {
			ret[i] = -ETIMEDOUT;
			snprintf(w, whylen, "ledctl %s: no answer in %d s",
				 arg[i], LEDS_LEDCTL_MS / 1000);
		} else if (jobs[i].status >= 0 && WIFEXITED(jobs[i].status) &&
			   !WEXITSTATUS(jobs[i].status)) {
			ret[i] = LEDS_BY_LEDCTL;
		} else {
			ret[i] = -ENODEV;
			snprintf(w, whylen, "in no enclosure bay, and ledctl "
				 "%s said: %s", arg[i], line);
		}
		free(jobs[i].out);
	}
	free(jobs);
	free(arg);
	free(argv);
}

int leds_set(const struct leds_disk *d, enum enclosure_led led, int on,
	     char *why, size_t len)
{
	int ret;

	leds_set_many(d, 1, led, on, &ret, why, len);
	return ret;
}
