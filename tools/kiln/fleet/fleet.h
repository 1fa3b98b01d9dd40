/* SPDX-License-Identifier: MIT */
#ifndef KILN_FLEET_H
#define KILN_FLEET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/stat.h>

#include "judge/record.h"
#include "results/signal.h"

/*
 * kiln fleet: every run folder under results trees (a lab server's upload
 * root, sticks copied off) read into one list of machines, each with its
 * runs newest first, then one page (fleet.html) and one CSV (fleet.csv)
 * of them (cmd/fleet.c is the command). fleet.c walks the trees,
 * fleet_read.c reads one run folder, fleet_like.c compares like disks
 * across machines, fleet_page.c (its like disks: fleet_page_like.c) and
 * fleet_csv.c write what people read.
 */

/*
 * What a run folder says of its run: finished ones first. The run's own
 * states (enum record_state), then those only a folder read shows.
 */
enum fleet_state {
	FLEET_COMPLETE = RECORD_COMPLETE,
	FLEET_VERIFIED = RECORD_VERIFIED,
	FLEET_PENDING = RECORD_PENDING,
	FLEET_INTERRUPTED = RECORD_INTERRUPTED,
	FLEET_RUNNING = RECORD_RUNNING,	/* a fresh checkpoint */
	FLEET_CUT_OFF = RECORD_STATES,	/* and no fresh checkpoint */
	FLEET_PARTIAL,		/* neither result.json nor a checkpoint */
	FLEET_UNREADABLE,	/* there, and it cannot be read */
	FLEET_STATES,
};

/* A disk as its run's document tells it. Strings are bytes, as written. */
struct fleet_disk {
	char *label;
	char *model;
	char *serial;
	char *wwn;		/* schema 1 called it "wwid" */
	char *identity;
	uint64_t size;
	int file;		/* a file, not a block device */
	uint64_t passes;	/* passes made whole (figures_passes) */
	uint64_t written, read;	/* bytes */
	char verdict[8];	/* PASS, WARN, FAIL; "" not judged */
	char *reasons;		/* a WARN's or a FAIL's, "; " between */
	double write_mbps;	/* the write phase's average; 0: none */
	double read_mbps;	/* the verify's, else the read's; 0: none */
	/* end=: how it was left, in words, its certificate's SHA-256 */
	char *end_state, *end_result, *cert_sha;
	/* against the median of like disks (fleet_like): 0 not compared */
	double write_like, read_like;	/* a fraction: 0.61 is 61% */
};

/*
 * The signals' columns a run holds (signal.h's columns, the BMC's
 * address and MAC); a unit test holds the table to it.
 */
#define FLEET_COLUMNS 4

struct fleet_run {
	/* its machine id, else (older runs) the machine's folder name */
	char *machine;
	/* the machine for people, "" when not said (result.json "system") */
	char *vendor, *product, *mac, *address;
	char *asset_tag, *chassis_serial;	/* where it is; NULL: not said */
	/* the signals' columns (signals_columns(): its BMC's LAN) */
	char *cols[FLEET_COLUMNS];	/* NULL: not said */
	int has_report, has_summary;	/* report.html, summary.txt there */
	int has_certs;		/* cert-machine.html there */
	/* end=: the method ("" keep), DMI's serial, the machine's cert */
	char *end_method, *machine_serial, *cert_machine_sha;
	char *dir;		/* the run folder, as found under its root */
	char *name;		/* the run folder's own name */
	int state;		/* enum fleet_state */
	/* the run's; while running or cut off, the worst disk's so far */
	char verdict[8];
	char *problem;		/* why it is unreadable, or what was read */
	char started[32];	/* as the run wrote it */
	time_t start;		/* 0: not known */
	int clock_trusted;
	double elapsed;		/* seconds into the run */
	char *kiln_version;
	char run_id[20];
	char *failure;		/* a FAIL of the run itself ("2 missing") */
	char *pending_of;	/* the power-cut folder it verified */
	int results_lost;	/* the run could not write all its results */
	time_t changed;		/* when the folder last changed (mtime) */
	uint64_t checkpoint;	/* the checkpoint read; 0: result.json */
	time_t checkpoint_at;	/* when that checkpoint came (mtime) */
	int n;
	struct fleet_disk *disks;
	/*
	 * Cut down to its line behind its machine's latest run (fleet_keep.c):
	 * its disks are the failing ones, by label and verdict only.
	 */
	int cut;
};

