#!/bin/sh
# needs: kiln
# make check-layers holds tools/kiln/ to calling no circle between files
# (scripts/check-circles.py), judged on where functions are defined and
# called, not on includes: a copy of kiln's tree passes; two files that
# call each other planted in it fail it, named with the calls that close
# the circle, whether they share a header or not, and whether the call
# back is a call or a function handed over as a callback; a circle of
# scripts/circles.known passes, a line there no circle matches fails;
# a global read in another file fails. No root needed.
. "$(dirname "$0")/../lib/tap.sh"

T="$TEST_TMP/tree"
K="$T/tools/kiln"

# tree: a fresh copy of what make check-layers reads.
tree () {
	rm -rf "$T" &&
	mkdir -p "$T/docs" "$T/tools" &&
	cp "$TOP/Makefile" "$T/" &&
	cp -R "$TOP/scripts" "$T/scripts" &&
	cp "$TOP/docs/design.md" "$T/docs/" &&
	cp -R "$TOP/tools/kiln" "$T/tools/kiln"
}

# layers: make check-layers in the copy, its output in out.
layers () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$T" OUT="$TEST_TMP/out" check-layers >out 2>&1
}

# plant A B: base/A.c and base/B.c, each calling the other's function (as
# the table of docs/design.md names them, so only the circle is wrong).
plant () {
	printf '#include "base/%s.h"\n#include "base/%s.h"\n\nint %s_go(int n)\n{\n\treturn n ? %s_go(n - 1) : 0;\n}\n' \
		"$1" "$2" "$1" "$2" >"$K/base/$1.c" &&
	printf '#include "base/%s.h"\n\nint %s_go(int n)\n{\n\treturn %s_go(n);\n}\n' \
		"$1" "$2" "$1" >"$K/base/$2.c" &&
	printf 'int %s_go(int n);\n' "$1" >"$K/base/$1.h" &&
	printf 'int %s_go(int n);\n' "$2" >"$K/base/$2.h" &&
	printf '\n`%s.c`, `%s.c`\n' "$1" "$2" >>"$T/docs/design.md"
}

test_expect_success "kiln's own tree calls no circle but those listed" '
	python3 "$TOP/scripts/check-circles.py" "$TOP" 2>out &&
	test_eq "$(cat out)" ""
'

test_expect_success 'a copy of the tree passes make check-layers' '
	tree &&
	layers
'

test_expect_success 'two files calling each other fail it, named with the calls' '
	tree &&
	plant circa circb &&
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "^circle: base/circa.c base/circb.c " out &&
	grep -q "^  tools/kiln/base/circa.c:6: calls circb_go (base/circb.c)" out &&
	grep -q "^  tools/kiln/base/circb.c:5: calls circa_go (base/circa.c)" out &&
	sh "$T/scripts/check-layers.sh" "$T" 2>out2;
	test_eq $? 1 "check-layers.sh exit code"
'

test_expect_success 'a circle through a _private.h, closed by a callback, fails' '
	tree &&
	cat >>"$K/cmd/burn_keep.c" <<-\EOF &&

	/* planted: the keeper hands back the finish that calls it */
	void *burn_keep_planted(void)
	{
		return (void *)burn_finish;
	}
	EOF
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "^circle: .*cmd/burn_finish.c cmd/burn_keep.c " out &&
	grep -q "^  tools/kiln/cmd/burn_keep.c:[0-9]*: names burn_finish (cmd/burn_finish.c)" out &&
	grep -q "^  tools/kiln/cmd/burn_finish.c:[0-9]*: calls burn_keep (cmd/burn_keep.c)" out
'

test_expect_success 'a circle three files long is one circle, all three named' '
	tree &&
	plant circa circb &&
	printf "int circc_go(int n)\n{\n\treturn circa_go(n);\n}\n" >"$K/base/circc.c" &&
	printf "\`circc.c\`\n" >>"$T/docs/design.md" &&
	sed -i "s/circa_go(n)/circc_go(n)/" "$K/base/circb.c" &&
	{ layers; test_eq $? 2; } &&
	grep -q "^circle: base/circa.c base/circb.c base/circc.c " out &&
	test_eq "$(grep -c "^circle:" out)" 1
'

test_expect_success 'comments, strings, members and own statics are no calls' '
	tree &&
	plant circa circb &&
	cat >"$K/base/circb.c" <<-\EOF &&
	/* circa_go(1) in a comment */
	// circa_go(2)
	struct s { int circa_go; };
	static int circa_go(int n) { return n; }
	int circb_go(int n)
	{
		struct s v = { .circa_go = 1 };
		const char *t = "circa_go(3)";
		char c = '"'"'c'"'"';

		(void)t; (void)c;
		return v.circa_go + circa_go(n);
	}
	EOF
	layers
'

test_expect_success 'a circle scripts/circles.known lists passes; one no longer there fails' '
	tree &&
	plant circa circb &&
	echo "base/circb.c base/circa.c # cut later" >>"$T/scripts/circles.known" &&
	layers &&
	echo "base/circx.c base/circy.c" >>"$T/scripts/circles.known" &&
	{ layers; test_eq $? 2; } &&
	grep -q "^scripts/circles.known:[0-9]*: base/circx.c base/circy.c: no longer a circle" out
'

test_expect_success 'a global read in another file fails; a const table does not' '
	tree &&
	printf "int circ_flag;\nconst int circ_table[2] = { 1, 2 };\n" >"$K/base/circa.c" &&
	printf "extern int circ_flag;\nextern const int circ_table[2];\n\nint circb_go(void)\n{\n\treturn circ_flag + circ_table[1];\n}\n" \
		>"$K/base/circb.c" &&
	printf "\n\`circa.c\`, \`circb.c\`\n" >>"$T/docs/design.md" &&
	{ layers; test_eq $? 2; } &&
	grep -q "^tools/kiln/base/circb.c:1: reads circ_flag, a global of base/circa.c" out &&
	! grep -q circ_table out
'

test_expect_success 'without universal-ctags: exit 2, said' '
	tree &&
	mkdir "$TEST_TMP/bin" &&
	ln -s "$(python3 -c "import sys; print(sys.executable)")" "$TEST_TMP/bin/python3" &&
	{ PATH="$TEST_TMP/bin" python3 "$T/scripts/check-circles.py" "$T" 2>out;
	  test_eq $? 2 "exit code"; } &&
	grep -q "cannot run universal-ctags" out
'

test_done
