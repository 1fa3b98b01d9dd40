/* SPDX-License-Identifier: MIT */
/*
 * Description: how a burn is interrupted, and only here: SIGINT, SIGTERM,
 * SIGHUP or a closed console end the run (I/O stops, the results are
 * written); a second interrupt says so, a third ends kiln at once. The
 * other parts read the flag through struct burn's stop, never by name.
 */
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/kiln.h"
#include "cmd/burn_private.h"

/* Set by SIGINT, SIGTERM, SIGHUP or a closed console: the run ends. */
static volatile sig_atomic_t interrupted;
/* A second interrupt came: the next ends kiln at once. */
static volatile sig_atomic_t insisted;
/* The exit of a third interrupt: 1 once a checkpoint judged a FAIL, else 4. */
static volatile sig_atomic_t forced_code = KILN_EXIT_INTERRUPTED;
static struct engine_job *signal_job;
/*
 * What a second and a third interrupt say, made before they can come: a
 * handler may only write(2). Until the first checkpoint there is no
 * record for kiln finish to complete; after it, the texts that name the
 * folder are made whole, then swapped in at once.
 */
static _Atomic(const char *) said_again =
	"kiln: interrupted again: stopping already, the results of what was "
	"done follow (a third interrupt ends kiln at once)\n";
static _Atomic(const char *) said_forced =
	"kiln: interrupted a third time: ended at once, before its results "
	"were written\n";

static void say(const char *text)
{
	ssize_t n = write(STDERR_FILENO, text, strlen(text));

	(void)n;
}

/*
 * Ctrl-C twice is the user impatient, not a request to lose the record:
 * the second says what is going on (I/O is stopping, the results follow)
 * and the run ends as after the first; the third ends kiln at once,
 * naming the folder whose checkpoint kiln finish completes.
 */
static void on_signal(int sig)
{
	(void)sig;
	if (interrupted && insisted) {
		say(atomic_load(&said_forced));
		_exit(forced_code);
	}
	if (interrupted) {
		insisted = 1;
		say(atomic_load(&said_again));
		return;
	}
	interrupted = 1;
	if (signal_job) {
		/* Lock-free: stops the confirming re-read too. */
		atomic_store(&signal_job->stop, 1);
		engine_wake(signal_job);
	}
}

volatile sig_atomic_t *burn_signals(void)
{
	/* Each ends the run the same way: I/O stops, results are written. */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);
	return &interrupted;
}

void burn_catch(struct engine_job *job)
{
	signal_job = job;
}

void burn_checkpointed(const struct record *r)
{
	static char again[PATH_MAX + 200], forced[PATH_MAX + 200];

	if (r->exit_code == KILN_EXIT_FAIL)
		forced_code = KILN_EXIT_FAIL;
	if (again[0] || !r->out)
		return;
	snprintf(again, sizeof(again), "kiln: interrupted again: stopping "
		 "already, the results of what was done follow (a third "
		 "interrupt ends kiln at once; kiln finish %s then completes "
		 "the record)\n", r->out);
	snprintf(forced, sizeof(forced), "kiln: interrupted a third time: "
		 "ended at once; kiln finish %s completes the record from its "
		 "last checkpoint\n", r->out);
	atomic_store(&said_again, again);
	atomic_store(&said_forced, forced);
}


void burn_console_check(struct burn *b)
{
	if (fflush(b->con) == EOF || ferror(b->con)) {
		interrupted = 1;
		clearerr(b->con);
	}
}
