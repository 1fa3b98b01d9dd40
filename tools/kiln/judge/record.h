/* SPDX-License-Identifier: MIT */
#ifndef KILN_RECORD_H
#define KILN_RECORD_H

#include <stdint.h>
#include <time.h>

#include "engine/endstep.h"
#include "engine/engine.h"
#include "judge/figures.h"
#include "judge/judge.h"
#include "judge/links.h"
#include "discover/enclosure.h"
#include "discover/expect.h"
#include "discover/machine.h"
#include "engine/memplan.h"
#include "judge/monitor.h"
#include "judge/peers.h"
#include "plan/plan.h"
#include "judge/reread.h"
#include "settings/settings.h"
#include "judge/vitals.h"
#include "judge/solo.h"
#include "discover/target.h"

/*
 * The one record of a run: made once by the command (kiln burn, kiln run),
 * handed down the walk (burn.c), read by everything that tells it
 * (result.c, summary.c, report_html.c). Nothing copies it into a second struct.
 */
struct result_record;

/*
 * A signal's own part of the record, its slot (of the run, or of a disk):
 * the record knows the signal's name and how to free what it holds, not
 * what that is, so a new signal adds a slot (record_slot_make(),
 * record_disk_slot_make()), not a field of struct record nor an include
 * of record.h. The signal's burn hook or its read
 * of result.json makes it; its rules and its outputs find it by its name
 * (record_slot()); record_free() frees it.
 */
#define RECORD_SLOTS 16
#define RECORD_DISK_SLOTS 8

struct record_slot {
	const char *name;		/* the signal's: "bmc" */
	void *data;			/* zeroed when made */
	void (*free)(void *data);	/* what it holds; NULL: nothing */
};

struct record_disk {
	/* as given, or /dev/NAME for kiln run */
	const char *path;
	int mode;			/* enum settings_mode asked for it */
	/* unique in this run: names its files */
	char label[72];
	struct target t;
	struct plan_decision plan;	/* what may be done, and why */
	struct engine_plan ep;		/* the region and how it is burnt */
	struct engine_target *et;	/* NULL until the burn starts */
	struct engine_snap snap;	/* the latest snapshot */
	struct monitor_target *mt;	/* the monitor's, NULL before */
	struct reread rr;		/* the slowest requests read again */
	char failed[240];		/* a FAIL before any burn: why */
	/* what the guard found where it stopped, named ("" none yet) */
	char guard_found[200];
	struct vitals_disk sig;	/* its own signals (vitals.h) */
	struct judge j;
	struct links_disk link;		/* its link and controller */
	struct solo_disk solo;		/* read alone before the burn */
	struct peers_disk peer;		/* against its like disks */
	struct enclosure_slot slot;	/* its enclosure bay, when has_slot */
	int has_slot;
	/* its fault LED at the end (leds=fail, a FAIL): "" left alone */
	char led[300];
	struct endstep end;		/* how it was left (end=) */
	char cert[2][72];		/* its certificates' SHA-256: json, html */
	int nslots;
	struct record_slot slots[RECORD_DISK_SLOTS];	/* its signals' own */
};

/* What the lab's servers got (lab.c), for result.json. */
struct record_lab {
	char upload[1400];	/* the run folder's URL there; "" no upload */
	int upload_only;	/* no stick: the upload is the results medium */
	int nlost;		/* files not arrived when last looked */
	struct record_lost {
		char name[128];
		char why[240];
	} *lost;
	char metrics[1400];	/* the Pushgateway; "" none */
	unsigned pushes, push_failures;
	char push_error[240];	/* the last push's failure, "" none */
};

/*
 * The run's state, "state" in result.json: record_state_name() is each
 * one's only spelling. In the order kiln fleet ranks them, finished first.
 */
enum record_state {
	RECORD_COMPLETE,
	RECORD_VERIFIED,	/* boot 1 of powercut, verified since */
	RECORD_PENDING,		/* boot 1 of powercut, boot 2 still to come */
	RECORD_INTERRUPTED,
	RECORD_RUNNING,
	RECORD_STATES,
};

/* "complete", "pending", ...; "?" for a state that is none of them. */
const char *record_state_name(int state);

/* The state so named, or -1 (NULL too). */
int record_state_of(const char *name);

/* NICs a record names with their addresses; more are left out. */
#define RECORD_NICS 16

