/* SPDX-License-Identifier: MIT */
#ifndef KILN_ROFF_H
#define KILN_ROFF_H

#include <stdio.h>

/*
 * Text for the man pages (docs/kiln.1, docs/kiln.cfg.5), which kiln
 * prints itself from the tables the commands are run from (kiln --man):
 * the usage strings, the key table and the safety decision. These write
 * any of their text as man(7) reads it, in lines mandoc -T lint takes.
 */

/*
 * Writes text as lines of man(7) input of at most 80 bytes (a longer
 * word alone), then a newline: a backslash as \e, a line that would
 * start with . or ' guarded by \&, and each `span` in backquotes (as the
 * usage strings and tables write names) in bold with its dashes as \-
 * (an option, a path: what is typed).
 */
void roff_text(FILE *f, const char *text);

/*
 * The same for text typed as it stands (a synopsis): every dash as \-,
 * no span in bold.
 */
void roff_typed(FILE *f, const char *text);

/*
 * A name typed as it stands, inside a line (an option's, a key's): its
 * dashes as \-, a backslash as \e, a double quote as \(dq, so it can
 * stand in a quoted macro argument. No newline.
 */
void roff_literal(FILE *f, const char *text);

#endif
