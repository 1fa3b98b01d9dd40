/* SPDX-License-Identifier: MIT */
#ifndef KILN_SETTINGS_H
#define KILN_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct http_url;

/*
 * kiln's settings: one set of keys, the same on the command line
 * (--KEY=VALUE or --KEY VALUE), in kiln.cfg (KEY=VALUE) and on the kernel
 * command line (kiln.KEY=VALUE). keys.c owns the key table (each key's
 * type, default, help and the commands that take it), settings.c and
 * check.c how values are read and checked; options.c reads the sources.
 * None knows what a key does.
 */
enum settings_mode {
	SETTINGS_WRITE_VERIFY,
	SETTINGS_WRITE,
	SETTINGS_VERIFY,
	SETTINGS_READ,
};

/* kiln run: how much testing. */
enum settings_profile {
	SETTINGS_SMOKE,		/* a few minutes on a quick span */
	SETTINGS_BURNIN,	/* one whole write-verify pass */
	SETTINGS_SOAK,		/* passes until duration (12 h unless set) */
	SETTINGS_POWERCUT,	/* write and flush; the next boot verifies */
	SETTINGS_ERASE,		/* no pass: each disk's end step alone */
};

/* What the image does after a run (the init reads it). */
enum settings_after {
	SETTINGS_WAIT,		/* keep the verdict on screen */
	SETTINGS_POWEROFF,
	SETTINGS_REBOOT,
	SETTINGS_SHELL,
};

/* A self-test after the burn, on every disk that has one. */
/* Which LEDs kiln sets: the fault LED of a FAILed disk, or none. */
enum settings_leds {
	SETTINGS_LEDS_OFF,
	SETTINGS_LEDS_FAIL,
};

/* How a disk is left after the burn (end=). */
enum settings_end {
	SETTINGS_END_KEEP,
	SETTINGS_END_DISCARD,
	SETTINGS_END_ZERO,
	SETTINGS_END_SANITIZE,
};

/* What end=sanitize does on a disk with no sanitize command kiln sends. */
enum settings_fallback {
	SETTINGS_FALLBACK_NONE,
	SETTINGS_FALLBACK_ZERO,
};

/* What kiln does with capacity a disk hides from the OS (hidden=). */
enum settings_hidden {
	SETTINGS_HIDDEN_KEEP,
	SETTINGS_HIDDEN_RESTORE,
};

enum settings_selftest {
	SETTINGS_SELFTEST_NONE,
	SETTINGS_SELFTEST_SHORT,
	SETTINGS_SELFTEST_LONG,
};

/* What stressapptest loads beside the burn: a mask, as the key's choices. */
enum settings_stress {
	SETTINGS_STRESS_OFF,
	SETTINGS_STRESS_MEMORY = 1 << 0,	/* memory copy threads */
	SETTINGS_STRESS_CPU = 1 << 1,		/* a CPU thread a core */
};

/* A size, or a percentage of what is there (stress-memory). */
struct settings_share {
	uint64_t bytes;			/* a size; 0: the percentage */
	unsigned percent;		/* 1 to 100 */
};

/* Where a setting's value came from, for kiln settings and the results. */
enum settings_source {
	SOURCE_DEFAULT,
	SOURCE_CFG,		/* kiln.cfg */
	SOURCE_CMDLINE,		/* the kernel command line */
	SOURCE_OPTION,		/* kiln's own command line */
	SOURCE_LAB,		/* the lab server's settings file */
};

/* lab-config: whether a lab server that does not answer stops the run. */
enum settings_lab_config {
	SETTINGS_LAB_OPTIONAL,
	SETTINGS_LAB_REQUIRED,
};

