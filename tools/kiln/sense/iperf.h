/* SPDX-License-Identifier: MIT */
#ifndef KILN_IPERF_H
#define KILN_IPERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* iperf3, as the image packs it (Debian's iperf3). */
#define IPERF_IPERF3 "/usr/bin/iperf3"
/* A run that ended early is started again this long after. */
#define IPERF_RESTART_S 10
/* Seconds an interval figure covers (iperf3 -i). */
#define IPERF_INTERVAL_S 10

/*
 * One port's iperf3 for the whole burn: iperf3 -c HOST -p PORT -t 0
 * --bind-dev NIC -J, started again IPERF_RESTART_S after it ends early,
 * stopped (SIGTERM: it then writes its JSON) when the burn ends. Its
 * figures are those of every run together: the bits its intervals moved,
 * the seconds they cover, the slowest whole interval.
 */
struct iperf {
	char iperf3[64];		/* the program */
	char nic[32], host[256];
	unsigned port;
	pid_t pid;			/* the run going on, 0 none */
	int fd;				/* its output, -1 none */
	char *out;			/* its JSON so far */
	size_t len, cap;
	uint64_t first_ns, ended_ns;	/* the first start, the last end */
	uint64_t stop_ns;		/* when it was stopped, 0 not yet */
	unsigned runs;			/* started, the first included */
	double seconds, bits;		/* over every run's intervals */
	double min_bps;			/* slowest whole interval, -1 */
	double best_seconds;		/* of the run whose JSON is kept */
	char *kept;			/* that JSON (owned) */
	size_t kept_len;
	char error[240];		/* the last run's error, "" none */
};

/* One run's figures, as iperf_parse() reads them from its JSON. */
struct iperf_figures {
	double seconds, bits, min_bps;	/* min_bps -1: none whole */
	int reached;			/* a stream connected to the server */
	char error[240];		/* iperf3's own, or ours; "" none */
};

/* Reads one iperf3 -J document (len bytes) into f. */
void iperf_parse(struct iperf_figures *f, const char *json, size_t len);

/*
 * Readies n for NIC to HOST:PORT and starts its first run at now_ns:
 * 0 or -errno (error says why; iperf_tick() tries again later).
 */
int iperf_start(struct iperf *n, const char *iperf3, const char *nic,
		const char *host, unsigned port, uint64_t now_ns);

/*
 * Reads what the run wrote (call now and then: pipes fill up); a run that
 * ended is folded in, and a new one started IPERF_RESTART_S after.
 */
void iperf_tick(struct iperf *n, uint64_t now_ns);

/* Stops the run (SIGTERM; SIGKILL after wait_s) and folds it in. */
void iperf_stop(struct iperf *n, uint64_t now_ns, unsigned wait_s);

/* The seconds from the first start to the stop (or now_ns). */
double iperf_window(const struct iperf *n, uint64_t now_ns);

/* The mean rate over the seconds run, bits/s; -1 when none ran. */
double iperf_mean_bps(const struct iperf *n);

void iperf_free(struct iperf *n);

#endif
