/* SPDX-License-Identifier: MIT */
/*
 * Description: credentials masked in text kiln writes: a URL's password
 * (the user name stays), a URL's user part that holds no ':', the value
 * of auth-token in each of its spellings (kiln.cfg, the kernel command
 * line, kiln's options with '=' and with a space), registered secrets
 * wherever they appear, several in one line, text with none left as it
 * is, and a short buffer cut, never overrun.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/secret.h"

static void check(const char *text, const char *want, const char *what)
{
	char buf[512];

	secret_mask(text, buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, want), "%s", what))
		tap_diag("got '%s', want '%s'", buf, want);
}

int main(int argc, char **argv)
{
	char small[12], *m;

	tap_args(argc, argv);
	tap_plan(16);
	check("upload=https://m1:pw%40x@lab:8443/k/",
	      "upload=https://m1:***@lab:8443/k/",
	      "a URL's password is masked, its user name stays");
	check("http://tok3n@lab/", "http://***@lab/",
	      "a user part with no ':' is masked whole");
	check("see http://lab/a@b/c", "see http://lab/a@b/c",
	      "an '@' in the path is not a user part");
	check("kiln.auth-token=s3cr3t quiet", "kiln.auth-token=*** quiet",
	      "auth-token on the kernel command line");
	check("auth-token=s3cr3t", "auth-token=***", "auth-token in kiln.cfg");
	check("--auth-token=s3cr3t", "--auth-token=***",
	      "--auth-token=VALUE as an option");
	check("kiln run --auth-token s3cr3t --bs 1M",
	      "kiln run --auth-token *** --bs 1M",
	      "--auth-token VALUE as an option");
	check("my-auth-token-x=1", "my-auth-token-x=1",
	      "a longer name holding auth-token is not the key");
	check("Command line: BOOT_IMAGE=/k kiln.upload=http://a:b@h/ "
	      "kiln.auth-token=T1x kiln.metrics=https://c:d@g:9091/",
	      "Command line: BOOT_IMAGE=/k kiln.upload=http://a:***@h/ "
	      "kiln.auth-token=*** kiln.metrics=https://c:***@g:9091/",
	      "several in one kernel command line");
	check("no secrets here: http://lab/k/", "no secrets here: http://lab/k/",
	      "text with none is left as it is");
	tap_ok(secret_add("hunter22") == 0, "a secret is registered");
	check("curl: (67) Login denied for hunter22 at lab",
	      "curl: (67) Login denied for *** at lab",
	      "a registered secret is masked wherever it appears");
	secret_add("ab");
	check("abc", "abc", "a secret shorter than 4 bytes is not registered");
	secret_mask("http://user:password@lab/", small, sizeof(small));
	tap_ok(strlen(small) == sizeof(small) - 1 &&
	       !strstr(small, "pass"), "a short buffer is cut, never overrun");
	m = secret_masked("x hunter22 y");
	tap_ok(m && !strcmp(m, "x *** y"), "secret_masked: a new string");
	free(m);
	secret_reset();
	check("hunter22", "hunter22", "secret_reset forgets them");
	return tap_done();
}
