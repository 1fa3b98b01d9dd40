/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_H
#define KILN_VITALS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "sense/kmsg.h"
#include "sense/kmsgwatch.h"
#include "discover/sasphy.h"
#include "sense/sensors.h"
#include "sense/smartjson.h"
#include "judge/vitals_cpu.h"

/*
 * The machine's own signals as a run saw them (DESIGN.md "Judging"): for
 * each disk its temperature over the run, its SMART and NVMe counters at
 * the start and the end, the kernel log's trouble lines that name it, the
 * PCI functions on its path and its self-test; for the machine its memory
 * errors (EDAC), the PCIe AER counters of every function, its hwmon
 * temperatures and the drives hidden behind RAID controllers. Facts only:
 * they live in the record (record.h), sampler.c gathers them, each sample
 * is added with vitals_fold(), and the judging below is a function of
 * them alone, so a run restored from its result.json is judged the same.
 */

#define VITALS_NONE INT_MIN	/* a figure not known */
#define VITALS_POINTS 2000	/* a drive's temperature series, at most */
#define VITALS_KEPT 3		/* kernel log lines kept a disk */
#define VITALS_LINE 160	/* ...each cut to this */

/* Where a drive's temperature limit came from. */
enum vitals_limit {
	VITALS_LIMIT_NONE,
	VITALS_LIMIT_SETTING,		/* temp-warn */
	VITALS_LIMIT_DRIVE,		/* the drive's own */
	VITALS_LIMIT_HDD,		/* the default for spinning disks */
	VITALS_LIMIT_SSD,		/* ...and for solid-state ones */
};

/* A self-test's outcome. */
enum vitals_selftest {
	VITALS_ST_NONE,		/* not asked for, or not run */
	VITALS_ST_PASSED,
	VITALS_ST_FAILED,
	VITALS_ST_UNSUPPORTED,
	VITALS_ST_TIMEOUT,		/* still running at kiln's bound */
	VITALS_ST_ABORTED,		/* by the drive, or the run stopped */
	VITALS_ST_UNKNOWN,	/* ran, and nothing says how it ended */
	VITALS_ST_KINDS
};

struct vitals_point {
	uint32_t t;			/* seconds into the run */
	int16_t c;			/* the hottest it covers, degrees C */
};

struct vitals_disk {
	int sampled;			/* samples smartctl or hwmon answered */
	char protocol[8];		/* ATA, NVMe, SCSI, as smartctl says */
	char error[160];		/* why the last sample said nothing */
	int rotational;			/* 1, 0, -1 not known */
	/* Degrees C, VITALS_NONE when not known. */
	int temp_first, temp_max, temp_last;
	int limit;			/* the limit it is judged against */
	int limit_from;			/* enum vitals_limit */
	/* SMART at the first and the last sample that read it. */
	struct smart_counters start, end;
	long long crit_raised;		/* NVMe warning bits new in the run */
	uint32_t crit_at;		/* seconds in, when first seen */
	/* The kernel's log: trouble lines naming it (kmsgwatch.h). */
	unsigned kmsg[KMSG_KINDS];
	unsigned kmsg_total, kmsg_direct;
	int nkept;
	char kept[VITALS_KEPT][VITALS_LINE];
	/* PCI functions from its controller up to its root port. */
	int npci;
	char pci[KMSGWATCH_PCI_PATH][24];
	/* A self-test after the burn. */
	int selftest;			/* enum settings_selftest asked */
	int st_result;			/* enum vitals_selftest */
	char st_text[96];		/* as the drive says it */
	/* Temperatures over time; when full, neighbours merge. */
	struct vitals_point *series;
	int nseries;
	unsigned step, acc_n;		/* samples a point covers; so far */
	struct vitals_point acc;
};

/* A drive behind a RAID controller, as smartctl --scan-open lists it. */
struct vitals_hidden {
	char controller[24];		/* its controller's PCI address */
	char dev[64];			/* the device smartctl opens */
	char type[24];			/* megaraid,0 cciss,3 aacraid,0,0,1 */
	char model[64], serial[64];
	struct vitals_disk d;
};

struct vitals_edac {
	char where[48];			/* mc0, mc0/dimm3 */
	char label[64];
	char slot[64];			/* its SMBIOS slot, or "" */
	long ce_start, ce_end, ue_start, ue_end;	/* -1 not given */
};

enum { VITALS_AER_COR, VITALS_AER_NONFATAL, VITALS_AER_FATAL };

struct vitals_aer {
	char pci[24];
	long start[3], end[3];		/* by severity; -1 not given */
	char errors[96];		/* at the end: "RxErr 3, BadTLP 1" */
};

struct vitals_hwmon {
	char hwmon[16];
	int index;
	char what[96];			/* "coretemp Package id 0" */
	int first, max, last;		/* millidegrees C */
	int high, crit;			/* its limits, SENSORS_NONE */
};

