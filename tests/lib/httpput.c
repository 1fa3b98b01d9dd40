/* SPDX-License-Identifier: MIT */
/*
 * Description: drives kiln's HTTP client and uploader from shell tests
 * (tests/host/upload.t), built with the host objects under the sanitizers.
 *
 *   httpput [-t MS] [-m METHOD] [-T TYPE] [-b] URL [FILE]
 *	one request: METHOD (PUT) of FILE (or no body) to URL. Prints
 *	"status N: what was said" ("status 0: connection refused"), and
 *	the kept start of the answer's body with -b. Exit 0 on a 2xx.
 *
 *   httpput -u [-t MS] [-w MS] [-f MS] URL MACHINE RUN NAME=FILE|NAME@FILE...
 *	the uploader: queues each FILE as NAME (NAME=FILE copies its bytes
 *	now, NAME@FILE sends the file as it is when its turn comes), then
 *	loops as a burn would, printing the uploader's lines, until nothing
 *	waits or -w MS (10000) pass; then flushes for -f MS (5000), stops,
 *	and prints "lost NAME: why" for what never arrived. Exit 0 when all
 *	arrived.
 *
 * -C CA trusts the PEM file CA for https:// (the ca= setting).
 *
 * Bad usage or a bad URL: exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/http.h"
#include "base/timing.h"
#include "lab/upload.h"

static void usage(void)
{
	fputs("usage: httpput [-C CA] [-t MS] [-m METHOD] [-T TYPE] [-b] URL "
	      "[FILE]\n"
	      "       httpput -u [-t MS] [-w MS] [-f MS] URL MACHINE RUN "
	      "NAME=FILE|NAME@FILE...\n", stderr);
	exit(2);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (*len == cap) {
			char *p = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!p)
				break;
			buf = p;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf ? buf : malloc(1);
}

static void print_line(const char *line, void *arg)
{
	(void)arg;
	printf("%s\n", line);
	fflush(stdout);
}

static int uploader(const struct http_url *url, unsigned timeout,
		    unsigned wait_ms, unsigned flush_ms, int argc, char **argv)
{
	uint64_t until = timing_now_ns() + wait_ms * 1000000ull;
	char err[256], line[512], name[256], why[256];
	struct upload *up;
	int i, ret, lost;

	if (argc < 2)
		usage();
	if (upload_start(&up, url, argv[0], argv[1], timeout, err,
			 sizeof(err))) {
		printf("httpput: %s\n", err);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		char *sep = strpbrk(argv[i], "=@");

		if (!sep)
			usage();
		if (*sep == '@') {
			*sep = 0;
			ret = upload_put_file(up, argv[i], sep + 1);
		} else {
			size_t len;
			char *data = slurp(sep + 1, &len);

			*sep = 0;
			if (!data) {
				printf("httpput: cannot read %s\n", sep + 1);
				return 2;
			}
			ret = upload_put_data(up, argv[i], data, len);
			free(data);
		}
		if (ret)
			printf("httpput: %s not queued: %s\n", argv[i],
			       strerror(-ret));
	}
	/* As the burn's main loop: look every so often, never wait. */
	while (upload_pending(up) && timing_now_ns() < until) {
		while (upload_said(up, line, sizeof(line)))
			print_line(line, NULL);
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
	while (upload_said(up, line, sizeof(line)))
		print_line(line, NULL);
	ret = upload_flush(up, flush_ms, print_line, NULL);
	upload_stop(up);
	while (upload_said(up, line, sizeof(line)))
		print_line(line, NULL);
	for (lost = 0; !upload_lost(up, lost, name, sizeof(name), why,
				    sizeof(why)); lost++)
		printf("lost %s: %s\n", name, why);
	printf("flush: %s, %d lost\n", ret ? strerror(-ret) : "done", lost);
	upload_free(up);
	return lost ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned timeout = 10000, wait_ms = 10000, flush_ms = 5000;
	const char *method = "PUT", *type = NULL, *ca = NULL;
	struct http_result res;
	struct http_url url;
	int c, body = 0, upl = 0, ret;
	char err[256];

	while ((c = getopt(argc, argv, "t:m:T:bw:f:uC:")) != -1) {
		switch (c) {
		case 'C':
			ca = optarg;
			break;
		case 't':
			timeout = (unsigned)atoi(optarg);
			break;
		case 'm':
			method = optarg;
			break;
		case 'T':
			type = optarg;
			break;
		case 'b':
			body = 1;
			break;
		case 'w':
			wait_ms = (unsigned)atoi(optarg);
			break;
		case 'f':
			flush_ms = (unsigned)atoi(optarg);
			break;
		case 'u':
			upl = 1;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	if (http_url_parse(argv[optind], &url, err, sizeof(err))) {
		printf("bad URL: %s\n", err);
		return 2;
	}
	if (ca)
		snprintf(url.ca, sizeof(url.ca), "%s", ca);
	if (upl)
		return uploader(&url, timeout, wait_ms, flush_ms,
				argc - optind - 1, argv + optind + 1);
	{
		struct http_request rq = {
			.method = method, .type = type, .timeout_ms = timeout,
			.file = optind + 1 < argc ? argv[optind + 1] : NULL,
		};

		ret = http_request(&url, &rq, &res);
	}
	printf("status %d: %s\n", res.status, ret ? res.error : "ok");
	if (body && res.body_len)
		fwrite(res.body, 1, res.body_len, stdout);
	return ret ? 1 : 0;
}