struct record {
	const char *command;		/* "burn" or "run" */
	int argc;
	char **argv;			/* a copy, credentials masked */
	struct settings *s;
	uint64_t run_id;
	const char *out;		/* the run folder; NULL: console only */
	char machine[128];		/* the machine id; "" until known */
	/* The machine for people (kiln fleet): "" what is not known. */
	struct record_system {
		char vendor[128], product[128];
		char serial[128];	/* DMI's system serial, as it is */
		char mac[32];		/* its first wired NIC's */
		char address[64];	/* that NIC's IPv4 address */
		/* where it is: its chassis's tags, "" when not real */
		char asset_tag[128], chassis_serial[128];
		int nnics;		/* every NIC, up to RECORD_NICS */
		struct record_nic {
			char name[32], mac[32], address[64];
		} nics[RECORD_NICS];
	} system;
	struct record_lab lab;
	int kmsg;			/* keep the kernel's log (kmsg.log) */
	char *inventory;		/* inventory.json to keep (owned) */
	size_t inventory_len;
	/* the expected machine: the file, and what differs (owned) */
	char expect_file[256];
	struct expect_diffs *expect;	/* NULL: nothing expected */
	/* a FAIL before any disk: "2 missing" */
	char failure[240];
	/* verify: the run folder of the write */
	const char *from;
	const char *pending_of;		/* the power-cut folder this verifies */
	int powercut;			/* boot 1 of powercut: state pending */
	char crc32c[16];		/* the CRC32C implementation used */
	const struct result_record *record;	/* ...and its record */
	/* a record read back (kiln report): the kiln and kernel it had */
	const char *kiln_version, *kernel;

	/*
	 * started: the command's start (record_init()), wall clock and
	 * monotonic (t0_ns); every duration said of the run counts from it,
	 * classing, countdowns and waits included.
	 */
	time_t started, ended;
	uint64_t t0_ns;
	uint64_t elapsed_ns;
	enum record_state state;
	struct machine_firmware firmware;
	int nslots;
	struct record_slot slots[RECORD_SLOTS];	/* the signals' own */
	struct vitals_machine sig;	/* the machine's own signals */
	int results_lost;		/* some results could not be written */
	int verdict;			/* enum judge_verdict, overall */
	int exit_code;

	int n;
	struct record_disk *disks;
	int nnotes;
	char **notes;			/* said at start, kept in the results */
	struct links links;		/* controllers and what went through */
	struct peers peers;		/* like disks, grouped and compared */
	struct memplan mem;		/* memory planned: memplan_left() */
	char cert_machine[72];		/* cert-machine.html's SHA-256 */
};

/* An empty record for a command; s stays the caller's. */
void record_init(struct record *r, const char *command, int argc,
		 char **argv, struct settings *s);

/* A new disk to test: path (copied), mode; NULL when out of memory. */
struct record_disk *record_add(struct record *r, const char *path, int mode);

/* The slot of the signal of that name, NULL when none was made. */
void *record_slot(const struct record *r, const char *name);

/*
 * The slot of the signal of that name (its name a string that outlives
 * the record), made of size zeroed bytes if there is none yet, with free
 * to free what it holds at record_free(); NULL when out of memory or
 * every slot is taken.
 */
void *record_slot_make(struct record *r, const char *name, size_t size,
		       void (*free)(void *data));

/* The same of a disk: its slots are its own, freed with the record. */
void *record_disk_slot(const struct record_disk *d, const char *name);
void *record_disk_slot_make(struct record_disk *d, const char *name,
			    size_t size, void (*free)(void *data));

/* A note said at the start and kept in the results. */
__attribute__((format(printf, 2, 3)))
void record_note(struct record *r, const char *fmt, ...);

/*
 * The places of the judging where a signal's rules run (its judge hook,
 * results/signal.h), in the order record_judge() reaches them; at each,
 * every signal's rules run in the table's order, which is the order of a
 * disk's reasons:
 * JUDGE_AT_FIRST:  before any disk (d NULL): the seconds most disks
 *                  dipped together, left out of each disk's own
 * JUDGE_AT_HEALTH: a disk's, right after the engine's verdict (SMART,
 *                  the NVMe logs)
 * JUDGE_AT_DISK:   a disk's, after its burn's own rules (its zones, the
 *                  re-read, a verify's run record): its vitals, link
 *                  errors, how it was left
 * JUDGE_AT_RUN:    after every disk (d NULL): like disks, the machine's
 *                  own signals, then stress and the BMC
 * JUDGE_AT_LAST:   once the machine is judged (d NULL): where transfer
 *                  errors belong, then the network ports (WARNs only)
 * A disk that never ran (failed) is at none of a disk's places.
 */
enum judge_at {
	JUDGE_AT_FIRST,
	JUDGE_AT_HEALTH,
	JUDGE_AT_DISK,
	JUDGE_AT_RUN,
	JUDGE_AT_LAST,
};

/* The signals' rules at one place (results/signals.c: signals_judge()). */
typedef void record_rules(struct record *r, struct record_disk *d, int final,
			  enum judge_at at);

/*
 * Takes a fresh snapshot of every disk's engine, judges each disk and the
 * run, and sets the state and exit code; the signals' rules are rules'.
 * final: the run is over (SMART after, like disks compared, the state
 * complete or interrupted).
 */
void record_judge(struct record *r, record_rules *rules, int final,
		  int interrupted);

void record_free(struct record *r);

#endif