struct fleet_machine {
	const char *id;
	int n;
	struct fleet_run **runs;	/* the latest first */
};

/* Of the refused token claims, the page shows this many, the last. */
#define FLEET_REFUSED_SHOWN 20

struct fleet {
	time_t now;
	uint64_t stale;		/* seconds: an older checkpoint is cut off */
	int per_page;		/* machines a page of fleet.html (page=) */
	int nruns, cap;
	struct fleet_run *runs;	/* every run folder read */
	/* while reading: each machine id's latest run so far, index + 1 */
	int *keep;
	size_t keep_cap, keep_n;
	int n;
	struct fleet_machine *machines;	/* failures first */
	int nroots;
	char **roots;		/* as given */
	const char *out;	/* where fleet.html goes: links are from it */
	/* the lab server's refused token claims (refused=): lines */
	const char *refused_path;	/* NULL: none given */
	int refused_err;		/* errno reading it; 0: read */
	int nrefused;			/* its lines */
	char *refused_last[FLEET_REFUSED_SHOWN];	/* the last, oldest first */
	int nshown;
};

/* A like-disk group's member: a disk of a machine's latest run. */
struct fleet_like_disk {
	const struct fleet_machine *m;
	struct fleet_disk *d;
	/* d->model, one pointer for each model: compared as a pointer */
	const char *model;
	int rank;	/* m's place among the machines by id */
};

/* Disks of one model and capacity, across the latest runs. */
struct fleet_like_group {
	const char *model;	/* "" for disks that name none */
	int file;		/* files (no model), not block devices */
	uint64_t size;
	int n;			/* disks */
	int machines;
	double write_median, read_median;	/* MB/s; 0: fewer than 3 */
	int nslow;		/* below FLEET_LIKE_SLOW of a median */
	struct fleet_like_disk *disks;	/* nslow slow ones first, slowest first */
};

/* A disk under this fraction of its like disks' median is named. */
#define FLEET_LIKE_SLOW 0.85
/* Fewer disks than this make no median worth comparing against. */
#define FLEET_LIKE_MIN 3

/* fleet.c */
/*
 * Every run folder under fl->roots read into fl->runs, and grouped into
 * fl->machines (failures first): 0, or -ENOMEM. What cannot be read is
 * said in its run, never an error.
 */
int fleet_gather(struct fleet *fl);

/*
 * The lab server's refused token claims, from the file at path (one a
 * line): counted, the last FLEET_REFUSED_SHOWN kept for the page; a file
 * that cannot be read is said on the page (refused_err).
 */
void fleet_read_refused(struct fleet *fl, const char *path);
void fleet_free(struct fleet *fl);
/* Whether path is a folder (following links), as a ROOT must be. */
int fleet_is_dir(const char *path);
const char *fleet_state_name(int state);
/* When a run happened: its start if its clock was trusted, else mtime. */
time_t fleet_when(const struct fleet_run *r);
/* The order of machines' rows: 0 (failures) first. */
int fleet_rank(const struct fleet_run *r);
/* How fleet_text() writes: */
enum fleet_text_how {
	FLEET_PLAIN,
	FLEET_HTML,		/* & < > " ' as entities */
	FLEET_CSV,		/* inside an RFC 4180 quoted field: "" */
};
/*
 * s for people, whatever bytes it holds: printable UTF-8 as it is, other
 * bytes (controls, bytes that are not UTF-8) as \xNN and a backslash as
 * \\, so every name reads unambiguously on one line.
 */
void fleet_text(FILE *f, const char *s, int how);
/* A disk for people: its label, and (model serial) or (identity). */
void fleet_disk_name(FILE *f, const struct fleet_disk *d, int how);
/* 3h02m, 41s: a duration for people. */
char *fleet_age(double seconds, char *buf, size_t len);

/* fleet_keep.c */
/* Whether x is later than y, as the runs of one machine are ordered. */
int fleet_later(const struct fleet_run *x, const struct fleet_run *y);
/*
 * fl->runs[i], just read: whichever of it and its machine's latest run
 * so far is the earlier is cut down to its line. 0, or -ENOMEM.
 */
