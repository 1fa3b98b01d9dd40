/* SPDX-License-Identifier: MIT */
#ifndef KILN_SIGNAL_H
#define KILN_SIGNAL_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"
#include "judge/sampler.h"

/*
 * The places of a burn where a signal does its part (its burn hook), in
 * the order a burn reaches them; at each, every signal's hook runs in the
 * table's order (at UNLOAD in the other order: what started last stops
 * first):
 * BEFORE:  what the machine says before any I/O (SMART, the NVMe logs,
 *          the BMC's event log)
 * WATCH:   the sampler of the machine starts, before the disks are read
 * BESIDE:  the workers run: the load beside them starts (iperf3, stress)
 * TICK:    each second of the burn (sb->now)
 * UNLOAD:  the workers ended: the load beside them ends too
 * UNWATCH: after the confirming re-read: the sampler's last word
 * AFTER:   what the machine says after the burn
 */
enum signal_at {
	SIGNAL_BEFORE,
	SIGNAL_WATCH,
	SIGNAL_BESIDE,
	SIGNAL_TICK,
	SIGNAL_UNLOAD,
	SIGNAL_UNWATCH,
	SIGNAL_AFTER,
};

struct ocptv_out;

/*
 * A gauge of the lab's metrics (lab/metrics_text.c) a signal has for each
 * disk: its family's name and HELP, and a disk's value, 1 with *v set, 0
 * when the disk has none now (no sample is said for it); said with that
 * many decimals.
 */
struct signal_gauge {
	const char *name;
	const char *help;
	int decimals;
	int (*value)(const struct record_disk *d, double *v);
};

/*
 * A column of kiln fleet's a signal gives (fleet.csv, the fleet's index,
 * the machine's line of fleet.html, its certificate): a string member of
 * one of the signal's objects at the top of result.json. A column with a
 * certificate row is also in each disk's erase certificate (cert.c), by
 * its name and that row, its value read from the record.
 */
struct signal_column {
	const char *name;	/* fleet.csv's column, the index's key */
	const char *object;	/* result.json's object: "bmc" */
	const char *member;	/* its member: "address" */
	const char *lead;	/* before it on fleet.html's line: "BMC " */
	const char *cert;	/* its row of the certificate; NULL: none */
	/* with cert: the record's value ("" or NULL: not known) */
	const char *(*value)(const struct record *r);
};

/* What a signal's burn hook is given (the burn fills it: cmd/burn*.c). */
struct signal_burn {
	struct record *r;
	FILE *con;			/* the console */
	const char *sysroot;		/* the machine's /sys */
	const char *sysfs;		/* that, or the settings' sysfs-root */
	uint64_t start_ns;		/* the workers' start, from BESIDE */
	uint64_t now;			/* TICK: this second */
	struct sampler *smp;		/* the machine's sampler */
	volatile sig_atomic_t *stop;	/* the run is being ended */
};

/*
 * A signal of the machine (SMART, the peers, the vitals, the BMC, stress,
 * the network ports, the link error counters, an NVMe drive's logs ...)
 * as the results see it: one signal_ops each, filled in the signal's own
 * file (results/NAME_out.c) and named once in signals.c's table.
 * result.json's writer, restore, summary.txt and report.html loop over
 * the table and call the hooks a signal has, and so do a burn at each
 * of its places (signals_burn) and the judging (signals_judge, whose
 * record_judge() calls each signal's rules through its judge hook);
 * none of them names a signal
 * (scripts/check-signals.py holds them to it). A hook left NULL is a part
 * the signal has nothing to say in. Each hook runs at one place of its
 * output, said beside it; the table's order is the order every output
 * says the signals in at each place.
 */
