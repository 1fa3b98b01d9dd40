/* SPDX-License-Identifier: MIT */
/*
 * Description: text written as man(7) input, for the man pages kiln
 * prints of its own tables (kiln --man).
 */
#include <stdio.h>
#include <string.h>

#include "base/roff.h"

/* mandoc -T lint's bound on an input line. */
#define ROFF_COLUMNS 80

/*
 * One word escaped into buf: code says whether a `span` is open (and is
 * kept across words), typed whether every dash is typed.
 */
static size_t word(char *buf, size_t room, const char *w, size_t n,
		   int *code, int typed)
{
	size_t len = 0, i;

	for (i = 0; i < n && len + 8 < room; i++) {
		const char *put = NULL;
		char one[2] = { w[i], 0 };

		if (w[i] == '`' && !typed)
			put = (*code = !*code) ? "\\fB" : "\\fR";
		else if (w[i] == '\\')
			put = "\\e";
		else if (w[i] == '-' && (*code || typed))
			put = "\\-";
		len += (size_t)snprintf(buf + len, room - len, "%s",
					put ? put : one);
	}
	return len;
}

static void lines(FILE *f, const char *text, int typed)
{
	char buf[512];
	size_t col = 0, len, n;
	int code = 0;

	for (;;) {
		text += strspn(text, " \n");
		if (!*text)
			break;
		n = strcspn(text, " \n");
		len = word(buf, sizeof(buf), text, n, &code, typed);
		text += n;
		if (col && col + 1 + len > ROFF_COLUMNS) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		if (!col && (buf[0] == '.' || buf[0] == '\'')) {
			fputs("\\&", f);
			col += 2;
		}
		fputs(buf, f);
		col += len;
	}
	if (code)
		fputs("\\fR", f);
	fputc('\n', f);
}

void roff_text(FILE *f, const char *text)
{
	lines(f, text, 0);
}

void roff_typed(FILE *f, const char *text)
{
	lines(f, text, 1);
}

void roff_literal(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '-')
			fputs("\\-", f);
		else if (*text == '\\')
			fputs("\\e", f);
		else if (*text == '"')
			fputs("\\(dq", f);
		else
			fputc(*text, f);
	}
}
