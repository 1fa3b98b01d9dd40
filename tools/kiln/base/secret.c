/* SPDX-License-Identifier: MIT */
/*
 * Description: credentials masked in text kiln writes or prints (see
 * secret.h). One walk over the text: a URL's user part, the value of
 * auth-token in any of its spellings, and every registered secret each
 * become "***". Text of any length, so the kernel log with its command
 * line goes through it as a whole.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/secret.h"

#define SECRET_MAX 16
#define SECRET_MIN 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *secrets[SECRET_MAX];
static int nsecrets;

static const char token_key[] = "auth-token";

int secret_add(const char *value)
{
	int i, ret = 0;

	if (!value || strlen(value) < SECRET_MIN)
		return 0;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nsecrets; i++)
		if (!strcmp(secrets[i], value))
			goto out;
	/* Full: the oldest goes; the newest are those in force. */
	if (nsecrets == SECRET_MAX) {
		free(secrets[0]);
		memmove(secrets, secrets + 1, sizeof(secrets[0]) *
			(SECRET_MAX - 1));
		nsecrets--;
	}
	secrets[nsecrets] = strdup(value);
	if (secrets[nsecrets])
		nsecrets++;
	else
		ret = -ENOMEM;
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

void secret_reset(void)
{
	pthread_mutex_lock(&lock);
	while (nsecrets)
		free(secrets[--nsecrets]);
	pthread_mutex_unlock(&lock);
}

/* A growing output string; on no memory it stops growing, ok turns 0. */
struct out {
	char *s;
	size_t len, cap;
	int ok;
};

static void put(struct out *o, const char *p, size_t n)
{
	if (!o->ok)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *s = realloc(o->s, cap);

		if (!s) {
			o->ok = 0;
			return;
		}
		o->s = s;
		o->cap = cap;
	}
	memcpy(o->s + o->len, p, n);
	o->len += n;
	o->s[o->len] = 0;
}

/* Where a URL's authority ends, or a value on a command line. */
static int ends_authority(char c)
{
	return !c || strchr("/?# \t\r\n\"'<>\\", c);
}

static int ends_value(char c)
{
	return !c || strchr(" \t\r\n\"'", c);
}

/*
 * At "://": the user part of the authority after it, if any, masked.
 * Returns how many bytes of text were taken (0: none, nothing put).
 */
static size_t url_user(const char *p, struct out *o)
{
	const char *a = p + 3, *end = a, *at = NULL, *colon;

	while (!ends_authority(*end)) {
		if (*end == '@')
			at = end;
		end++;
	}
	if (!at)
		return 0;
	put(o, p, 3);
	colon = memchr(a, ':', (size_t)(at - a));
	/* A user part with no ':' may be a token given as the user. */
	if (colon)
		put(o, a, (size_t)(colon - a + 1));
	put(o, SECRET_MASK, strlen(SECRET_MASK));
	return (size_t)(at - p);
}

/* At "auth-token": "=VALUE", or " VALUE" after "--", masked. */
static size_t token_value(const char *text, const char *p, struct out *o)
{
	size_t k = strlen(token_key);
	const char *v = p + k;

	if (p > text && !strchr(" \t\n-.\"'", p[-1]))
		return 0;
	if (*v == ' ' && p - text >= 2 && p[-1] == '-' && p[-2] == '-')
		while (*v == ' ')
			v++;
	else if (*v == '=')
		v++;
	else
		return 0;
	if (ends_value(*v))
		return 0;
	put(o, p, (size_t)(v - p));
	put(o, SECRET_MASK, strlen(SECRET_MASK));
	while (!ends_value(*v))
		v++;
	return (size_t)(v - p);
}

/* A registered secret at p: its length, 0 when none starts there. */
static size_t registered(const char *p)
{
	int i;

	for (i = 0; i < nsecrets; i++) {
		size_t n = strlen(secrets[i]);

		if (!strncmp(p, secrets[i], n))
			return n;
	}
	return 0;
}

char *secret_masked(const char *text)
{
	struct out o = { .ok = 1 };
	const char *p = text ? text : "";

	put(&o, "", 0);
	pthread_mutex_lock(&lock);
	while (*p) {
		size_t n = 0;

		if (!strncmp(p, "://", 3))
			n = url_user(p, &o);
		else if (!strncmp(p, token_key, strlen(token_key)))
			n = token_value(text, p, &o);
		if (!n && (n = registered(p)))
			put(&o, SECRET_MASK, strlen(SECRET_MASK));
		if (n) {
			p += n;
			continue;
		}
		put(&o, p++, 1);
	}
	pthread_mutex_unlock(&lock);
	if (!o.ok) {
		free(o.s);
		return NULL;
	}
	return o.s;
}

char *secret_mask(const char *text, char *out, size_t len)
{
	char *m = secret_masked(text);
	size_t n;

	if (!len)
		return out;
	/* No memory: nothing rather than what may hold a secret. */
	if (!m) {
		out[0] = 0;
		return out;
	}
	n = strlen(m) < len - 1 ? strlen(m) : len - 1;
	memcpy(out, m, n);
	out[n] = 0;
	free(m);
	return out;
}

int secret_takes_next(const char *arg)
{
	return !strcmp(arg, "--auth-token");
}
