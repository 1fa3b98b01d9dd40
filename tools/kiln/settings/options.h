/* SPDX-License-Identifier: MIT */
#ifndef KILN_OPTIONS_H
#define KILN_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "settings/settings.h"

/*
 * Where settings come from, read one way for every command: kiln's own
 * command line (one parser, driven by the key table), kiln.cfg and the
 * kernel command line. Grammar (DESIGN.md "Settings"): --KEY=VALUE or
 * --KEY VALUE; a flag alone is 1, and a flag followed by a flag word
 * (1/0, yes/no, true/false, on/off) takes it as its value; a list
 * (destroy-data's serials) needs "="; names match whole, never by prefix.
 */

/* A command as its usage shows it: the text stands beside its code. */
struct options_cmd {
	const char *name;	/* "burn" */
	const char *args;	/* "[OPTIONS] TARGET..." */
	const char *about;	/* what it does, wrapped at 80 columns */
	unsigned scope;		/* the keys it takes (enum settings_scope) */
};

/*
 * What kiln's main read for a command before calling it (cmd/main.c's
 * table says what each command needs read and checked): the settings, the
 * words that are not options, and for the commands that say their own
 * problems (kiln run, kiln settings) the problems met on the way.
 */
struct options_args {
	int argc;		/* the command's own: argv[0] is its name */
	char **argv;
	struct settings s;
	char **args;		/* the targets (argc entries of room) */
	int nargs;
	struct settings_problems problems;
	/* --protect, each one checked to be a block device */
	dev_t protect[SETTINGS_MAX_PROTECT];
	int nprotect;
};

/* What options_parse() returns when --help asked for the usage. */
#define OPTIONS_HELP 1

/*
 * Reads argv (argv[0] is the command's name): options set keys in s, the
 * other words go to args (room for argc entries). 0, OPTIONS_HELP, or
 * -EINVAL with a one-line reason in err.
 */
int options_parse(struct settings *s, const struct options_cmd *cmd,
		  int argc, char **argv, char **args, int *nargs, char *err,
		  size_t errlen);

/* The command's usage: synopsis, text, every key it takes with its help. */
void options_usage(const struct options_cmd *cmd, FILE *f);

/*
 * Reads kiln.cfg text: KEY=VALUE a line, lines read whole whatever their
 * length, a UTF-8 BOM and CR or CRLF endings taken as they come, "#"
 * starting a comment only at the start of a line. Unknown keys and bad
 * values go to p with their line number; the good lines still apply.
 */
void options_cfg_text(struct settings *s, const char *text, size_t len,
		      struct settings_problems *p);

/* The same from a file: 0, or -errno when it cannot be read. */
int options_cfg_file(struct settings *s, const char *path,
		     struct settings_problems *p);

/* Applies the kiln.KEY=VALUE words of a kernel command line. */
void options_cmdline(struct settings *s, const char *cmdline,
		     struct settings_problems *p);

/*
 * kiln run's settings, in DESIGN.md's order: defaults, kiln.cfg (--config,
 * else RESULTS/kiln.cfg), the kernel command line (--cmdline, else
 * /proc/cmdline), then the options of argv; every problem goes to p.
 * Returns OPTIONS_HELP, or 0 (problems included); args get the words
 * that are not options.
 */
int options_load(struct settings *s, const struct options_cmd *cmd,
		 int argc, char **argv, char **args, int *nargs,
		 struct settings_problems *p);

/*
 * The same with the lab server's settings file (len bytes of lab, its
 * URL in name) read after kiln.cfg and before the kernel command line;
 * its keys the init reads before kiln starts, and lab and lab-config
 * themselves, are problems there.
 */
int options_load_lab(struct settings *s, const struct options_cmd *cmd,
		     int argc, char **argv, char **args, int *nargs,
		     struct settings_problems *p, const char *lab, size_t len,
		     const char *name);

/* Adds a problem to p (a line for people). */
__attribute__((format(printf, 2, 3)))
void options_problem(struct settings_problems *p, const char *fmt, ...);

/* Words wrapped at 79 columns, each line indented by indent. */
void options_wrap(FILE *f, int indent, const char *text);

/* A line of key=value text without the blanks around it (in place). */
char *options_trim(char *t);

#endif
