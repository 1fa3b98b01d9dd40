/* SPDX-License-Identifier: MIT */
/*
 * Description: running work that may hang on a dead disk under a deadline
 * (see deadline.h). The threads share one block counted by reference, so
 * the last one out frees it, whether that is the caller or a thread that
 * came back long after the caller stopped waiting.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deadline.h"
#include "timing.h"

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;		/* the threads still out, and the caller */
	int pending;		/* items not yet done */
	int *done;		/* the caller's until it stops waiting */
	int gone;		/* the caller stopped waiting */
};

struct job {
	struct shared *sh;
	void (*fn)(void *item);
	void *item;
	int index;
};

static void drop(struct shared *sh)
{
	int last;

	pthread_mutex_lock(&sh->lock);
	last = --sh->refs == 0;
	pthread_mutex_unlock(&sh->lock);
	if (last) {
		pthread_cond_destroy(&sh->cond);
		pthread_mutex_destroy(&sh->lock);
		free(sh);
	}
}

static void *run(void *arg)
{
	struct job *j = arg;
	struct shared *sh = j->sh;

	j->fn(j->item);
	pthread_mutex_lock(&sh->lock);
	if (!sh->gone)
		sh->done[j->index] = 1;
	sh->pending--;
	pthread_cond_signal(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	free(j);
	drop(sh);
	return NULL;
}

int deadline_each(void (*fn)(void *item), void *items, size_t size, int n,
		  uint64_t timeout_ns, int *done)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	pthread_attr_t attr;
	struct timespec end;
	sigset_t all, old;
	int i, ret = 0;

	memset(done, 0, (size_t)n * sizeof(*done));
	if (!sh)
		return -ENOMEM;
	pthread_mutex_init(&sh->lock, NULL);
	timing_cond_init(&sh->cond);
	sh->refs = 1;
	sh->done = done;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The threads take no signals: the main thread handles them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n; i++) {
		struct job *j = malloc(sizeof(*j));
		pthread_t t;

		if (!j) {
			ret = -ENOMEM;
			break;
		}
		j->sh = sh;
		j->fn = fn;
		j->item = (char *)items + (size_t)i * size;
		j->index = i;
		pthread_mutex_lock(&sh->lock);
		sh->refs++;
		sh->pending++;
		pthread_mutex_unlock(&sh->lock);
		ret = -pthread_create(&t, &attr, run, j);
		if (ret) {
			pthread_mutex_lock(&sh->lock);
			sh->refs--;
			sh->pending--;
			pthread_mutex_unlock(&sh->lock);
			free(j);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)(timeout_ns / TIMING_SEC);
	end.tv_nsec += (long)(timeout_ns % TIMING_SEC);
	if (end.tv_nsec >= (long)TIMING_SEC) {
		end.tv_sec++;
		end.tv_nsec -= (long)TIMING_SEC;
	}
	pthread_mutex_lock(&sh->lock);
	while (sh->pending &&
	       pthread_cond_timedwait(&sh->cond, &sh->lock, &end) != ETIMEDOUT)
		;
	/* From here on a late thread writes nothing of the caller's. */
	sh->gone = 1;
	pthread_mutex_unlock(&sh->lock);
	drop(sh);
	return ret;
}
