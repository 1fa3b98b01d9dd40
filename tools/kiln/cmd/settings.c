/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln settings [--get KEY]: the settings in force for kiln
 * run, read as kiln run reads them (main's start does that), each key
 * with its value, where that came from, its default and what it does;
 * --get KEY one value, as the init reads them.
 */
#include <stdio.h>

#include "base/kiln.h"
#include "cmd/settings.h"
#include "settings/settings.h"

const struct options_cmd settings_cmd = {
	"settings", "[--get KEY] [--config FILE] [--cmdline FILE] "
	"[--results ROOT] [--KEY=VALUE]...",
	"The settings in force for kiln run: the built-in defaults, then "
	"kiln.cfg, then kiln.KEY=VALUE on the kernel command line, then the "
	"options given here; the later wins. Each key is listed with its "
	"value, where that came from, its default and what it does. --get "
	"KEY prints one value, as the init reads them. A bad key or value "
	"anywhere is an error (exit 2).",
	SCOPE_RUN | SCOPE_SETTINGS,
};

int settings_command(struct options_args *a)
{
	const struct settings_problems *p = &a->problems;
	const struct settings *s = &a->s;
	const struct settings_key *k;
	char val[512], err[400];
	int i, code = KILN_EXIT_PASS;

	for (i = 0; i < p->n; i++)
		fprintf(stderr, "kiln: bad setting: %s\n", p->text[i]);
	if (p->n)
		code = KILN_EXIT_USAGE;
	if (s->get) {
		k = settings_key(s->get);
		if (!k || (k->scope & SCOPE_OPTION_ONLY)) {
			fprintf(stderr, "kiln: unknown setting '%s'\n", s->get);
			code = KILN_EXIT_USAGE;
		} else {
			/*
			 * The value in force even when another key is bad: the
			 * init still needs "after" to end the boot the way the
			 * lab asked.
			 */
			printf("%s\n",
			       settings_get(s, s->get, val, sizeof(val)));
		}
	} else {
		for (i = 0; (k = settings_key_at(i)); i++) {
			if (k->scope & SCOPE_OPTION_ONLY)
				continue;
			settings_get(s, k->name, val, sizeof(val));
			printf("%-13s %-24s %s\n", k->name, val[0] ? val : "-",
			       settings_source(s, k->name));
			snprintf(err, sizeof(err), "%s; default %s", k->help,
				 settings_key_default(k, SCOPE_RUN));
			options_wrap(stdout, 14, err);
		}
	}
	return code;
}
