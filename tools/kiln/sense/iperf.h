/* SPDX-License-Identifier: MIT */
#ifndef KILN_IPERF_H
#define KILN_IPERF_H

#include <stddef.h>
#include <sys/types.h>

/* iperf3, as the image packs it (Debian's iperf3). */
#define IPERF_IPERF3 "/usr/bin/iperf3"

/*
 * The network beside the burn: one iperf3 run against a lab server while
 * the disks are busy, to show the network keeps up when the machine is
 * loaded (the engineers' habit of running iperf beside their dd).
 */
struct iperf {
	pid_t pid;
	int fd;			/* iperf3's output, -1 when done */
	char *out;		/* its JSON */
	size_t len, cap;
	char server[256];
	unsigned seconds;
	int done;
	double sent_mbps, received_mbps;	/* -1 unknown */
	char error[240];
};

/* Starts iperf3 -c HOST[:PORT] for seconds; 0 or -errno (error says why). */
int iperf_start(struct iperf *n, const char *iperf3, const char *spec,
		unsigned seconds);

/* Reads what iperf3 wrote so far (call now and then: pipes fill up). */
void iperf_poll(struct iperf *n);

/* Waits at most wait_s for iperf3 to end, then reads its result. */
void iperf_finish(struct iperf *n, unsigned wait_s);

/* Reads an iperf3 -J document into n (the rates, or the error). */
void iperf_parse(struct iperf *n, const char *json);

void iperf_free(struct iperf *n);

#endif