struct signal_ops {
	const char *name;
	/* its part of a burn, at each place (enum signal_at) */
	void (*burn)(struct signal_burn *sb, enum signal_at at);
	/*
	 * its rules, at each place of the judging (enum judge_at, record.h):
	 * reasons of d->j at a disk's places, of the machine or the run's
	 * figures at the run's (d NULL); final: the run is over
	 */
	void (*judge)(struct record *r, struct record_disk *d, int final,
		      enum judge_at at);
	/* result.json: in the "machine" object; at the top; in a target */
	void (*json_machine)(struct json *j, const struct record *r);
	void (*json)(struct json *j, const struct record *r);
	void (*json_disk)(struct json *j, const struct record *r,
			  const struct record_disk *d);
	/*
	 * result.json read back into a record (restore.c): 0 or -ENOMEM;
	 * read after every target is read, so a signal's read finds the
	 * disks and what the signals before it in the table read; a
	 * target's part, 0 or -ENOMEM too (a part it could not keep is a
	 * restore that failed, not a disk judged without it)
	 */
	int (*read)(const struct jsonread_node *doc, struct record *r);
	int (*read_disk)(const struct jsonread_node *t,
			 struct record_disk *d);
	/*
	 * summary.txt, each at its place in the run's lines: under its
	 * notes; after its FAIL line, where its trouble was placed (blame,
	 * the dips all disks shared); after its verdict's, before the table
	 * of disks (the machine's own: sensors, memory, the kernel log);
	 * after the table, before the disks' sections (the controllers, the
	 * groups of like disks)
	 */
	void (*summary)(const struct record *r, FILE *f);
	void (*summary_trouble)(const struct record *r, FILE *f);
	void (*summary_machine)(const struct record *r, FILE *f);
	void (*summary_tail)(const struct record *r, FILE *f);
	/*
	 * summary.txt, each at its place in a disk's section: after its work
	 * line, before its reasons (its link); after its burn's (zones,
	 * request times, the re-read), before its RMA line (its
	 * temperatures, self-test); after that, before its errors
	 */
	void (*summary_disk_head)(const struct record *r,
				  const struct record_disk *d, FILE *f);
	void (*summary_disk_early)(const struct record *r,
				   const struct record_disk *d, FILE *f);
	void (*summary_disk)(const struct record *r,
			     const struct record_disk *d, FILE *f);
	/*
	 * report.html: whether the signal has anything for the machine's
	 * section (which is left out when none has), and its part there.
	 */
	int (*html_shown)(const struct record *r);
	void (*html)(FILE *f, const struct record *r);
	/*
	 * report.html: a section of its own after the inventory tree
	 * (SMART's), disks in the order given (report_order())
	 */
	void (*html_section)(FILE *f, const struct record *r,
			     const int *order);
	/* report.html: plots after the zones' (the temperatures over time) */
	void (*html_plot)(FILE *f, const struct record *r, const int *order);
	/* report.html: beside a disk in the inventory tree */
	void (*html_disk)(FILE *f, const struct record *r,
			  const struct record_disk *d);
	/* report.html: in a disk's own section, before its reasons */
	void (*html_disk_section)(FILE *f, const struct record *r,
				  const struct record_disk *d);
	/*
	 * what it says on controller k's line (r->links.ctrls[k]) in
	 * summary.txt and report.html, in buf: its text, or NULL or ""
	 * when nothing
	 */
	const char *(*ctrl)(const struct record *r, int k, char *buf,
			    size_t len);
	/*
	 * The OCP Test & Validation output (ocptv_step.c): a disk's
	 * measurements in its step, after the engine's, once the run has
	 * ended (step and hw are the step's and the disk's ids, t the time)
	 */
	void (*ocp_disk)(struct ocptv_out *o, const struct record_disk *d,
			 const char *step, const char *hw, double t);
	/*
	 * The lab's metrics (lab/metrics_text.c): the signal's gauges of a
	 * disk, after the engine's, ended by one with no name; NULL: none
	 */
	const struct signal_gauge *gauges;
	/* kiln fleet's columns of it, ended by one with no name; NULL: none */
	const struct signal_column *columns;
};

/* The table, NULL-ended, in the order the outputs say the signals. */
extern const struct signal_ops *const signals[];

/* The signal of that name in the table (for its tests), or NULL. */
const struct signal_ops *signal_find(const char *name);

/*
 * The fleet's columns of every signal, in the table's order: the first
 * max of them in cols; how many there are.
 */
int signals_columns(const struct signal_column **cols, int max);

/*
 * What the signals say on controller k's line, in the table's order:
 * said(arg, text) for each that says something.
 */
void signals_ctrl(const struct record *r, int k,
		  void (*said)(void *arg, const char *text), void *arg);

/* Every signal's burn hook at one place of the burn (see enum signal_at). */
void signals_burn(struct signal_burn *sb, enum signal_at at);

/*
 * record_judge() with every signal's rules, each at its places: how a
 * run's record is judged, by the burn, kiln finish and their tests.
 */
void signals_judge(struct record *r, int final, int interrupted);

/* Loops over the table, a hook at a time: for (SIGNAL_EACH(s)) ... */
#define SIGNAL_EACH(s) const struct signal_ops *const *s = signals; *s; s++

#endif
