/* SPDX-License-Identifier: MIT */
#ifndef KILN_KMSG_H
#define KILN_KMSG_H

#include <stddef.h>
#include <stdint.h>

/*
 * One line of the kernel's log, read as an engineer reads it during a
 * burn-in: whether it says a disk, its link or its controller is in
 * trouble (its kind), and what it names (a disk, an ATA port, a SCSI
 * address, an NVMe controller, a PCI function, an HBA). Lines come as
 * /dev/kmsg records ("prio,seq,usec,flags;text" and " KEY=VALUE" lines)
 * or as dmesg prints them ("[   31.093242] text", "<3>[...] text").
 * kmsgwatch.h attributes them to disks and reads /dev/kmsg.
 */

/* Kinds, from the worst for a disk down; KMSG_NONE: not a trouble line. */
enum kmsg_kind {
	KMSG_NONE,
	KMSG_MEDIUM,		/* "critical medium error, dev sdb, ..." */
	KMSG_IO_ERROR,		/* "I/O error, dev sdb, sector ..." */
	KMSG_TIMEOUT,		/* a request timed out */
	KMSG_ABORT,		/* a command aborted by the host */
	KMSG_RESET,		/* link, device, controller or host reset */
	KMSG_LINK,		/* link down, slower, NCQ off, a bad cable */
	KMSG_ATA,		/* libata exception, SError */
	KMSG_SCSI,		/* the SCSI host or a hardware error said */
	KMSG_GONE,		/* device offlined, removed, not responding */
	KMSG_HBA,		/* mpt3sas log_info, MegaRAID event, FW fault */
	KMSG_AER_CORRECTED,	/* PCIe AER */
	KMSG_AER_NONFATAL,
	KMSG_AER_FATAL,
	KMSG_KINDS
};

/* "medium error", "I/O error", "timeout", ...: for reasons and reports. */
const char *kmsg_kind_name(int kind);

#define KMSG_TEXT_MAX 512

/*
 * What one line names. A name not in the line is empty or -1; a SCSI
 * address may be partial: host only ("scsi host3"), or host, channel
 * and target ("target3:0:1"), with the rest -1.
 */
struct kmsg_names {
	char block[32];		/* sdb, nvme0n1 (a partition's disk) */
	int ata, ata_dev;	/* ata3.00: 3 and 0; ata3: 3 and -1 */
	int host, channel, target, lun;
	int nvme;		/* nvme0 (a controller): 0 */
	char pci[24], pci2[24];	/* 0000:03:00.0; a second one, as AER's */
	char hba[24];		/* a driver's own name: mpt3sas_cm0, ioc0 */
};

/* One line of the log, parsed. */
struct kmsg_line {
	int prio;		/* syslog level 0..7, -1 when not given */
	int64_t seq;		/* /dev/kmsg sequence number, -1 unknown */
	int64_t usec;		/* since boot, -1 unknown */
	int kind;
	struct kmsg_names names;
	char text[KMSG_TEXT_MAX];	/* without prefix and dictionary */
};

/*
 * Parses one record or line (len bytes, not NUL-terminated): its header,
 * text, dictionary (DEVICE=+pci:... and +scsi:... add names), kind and
 * names. 0, or -EINVAL for an empty or unreadable line (l->kind NONE).
 */
int kmsg_parse(const char *rec, size_t len, struct kmsg_line *l);

/* The kind of a line's text (without its prefix). */
int kmsg_classify(const char *text);

/* The names a line's text carries. */
void kmsg_names_of(const char *text, struct kmsg_names *n);

/* Names that name nothing: every number -1, every string empty. */
void kmsg_names_clear(struct kmsg_names *n);

#endif
