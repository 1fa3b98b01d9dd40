/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's helper threads (see thread.h), started the one way:
 * signals blocked, a small stack.
 */
#include <pthread.h>
#include <signal.h>

#include "base/thread.h"

#define THREAD_STACK (256 << 10)

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int ret;

	/* A thread takes the signal mask of the one that starts it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	ret = -pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}
