/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's entry point and the one table of its commands.
 * Each command's usage and options stand beside its code (kiln CMD
 * --help); this file says, per command, what its start needs (the
 * settings read as kiln run reads them, --protect checked, every key
 * checked together, how many targets), and does that start once for all:
 * defaults, the options, --help, the checks, then the command's function.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/deadline.h"
#include "base/kiln.h"
#include "base/version.h"
#include "cmd/burncmd.h"
#include "cmd/discover.h"
#include "cmd/finish.h"
#include "cmd/fleet.h"
#include "cmd/locate.h"
#include "cmd/manual.h"
#include "cmd/probe.h"
#include "cmd/report.h"
#include "cmd/run.h"
#include "cmd/settings.h"
#include "plan/plan.h"
#include "settings/options.h"

/* What a command's start needs, besides its options and --help. */
enum {
	/*
	 * Settings as kiln run has them: defaults, kiln.cfg, the kernel
	 * command line, then the options (options_load), instead of the
	 * defaults and the options alone.
	 */
	CMD_LOAD = 1 << 0,
	/* Every key checked against the others (settings_check). */
	CMD_CHECK = 1 << 1,
	/* --protect DEV: each must be a block device. */
	CMD_PROTECT = 1 << 2,
	/*
	 * The command says its problems itself, where they must be seen
	 * (kiln run: on every console and on the stick): main hands them
	 * over instead of stopping at the first one.
	 */
	CMD_SAYS_PROBLEMS = 1 << 3,
	/* No target needed when --from names a run record to take them. */
	CMD_TARGETS_FROM = 1 << 4,
};

/* No upper bound on the targets. */
#define ANY (-1)

static int version_command(struct options_args *a)
{
	(void)a;
	printf("kiln %s\n", version_string());
	return KILN_EXIT_PASS;
}

static const struct options_cmd version_cmd = {
	"version", "", "Prints kiln's version.", 0,
};

/*
 * A command: which keys it takes (--json, --protect, ...) is its usage's
 * scope in the key table (settings.c), so the parser, --help and the
 * table never disagree; the rest of its start is said here.
 */
static const struct command {
	const struct options_cmd *opts;	/* its name, usage and keys */
	int (*fn)(struct options_args *a);
	unsigned flags;
	int min, max;			/* how many targets */
	const char *none;		/* said when fewer than min */
	const char *what;		/* its line in kiln help */
} commands[] = {
	{ &burncmd_cmd, burncmd_command, CMD_CHECK | CMD_TARGETS_FROM, 1, ANY,
	  "no target given", "burn in block devices or regular files" },
	{ &discover_cmd, discover_command, CMD_PROTECT, 0, 0, NULL,
	  "the machine, its storage controllers and every disk,\n\t\t   "
	  "with its safety class" },
	{ &finish_cmd, finish_command, 0, 1, ANY, "no run folder given",
	  "finish run folders a power cut left unfinished, from\n\t\t   "
	  "their newest good checkpoint" },
	{ &fleet_cmd, fleet_command, 0, 1, ANY, "no results tree given",
	  "one page and a CSV of every machine's runs under results\n\t\t   "
	  "trees" },
	{ &locate_cmd, locate_command, 0, 1, 1, "no disk given",
	  "light (or clear) one disk's locate LED, in its enclosure\n\t\t   "
	  "bay" },
	{ &probe_cmd, probe_command, 0, 1, ANY, "no disk or image given",
	  "the safety class of disks or image files" },
	{ &report_cmd, report_command, 0, 1, ANY, "no run folder given",
	  "summary.txt and report.html of run folders made again\n\t\t   "
	  "from their result.json" },
	{ &run_cmd, run_command,
	  CMD_LOAD | CMD_PROTECT | CMD_CHECK | CMD_SAYS_PROBLEMS, 0, 0, NULL,
	  "the boot image's automatic flow: settings, discovery, plan,\n\t\t   "
	  "countdown, burn, results" },
	{ &settings_cmd, settings_command,
	  CMD_LOAD | CMD_CHECK | CMD_SAYS_PROBLEMS, 0, 0, NULL,
	  "the settings in force and where each came from" },
	{ &version_cmd, version_command, 0, 0, 0, NULL,
	  "print kiln's version" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: kiln COMMAND [OPTIONS] [TARGET...]\n\n"
	      "kiln burns in disks: it streams self-describing, CRC-checked "
	      "4 KiB units\nto every target at once, reads them back, and "
	      "judges each PASS, WARN or\nFAIL.\n\nCommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-16s %s\n", commands[i].opts->name,
			commands[i].what);
	fputs("\n`kiln COMMAND --help` shows a command's options. Exit codes: "
	      "0 nothing failed,\n1 a disk or the machine failed, 2 bad "
	      "usage, 3 could not run or results\nnot written, 4 "
	      "interrupted.\n", f);
}

/* Too few or too many targets: a problem, in the command's words. */
static void check_targets(const struct command *c, struct options_args *a)
{
	const char *name = c->opts->name;
	struct settings_problems *p = &a->problems;

	if (a->nargs < c->min &&
	    !((c->flags & CMD_TARGETS_FROM) && a->s.from))
		options_problem(p, "%s (try kiln %s --help)", c->none, name);
	else if (c->max == 0 && a->nargs > 0)
		options_problem(p, "kiln %s takes no targets: '%s'", name,
				a->args[0]);
	else if (c->max != ANY && a->nargs > c->max)
		options_problem(p, "kiln %s takes at most %d targets: '%s'",
				name, c->max, a->args[c->max]);
}

