/* SPDX-License-Identifier: MIT */
/*
 * Description: TAP for kiln's C unit tests, in the shape of the kernel's
 * kselftest API: a plan, ok / not ok, # SKIP, Bail out!, and an exit code
 * that says whether everything passed. Header-only: each test is one file.
 */
#ifndef KILN_TAP_H
#define KILN_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed, tap_planned;

__attribute__((format(printf, 1, 2), unused))
static void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

__attribute__((unused))
static void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* Whole test skipped: prove counts it as skipped, not passed. */
__attribute__((format(printf, 1, 2), noreturn, unused))
static void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	fputs("1..0 # SKIP ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	exit(0);
}

__attribute__((format(printf, 1, 2), noreturn, unused))
static void tap_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	exit(1);
}

__attribute__((format(printf, 2, 3), unused))
static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2), unused))
static void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/*
 * Whether README.md (tests run from the top of the tree) holds text
 * exactly: tables in README are made by the code, and this holds them to
 * it. -1 when README.md cannot be read.
 */
__attribute__((unused))
static int tap_readme_has(const char *text)
{
	FILE *r = fopen("README.md", "re");
	char *readme;
	long n;
	int found;

	if (!r)
		return -1;
	fseek(r, 0, SEEK_END);
	n = ftell(r);
	rewind(r);
	readme = calloc(1, (size_t)n + 1);
	if (readme && fread(readme, 1, (size_t)n, r) != (size_t)n)
		readme[0] = 0;
	fclose(r);
	found = readme && strstr(readme, text) != NULL;
	free(readme);
	return found;
}

/* Ends the test: prints the plan when none was given up front. */
__attribute__((unused))
static int tap_done(void)
{
	if (!tap_planned)
		printf("1..%d\n", tap_count);
	else if (tap_planned != tap_count)
		tap_diag("planned %d tests, ran %d", tap_planned, tap_count);
	return tap_failed || (tap_planned && tap_planned != tap_count);
}

#endif
