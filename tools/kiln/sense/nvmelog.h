/* SPDX-License-Identifier: MIT */
#ifndef KILN_NVMELOG_H
#define KILN_NVMELOG_H

#include <stddef.h>
#include <stdint.h>

/*
 * An NVMe controller's own logs, read by kiln itself with Get Log Page
 * (NVMe Base Specification 2.0, 5.16) before and after a burn: Identify
 * Controller (model, serial, firmware, how many error log entries it
 * keeps, whether it has host-initiated telemetry), the SMART / Health
 * Information log (02h), the Error Information log (01h) and, where the
 * drive has it, the OCP Datacenter NVMe SSD SMART / Health Information
 * Extended log (C0h, OCP spec 2.0, 4.8.3). The parsers take the pages'
 * bytes as the drive returns them (little-endian), so fixtures test them.
 * A figure the drive did not give is NVMELOG_NONE.
 */
#define NVMELOG_NONE (-1LL)
#define NVMELOG_ERRORS 64	/* error log entries kept, the newest */
#define NVMELOG_PAGE 512	/* the health and C0h logs, and an entry... */
#define NVMELOG_ENTRY 64	/* ...of the error log */

/* Identify Controller (CNS 01h), what kiln needs of its 4096 bytes. */
struct nvmelog_ident {
	int have;
	char model[41], serial[21], firmware[9];
	int error_entries;		/* ELPE + 1: entries the log keeps */
	int telemetry;			/* LPA bit 3: host-initiated */
};

/* Log 02h. Percentages 0-255 as the drive says them. */
struct nvmelog_health {
	int have;
	int critical_warning;		/* byte 0 */
	int temp_kelvin;		/* bytes 2:1 */
	int spare, spare_threshold;	/* bytes 3, 4 */
	int used;			/* byte 5, percentage used */
	/* 128-bit counters, held to 64 bits (INT64_MAX past it). */
	long long data_read, data_written;	/* 512,000-byte units */
	long long power_cycles, power_on_hours, unsafe_shutdowns;
	long long media_errors;		/* media and data integrity */
	long long error_entries;	/* error information log entries */
};

/* One entry of log 01h (64 bytes); an entry whose count is 0 is empty. */
struct nvmelog_error {
	uint64_t count;			/* bytes 7:0, its error count */
	uint16_t sqid, cmdid;		/* submission queue, command id */
	/* bytes 13:12 bits 15:1, the status field (the phase tag dropped):
	   bits 7:0 status code, 10:8 its type, 14 do not retry */
	uint16_t status;
	uint16_t param;			/* parameter error location */
	uint64_t lba;
	uint32_t nsid;
};

/* Log C0h of OCP 2.0, its counters a burn-in watches. */
struct nvmelog_ocp {
	int have;			/* the page's GUID was OCP's */
	int version;		/* log page version, bytes 495:494 */
	long long bad_user_nand, bad_system_nand;	/* raw counts, 6 B */
	long long xor_recovery, uncorrectable_reads, soft_ecc;
	long long e2e_detected, e2e_corrected;	/* end-to-end errors */
	long long pcie_correctable, incomplete_shutdowns;
	int thermal_events, free_blocks, capacitor_health;
};

/* One read of a controller's logs. */
struct nvmelog {
	int asked;			/* kiln tried to read them */
	char dev[64];			/* where: /dev/nvme0 */
	char why[160];		/* what could not be read, or "" */
	struct nvmelog_ident id;
	struct nvmelog_health h;
	int nerrors;			/* entries kept, newest first */
	struct nvmelog_error errors[NVMELOG_ERRORS];
	struct nvmelog_ocp ocp;
};

/* Every figure not known, nothing asked. */
void nvmelog_init(struct nvmelog *l);

/* The parsers: 0, or -EBADMSG for a page shorter than its layout. */
int nvmelog_parse_ident(const uint8_t *b, size_t len,
			struct nvmelog_ident *id);
int nvmelog_parse_health(const uint8_t *b, size_t len,
			 struct nvmelog_health *h);
/* -ENODATA too: a C0h that is not OCP's (its GUID is another's). */
int nvmelog_parse_ocp(const uint8_t *b, size_t len, struct nvmelog_ocp *o);

/*
 * The entries of an error log page (len bytes, whole entries only) that
 * are not empty, newest (highest count) first, at most max of them into
 * e: how many.
 */
int nvmelog_parse_errors(const uint8_t *b, size_t len,
			 struct nvmelog_error *e, int max);

/*
 * How many bytes of a telemetry log to read, from its 512-byte header h
 * (NVMe Base Specification 2.0, Figure 289): the header and data areas 1
 * to 3 (each 512-byte block counted from the header's, block 0), at most
 * max, in whole blocks; the header alone when h is short.
 */
size_t nvmelog_telemetry_bytes(const uint8_t *h, size_t len, size_t max);

/* A status field in words: "Unrecovered Read Error (media, 0x281)". */
const char *nvmelog_status_text(uint16_t status, char *buf, size_t len);

/*
 * The controller of NVMe namespace name under sysfs (/sys): out gets its
 * character device (/dev/nvme0). -ENOENT when name is no NVMe namespace
 * or its controller is not one device (a native-multipath head: then
 * the namespace's own device takes the admin commands).
 */
int nvmelog_controller(const char *sysfs, const char *name, char *out,
		       size_t len);

/*
 * Reads the logs of n controllers at once (devs[i] NULL: skipped), each
 * in a thread of its own; a controller that has not answered after
 * timeout_ns is left to its thread and its why says so: kiln never hangs
 * on one drive. out[i] gets each one's logs.
 */
void nvmelog_read_many(const char *const *devs, int n, uint64_t timeout_ns,
		       struct nvmelog *out);

/*
 * A drive's host-initiated telemetry log (07h, a new snapshot asked for):
 * its header and data areas 1 to 3, at most max bytes, within timeout_ns
 * (a drive that stalls is left to its thread: -ETIMEDOUT). 0 and *buf
 * (malloc()ed, *len bytes), or -errno with one line in why.
 */
int nvmelog_telemetry(const char *dev, size_t max, uint64_t timeout_ns,
		      void **buf, size_t *len, char *why, size_t wlen);

#endif
