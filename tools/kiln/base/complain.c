/* SPDX-License-Identifier: MIT */
/*
 * Description: one line that says what went wrong, headed "kiln: " (see
 * complain.h). Functions return -errno; the commands say it, with this.
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/complain.h"

static void line(FILE *f, const char *fmt, va_list ap)
{
	fputs("kiln: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void complain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(stderr, fmt, ap);
	va_end(ap);
}

void complain_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(stdout, fmt, ap);
	va_end(ap);
}

void complain_to(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}
