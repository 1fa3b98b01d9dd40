/* SPDX-License-Identifier: MIT */
/*
 * Description: drives kiln's metrics pusher from tests/host/metrics.t,
 * built with the host objects under the sanitizers, on a run made by hand
 * as burn.c would hold it: sda (a serial and model with a quote, a
 * backslash and a newline) and sdb.
 *
 *   metricspush [-t MS] [-n N] URL MACHINE running
 *	N (1) updates of the run going, sda at 38 C, sdb's temperature
 *	unknown; then waits up to -t MS (5000) until each was pushed,
 *	replaced by a newer one, or failed.
 *
 *   metricspush [-t MS] [-n N] URL MACHINE complete|interrupted
 *	N (0) updates of the run going, then the last push of the run over
 *	(sdb found 3 bad units: FAIL), no temperature known, given -t MS.
 *
 * Prints each line the pusher said, "updates: N, the slowest X ms",
 * "stats: P pushed, F failed, D replaced", and "finish: ok" or why not
 * with "finish took N ms" (metrics_finish's own time: a test holds it
 * to -t, not the process's, which a loaded machine's start-up adds to).
 * Exit 0 when the last push arrived, 1 when not, 2 on bad usage or URL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/metrics.h"
#include "judge/record.h"
#include "base/timing.h"
#include "results/signal.h"

static void usage(void)
{
	fputs("usage: metricspush [-t MS] [-n N] URL MACHINE "
	      "running|complete|interrupted\n", stderr);
	exit(2);
}

static void print_said(struct metrics *m)
{
	char line[512];

	while (metrics_said(m, line, sizeof(line)))
		printf("%s\n", line);
	fflush(stdout);
}

static void make_run(struct record *r, struct settings *s,
		     struct engine_counters *c, struct monitor_target *mt)
{
	static const char *const labels[2] = { "sda", "sdb" };
	int i;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "run", 0, NULL, s);
	r->run_id = 0xc0ffee;
	r->elapsed_ns = 42000000000ull;
	for (i = 0; i < 2; i++) {
		struct record_disk *d = record_add(r, labels[i],
						   SETTINGS_WRITE_VERIFY);

		if (!d) {
			fputs("metricspush: out of memory\n", stderr);
			exit(2);
		}
		snprintf(d->label, sizeof(d->label), "%s", labels[i]);
		snprintf(d->t.id.serial, sizeof(d->t.id.serial),
			 i ? "SN-B" : "SN \"A\" \\1");
		snprintf(d->t.id.model, sizeof(d->t.id.model),
			 i ? "KILN DISK" : "KILN\nDISK");
		snprintf(d->t.id.identity, sizeof(d->t.id.identity),
			 "serial:%s", i ? "SN-B" : "SN-A");
		c[i].state = STATE_RUNNING;
		c[i].phase = PHASE_WRITE;
		c[i].pass = 1;
		c[i].bytes_written = (i + 1) * 1000000000ull;
		mt[i].rate = 150.5 + i;
	}
	for (i = 0; i < 2; i++)
		r->disks[i].mt = &mt[i];
	/* What the vitals' sampler folds in: sda's temperature, not sdb's. */
	r->disks[0].sig.temp_last = 38;
	signals_judge(r, 0, 0);
}

int main(int argc, char **argv)
{
	unsigned timeout = 5000, updates = 0, i;
	struct engine_counters c[2] = { { 0 }, { 0 } };
	struct monitor_target mt[2] = { { 0 }, { 0 } };
	uint64_t slowest = 0, t0;
	struct metrics_stats st;
	struct settings s;
	struct record r;
	struct metrics *m;
	const char *state;
	struct http_url url;
	char err[256];
	int opt, ret, n_set = 0;

	while ((opt = getopt(argc, argv, "t:n:")) != -1) {
		switch (opt) {
		case 't':
			timeout = (unsigned)atoi(optarg);
			break;
		case 'n':
			updates = (unsigned)atoi(optarg);
			n_set = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 3)
		usage();
	state = argv[optind + 2];
	if (strcmp(state, "running") && strcmp(state, "complete") &&
	    strcmp(state, "interrupted"))
		usage();
	if (!n_set && !strcmp(state, "running"))
		updates = 1;
	if (http_url_parse(argv[optind], &url, err, sizeof(err)) ||
	    metrics_start(&m, &url, argv[optind + 1], err, sizeof(err))) {
		printf("bad URL: %s\n", err);
		return 2;
	}
	make_run(&r, &s, c, mt);

	for (i = 0; i < updates; i++) {
		uint64_t t = timing_now_ns();

		c[0].bytes_written += 1000000;
		ret = metrics_update(m, &r, c);
		t = timing_now_ns() - t;
		if (t > slowest)
			slowest = t;
		if (ret)
			printf("update: %s\n", strerror(-ret));
	}
	printf("updates: %u, the slowest %.1f ms\n", updates,
	       (double)slowest / 1e6);
	if (!strcmp(state, "running")) {
		uint64_t until = timing_now_ns() + timeout * 1000000ull;

		/* As the burn's main loop: look now and then, never wait. */
		do {
			nanosleep(&(struct timespec){ .tv_nsec = 50000000 },
				  NULL);
			print_said(m);
			metrics_stats(m, &st);
		} while (st.pushes + st.failures + st.dropped < updates &&
			 timing_now_ns() < until);
		ret = st.pushes && !st.last_error[0] ? 0 : -EIO;
	} else {
		r.disks[1].snap.c.bad_units = 3;
		c[1].bad_units = 3;
		c[0].state = c[1].state = STATE_DONE;
		c[0].phase = c[1].phase = PHASE_END;
		snprintf(r.disks[1].j.reasons[0],
			 sizeof(r.disks[1].j.reasons[0]), "3 bad units");
		r.disks[1].j.nreasons = 1;
		r.disks[1].j.verdict = JUDGE_FAIL;
		r.verdict = JUDGE_FAIL;
		r.state = record_state_of(state);
		r.disks[0].sig.temp_last = VITALS_NONE;
		t0 = timing_now_ns();
		ret = metrics_finish(m, &r, c, timeout);
		t0 = timing_now_ns() - t0;
		print_said(m);
		printf("finish: %s\n", ret ? strerror(-ret) : "ok");
		printf("finish took %llu ms\n",
		       (unsigned long long)(t0 / 1000000));
	}
	metrics_stats(m, &st);
	printf("stats: %u pushed, %u failed, %u replaced%s%s\n", st.pushes,
	       st.failures, st.dropped, st.last_error[0] ? "; last: " : "",
	       st.last_error);
	metrics_free(m);
	for (i = 0; i < 2; i++)
		r.disks[i].mt = NULL;
	record_free(&r);
	settings_free(&s);
	return ret ? 1 : 0;
}
