/* SPDX-License-Identifier: MIT */
#ifndef KILN_COMPLAIN_H
#define KILN_COMPLAIN_H

#include <stddef.h>

/*
 * kiln's one way to say something went wrong, as one line: "kiln: cannot
 * open /dev/sdb: Device or resource busy". complain() writes to stderr;
 * complain_out() to stdout, which the init copies to every console.
 */
__attribute__((format(printf, 1, 2)))
void complain(const char *fmt, ...);

__attribute__((format(printf, 1, 2)))
void complain_out(const char *fmt, ...);

/*
 * The line, unheaded, into a caller's buffer for it to say, when it gave
 * one (err may be NULL): how a function that returns -errno says why.
 */
__attribute__((format(printf, 3, 4)))
void complain_to(char *err, size_t len, const char *fmt, ...);

#endif
