/* SPDX-License-Identifier: MIT */
#ifndef KILN_SECRET_H
#define KILN_SECRET_H

#include <stddef.h>

/*
 * A lab's credentials kept out of everything kiln writes or prints: the
 * console, result.json, kiln settings, kmsg.log (the kernel's command
 * line), the run record's argv, error lines. This is the one place that
 * knows what a secret looks like, and every writer of such text calls it:
 *
 *   - the password of a URL's user part: https://m1:pw@lab/ is said as
 *     https://m1:***@lab/ (the user name stays: it says which credential);
 *   - the value of the key auth-token, however it was given
 *     (auth-token=T, kiln.auth-token=T, --auth-token=T, --auth-token T);
 *   - any value registered with secret_add (the token and passwords in
 *     force), wherever it shows up, such as in a helper's error line.
 */

/* What stands in for a secret. */
#define SECRET_MASK "***"

/*
 * Registers a secret (copied) to be masked wherever it appears. Values
 * shorter than 4 bytes are not registered: "a" would mask every a.
 * 0, or -ENOMEM. Thread-safe.
 */
int secret_add(const char *value);

/* Forgets every registered secret (tests). */
void secret_reset(void);

/*
 * text with every secret masked, into out (len bytes, NUL-ended, cut to
 * fit): out, for use in a printf.
 */
char *secret_mask(const char *text, char *out, size_t len);

/* The same into a new string (for text of any length), NULL: no memory. */
char *secret_masked(const char *text);

/*
 * Whether an argument of a command line is followed by a secret value,
 * as --auth-token is when it has no '=': the next one is masked whole.
 */
int secret_takes_next(const char *arg);

#endif
