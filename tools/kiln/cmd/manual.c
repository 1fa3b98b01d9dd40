/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln(1)'s synopsis and command sections, printed from the
 * same usage strings and key table that kiln CMD --help prints (kiln
 * --man), so the page and the program cannot say two things.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/roff.h"
#include "cmd/manual.h"
#include "settings/settings.h"

void manual_synopsis(FILE *f, const struct options_cmd *const *cmds, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fprintf(f, "%s.B kiln %s\n", i ? ".br\n" : "", cmds[i]->name);
		if (cmds[i]->args[0])
			roff_typed(f, cmds[i]->args);
	}
}

/* An option of the command line alone, said in full. */
static void option(FILE *f, const struct options_cmd *c,
		   const struct settings_key *k, char *text, size_t len)
{
	fprintf(f, ".TP\n.B \\-\\-");
	roff_literal(f, k->name);
	fprintf(f, "%s\n", settings_key_is_flag(k) ? "" : " \\fIVALUE\\fR");
	snprintf(text, len, "%s. Value: %s; default: %s.", k->help, k->want,
		 settings_key_default(k, c->scope));
	roff_text(f, text);
}

/* Whether c takes k as a setting (one kiln.cfg(5) says). */
static int setting_of(const struct options_cmd *c,
		      const struct settings_key *k)
{
	return (k->scope & c->scope) && !(k->scope & SCOPE_OPTION_ONLY);
}

/* The settings c takes, by name, and the defaults that are c's own. */
static void settings_of(FILE *f, const struct options_cmd *c, char *text,
			size_t len)
{
	const struct settings_key *k;
	size_t at = 0;
	int i, n = 0, own = 0;

	for (i = 0; (k = settings_key_at(i)); i++)
		if (setting_of(c, k) && at < len)
			at += (size_t)snprintf(text + at, len - at, "%s`%s`",
					       n++ ? ", " : "Settings, each "
					       "as `--KEY=VALUE` here "
					       "(kiln.cfg(5) says what each "
					       "does): ", k->name);
	for (i = 0; (k = settings_key_at(i)); i++) {
		const char *mine = settings_key_default(k, c->scope);

		if (setting_of(c, k) && at < len &&
		    strcmp(mine, settings_key_default(k, SCOPE_RUN)))
			at += (size_t)snprintf(text + at, len - at,
					       "%s`%s` %s", own++ ? ", " :
					       ". Defaults of its own: ",
					       k->name, mine);
	}
	if (n) {
		if (at < len)
			snprintf(text + at, len - at, ".");
		fprintf(f, ".PP\n");
		roff_text(f, text);
	}
}

void manual_commands(FILE *f, const struct options_cmd *const *cmds, int n)
{
	const struct settings_key *k;
	size_t len = 8192;
	char *text = malloc(len);
	int i, j, opts;

	if (!text) {
		fprintf(f, ".\\\" kiln --man: out of memory\n");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct options_cmd *c = cmds[i];

		fprintf(f, ".SS \"kiln %s\"\n.B kiln %s\n", c->name, c->name);
		if (c->args[0])
			roff_typed(f, c->args);
		fprintf(f, ".PP\n");
		roff_text(f, c->about);
		for (j = 0, opts = 0; (k = settings_key_at(j)); j++) {
			if (!(k->scope & c->scope) ||
			    !(k->scope & SCOPE_OPTION_ONLY))
				continue;
			if (!opts++)
				fprintf(f, ".PP\nOptions of the command "
					"line alone:\n");
			option(f, c, k, text, len);
		}
		settings_of(f, c, text, len);
	}
	free(text);
}