/* --protect DEV: every one a block device, or nothing starts. */
static void check_protect(struct options_args *a)
{
	int i;

	for (i = 0; i < a->s.nprotect; i++) {
		struct stat st;

		if (stat(a->s.protect[i], &st) < 0 || !S_ISBLK(st.st_mode)) {
			options_problem(&a->problems, "--protect %s: not a "
					"block device", a->s.protect[i]);
			continue;
		}
		a->protect[a->nprotect++] = st.st_rdev;
	}
}

/*
 * What every command's start does, in one order: the options (--help
 * wins), the targets, --protect, then every key together, which only
 * means something once each is good. A command that does not say its
 * own problems stops at the first, said on one line: exit 2.
 */
/*
 * The scope c's defaults are read for: kiln burn's on a terminal are a
 * person's (a line a second, as vmstat's); kiln run on the serial console
 * and kiln burn into a log keep their own.
 */
static unsigned defaults_of(const struct command *c)
{
	unsigned scope = c->opts->scope;

	if ((scope & SCOPE_BURN) && isatty(STDOUT_FILENO))
		scope |= SCOPE_TTY;
	return scope;
}

static int start(const struct command *c, struct options_args *a)
{
	char err[300];
	int ret, says;

	if (c->flags & CMD_LOAD) {
		ret = options_load(&a->s, c->opts, a->argc, a->argv, a->args,
				   &a->nargs, &a->problems);
	} else {
		settings_defaults(&a->s, defaults_of(c));
		ret = options_parse(&a->s, c->opts, a->argc, a->argv, a->args,
				    &a->nargs, err, sizeof(err));
		if (ret < 0)
			options_problem(&a->problems, "%s", err);
	}
	if (ret == OPTIONS_HELP) {
		options_usage(c->opts, stdout);
		return KILN_EXIT_PASS;
	}
	says = c->flags & CMD_SAYS_PROBLEMS;
	if (says || !a->problems.n)
		check_targets(c, a);
	if ((c->flags & CMD_PROTECT) && (says || !a->problems.n))
		check_protect(a);
	if ((c->flags & CMD_CHECK) && !a->problems.n &&
	    settings_check(&a->s, err, sizeof(err)))
		options_problem(&a->problems, "%s", err);
	if (a->problems.n && !says) {
		complain("%s", a->problems.text[0]);
		return KILN_EXIT_USAGE;
	}
	return c->fn(a);
}

static int run_command_at(const struct command *c, int argc, char **argv)
{
	struct options_args *a = calloc(1, sizeof(*a));
	int code;

	if (a)
		a->args = calloc((size_t)argc + 1, sizeof(*a->args));
	if (!a || !a->args) {
		complain("out of memory");
		free(a);
		return KILN_EXIT_CANNOT;
	}
	a->argc = argc;
	a->argv = argv;
	code = start(c, a);
	settings_free(&a->s);
	free(a->args);
	free(a);
	return code;
}

/*
 * kiln --man PART: a part of the man pages, printed from the tables kiln
 * runs from (make man splices each into docs/kiln.1 or docs/kiln.cfg.5,
 * and the tests hold the pages to it). Not in kiln help: it is the
 * build's, not the user's.
 */
static int man_command(const char *part)
{
	const struct options_cmd *cmds[NCOMMANDS];
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		cmds[i] = commands[i].opts;
	if (part && !strcmp(part, "synopsis"))
		manual_synopsis(stdout, cmds, (int)NCOMMANDS);
	else if (part && !strcmp(part, "commands"))
		manual_commands(stdout, cmds, (int)NCOMMANDS);
	else if (part && !strcmp(part, "keys"))
		settings_man(stdout);
	else if (part && !strcmp(part, "safety"))
		plan_man(stdout);
	else {
		complain("--man takes synopsis, commands, keys or safety");
		return KILN_EXIT_USAGE;
	}
	return fflush(stdout) ? KILN_EXIT_CANNOT : KILN_EXIT_PASS;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	size_t i;

	/* Under the init, stdout is a pipe to every console: line by line. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!cmd || !strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		usage(cmd ? stdout : stderr);
		return cmd ? KILN_EXIT_PASS : KILN_EXIT_USAGE;
	}
	if (!strcmp(cmd, "--version"))
		return version_command(NULL);
	if (!strcmp(cmd, "--man"))
		return man_command(argc == 3 ? argv[2] : NULL);
	for (i = 0; i < NCOMMANDS; i++) {
		int code;

		if (strcmp(cmd, commands[i].opts->name))
			continue;
		code = run_command_at(&commands[i], argc - 1, argv + 1);
		/* A close left behind must hold nothing of ours open. */
		fflush(NULL);
		deadline_release();
		return code;
	}
	fprintf(stderr, "kiln: unknown command '%s' (try kiln help)\n", cmd);
	return KILN_EXIT_USAGE;
}
