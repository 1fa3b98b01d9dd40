/* SPDX-License-Identifier: MIT */
/*
 * Description: SHA-256 gives FIPS 180-4's example digests and sha256sum's
 * answers at the lengths where the padding takes a second block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/sha256.h"

static void check(const char *data, size_t len, const char *want,
		  const char *what)
{
	char got[SHA256_HEX];

	sha256_hex(data, len, got);
	if (!tap_ok(!strcmp(got, want), "%s", what))
		tap_diag("got %s, want %s", got, want);
}

int main(int argc, char **argv)
{
	char a[1000];

	(void)argc;
	(void)argv;
	tap_plan(6);
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
	      "7852b855", "the empty string");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff6"
	      "1f20015ad", "abc (FIPS 180-4)");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	      "448 bits: the padding takes a second block");
	memset(a, 'a', sizeof(a));
	check(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
	      "55 bytes: the length fits the one block");
	check(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
	      "64 bytes: a whole block, then the padding");
	check(a, 1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3",
	      "1000 bytes");
	return tap_done();
}
