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
static int tap_nnamed;		/* tests named on the command line */
static char **tap_named;

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
	if (tap_nnamed)
		return;		/* some tests only: the count is theirs */
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

/* A whole file, NUL-terminated, the caller's to free; NULL when unread. */
__attribute__((unused))
static char *tap_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[n] = 0;
			if (len)
				*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

/* The same for a file the test cannot do without: bails when unread. */
__attribute__((unused))
static char *tap_slurp(const char *path, size_t *len)
{
	char *buf = tap_read_file(path, len);

	if (!buf)
		tap_bail("cannot read %s", path);
	return buf;
}

/* Writes text to the file named by fmt; bails when it cannot. */
__attribute__((format(printf, 2, 3), unused))
static void tap_put(const char *text, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		tap_bail("cannot write %s", path);
}

/* Writes len bytes of data to dir/name (a torn file, too): 0 or -1. */
__attribute__((unused))
static int tap_write(const char *dir, const char *name, const void *data,
		     size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* Runs the shell command fmt makes; bails when it fails. */
__attribute__((format(printf, 1, 2), unused))
static void tap_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		tap_bail("failed: %s", cmd);
}

/*
 * The part of a man page (docs/kiln.1, tests run from the top of the
 * tree) between its lines `.\" BEGIN kiln --man PART ...` and `.\" END
 * kiln --man PART`: what kiln's tables make (scripts/manual.sh splices
 * it), which tests hold to the code. Allocated; NULL when the page cannot
 * be read or has no such part.
 */
__attribute__((unused))
static char *tap_man_part(const char *page, const char *part)
{
	char *text = tap_read_file(page, NULL), *from, *to, *out = NULL;
	char begin[96], end[96];

	if (!text)
		return NULL;
	snprintf(begin, sizeof(begin), ".\\\" BEGIN kiln --man %s ", part);
	snprintf(end, sizeof(end), "\n.\\\" END kiln --man %s\n", part);
	from = strstr(text, begin);
	if (from)
		from = strchr(from, '\n');
	to = from ? strstr(from, end) : NULL;
	if (to) {
		out = strndup(from + 1, (size_t)(to - from));
		if (!out)
			tap_bail("out of memory");
	}
	free(text);
	return out;
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

/*
 * Tests run by name: `out/tests/guard test_torn` runs test_torn alone
 * (the "test_" may be left off), `--list` names them all, and no
 * argument runs every one. main() starts with tap_args(argc, argv) and
 * runs each test as TAP_RUN(test_x).
 */
__attribute__((unused))
static void tap_args(int argc, char **argv)
{
	tap_nnamed = argc > 1 ? argc - 1 : 0;
	tap_named = argv + 1;
}

__attribute__((unused))
static int tap_wanted(const char *name)
{
	int i;

	if (tap_nnamed == 1 && strcmp(tap_named[0], "--list") == 0) {
		printf("%s\n", name);
		return 0;
	}
	if (!tap_nnamed)
		return 1;
	for (i = 0; i < tap_nnamed; i++)
		if (strcmp(tap_named[i], name) == 0 ||
		    (strncmp(name, "test_", 5) == 0 &&
		     strcmp(tap_named[i], name + 5) == 0))
			return 1;
	return 0;
}

#define TAP_RUN(fn) do {						\
		if (tap_wanted(#fn)) {					\
			tap_diag("%s", #fn);				\
			fn();						\
		}							\
	} while (0)

#endif
