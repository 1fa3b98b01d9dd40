/* SPDX-License-Identifier: MIT */
#ifndef KILN_SMARTJSON_H
#define KILN_SMARTJSON_H

#include <stddef.h>

/*
 * A disk's SMART as smartctl's JSON tells it (smartctl -j -a, or -x, or
 * --json=o -H -A before and after a burn, health.h; Debian 12 has
 * smartmontools 7.3, and later versions add keys that are read when
 * present). What a burn-in judges: the drive's temperature and its own
 * limits, the counters of damage, its self-test, whether it spins. A
 * value not reported is SMARTJSON_NONE (or -1 for a flag).
 */
#define SMARTJSON_NONE (-1LL)

/*
 * A drive's SMART and NVMe counters: kiln's one model of them, read from
 * smartctl's JSON here, judged by judge_health() and vitals_judge.c,
 * written to result.json and read back by results/smart_out.c.
 */
struct smart_counters {
	int have;			/* smartctl's JSON was read */
	int passed;			/* 1 passed, 0 failed, -1 not said */
	long long realloc;		/* ATA 5 Reallocated_Sector_Ct */
	long long pending;		/* ATA 197 Current_Pending_Sector */
	long long uncorrectable;	/* ATA 198 Offline_Uncorrectable */
	long long crc_errors;		/* ATA 199 UDMA_CRC_Error_Count */
	long long media_errors;		/* NVMe media and data integrity */
	long long critical_warning;	/* NVMe critical warning bits */
	long long grown_defects;	/* SCSI grown defect list */
	long long error_log;	/* NVMe error log entries, ATA error count */
	long long scsi_uncorrected;	/* SCSI read+write+verify uncorrected */
};

/* Every counter SMARTJSON_NONE, passed -1, have 0. */
void smart_counters_none(struct smart_counters *c);

/*
 * A link error counter a drive keeps of its own end of the link: a SATA
 * drive's phy event counters (smartctl -l sataphy), a SAS drive's
 * protocol specific port log page, per port and phy (-l sasphy).
 */
#define SMARTJSON_LINKS 24

struct smartjson_link {
	char src[24];		/* "drive", "drive port0 phy0" */
	char name[40];		/* "icrc_errors", "invalid_dword_count" */
	long long value;
};

struct smartjson {
	int ran;		/* a JSON document from smartctl was read */
	int exit_status;	/* smartctl's exit bits, -1 unknown */
	char message[160];	/* smartctl's first error message, or "" */
	char protocol[8];	/* "ATA", "NVMe", "SCSI", or "" */
	char type[24];		/* smartctl's device type: sat, megaraid,0 */
	char model[64];
	char serial[64];
	char firmware[32];
	int rotational;		/* 1 spins, 0 solid state, -1 not said */
	long long rpm;		/* SMARTJSON_NONE when not said */

	/* Degrees Celsius. */
	long long temp;		/* now */
	long long temp_warn;	/* its own limit: ATA SCT op_limit_max, NVMe
				   WCTEMP (smartctl 7.4 on), none for SCSI */
	long long temp_crit;	/* ATA SCT limit_max, NVMe CCTEMP, SCSI trip */
	long long temp_lifetime_max;	/* ATA SCT, or none */

	struct smart_counters c;	/* c.have is ran */

	/* Self-test: for selftest=short|long. */
	int selftest_supported;	/* 1, 0, -1 not said */
	int selftest_running;	/* percent done while one runs, else -1 */
	long long short_minutes, long_minutes;	/* the drive's estimate */
	char selftest_last[64];	/* the latest test's result, as said */
	char selftest_last_type[32];	/* "Short offline", "Extended" */
	int selftest_last_passed;	/* 1, 0 failed, -1 aborted or none */
	long long selftest_last_hours;	/* the drive's hours at it */
	long long selftest_count;	/* entries in the drive's log */

	int nlinks;			/* its link error counters */
	struct smartjson_link links[SMARTJSON_LINKS];
};

/*
 * Reads smartctl's JSON (len bytes) into s: 0, or -EBADMSG when the text
 * is not a JSON object (s->ran 0, every value not reported).
 */
int smartjson_parse(const char *text, size_t len, struct smartjson *s);

/*
 * The link error counters of a parsed document (smartjson_link.c): its
 * SATA phy events and SAS port log, into s->links (a counter at its
 * ceiling, which no longer counts, is left out).
 */
struct jsonread_node;
void smartjson_links(const struct jsonread_node *root, struct smartjson *s);

/*
 * smartctl's own words, as --json=o keeps them in smartctl.output: the
 * lines, each ended by a newline, in a string of *outlen bytes to free();
 * NULL when the JSON has none (or out of memory).
 */
char *smartjson_output(const char *text, size_t len, size_t *outlen);

/*
 * An NVMe critical warning's bits in words (NVMe Base Specification, SMART
 * / Health Information log, byte 0): "spare below its threshold, ...".
 */
char *smartjson_critical_text(long long bits, char *buf, size_t len);

#endif