/* Who takes a key: a mask of these. */
enum settings_scope {
	SCOPE_BURN = 1 << 0,		/* kiln burn */
	SCOPE_RUN = 1 << 1,		/* kiln run and kiln settings */
	SCOPE_DISCOVER = 1 << 2,	/* kiln discover */
	SCOPE_PROBE = 1 << 3,		/* kiln probe */
	SCOPE_SETTINGS = 1 << 4,	/* kiln settings alone (--get) */
	SCOPE_INIT = 1 << 5,		/* read by the init; kiln keeps it */
	SCOPE_FINISH = 1 << 7,		/* kiln finish */
	SCOPE_FLEET = 1 << 8,		/* kiln fleet */
	SCOPE_REPORT = 1 << 9,		/* kiln report */
	SCOPE_LOCATE = 1 << 10,		/* kiln locate */
	/*
	 * kiln burn whose output is a terminal: the scope of a default only
	 * (a person watching, as vmstat and dstat are, wants a line a
	 * second; a log or the image's serial console wants fewer).
	 */
	SCOPE_TTY = 1 << 11,
	/*
	 * An option of the invocation, not a setting: never from kiln.cfg or
	 * the kernel command line, and not in kiln settings' list.
	 */
	SCOPE_OPTION_ONLY = 1 << 6,
};

#define SETTINGS_MAX_KEYS 80
#define SETTINGS_MAX_PROBLEMS 16
#define SETTINGS_MAX_PROTECT 16

/* Unknown keys and bad values met while reading kiln.cfg or a command line. */
struct settings_problems {
	int n;
	char text[SETTINGS_MAX_PROBLEMS][240];
};

struct settings {
	int mode;			/* enum settings_mode */
	uint64_t bs;			/* bytes a request */
	unsigned qd;			/* requests in flight a target */
	unsigned passes;		/* passes to make */
	uint64_t duration;		/* seconds; 0: no limit */
	uint64_t offset;		/* where the region starts */
	uint64_t span;			/* its length; 0: to the end */
	int quick;			/* span sampled at start, middle, end */
	unsigned max_writes;		/* whole-target writes; 0: no cap */
	int max_writes_set;		/* else chosen per target */
	uint64_t run_id;
	int run_id_set;
	char *out;			/* run folder */
	unsigned interval;		/* seconds between status lines */
	unsigned table_interval;	/* seconds between tables; 0: none */
	int json;			/* result document on stdout */
	/* consent to overwrite every has-data */
	int destroy_data;
	char *destroy_list;		/* ...or only these serials or WWNs */
	char *include;			/* disks to test, by glob; NULL: all */
	char *exclude;			/* disks never to touch, by glob */
	uint64_t size;			/* size of a file kiln creates */
	/* seconds before a request is stalled */
	unsigned deadline;
	unsigned checkpoint;		/* seconds between result checkpoints */
	/* errors and bad units listed a target */
	unsigned max_detail;
	unsigned save_units;		/* bad units saved a target */
	int profile;			/* enum settings_profile */
	unsigned countdown;		/* seconds before destructive work */
	int after;			/* enum settings_after */
	unsigned settle;		/* seconds the init waits for disks */
	unsigned expect_disks;		/* fewer found is a FAIL; 0: any */
	/* HOST[:PORT][,HOST[:PORT]]...: iperf3 on every NIC */
	char *iperf;
	unsigned iperf_min;		/* % of a port's link speed: WARN */
	int net;			/* the init takes DHCP */
	char *from;			/* verify against this run folder */
	char *upload;			/* http[s]://HOST[:PORT]/PATH/ */
	char *ca;			/* the lab's CA: a PEM file */
	char *auth_token;		/* a Bearer token for the lab */
	char *metrics;			/* http://HOST:PORT/ of a Pushgateway */
	char *expect;			/* the expected-machine file */
	char *machine_id;		/* the machine's id, as given */
	char *lab;			/* the lab server's base URL */
	char *claim;			/* the init: the token claim's URL */
	int lab_config;			/* enum settings_lab_config */
	unsigned slow_warn;		/* % of like disks' median: WARN */
	unsigned slow_fail;		/* % of their solo median: FAIL; 0 off */
	uint64_t solo;			/* seconds each disk is read alone */
	uint64_t sensors;		/* seconds between signal samples */
	unsigned temp_warn;		/* degrees C; 0: each drive's own */
	unsigned link_errors_fail;	/* a link counter's growth: FAIL */
	int selftest;			/* enum settings_selftest */
	int leds;			/* enum settings_leds */
	int reread;			/* the slowest requests read again */
	int bmc;			/* the BMC's event log read */
	int end;			/* enum settings_end */
	int end_failed;			/* end applied to a FAILed disk too */
	unsigned end_verify;		/* % of each disk read back after */
	int sanitize_fallback;		/* enum settings_fallback */
	int hidden;			/* enum settings_hidden */
	char *job_id;			/* the lab's job, on certificates */
	char *operator_id;		/* who ran it, on certificates */
	int stress;			/* enum settings_stress mask */
	struct settings_share stress_memory;	/* of what memory leaves */