struct vitals_machine {
	int samples;
	uint64_t period;		/* seconds between samples, 0 ends */
	int edac_mcs;			/* memory controllers EDAC watches */
	int nedac, naer, nhwmon, nhidden;
	struct vitals_edac *edac;
	struct vitals_aer *aer;
	struct vitals_hwmon *hwmon;
	struct vitals_hidden *hidden;
	/* The kernel's log. */
	struct vitals_cpu cpu;		/* throttles, clock, machine checks */
	int kmsg;			/* read: 1; 0: kmsg_why says why not */
	char kmsg_why[96];
	uint64_t kmsg_lines, kmsg_lost;
	unsigned other[KMSG_KINDS], other_total;	/* naming no disk */
	int nkept;
	char kept[VITALS_KEPT][VITALS_LINE];
	/* The machine's verdict; its FAILs also go into record.failure. */
	struct judge j;
	char failure[240];		/* its FAIL reasons, or "" */
	char failure_base[240];		/* record.failure before them */
	int have_base;
};

/* One drive in one sample. */
struct vitals_reading {
	int asked;			/* smartctl was run on it */
	int answered;			/* ...and its JSON read */
	struct smartjson sj;
	int hw_temp, hw_max, hw_crit;	/* its own hwmon, millidegrees */
	char why[160];			/* what went wrong, or "" */
};

/* One sample of everything, as sampler.c takes it. */
struct vitals_sample {
	uint32_t t;			/* seconds into the run */
	int n;				/* readings of the record's disks */
	struct vitals_reading *disk;
	int nhidden;			/* ...of its hidden drives */
	struct vitals_reading *hidden;
	int have_sensors;
	struct sensors sensors;
	int have_cpu;
	struct cpu_sample cpu;
	struct sasphy_set phys;		/* the SAS phys' counters */
};

struct record;
struct record_disk;

/* Facts that name nothing yet: every figure VITALS_NONE. */
void vitals_disk_init(struct vitals_disk *d);
void vitals_disk_free(struct vitals_disk *d);
void vitals_machine_free(struct vitals_machine *m);

/* The AER counters of the function at pci, NULL when none were read. */
const struct vitals_aer *vitals_aer_of(const struct vitals_machine *m,
				       const char *pci);

/* A new hidden drive of the machine; NULL when out of memory. */
struct vitals_hidden *vitals_add_hidden(struct vitals_machine *m);

/* Adds one sample to the record's facts. */
void vitals_fold(struct record *r, const struct vitals_sample *s);

/* The same for one drive: its reading at t seconds, under temp-warn. */
void vitals_fold_disk(struct vitals_disk *d,
		      const struct vitals_reading *rd, uint32_t t,
		      unsigned temp_warn);

/*
 * What the kernel's log has said so far (kmsgwatch.h): of one disk, and
 * the lines that named none of them.
 */
void vitals_fold_kmsg(struct vitals_disk *d,
		      const struct kmsgwatch_tally *t);
void vitals_fold_kmsg_other(struct vitals_machine *m,
			    const struct kmsgwatch *w);

/* Adds a temperature at t to a drive's series. */
void vitals_series_add(struct vitals_disk *d, uint32_t t, int c);

/*
 * Judges one disk on its facts and the machine's (the AER counters of
 * the functions on its path): reasons added to d->j.
 */
void vitals_judge_disk(const struct record *r, struct record_disk *d);

/*
 * Judges the machine: r->sig.j gets its verdict and reasons, and its
 * FAILs (an uncorrected memory error, a fatal PCIe error) are added to
 * r->failure, the failure of the run itself, once however often it is
 * judged.
 */
void vitals_judge_machine(struct record *r);

/*
 * A reason of the machine given by another signal's rule, after
 * vitals_judge_machine(): as vitals_judge_reason(), and the run's failure
 * (r->failure) made again with it.
 */
void vitals_machine_reason(struct record *r, int verdict, const char *text);

/*
 * A reason of the machine (its FAILs go into the run's failure too). Here
 * so that netjudge.c and vitals_cpu.c, which vitals_judge.c calls, can
 * give one without calling back into it.
 */
static inline void vitals_judge_reason(struct vitals_machine *m, int verdict,
				       const char *text)
{
	size_t used = strlen(m->failure);

	judge_reason(&m->j, verdict, "%s", text);
	if (verdict == JUDGE_FAIL && used + 1 < sizeof(m->failure))
		snprintf(m->failure + used, sizeof(m->failure) - used, "%s%s",
			 used ? "; " : "", text);
}

/*
 * The memory errors of the run, for the blame of bad units: EDAC's
 * corrected and uncorrected counts that rose during it (each DIMM's, and
 * what a controller could not place) and the uncorrected machine checks
 * the kernel logged. 0: none seen (or none could be).
 */
int vitals_memory_errors(const struct vitals_machine *m);

/* ...and of it EDAC's corrected and uncorrected rises, counted so. */
void vitals_edac_rises(const struct vitals_machine *m, long *ce, long *ue);

/* Names for results and reasons. */
const char *vitals_limit_name(int from);
const char *vitals_selftest_name(int result);
int vitals_selftest_of(const char *name);

#endif
