#!/bin/sh
# needs: kiln
# make check-layers (scripts/check-layers.sh) on kiln's own tree and on
# small made-up ones: an include that points up, one that names no
# folder, a file outside the folders, a folder not in docs/design.md's
# order, a file its table leaves out and a .c file over 600 lines each
# fail with the file and the line; a tree that keeps the rule passes. No
# root needed.
. "$(dirname "$0")/../lib/tap.sh"

CHECK="$TOP/scripts/check-layers.sh"
T="$TEST_TMP/tree"

# tree: a two-folder tree that keeps the rule (docs/design.md names all).
tree () {
	rm -rf "$T"
	mkdir -p "$T/docs" "$T/tools/kiln/low" "$T/tools/kiln/high"
	cat >"$T/docs/design.md" <<-'DOC'
	The folders, lowest first: low, high.

	`a.c`, `b.c`
	DOC
	printf '#include "low/a.h"\n' >"$T/tools/kiln/low/a.c"
	: >"$T/tools/kiln/low/a.h"
	printf '#include <stdio.h>\n\n#include "low/a.h"\n#include "high/b.h"\n' \
		>"$T/tools/kiln/high/b.c"
	: >"$T/tools/kiln/high/b.h"
}

test_expect_success "kiln's own tree keeps the rule" '
	sh "$CHECK" "$TOP" 2>out &&
	test_eq "$(cat out)" ""
'

test_expect_success 'a tree that keeps it passes' '
	tree &&
	sh "$CHECK" "$T"
'

test_expect_success 'an include that points up fails, naming file and line' '
	tree &&
	printf "\n#include \"high/b.h\"\n" >>"$T/tools/kiln/low/a.c" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 1 "exit code"; } &&
	grep -q "^tools/kiln/low/a.c:3: includes \"high/b.h\": high is above low" out
'

test_expect_success 'an include without its folder fails' '
	tree &&
	printf "#include \"a.h\"\n" >"$T/tools/kiln/low/a.c" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 1 "exit code"; } &&
	grep -q "^tools/kiln/low/a.c:1: includes \"a.h\": name its folder" out
'

test_expect_success 'a file outside the folders, or in one not in the order, fails' '
	tree &&
	: >"$T/tools/kiln/a.c" &&
	mkdir "$T/tools/kiln/side" && : >"$T/tools/kiln/side/b.c" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 1 "exit code"; } &&
	grep -q "^tools/kiln/a.c: not in a folder" out &&
	grep -q "^tools/kiln/side/b.c: folder side is not in" out
'

test_expect_success "a file docs/design.md's table leaves out fails" '
	tree &&
	: >"$T/tools/kiln/low/c.c" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 1 "exit code"; } &&
	grep -q "^tools/kiln/low/c.c: not in docs/design.md" out
'

test_expect_success 'a .c file of 600 lines passes, one of 601 fails, named' '
	tree &&
	{ printf "#include \"low/a.h\"\n"; yes "" | head -n 599; } \
		>"$T/tools/kiln/low/a.c" &&
	test_eq "$(wc -l <"$T/tools/kiln/low/a.c")" 600 "lines" &&
	sh "$CHECK" "$T" &&
	echo >>"$T/tools/kiln/low/a.c" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 1 "exit code"; } &&
	grep -q "^tools/kiln/low/a.c: 601 lines, over 600" out
'

test_expect_success 'a header over 600 lines is not held to it' '
	tree &&
	yes "" | head -n 700 >"$T/tools/kiln/low/a.h" &&
	sh "$CHECK" "$T"
'

test_expect_success 'no order in docs/design.md: exit 2, said' '
	tree &&
	: >"$T/docs/design.md" &&
	{ sh "$CHECK" "$T" 2>out; test_eq $? 2 "exit code"; } &&
	grep -q "no line \"The folders, lowest first" out
'

test_done