	/* Options of the invocation, not settings. */
	char *results;			/* kiln run: the stick's mount point */
	char *config;			/* kiln.cfg to read */
	char *cmdline;			/* the kernel command line to read */
	char *powercut_file;		/* kiln run: the power is to be cut */
	char *get;			/* kiln settings --get KEY */
	char *sysfs_root;		/* kiln discover on a captured tree */
	char *expect_out;		/* kiln discover: write an expect file */
	int off;			/* kiln locate: clear, not light */
	uint64_t stale;			/* kiln fleet: seconds; then cut off */
	char *refused;			/* kiln fleet: refused token claims */
	unsigned page;			/* kiln fleet: machines a page */
	char *protect[SETTINGS_MAX_PROTECT];	/* devices never touched */
	int nprotect;

	unsigned char source[SETTINGS_MAX_KEYS];	/* per key */
	/*
	 * Each key's value as its source wrote it (3k, not 3072), for the
	 * messages about it; "" for a default. Cut at 31 bytes.
	 */
	char given[SETTINGS_MAX_KEYS][32];
};

/*
 * A default of a key's own for some commands, where theirs is not the
 * key's .def (kiln burn need not stress the machine as kiln run does).
 */
struct settings_def {
	unsigned scope;			/* the commands: enum settings_scope */
	const char *def;		/* as kiln.cfg(5) says it */
};

/* One key of the table, for those that list them (usage, kiln settings). */
struct settings_key {
	const char *name;
	int type;			/* enum key_type, private to settings/ */
	size_t off;
	unsigned min, max;		/* counts */
	const char *const *choices;	/* enums */
	const char *want;		/* what a good value looks like */
	const char *def;		/* the default, as kiln.cfg(5) says it */
	const char *help;		/* one line for people */
	unsigned scope;			/* enum settings_scope mask */
	struct settings_def other;	/* other.scope's commands: other.def */
	/* why another command does not take it, said when one is given it */
	const char *elsewhere;
};

/*
 * What a command that does not take k says when given it, into buf:
 * "--include is kiln run's: it chooses among the disks it finds; ...".
 */
void settings_key_elsewhere(const struct settings_key *k, char *buf,
			    size_t len);

/* The i-th key, NULL past the last; sorted by name. */
const struct settings_key *settings_key_at(int i);

/* The key of that name (no dashes), or NULL: names are matched whole. */
const struct settings_key *settings_key(const char *name);

/* Whether the key is a flag: alone it means 1, and takes 1/0/yes/no/... */
int settings_key_is_flag(const struct settings_key *k);

/*
 * The key's default for a command, as kiln.cfg(5) says it: command is the
 * command's scope (SCOPE_BURN; kiln run and kiln settings are SCOPE_RUN,
 * and an options_cmd's .scope will do).
 */
const char *settings_key_default(const struct settings_key *k,
				 unsigned command);

/* Fills in the built-in defaults of a command (its scope, as above). */
void settings_defaults(struct settings *s, unsigned command);

/* Frees what setting values allocated. */
void settings_free(struct settings *s);