int fleet_keep_add(struct fleet *fl, int i);
/* The reading done: the latest runs' table freed (indexes move next). */
void fleet_keep_done(struct fleet *fl);
/* A run that was cut down read again whole: 0, or -ENOMEM. */
int fleet_keep_whole(struct fleet *fl, struct fleet_run *r);

/* fleet_read.c */
/*
 * Reads the run folder dir into r: 0, or -ENOMEM. Whatever cannot be read
 * is said in r (state unreadable or partial, and why), never an error.
 */
int fleet_read_run(const char *dir, const char *machine, const char *name,
		   time_t now, uint64_t stale, struct fleet_run *r);
void fleet_read_free(struct fleet_run *r);
struct jsonread_node;
/*
 * A kiln-result document (result.json, or a checkpoint's "result") into
 * r: 0, -EBADMSG with why, or -ENOMEM.
 */
int fleet_read_doc(const struct jsonread_node *root, struct fleet_run *r,
		   char *why, size_t len);
/*
 * A string member as the bytes kiln's writer was given; "" when missing,
 * NULL (and *oom set) on no memory.
 */
char *fleet_member(const struct jsonread_node *n, const char *key, int *oom);

/* fleet_index.c: the run's index, what the page reads of result.json */
#define FLEET_INDEX "index.json"
/*
 * The index of the result.json text doc[0..len), NUL-terminated; NULL
 * when doc cannot be read (why says it) or on no memory.
 */
char *fleet_index_json(const char *doc, size_t len, size_t *out,
		       char *why, size_t whylen);
/*
 * dir's index written again from its result.json (kiln finish, a
 * verified run): 0, or -errno with why.
 */
int fleet_index_redo(const char *dir, char *why, size_t whylen);
/*
 * dir's index removed before result.json is written again, so a crash
 * in between leaves none rather than one of the older record: 0, -errno.
 */
int fleet_index_drop(const char *dir);
/*
 * The run told by dir's index into r (its machine, dir and name set):
 * 0; -ENOENT none, or not of the result.json st; -EBADMSG one this
 * kiln cannot read; -ENOMEM. Else r is half filled: reset it.
 */
int fleet_index_read(const char *dir, const struct stat *st,
		     struct fleet_run *r);
/* The memory fleet_index_read holds from one call to the next, freed. */
void fleet_index_release(void);
/* And fleet_read_run's, of the runs it read whole. */
void fleet_read_release(void);

/* fleet_like.c */
/*
 * Groups the disks of every machine's latest run by model and capacity,
 * and sets each disk's rates against its group's medians: 0, or -ENOMEM.
 */
int fleet_like_groups(struct fleet *fl, struct fleet_like_group **groups,
		      int *n);
void fleet_like_free(struct fleet_like_group *groups, int n);
/* Whether d is under FLEET_LIKE_SLOW of its like disks' median. */
int fleet_like_slow(const struct fleet_disk *d);
/*
 * What fleet.csv and fleet.html say after such a disk's name, in
 * docs/results.md's words: ": write 61%, verify 58% of like disks".
 */
void fleet_like_below(FILE *f, const struct fleet_disk *d);

/*
 * fleet_page.c: the machines' pages, fl->per_page machines each (all on
 * one when per_page is 0): page 0 is fleet.html (the summary, the
 * failures first, the like disks), page k is fleet-<k+1>.html, each with
 * links to every page. How many pages, and page's name into out (32).
 */
int fleet_pages(const struct fleet *fl);
void fleet_page_name(int page, char *out, size_t len);

/* Page page of fleet_pages(), NUL-terminated; NULL on no memory. */
char *fleet_page_html(const struct fleet *fl,
		      const struct fleet_like_group *groups, int ngroups,
		      int page, size_t *len);

/* fleet_page_like.c: the page's like disks, each group a row. */
void fleet_page_like(FILE *f, const struct fleet_like_group *groups, int n);

/*
 * fleet_certs.c: fleet-certificates.html, a batch of certificates: each
 * machine whose latest run left its disks (end=) on a printed page of its
 * own; NULL on no memory. *any is 0 when no machine has one.
 */
char *fleet_certs_html(const struct fleet *fl, size_t *len, int *any);

/* fleet_csv.c: fleet.csv, one line per machine's latest run. */
char *fleet_csv_text(const struct fleet *fl, size_t *len);

#endif
