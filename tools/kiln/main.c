/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's entry point: picks the subcommand and holds the
 * usage text that --help prints.
 */
#include <stdio.h>
#include <string.h>

#include "burn.h"
#include "kiln.h"
#include "run.h"
#include "survey.h"
#include "version.h"


static const char usage[] =
"usage: kiln COMMAND [OPTIONS] [TARGET...]\n"
"\n"
"kiln burns in disks: it streams self-describing, CRC-checked 4 KiB units\n"
"to every target at once, reads them back, and judges each PASS, WARN or\n"
"FAIL.\n"
"\n"
"Commands:\n"
"  burn TARGET...   burn in block devices or regular files\n"
"  discover         list the machine, its storage controllers and every disk\n"
"                   with its safety class (--json, --protect DEV,\n"
"                   --sysfs-root DIR to read a captured sysfs tree)\n"
"  probe PATH...    the safety class of disks or image files (--json)\n"
"  run              the boot image's automatic flow: settings, discovery,\n"
"                   choice of disks, countdown, burn of them all, results\n"
"                   (--results ROOT, --protect DEV, --config FILE,\n"
"                   --cmdline FILE, --KEY=VALUE)\n"
"  settings         the settings in force and where each came from\n"
"                   (--get KEY prints one value; options as for run)\n"
"  version          print kiln's version\n"
"  help             print this text\n"
"\n"
"kiln burn options (--KEY VALUE or --KEY=VALUE):\n"
"  --mode MODE        write-verify (default): write a pass, read it back\n"
"                     and check every unit; write: write only (then verify\n"
"                     after a power cycle); verify: check what an earlier\n"
"                     write left (needs --run-id); read: read, check nothing\n"
"  --bs SIZE          bytes a request: 128k, 1M (default), 4M\n"
"  --qd N             requests in flight per target (default 8)\n"
"  --passes N         passes to make (default 1, or as many as --duration\n"
"                     allows); each pass writes a new pass number\n"
"  --duration TIME    repeat passes until this much time has gone: 90s, 30m,\n"
"                     12h, 2d; a pass it cuts short verifies what it wrote\n"
"  --offset SIZE      start this far into each target (default 0)\n"
"  --span SIZE        test this much from --offset (default: to the end);\n"
"                     quick or quick:SIZE tests SIZE (3 GiB) in three pieces\n"
"                     at the start, middle and end\n"
"  --max-writes N     at most N whole-target writes, then passes only verify;\n"
"                     0: no cap (default: 2 on non-rotational disks, else 0)\n"
"  --run-id HEX       the run id units carry (default: random); --mode verify\n"
"                     needs the id of the write it checks\n"
"  --out DIR          the run folder: summary.txt, result.json, samples.csv,\n"
"                     checkpoints, bad units\n"
"  --interval S       seconds between status lines (default 10)\n"
"  --json             the result document on stdout, the rest on stderr\n"
"  --size SIZE        create a missing target as a file of this size\n"
"  --deadline S       a request unanswered this long stalls its target\n"
"                     (default 60)\n"
"  --checkpoint S     seconds between result checkpoints (default 60)\n"
"  --max-detail N     errors and bad units listed per target (default 100)\n"
"  --save-units N     bad units saved whole per target (default 4)\n"
"\n"
"  --destroy-data     consent to overwrite targets that hold data: 1 for\n"
"                     all, or a list of serials and WWNs, comma separated\n"
"\n"
"Safety: every disk has a class: in-use (mounted, held by md/dm, swap, or\n"
"protected) is never touched; kiln-data (written by kiln before) and blank\n"
"(no partition table, filesystem, volume or RAID signature at its start or\n"
"end) may be written; has-data needs --destroy-data. A file is written when\n"
"kiln creates it, it is empty, or it holds kiln data.\n"
"\n"
"Exit codes: 0 no target failed (warnings are listed), 1 a target failed,\n"
"2 bad usage (nothing touched), 3 could not run, 4 interrupted before the\n"
"end with no failure so far.\n"
"\n"
"KILN_CRC32C=portable|sse42|pclmul|vpclmul forces a CRC32C implementation.\n";

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	int ret;

	/* Under the init, stdout is a pipe to every console: line by line. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!cmd || !strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		fputs(usage, cmd ? stdout : stderr);
		return cmd ? KILN_EXIT_PASS : KILN_EXIT_USAGE;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("kiln %s\n", version_string());
		return KILN_EXIT_PASS;
	}
	if (!strcmp(cmd, "burn") || !strcmp(cmd, "discover") ||
	    !strcmp(cmd, "probe") || !strcmp(cmd, "run") ||
	    !strcmp(cmd, "settings")) {
		if (!strcmp(cmd, "burn"))
			ret = burn_main(argc - 1, argv + 1);
		else if (!strcmp(cmd, "discover"))
			ret = survey_discover_main(argc - 1, argv + 1);
		else if (!strcmp(cmd, "probe"))
			ret = survey_probe_main(argc - 1, argv + 1);
		else if (!strcmp(cmd, "run"))
			ret = run_main(argc - 1, argv + 1);
		else
			ret = run_settings_main(argc - 1, argv + 1);
		if (ret == KILN_HELP) {
			fputs(usage, stdout);
			return KILN_EXIT_PASS;
		}
		return ret;
	}
	fprintf(stderr, "kiln: unknown command '%s' (try kiln help)\n", cmd);
	return KILN_EXIT_USAGE;
}