/*
 * Sets key from its text value, remembering where it came from:
 * 0, -ENOENT for an unknown key, -EINVAL for a bad value, -ENOMEM; err
 * gets a one-line reason that names the key as the source writes it.
 */
int settings_set(struct settings *s, const struct settings_key *k,
		 const char *value, int source, char *err, size_t errlen);

/* Whether text is a flag word (1 0 yes no true false on off): 1, 0, or -1. */
int settings_flag_word(const char *text);

/*
 * Checks what no single value shows: settings that are wrong together or
 * for every target (bs not a multiple of 4 KiB, run-id without verify).
 * Every command calls it before anything else: 0, or -EINVAL with a
 * one-line reason in err.
 */
int settings_check(const struct settings *s, char *err, size_t errlen);

/*
 * Whether id can be a machine's id as given (machine-id): 1 to 63 of
 * [A-Za-z0-9._-], not starting with . or -, so it names one folder.
 */
int settings_safe_id(const char *id);

/* The CA built into the image (make image LAB_CA=FILE), used when ca is not. */
#define SETTINGS_LAB_CA "/etc/kiln/lab-ca.pem"

/*
 * One of the lab's URLs (upload, metrics, lab: text) read into u with
 * what goes with it: auth-token, and the CA to trust: ca, relative to
 * the results root in kiln run (the stick), else SETTINGS_LAB_CA when
 * the image has one. 0, or -EINVAL with one line in err.
 */
int settings_url(const struct settings *s, const char *text,
		 struct http_url *u, char *err, size_t len);

/* The passes the engine makes: 0 is as many as duration allows. */
unsigned settings_passes(const struct settings *s);

/* Value readers, shared with whoever reads sizes and times. */
int settings_parse_size(const char *text, uint64_t *out);
int settings_parse_duration(const char *text, uint64_t *seconds);
int settings_parse_uint(const char *text, unsigned max, unsigned *out);

/*
 * Whether text reads as a value rather than a name: a unit alone ("h",
 * "GiB", "minutes", "%") or a number with or without one ("16M", "12h",
 * "600"). kiln creates no target of such a name: it is a value that lost
 * its option or its number.
 */
int settings_value_word(const char *text);

/*
 * value, a number alone given to key k, then next, a unit word alone
 * ("--duration 12 h"): -EINVAL with one line in err that says what was
 * likely meant ("--duration 12h?"), else 0. A bare number stays what the
 * key says (seconds, bytes, a count); its unit, apart, never becomes a
 * target.
 */
int settings_unit_apart(const struct settings_key *k, const char *value,
			const char *next, char *err, size_t errlen);

const char *settings_mode_name(int mode);

/* The value of key as text, as settings_set() reads it; NULL if no key. */
const char *settings_get(const struct settings *s, const char *key, char *buf,
			 size_t len);

/* Where the value of key came from ("default", "kiln.cfg", ...). */
const char *settings_source(const struct settings *s, const char *key);

/*
 * The profile fills in what the settings left open: smoke a quick span,
 * soak 12 h of passes, powercut one pass written (kiln run's alone),
 * erase no pass at all: end=sanitize (sanitize-fallback=zero) unless given.
 */
void settings_apply_profile(struct settings *s);

/* Writes a size for a person: 1.5 GiB, 512 MiB, 4 KiB, 100 B. */
char *settings_fmt_size(uint64_t bytes, char *buf, size_t len);

/*
 * A size key's value as the user wrote it (3k, quick:4k), else bytes as
 * settings_fmt_size() says them: a message about --bs 3k that says 3072
 * sends the user looking for a 3072.
 */
const char *settings_size_given(const struct settings *s, const char *key,
				uint64_t bytes, char *buf, size_t len);

/*
 * kiln.cfg(5)'s list of keys, made from the key table (kiln --man keys;
 * tests/unit/settings.c holds docs/kiln.cfg.5 to it): each key's help,
 * value, kiln run's default and another command's beside it where it
 * differs, and who takes it.
 */
void settings_man(FILE *f);

#endif
