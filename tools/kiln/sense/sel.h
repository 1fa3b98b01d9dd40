/* SPDX-License-Identifier: MIT */
#ifndef KILN_SEL_H
#define KILN_SEL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The BMC's System Event Log (SEL) from its bytes, as IPMI 2.0 lays them
 * out (section 32.1, "SEL Event Records"): 16 bytes a record,
 *
 *   0-1  record id (least significant byte first)
 *   2    record type: 02h a system event, C0h-FFh OEM
 *   3-6  timestamp (seconds, LS first; BMC clocks are often wrong)
 *   7-8  generator id
 *   9    event message format revision (04h)
 *   10   sensor type (table 42-3)     11  sensor number
 *   12   event direction (bit 7: 1 deasserted) and event/reading type
 *        (bits 6:0; 01h threshold, 6Fh sensor-specific)
 *   13-15 event data 1-3 (data 1 bits 3:0: the offset of the event)
 *
 * and the answer to Get SEL Info (section 31.2, netfn 0Ah cmd 40h):
 * version, entries, free bytes, the last addition's and the last
 * erase's timestamps, and the overflow flag (bit 7 of its last byte).
 * Which entries are new in a run is told by record ids, never by the
 * timestamps.
 */

#define SEL_RECORD 16		/* bytes a record */
#define SEL_TYPE_SYSTEM 0x02	/* a system event record */

/* The critical classes: an entry of one FAILs the machine. */
enum sel_class {
	SEL_FACT,		/* listed, not judged */
	SEL_POWER_SUPPLY,	/* power supply failure detected */
	SEL_TEMPERATURE,	/* at an upper critical or non-recoverable */
	SEL_MEMORY_UE,		/* uncorrectable ECC */
	SEL_BUS_FATAL,		/* PCI PERR/SERR, bus fatal, fatal NMI */
	SEL_PROCESSOR,		/* IERR, thermal trip, uncorrectable MCE */
	SEL_WATCHDOG,		/* a watchdog fired */
	SEL_CLASSES
};

struct sel_entry {
	uint8_t raw[SEL_RECORD];
	unsigned id;		/* record id */
	unsigned type;		/* record type */
	uint32_t time;		/* timestamp, as the BMC's clock has it */
	unsigned sensor_type, sensor, event_type;
	int deasserted;		/* the event went away */
	unsigned offset;	/* event data 1, bits 3:0 */
};

/* Get SEL Info's answer. */
struct sel_info {
	unsigned version;	/* 51h for IPMI 1.5 and 2.0 */
	unsigned entries;
	unsigned free_bytes;
	uint32_t added, erased;	/* timestamps of the last of each */
	int overflow;		/* events were dropped: the log was full */
};

/* A log as read at one moment. */
struct sel_log {
	int n;
	struct sel_entry *e;	/* malloc'd; sel_log_free() */
	int have_info;
	struct sel_info info;
};

/* One record from its 16 bytes. */
void sel_parse(const uint8_t raw[SEL_RECORD], struct sel_entry *e);

/*
 * A log from the bytes of `ipmitool sel writeraw` (the records one after
 * another): 0, -ENOMEM, or -EINVAL when len is not whole records.
 */
int sel_log_parse(struct sel_log *log, const void *buf, size_t len);
void sel_log_free(struct sel_log *log);

/*
 * Get SEL Info from `ipmitool raw 0x0a 0x40`'s hex bytes ("51 0e 00 ...",
 * over lines): 0, or -EINVAL when fewer than its 14 bytes are there.
 */
int sel_info_parse(const char *text, struct sel_info *i);

/* The class of an entry: SEL_FACT unless an asserted critical event. */
int sel_class(const struct sel_entry *e);

/* "power supply failure" ...; "" for SEL_FACT. */
const char *sel_class_name(int class);

/*
 * What an entry says, in words: "Temperature sensor 30h: upper critical
 * going high", "Memory sensor 08h: uncorrectable ECC (deasserted)",
 * "OEM record type C1h".
 */
void sel_describe(const struct sel_entry *e, char *buf, size_t len);

/* How the log changed between two reads, apart from new entries. */
struct sel_change {
	int cleared;		/* erased (its erase time moved), or refilled */
	int wrapped;		/* entries of the start gone, no erase */
	int overflow;		/* the overflow flag came on */
};

/*
 * The entries of after added since before: a record id before did not
 * have, or the same id with other bytes (the log was cleared and
 * refilled). Their indexes in after go into added (at most max), the
 * count of them all is returned; c says how else the log changed.
 */
int sel_added(const struct sel_log *before, const struct sel_log *after,
	      int *added, int max, struct sel_change *c);

#endif
