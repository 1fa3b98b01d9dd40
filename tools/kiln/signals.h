/* SPDX-License-Identifier: MIT */
#ifndef KILN_SIGNALS_H
#define KILN_SIGNALS_H

#include <limits.h>
#include <stdint.h>

#include "judge.h"
#include "kmsg.h"
#include "kmsgwatch.h"
#include "sensors.h"
#include "smartjson.h"

/*
 * The machine's own signals as a run saw them (DESIGN.md "Judging"): for
 * each disk its temperature over the run, its SMART and NVMe counters at
 * the start and the end, the kernel log's trouble lines that name it, the
 * PCI functions on its path and its self-test; for the machine its memory
 * errors (EDAC), the PCIe AER counters of every function, its hwmon
 * temperatures and the drives hidden behind RAID controllers. Facts only:
 * they live in the record (record.h), sampler.c gathers them, each sample
 * is added with signals_fold(), and the judging below is a function of
 * them alone, so a run restored from its result.json is judged the same.
 */

#define SIGNALS_NONE INT_MIN	/* a figure not known */
#define SIGNALS_POINTS 2000	/* a drive's temperature series, at most */
#define SIGNALS_KEPT 3		/* kernel log lines kept a disk */
#define SIGNALS_LINE 160	/* ...each cut to this */

/* Where a drive's temperature limit came from. */
enum signals_limit {
	SIGNALS_LIMIT_NONE,
	SIGNALS_LIMIT_SETTING,		/* temp-warn */
	SIGNALS_LIMIT_DRIVE,		/* the drive's own */
	SIGNALS_LIMIT_HDD,		/* the default for spinning disks */
	SIGNALS_LIMIT_SSD,		/* ...and for solid-state ones */
};

/* A self-test's outcome. */
enum signals_selftest {
	SIGNALS_ST_NONE,		/* not asked for, or not run */
	SIGNALS_ST_PASSED,
	SIGNALS_ST_FAILED,
	SIGNALS_ST_UNSUPPORTED,
	SIGNALS_ST_TIMEOUT,		/* still running at kiln's bound */
	SIGNALS_ST_ABORTED,		/* by the drive, or the run stopped */
	SIGNALS_ST_UNKNOWN,		/* ran, and nothing says how it ended */
	SIGNALS_ST_KINDS
};

/* SMART and NVMe counters, as smartjson.h reads them. */
struct signals_counters {
	int have;			/* read at all */
	int passed;			/* 1, 0, -1 not said */
	long long realloc, pending, uncorrectable, crc_errors;
	long long media_errors, critical_warning, grown_defects, error_log;
	long long scsi_uncorrected;
};

struct signals_point {
	uint32_t t;			/* seconds into the run */
	int16_t c;			/* the hottest it covers, degrees C */
};

struct signals_disk {
	int sampled;			/* samples smartctl or hwmon answered */
	char protocol[8];		/* ATA, NVMe, SCSI, as smartctl says */
	char error[160];		/* why the last sample said nothing */
	int rotational;			/* 1, 0, -1 not known */
	/* Degrees C, SIGNALS_NONE when not known. */
	int temp_first, temp_max, temp_last;
	int limit;			/* the limit it is judged against */
	int limit_from;			/* enum signals_limit */
	struct signals_counters start, end;
	long long crit_raised;		/* NVMe warning bits new in the run */
	uint32_t crit_at;		/* seconds in, when first seen */
	/* The kernel's log: trouble lines naming it (kmsgwatch.h). */
	unsigned kmsg[KMSG_KINDS];
	unsigned kmsg_total, kmsg_direct;
	int nkept;
	char kept[SIGNALS_KEPT][SIGNALS_LINE];
	/* PCI functions from its controller up to its root port. */
	int npci;
	char pci[KMSGWATCH_PCI_PATH][24];
	/* A self-test after the burn. */
	int selftest;			/* enum settings_selftest asked */
	int st_result;			/* enum signals_selftest */
	char st_text[96];		/* as the drive says it */
	/* Temperatures over time; when full, neighbours merge. */
	struct signals_point *series;
	int nseries;
	unsigned step, acc_n;		/* samples a point covers; so far */
	struct signals_point acc;
};

/* A drive behind a RAID controller, as smartctl --scan-open lists it. */
struct signals_hidden {
	char controller[24];		/* its controller's PCI address */
	char dev[64];			/* the device smartctl opens */
	char type[24];			/* megaraid,0 cciss,3 aacraid,0,0,1 */
	char model[64], serial[64];
	struct signals_disk d;
};

