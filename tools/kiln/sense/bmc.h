/* SPDX-License-Identifier: MIT */
#ifndef KILN_BMC_H
#define KILN_BMC_H

#include <stddef.h>

#include "sense/sel.h"

/*
 * The BMC, in-band: the kernel's IPMI drivers (ipmi_si, ipmi_devintf,
 * ipmi_msghandler: the init loads them) and Debian's ipmitool, as the
 * image packs it. Its event log is read before the burn and after it
 * (sel.h parses the bytes), and its LAN address for the fleet page.
 * What was read is facts in the record (record.h); judge/vitals_judge.c
 * judges them.
 */

#define BMC_IPMITOOL "/usr/bin/ipmitool"
#define BMC_KEPT 32		/* entries added in a run kept, critical first */
#define BMC_TIMEOUT_MS 60000	/* a slow BMC's whole log */

/* What the run knows of the BMC, "state" in result.json. */
enum bmc_state {
	BMC_OFF,		/* setting bmc=0: not asked */
	BMC_ABSENT,		/* no IPMI device: nothing judged */
	BMC_UNREAD,		/* a BMC, its log could not be read */
	BMC_READ,		/* its log read at the start */
	BMC_STATES
};

struct bmc {
	int state;		/* enum bmc_state */
	char problem[200];	/* why a read failed (start or end); "" */
	int end_read;		/* the log read again at the end */
	unsigned start_entries, end_entries;
	struct sel_change change;
	int added;		/* entries added during the run */
	int nkept;
	struct sel_entry kept[BMC_KEPT];
	char address[48];	/* its LAN address, "" unknown */
	char mac[24];
	/* Judged from the above (vitals_judge.c): enum judge_verdict. */
	int verdict;
	char why[240];		/* when not PASS */
	/* Private: the log as read at the start. */
	struct sel_log start;
};

/* The kernel's IPMI device under devroot ("/dev"): 1 there, 0 none. */
int bmc_present(const char *devroot);

/*
 * The whole log and Get SEL Info through ipmitool: 0, or -errno with why
 * said (no ipmitool, it failed, or its bytes are not whole records).
 */
int bmc_read_log(struct sel_log *log, char *why, size_t len);

/* "IP Address : 10.0.0.5" and "MAC Address : ..." of `ipmitool lan print`. */
void bmc_lan_parse(const char *text, char *addr, size_t alen, char *mac,
		   size_t mlen);

/* Before the burn: the BMC found, its log and its address read. */
void bmc_start(struct bmc *b, const char *devroot);

/* After it: the log read again, and what was added kept. */
void bmc_end(struct bmc *b);

/*
 * The entries of after new since b's start, into b (critical ones kept
 * first): the part of bmc_end() that needs no BMC, for the unit test.
 */
void bmc_compare(struct bmc *b, const struct sel_log *after);

void bmc_free(struct bmc *b);

/* "off", "absent", "unread", "read"; NULL for none of them. */
const char *bmc_state_name(int state);
int bmc_state_of(const char *name);

#endif
