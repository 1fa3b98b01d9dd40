/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's entry point: picks the subcommand. Each command's
 * usage and options stand beside its code (kiln CMD --help); this file
 * only lists them.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/burn.h"
#include "cmd/burncmd.h"
#include "cmd/finish.h"
#include "fleet/fleet.h"
#include "discover/inventory.h"
#include "base/kiln.h"
#include "settings/options.h"
#include "cmd/probe.h"
#include "cmd/run.h"
#include "base/version.h"

static int version_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("kiln %s\n", version_string());
	return KILN_EXIT_PASS;
}

static const struct command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "burn", burncmd_main, "burn in block devices or regular files" },
	{ "discover", discover_main, "the machine, its storage controllers "
	  "and every disk,\n\t\t   with its safety class" },
	{ "finish", finish_main, "finish run folders a power cut left "
	  "unfinished, from\n\t\t   their newest good checkpoint" },
	{ "fleet", fleet_main, "one page and a CSV of every machine's runs "
	  "under results\n\t\t   trees" },
	{ "probe", probe_main, "the safety class of disks or image files" },
	{ "run", run_main, "the boot image's automatic flow: settings, "
	  "discovery, plan,\n\t\t   countdown, burn, results" },
	{ "settings", options_settings_main, "the settings in force and where "
	  "each came from" },
	{ "version", version_main, "print kiln's version" },
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
		fprintf(f, "  %-16s %s\n", commands[i].name, commands[i].what);
	fputs("\n`kiln COMMAND --help` shows a command's options. Exit codes: "
	      "0 nothing failed,\n1 a disk or the machine failed, 2 bad "
	      "usage, 3 could not run or results\nnot written, 4 "
	      "interrupted.\n", f);
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
		return version_main(argc - 1, argv + 1);
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "kiln: unknown command '%s' (try kiln help)\n", cmd);
	return KILN_EXIT_USAGE;
}
