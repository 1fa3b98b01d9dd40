/* SPDX-License-Identifier: MIT */
/*
 * Description: where settings come from (see options.h): the one command
 * line parser, each command's usage made from the key table, kiln.cfg,
 * the kernel command line, all read in one order (options_load) that
 * kiln run and kiln settings share, so the init never parses anything
 * twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/kiln.h"
#include "settings/options.h"

/* kiln.cfg is a few lines on a stick; anything this big is not one. */
#define CFG_MAX (1 << 20)
/* Far above any kernel's COMMAND_LINE_SIZE (2048 to 4096 bytes). */
#define CMDLINE_MAX (1 << 16)

void options_problem(struct settings_problems *p, const char *fmt, ...)
{
	va_list ap;

	if (!p || p->n == SETTINGS_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(p->text[p->n++], sizeof(p->text[0]), fmt, ap);
	va_end(ap);
}

int options_parse(struct settings *s, const struct options_cmd *cmd,
		  int argc, char **argv, char **args, int *nargs, char *err,
		  size_t errlen)
{
	int i, options = 1;

	*nargs = 0;
	for (i = 1; i < argc; i++) {
		const struct settings_key *k;
		const char *a = argv[i], *value, *eq;
		char name[64];
		size_t n;

		if (!options || a[0] != '-' || !a[1]) {
			args[(*nargs)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			options = 0;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return OPTIONS_HELP;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		k = NULL;
		if (a[1] == '-' && n < sizeof(name)) {
			memcpy(name, a + 2, n);
			name[n] = 0;
			k = settings_key(name);
		}
		if (k && !(k->scope & cmd->scope)) {
			/* A key of kiln's, not this command's: say whose. */
			char whose[300];

			settings_key_elsewhere(k, whose, sizeof(whose));
			snprintf(err, errlen, "%s (try kiln %s --help)", whose,
				 cmd->name);
			return -EINVAL;
		}
		if (!k) {
			snprintf(err, errlen,
				 "unknown option '%.*s' (try kiln %s "
				 "--help)",
				 (int)(eq ? eq - a : (long)strlen(a)) > 60
					 ? 60
					 : (int)(eq ? eq - a : (long)strlen(a)),
				 a, cmd->name);
			return -EINVAL;
		}
		if (eq) {
			value = eq + 1;
		} else if (settings_key_is_flag(k)) {
			/* --json 0 is no; --json x.img is 1, then a target. */
			if (i + 1 < argc &&
			    settings_flag_word(argv[i + 1]) >= 0)
				value = argv[++i];
			else
				value = "1";
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			snprintf(err, errlen, "--%s needs a value (%s)",
				 k->name, k->want);
			return -EINVAL;
		}
		/* --duration 12 h: never 12 s and a target named h. */
		if (settings_unit_apart(k, value, options && i + 1 < argc ?
					argv[i + 1] : NULL, err, errlen))
			return -EINVAL;
		if (settings_set(s, k, value, SOURCE_OPTION, err, errlen))
			return -EINVAL;
	}
	return 0;
}

/* Words wrapped at 79 columns, each line indented. */
void options_wrap(FILE *f, int indent, const char *text)
{
	const char *p = text;
	int col = indent;

	fprintf(f, "%*s", indent, "");
	while (*p) {
		int n = (int)strcspn(p, " \n");

		if (col > indent && col + 1 + n > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, p);
		col += n;
		p += n;
		if (*p == '\n') {
			fprintf(f, "\n\n%*s", indent, "");
			col = indent;
		}
		p += strspn(p, " \n");
	}
	fputc('\n', f);
}

/* Whether k has a default of its own when cmd's output is a terminal. */
static int on_tty(const struct settings_key *k, const struct options_cmd *cmd)
{
	return (cmd->scope & SCOPE_BURN) && k->other.def &&
	       (k->other.scope & SCOPE_TTY);
}

void options_usage(const struct options_cmd *cmd, FILE *f)
{
	const struct settings_key *k;
	char line[400];
	int i, listed = 0;

	fprintf(f, "usage: kiln %s%s%s\n\n", cmd->name, cmd->args[0] ? " " : "",
		cmd->args);
	options_wrap(f, 0, cmd->about);
	for (i = 0; (k = settings_key_at(i)); i++) {
		if (!(k->scope & cmd->scope))
			continue;
		if (!listed++)
			fprintf(f,
				"\nOptions (--KEY VALUE or --KEY=VALUE; a flag "
				"alone is 1, or takes 1/0, yes/no):\n");
		snprintf(line, sizeof(line), "%s; default %s%s%s%s", k->help,
			 settings_key_default(k, cmd->scope),
			 on_tty(k, cmd) ? " (" : "",
			 on_tty(k, cmd) ? settings_key_default(k, SCOPE_TTY) :
			 "", on_tty(k, cmd) ? " on a terminal)" : "");
		fprintf(f, "  --%s%s\n", k->name,
			settings_key_is_flag(k) ? "" : " VALUE");
		options_wrap(f, 6, line);
	}
	fputs("\nExit codes: 0 nothing failed (warnings are listed), 1 a disk "
	      "or the machine\nfailed, a disk is missing or nothing was "
	      "tested, 2 bad usage or setting\n(nothing touched), 3 could not "
	      "run or the results could not be written,\n4 interrupted with "
	      "nothing failed so far.\n", f);
}

/* A key read from kiln.cfg or the kernel command line. */
static void apply(struct settings *s, const char *where, const char *key,
		  const char *value, int source, struct settings_problems *p)
{
	const struct settings_key *k = settings_key(key);
	char err[240];

	if (!k) {
		options_problem(p, "%s: unknown setting '%.60s'", where, key);
		return;
	}
	if (k->scope & SCOPE_OPTION_ONLY) {
		options_problem(p, "%s: '%s' is an option of the command line, "
				"not a setting", where, key);
		return;
	}
	if (!(k->scope & (SCOPE_RUN | SCOPE_INIT))) {
		options_problem(p, "%s: '%s' is for kiln burn, not kiln run",
				where, key);
		return;
	}
	if (settings_set(s, k, value, source, err, sizeof(err)))
		options_problem(p, "%s: %s", where, err);
}

char *options_trim(char *t)
{
	char *end;

	while (*t == ' ' || *t == '\t')
		t++;
	end = t + strlen(t);
	while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = 0;
	return t;
}

/*
 * Keys the init reads before kiln starts (settle, net, after...): from
 * the lab server they would come too late to mean anything.
 */
static int init_key(const char *key)
{
	const struct settings_key *k = settings_key(key);

	return k && (k->scope & SCOPE_INIT);
}

/* KEY=VALUE lines of a file named name, each key's source source. */
static void cfg_text(struct settings *s, const char *text, size_t len,
		     const char *name, int source, struct settings_problems *p)
{
	char *copy = malloc(len + 1), *line, *next, *end, where[96];
	int n = 0;

	if (!copy) {
		options_problem(p, "%s: out of memory", name);
		return;
	}
	memcpy(copy, text, len);
	copy[len] = 0;
	line = copy;
	end = copy + len;
	/* Edited on any laptop: a BOM first, lines ending in LF, CRLF or CR. */
	if (len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	for (; line < end; line = next) {
		char *t, *eq, *value, *hash, *cut = line;

		n++;
		while (cut < end && *cut != '\r' && *cut != '\n')
			cut++;
		next = cut < end ? cut + 1 : end;
		if (cut + 1 < end && cut[0] == '\r' && cut[1] == '\n')
			next++;
		*cut = 0;
		/* A NUL would end the line, and with it the file, unseen. */
		if (memchr(line, 0, (size_t)(cut - line))) {
			options_problem(p, "%s line %d: a NUL byte in it",
					name, n);
			continue;
		}
		t = options_trim(line);
		/* A comment only at the start: a serial may hold '#'. */
		if (!*t || *t == '#')
			continue;
		snprintf(where, sizeof(where), "%.60s line %d", name, n);
		eq = strchr(t, '=');
		if (!eq) {
			options_problem(p, "%s: '%.60s' is not KEY=VALUE",
					where, t);
			continue;
		}
		*eq = 0;
		t = options_trim(t);
		if (source == SOURCE_LAB &&
		    (init_key(t) || !strcmp(t, "lab") ||
		     !strcmp(t, "lab-config"))) {
			options_problem(p, "%s: '%s' cannot come from the lab "
					"server (%s)", where, t, init_key(t) ?
					"the init reads it before kiln starts" :
					"it says where the lab server is");
			continue;
		}
		value = options_trim(eq + 1);
		/* Uncommenting "# max-writes=" gives the default, not an error. */
		if (!*value)
			continue;
		hash = strchr(value, '#');
		if (hash && hash > value &&
		    (hash[-1] == ' ' || hash[-1] == '\t')) {
			options_problem(p, "%s: '#' after the value of %s: a "
					"comment stands on its own line (a "
					"serial may hold '#')", where, t);
			continue;
		}
		apply(s, where, t, value, source, p);
	}
	free(copy);
}

void options_cfg_text(struct settings *s, const char *text, size_t len,
		      struct settings_problems *p)
{
	cfg_text(s, text, len, "kiln.cfg", SOURCE_CFG, p);
}

/*
 * The whole of a small file into a buffer of its own (NUL after len):
 * 0, -errno, or -EFBIG past max. Opened without blocking, so a FIFO given
 * by mistake is read as what it holds now, never waited on.
 */
static int read_small(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	char *buf;
	struct stat st;
	size_t got = 0;
	ssize_t r = 0;
	int err = 0;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	buf = malloc(max + 2);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got <= max &&
	       (r = read(fd, buf + got, max + 1 - got)) > 0)
		got += (size_t)r;
	if (r < 0 && errno != EAGAIN)
		err = -errno;
	else if (got > max)
		err = -EFBIG;
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[got] = 0;
	*out = buf;
	*len = got;
	return 0;
}

int options_cfg_file(struct settings *s, const char *path,
		     struct settings_problems *p)
{
	char *buf;
	size_t len;
	int ret = read_small(path, CFG_MAX, &buf, &len);

	if (ret == -EFBIG) {
		options_problem(p, "%s: larger than %d bytes: not a kiln.cfg",
				path, CFG_MAX);
		return 0;
	}
	if (ret)
		return ret;
	options_cfg_text(s, buf, len, p);
	free(buf);
	return 0;
}

void options_cmdline(struct settings *s, const char *cmdline,
		     struct settings_problems *p)
{
	const char *c = cmdline;
	char *word = malloc(strlen(cmdline) + 1);

	if (!word)
		return;
	while (*c) {
		size_t n = 0;
		int quoted = 0;
		char *eq;

		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		/* A word ends at a blank outside double quotes. */
		for (;
		     *c && (quoted || (*c != ' ' && *c != '\t' && *c != '\n'));
		     c++) {
			if (*c == '"')
				quoted = !quoted;
			else
				word[n++] = *c;
		}
		word[n] = 0;
		if (n <= 5 || memcmp(word, "kiln.", 5))
			continue;
		eq = strchr(word, '=');
		if (eq)
			*eq = 0;
		apply(s, "kernel command line", word + 5, eq ? eq + 1 : "1",
		      SOURCE_CMDLINE, p);
	}
	free(word);
}

int options_load(struct settings *s, const struct options_cmd *cmd,
		 int argc, char **argv, char **args, int *nargs,
		 struct settings_problems *p)
{
	return options_load_lab(s, cmd, argc, argv, args, nargs, p, NULL, 0,
				NULL);
}

int options_load_lab(struct settings *s, const struct options_cmd *cmd,
		     int argc, char **argv, char **args, int *nargs,
		     struct settings_problems *p, const char *lab,
		     size_t lab_len, const char *name)
{
	struct settings first;
	char cfg[PATH_MAX], err[240], *line;
	const char *config = NULL, *cmdline;
	size_t len;
	int ret;

	/* The options say where kiln.cfg and the command line are... */
	settings_defaults(&first, cmd->scope);
	ret = options_parse(&first, cmd, argc, argv, args, nargs, err,
			    sizeof(err));
	if (ret == OPTIONS_HELP) {
		settings_free(&first);
		return OPTIONS_HELP;
	}
	settings_defaults(s, cmd->scope);
	if (first.config) {
		config = first.config;
	} else if (first.results) {
		snprintf(cfg, sizeof(cfg), "%s/kiln.cfg", first.results);
		if (access(cfg, F_OK) == 0)
			config = cfg;
	}
	if (config) {
		ret = options_cfg_file(s, config, p);
		if (ret)
			options_problem(p, "cannot read %s: %s", config,
					strerror(-ret));
	}
	/* The lab server's, after the stick's: the PXE menu still wins. */
	if (lab)
		cfg_text(s, lab, lab_len, name, SOURCE_LAB, p);
	/* Given, it must be read whole; /proc/cmdline may be missing. */
	cmdline = first.cmdline ? first.cmdline : "/proc/cmdline";
	ret = read_small(cmdline, CMDLINE_MAX, &line, &len);
	if (ret == -EFBIG)
		options_problem(p, "%s: larger than %d bytes: not a kernel "
				"command line", cmdline, CMDLINE_MAX);
	else if (ret && first.cmdline)
		options_problem(p, "cannot read %s: %s", cmdline,
				strerror(-ret));
	else if (!ret && memchr(line, 0, len))
		options_problem(p, "%s: a NUL byte in it: not a kernel "
				"command line", cmdline);
	else if (!ret)
		options_cmdline(s, line, p);
	free(line);
	settings_free(&first);
	/* ...and then win over both. */
	ret = options_parse(s, cmd, argc, argv, args, nargs, err, sizeof(err));
	if (ret)
		options_problem(p, "%s", err);
	return 0;
}
