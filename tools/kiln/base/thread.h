/* SPDX-License-Identifier: MIT */
#ifndef KILN_THREAD_H
#define KILN_THREAD_H

#include <pthread.h>

/*
 * Starts fn(arg) on a thread of its own, joinable, with a small stack
 * (kiln's helper threads hold a request or two, never a buffer of data),
 * every signal blocked in it: signals are the main thread's, the one that
 * must wake for them. 0 or -errno.
 */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
