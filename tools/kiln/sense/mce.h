/* SPDX-License-Identifier: MIT */
#ifndef KILN_MCE_H
#define KILN_MCE_H

#include <stdint.h>

/*
 * Machine checks as the kernel's log tells them (x86: arch/x86/kernel/
 * cpu/mce/core.c, and AMD's decoder drivers/edac/mce_amd.c):
 *
 *   mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: be00000000800400
 *   mce: [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 4: b2...
 *   [Hardware Error]: CPU:3 (17:31:0) MC5_STATUS[-|CE|...]: 0x9c2040...
 *   mce: [Hardware Error]: Machine check events logged
 *   mce: Uncorrected hardware memory error in user-access at 1f3a2c000
 *
 * A record's MCi_STATUS says whether it was corrected: UC (bit 61) set is
 * uncorrected, and PCC (bit 57, processor context corrupt) comes only
 * with it. "Machine check events logged" alone says that something was
 * logged (the record went to mcelog or rasdaemon, which kiln has not);
 * the kernel would have panicked on an uncorrected one it could not
 * recover from, so it counts as corrected.
 */

#define MCE_STATUS_UC (1ULL << 61)
#define MCE_STATUS_PCC (1ULL << 57)
#define MCE_BANKS 8	/* CPU and bank pairs kept */

enum mce_kind {
	MCE_NONE,		/* not a machine check line */
	MCE_CORRECTED,		/* a record, UC clear */
	MCE_UNCORRECTED,	/* a record with UC, or a memory error */
	MCE_LOGGED,		/* "Machine check events logged" */
};

/* One line, parsed; cpu and bank -1 when the line names none. */
struct mce_line {
	int kind;
	int cpu, bank;
	uint64_t status;
	int pcc;
};

/* A CPU and bank that reported, and how often. */
struct mce_bank {
	int cpu, bank;
	int uncorrected;		/* any of them UC */
	int pcc;			/* any with PCC */
	unsigned n;
	uint64_t status;		/* the first one's MCi_STATUS */
};

/* What the log said of machine checks over a run. */
struct mce_tally {
	unsigned corrected, uncorrected, logged;
	int nbanks;
	struct mce_bank banks[MCE_BANKS];
	unsigned unkept;		/* records of banks past MCE_BANKS */
};

/* The kind of one line's text (no prefix), filling l. */
int mce_parse(const char *text, struct mce_line *l);

/* Adds one line's text to t: its kind. */
int mce_add(struct mce_tally *t, const char *text);

#endif
