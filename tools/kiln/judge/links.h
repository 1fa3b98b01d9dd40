/* SPDX-License-Identifier: MIT */
#ifndef KILN_LINKS_H
#define KILN_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "discover/pci.h"

/*
 * The limits above the disks: each disk's own link (SATA, SAS, or an NVMe
 * drive's PCIe link) and each controller's PCIe link, and what the burn
 * moved through each controller, so the results can say whether the
 * drives, the controller (or an expander behind it) or the PCIe link held
 * the rate down. Read before the burn from sysfs (discover_tree), sampled
 * during it, told afterwards.
 */
struct links_disk {
	char firmware[64];
	char transport[16];	/* sata, sas, nvme, virtio, ... */
	char kind[8];		/* "sata", "sas", "pcie", or "": unknown */
	char rate[48];		/* "6.0 Gbps", "12.0 Gbit", "PCIe 3.0 x4" */
	double mbps;		/* MB/s the link carries; 0: unknown */
	int ctrl;		/* index in struct links' ctrls; -1: none */
	/*
	 * Its write and read rates, MB/s (figures_dir_rate(), set by
	 * links_fastest()); while the burn runs, its busiest
	 * LINKS_WINDOW_S seconds.
	 */
	double write_mbps, read_mbps;
	uint64_t win_w, win_r;		/* sampling: bytes in the window */
};

/* A controller with disks of the run behind it. */
struct links_ctrl {
	struct pci_controller pci;
	int ndisks;			/* disks of the run behind it */
	/*
	 * Its total each way, MB/s: the sum of its disks' rates
	 * (figures_ctrl_rate(), set by links_fastest()); while the burn
	 * runs, its busiest LINKS_WINDOW_S seconds.
	 */
	double write_mbps, read_mbps;
	double solo_sum;		/* its disks alone, MB/s; 0: not all */
	/* Its fastest disk's best phase, one way, MB/s (links_fastest()) */
	double fastest_mbps;
	/* Sampling: bytes in the window and since the last status line. */
	uint64_t win_w, win_r, live;
	int windows;			/* whole windows seen */
};

struct links {
	struct links_ctrl *ctrls;
	int n;
	/* Sampling: each disk's counters at the last sample (links_read). */
	uint64_t *last;
	int nlast;
	uint64_t last_ns, win_ns, status_ns;
	int windows;			/* whole windows seen */
};

/*
 * A link that carried more than this share of its figure is no limit:
 * an emulated device's (QEMU's NVMe says PCIe 1.0 x1, 250 MB/s, and
 * moves more) or a figure misread.
 */
#define LINKS_PAST 1.05

/* The aggregate a controller is credited with is its best this long. */
#define LINKS_WINDOW_S 10

struct record;

/*
 * Fills each disk's link and controller of the record from sysfs under
 * sysroot (disks not found there, loop devices and files, have none).
 * 0 or -ENOMEM.
 */
int links_read(struct record *r, const char *sysroot);

/*
 * Each controller's fastest_mbps, from its disks' phase rates: a disk
 * that moved more one way than its controller's PCIe link is said to
 * carry shows that figure is no limit, whatever the totals. And the
 * figures every output says of the links: each disk's write and read
 * rate and each controller's totals, the sums of its disks'.
 */
void links_fastest(struct record *r);

/* A controller of the record for c: its index, or -ENOMEM. */
int links_add_ctrl(struct links *l, const struct pci_controller *c);

void links_free(struct links *l);

/*
 * The sampling of the concurrent burn: links_start() once the engine has
 * started at t0, links_sample() with each sample of the n burning disks'
 * counters (disks[i] is the record disk of c[i]).
 */
struct record_disk;
void links_start(struct links *l, uint64_t t0);
void links_sample(struct links *l, struct record_disk *const *disks,
		  const struct engine_counters *c, int n, uint64_t now);

/*
 * The live line under the status line: each controller's MB/s since the
 * last one and its share of its PCIe link, in at most two lines of 80
 * columns (joined by '\n'); "" when no disk sits behind a controller.
 */
void links_status(struct links *l, uint64_t now, char *out, size_t len);

/*
 * The same line of a controller's total as the status line says its
 * disks: each controller's MB/s the sum of its disks' mbps[i] (disks[i]
 * the record disk of the i-th of n), so it is never below one of them.
 */
void links_status_of(struct links *l, struct record_disk *const *disks,
		     const double *mbps, int n, uint64_t now, char *out,
		     size_t len);

/* MB/s a SATA or SAS link carries at "6.0 Gbps" or "12.0 Gbit"; 0. */
double links_rate_mbps(const char *rate);

/*
 * A PCIe link for people: "PCIe 3.0 x8", or below its maximum "PCIe 3.0
 * x4 of x8" ("PCIe 2.0 x8 of 3.0 x8"); "" when sysfs does not say.
 */
char *links_pcie_text(const struct pci_controller *c, char *buf, size_t len);

/* 3.1 GB/s or 890 MB/s. */
char *links_fmt_rate(double mbps, char *buf, size_t len);

/*
 * What held a controller's rate down, in plain words: the PCIe link (its
 * aggregate at LINKS_LIMIT_SHARE of it or more), the controller or an
 * expander (well under what its disks did alone, and under the link), or
 * the drives; "" when nothing can be said.
 */
char *links_verdict(const struct links_ctrl *c, char *buf, size_t len);

#endif
