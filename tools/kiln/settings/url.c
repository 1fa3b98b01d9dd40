/* SPDX-License-Identifier: MIT */
/*
 * Description: the lab's URLs read with what goes with them (see
 * settings_url in settings.h): the URL's own parts and user part, the
 * auth-token, and the CA to trust, found where a lab puts it: on the
 * stick beside kiln.cfg, or built into the image for machines that boot
 * from the network with no stick.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/http_url.h"
#include "settings/settings.h"

int settings_url(const struct settings *s, const char *text,
		 struct http_url *u, char *err, size_t len)
{
	int ret = http_url_parse(text, u, err, len);
	int n;

	if (ret)
		return ret;
	if (s->auth_token) {
		if (strlen(s->auth_token) >= sizeof(u->token) ||
		    strpbrk(s->auth_token, "\r\n\t\"\\ ")) {
			complain_to(err, len, "auth-token must be one word "
				    "of at most %zu bytes", sizeof(u->token) - 1);
			return -EINVAL;
		}
		snprintf(u->token, sizeof(u->token), "%s", s->auth_token);
	}
	if (s->ca && s->ca[0] != '/' && s->results)
		n = snprintf(u->ca, sizeof(u->ca), "%s/%s", s->results, s->ca);
	else if (s->ca)
		n = snprintf(u->ca, sizeof(u->ca), "%s", s->ca);
	else if (u->tls && !access(SETTINGS_LAB_CA, R_OK))
		n = snprintf(u->ca, sizeof(u->ca), "%s", SETTINGS_LAB_CA);
	else
		n = 0;
	if (n < 0 || (size_t)n >= sizeof(u->ca)) {
		complain_to(err, len, "the path of ca is too long");
		return -EINVAL;
	}
	if (s->ca && access(u->ca, R_OK)) {
		complain_to(err, len, "cannot read ca %s: %s", u->ca,
			    strerror(errno));
		return -EINVAL;
	}
	return 0;
}