struct signals_edac {
	char where[48];			/* mc0, mc0/dimm3 */
	char label[64];
	long ce_start, ce_end, ue_start, ue_end;	/* -1 not given */
};

enum { SIGNALS_AER_COR, SIGNALS_AER_NONFATAL, SIGNALS_AER_FATAL };

struct signals_aer {
	char pci[24];
	long start[3], end[3];		/* by severity; -1 not given */
	char errors[96];		/* at the end: "RxErr 3, BadTLP 1" */
};

struct signals_hwmon {
	char hwmon[16];
	int index;
	char what[96];			/* "coretemp Package id 0" */
	int first, max, last;		/* millidegrees C */
	int high, crit;			/* its limits, SENSORS_NONE */
};

struct signals_machine {
	int samples;
	uint64_t period;		/* seconds between samples, 0 ends */
	int edac_mcs;			/* memory controllers EDAC watches */
	int nedac, naer, nhwmon, nhidden;
	struct signals_edac *edac;
	struct signals_aer *aer;
	struct signals_hwmon *hwmon;
	struct signals_hidden *hidden;
	/* The kernel's log. */
	int kmsg;			/* read: 1; 0: kmsg_why says why not */
	char kmsg_why[96];
	uint64_t kmsg_lines, kmsg_lost;
	unsigned other[KMSG_KINDS], other_total;	/* naming no disk */
	int nkept;
	char kept[SIGNALS_KEPT][SIGNALS_LINE];
	/* The machine's verdict; its FAILs also go into record.failure. */
	struct judge j;
	char failure[240];		/* its FAIL reasons, or "" */
	char failure_base[240];		/* record.failure before them */
	int have_base;
};

/* One drive in one sample. */
struct signals_reading {
	int asked;			/* smartctl was run on it */
	int answered;			/* ...and its JSON read */
	struct smartjson sj;
	int hw_temp, hw_max, hw_crit;	/* its own hwmon, millidegrees */
	char why[160];			/* what went wrong, or "" */
};

/* One sample of everything, as sampler.c takes it. */
struct signals_sample {
	uint32_t t;			/* seconds into the run */
	int n;				/* readings of the record's disks */
	struct signals_reading *disk;
	int nhidden;			/* ...of its hidden drives */
	struct signals_reading *hidden;
	int have_sensors;
	struct sensors sensors;
};

struct record;
struct record_disk;

/* Facts that name nothing yet: every figure SIGNALS_NONE. */
void signals_disk_init(struct signals_disk *d);
void signals_disk_free(struct signals_disk *d);
void signals_machine_free(struct signals_machine *m);

/* The AER counters of the function at pci, NULL when none were read. */
const struct signals_aer *signals_aer_of(const struct signals_machine *m,
					 const char *pci);

/* A new hidden drive of the machine; NULL when out of memory. */
struct signals_hidden *signals_add_hidden(struct signals_machine *m);

/* Adds one sample to the record's facts. */
void signals_fold(struct record *r, const struct signals_sample *s);

/* The same for one drive: its reading at t seconds, under temp-warn. */
void signals_fold_disk(struct signals_disk *d,
		       const struct signals_reading *rd, uint32_t t,
		       unsigned temp_warn);

/*
 * What the kernel's log has said so far (kmsgwatch.h): of one disk, and
 * the lines that named none of them.
 */
void signals_fold_kmsg(struct signals_disk *d,
		       const struct kmsgwatch_tally *t);
void signals_fold_kmsg_other(struct signals_machine *m,
			     const struct kmsgwatch *w);

/* Adds a temperature at t to a drive's series. */
void signals_series_add(struct signals_disk *d, uint32_t t, int c);

/*
 * Judges one disk on its facts and the machine's (the AER counters of
 * the functions on its path): reasons added to d->j.
 */
void signals_judge_disk(const struct record *r, struct record_disk *d);

/*
 * Judges the machine: r->sig.j gets its verdict and reasons, and its
 * FAILs (an uncorrected memory error, a fatal PCIe error) are added to
 * r->failure, the failure of the run itself, once however often it is
 * judged.
 */
void signals_judge_machine(struct record *r);

/* Names for results and reasons. */
const char *signals_limit_name(int from);
const char *signals_selftest_name(int result);
int signals_selftest_of(const char *name);

#endif
