/* SPDX-License-Identifier: MIT */
#ifndef KILN_SETTINGS_H
#define KILN_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

/*
 * kiln's settings: one set of keys, the same on the command line
 * (--KEY=VALUE or --KEY VALUE), in kiln.cfg (KEY=VALUE) and on the kernel
 * command line (kiln.KEY=VALUE). This file owns the keys, their defaults
 * and how their values are read; it knows nothing of what they do.
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
};

/* What the image does after a run (the init reads it). */
enum settings_after {
	SETTINGS_WAIT,		/* keep the verdict on screen */
	SETTINGS_POWEROFF,
	SETTINGS_REBOOT,
	SETTINGS_SHELL,
};

/* Where a setting's value came from, for kiln settings and the results. */
enum settings_source {
	SOURCE_DEFAULT,
	SOURCE_CFG,		/* kiln.cfg */
	SOURCE_CMDLINE,		/* the kernel command line */
	SOURCE_OPTION,		/* kiln's own command line */
};

#define SETTINGS_MAX_KEYS 40
#define SETTINGS_MAX_PROBLEMS 16

/* Unknown keys and bad values met while reading kiln.cfg or a command line. */
struct settings_problems {
	int n;
	char text[SETTINGS_MAX_PROBLEMS][200];
};

struct settings {
	int mode;			/* enum settings_mode */
	uint64_t bs;			/* bytes a request */
	unsigned qd;			/* requests in flight a target */
	unsigned passes;		/* 0: one, unless duration says more */
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
	int json;			/* result document on stdout */
	int destroy_data;		/* consent to overwrite every has-data */
	char *destroy_list;		/* ...or only these serials or WWNs */
	char *include;			/* disks to test, by glob; NULL: all */
	char *exclude;			/* disks never to touch, by glob */
	uint64_t size;			/* size of a file kiln creates */
	unsigned deadline;		/* seconds before a request is stalled */
	unsigned checkpoint;		/* seconds between result checkpoints */
	unsigned max_detail;		/* errors and bad units listed a target */
	unsigned save_units;		/* bad units saved a target */
	int profile;			/* enum settings_profile */
	unsigned countdown;		/* seconds before destructive work */
	int after;			/* enum settings_after */
	unsigned settle;		/* seconds the init waits for disks */
	unsigned expect_disks;		/* fewer found is a FAIL; 0: any */
	char *iperf;			/* HOST[:PORT]: iperf3 beside the burn */
	unsigned char source[SETTINGS_MAX_KEYS];	/* per key */
};

/* Fills in the built-in defaults. */
void settings_defaults(struct settings *s);

/* Frees what settings_set() allocated. */
void settings_free(struct settings *s);

/*
 * Sets key (without dashes) from its text value: 0, -ENOENT for an unknown
 * key, -EINVAL for a bad value; err gets a one-line reason either way.
 */
int settings_set(struct settings *s, const char *key, const char *value,
		 char *err, size_t errlen);

/*
 * Reads a command line: options set keys, the rest are collected in args
 * (which must hold argc entries). Returns 0, or -EINVAL with err filled.
 * "--help" or "-h" returns 1.
 */
int settings_parse_argv(struct settings *s, int argc, char **argv,
			char **args, int *nargs, char *err, size_t errlen);

/*
 * Checks what no single value shows: settings that are wrong together or
 * for every target (bs not a multiple of 4 KiB). Every command calls it
 * before anything else: 0, or -EINVAL with a one-line reason in err.
 */
int settings_check(struct settings *s, char *err, size_t errlen);

/* Value readers, shared with whoever reads sizes and times. */
int settings_parse_size(const char *text, uint64_t *out);
int settings_parse_duration(const char *text, uint64_t *seconds);
int settings_parse_uint(const char *text, unsigned max, unsigned *out);

const char *settings_mode_name(int mode);

/*
 * Reads kiln.cfg: KEY=VALUE a line, # comments, blank lines. Unknown keys
 * and bad values are kept in p (with the line number), never skipped in
 * silence; the good lines still apply. -errno when the file cannot be read.
 */
int settings_load_cfg(struct settings *s, const char *path,
		      struct settings_problems *p);

/* Applies the kiln.KEY=VALUE words of a kernel command line. */
void settings_load_cmdline(struct settings *s, const char *cmdline,
			   struct settings_problems *p);

/* The value of key as text, as settings_set() reads it; NULL if no such key. */
const char *settings_get(const struct settings *s, const char *key, char *buf,
			 size_t len);

/* The i-th key's name, NULL past the last: for listing them all. */
const char *settings_key(int i);

/* Where the value of key came from. */
const char *settings_source(const struct settings *s, const char *key);

/* Writes a size for a person: 1.5 GiB, 512 MiB, 4 KiB, 100 B. */
char *settings_fmt_size(uint64_t bytes, char *buf, size_t len);

#endif
