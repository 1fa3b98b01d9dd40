/* SPDX-License-Identifier: MIT */
/*
 * Description: the names in the settings matched to disks (see plan.h):
 * consent (destroy-data: serials, WWNs, identities; a kernel name is none,
 * and is said so with what to give), include and exclude (globs of names,
 * serials, WWNs, models, controllers), and the words that match no disk,
 * said before anything is written.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan/plan.h"

/* The WWN without the designator kind: naa.5000c5... -> 5000c5... */
static const char *bare_wwn(const char *w)
{
	static const char *const kinds[] = { "naa.", "eui.", "t10.", "nvme.",
					     "0x" };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncasecmp(w, kinds[i], strlen(kinds[i])))
			return w + strlen(kinds[i]);
	return w;
}

/* An item of a comma separated list, where it is in the list. */
struct item {
	const char *s;
	size_t n;
};

/* The next item of the list at *p, blanks around it trimmed; 0 at the end. */
static int next_item(const char **p, struct item *it)
{
	while (*p && **p) {
		const char *s = *p + strspn(*p, ", \t");
		size_t n = strcspn(s, ",");

		*p = s + n;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n) {
			it->s = s;
			it->n = n;
			return 1;
		}
	}
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The next blank separated word of an item into word, the item shortened
 * past it; 0 at its end. A word of 256 bytes or more names nothing.
 */
static int next_word(struct item *it, char word[256])
{
	for (;;) {
		size_t k = 0;

		while (it->n && blank(*it->s)) {
			it->s++;
			it->n--;
		}
		if (!it->n)
			return 0;
		while (k < it->n && !blank(it->s[k]))
			k++;
		it->s += k;
		it->n -= k;
		if (k < 256) {
			memcpy(word, it->s - k, k);
			word[k] = 0;
			return 1;
		}
	}
}

/* The whole item into buf, when it has a blank in it and fits. */
static int whole_item(const struct item *it, char buf[256])
{
	if (it->n >= 256 || (!memchr(it->s, ' ', it->n) &&
			     !memchr(it->s, '\t', it->n)))
		return 0;
	memcpy(buf, it->s, it->n);
	buf[it->n] = 0;
	return 1;
}

/*
 * Calls fn on each item of a list separated by commas and, for an item
 * with blanks in it, first on the whole item ("Samsung SSD 870 EVO 1TB",
 * a model; the identity kiln prints) and then on each of its words ("sda
 * sdb", however long the list): a model with spaces in it must match as
 * what it is.
 */
static int find_word(const char *list,
		     int (*fn)(const char *word, const void *arg),
		     const void *arg, char *out, size_t len)
{
	char whole[256], word[256];
	const char *p = list;
	struct item it;

	while (next_item(&p, &it)) {
		if (whole_item(&it, whole) && fn(whole, arg)) {
			if (out)
				snprintf(out, len, "%s", whole);
			return 1;
		}
		while (next_word(&it, word))
			if (fn(word, arg)) {
				if (out)
					snprintf(out, len, "%s", word);
				return 1;
			}
	}
	return 0;
}

/* Whether fn holds for any word of the list (see find_word). */
static int any_word(const char *list,
		    int (*fn)(const char *word, const void *arg),
		    const void *arg)
{
	return find_word(list, fn, arg, NULL, 0);
}

/* A serial, a WWN (with or without naa./eui.), or the identity kiln prints. */
static int same_id(const char *word, const void *arg)
{
	const struct identity *id = arg;

	return (id->serial[0] && !strcasecmp(word, id->serial)) ||
	       (id->wwid[0] &&
		(!strcasecmp(word, id->wwid) ||
		 !strcasecmp(bare_wwn(word), bare_wwn(id->wwid)))) ||
	       (id->identity[0] && !strcmp(word, id->identity));
}

int plan_consent(const struct settings *s, const struct identity *id)
{
	if (s->destroy_data)
		return 1;
	return s->destroy_list && any_word(s->destroy_list, same_id, id);
}

/* The disk's kernel name, with or without /dev/: no consent, but meant. */
static int kernel_name(const char *word, const void *arg)
{
	const struct identity *id = arg;

	if (!strncmp(word, "/dev/", 5))
		word += 5;
	return id->name[0] && !strcmp(word, id->name);
}

static int same_id_or_name(const char *word, const void *arg)
{
	return same_id(word, arg) || kernel_name(word, arg);
}

int plan_names(const char *word, const struct identity *id)
{
	return word && word[0] && same_id_or_name(word, id);
}

void plan_consent_by_name(const struct settings *s, const struct identity *id,
			  char *out, size_t len)
{
	char word[256], give[800];

	out[0] = 0;
	if (!s->destroy_list || plan_consent(s, id) ||
	    !find_word(s->destroy_list, kernel_name, id, word, sizeof(word)))
		return;
	if (id->serial[0] && id->wwid[0])
		snprintf(give, sizeof(give), "serial %s or WWN %s", id->serial,
			 id->wwid);
	else if (id->serial[0] || id->wwid[0])
		snprintf(give, sizeof(give), "%s %s",
			 id->serial[0] ? "serial" : "WWN",
			 id->serial[0] ? id->serial : id->wwid);
	else
		snprintf(give, sizeof(give), "identity %.700s", id->identity);
	snprintf(out, len, "destroy-data names %s by its kernel name (%s), "
		 "which is no consent: names change when a drive drops out; "
		 "give its %s", id->name, word, give);
}

/* Whether fn(word, args[i]) holds for any of the n args. */
static int names_any(const char *word,
		     int (*fn)(const char *word, const void *arg),
		     const void *const *args, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fn(word, args[i]))
			return 1;
	return 0;
}

static void add_word(char *out, size_t len, const char *word)
{
	size_t used = strlen(out);

	snprintf(out + used, len - used, "%s%s", used ? ", " : "", word);
}

/*
 * The parts of a list that name none of the n args, into out: an item
 * that names one as a whole is matched; otherwise each word that names
 * none, or the whole item when none of its words names one.
 */
static void list_unmatched(const char *list,
			   int (*fn)(const char *word, const void *arg),
			   const void *const *args, int n,
			   char *out, size_t len)
{
	char whole[256], word[256], words[600];
	const char *p = list;
	struct item it;

	out[0] = 0;
	while (next_item(&p, &it)) {
		int is_whole = whole_item(&it, whole), some = 0;

		if (is_whole && names_any(whole, fn, args, n))
			continue;
		words[0] = 0;
		while (next_word(&it, word)) {
			if (names_any(word, fn, args, n))
				some = 1;
			else
				add_word(words, sizeof(words), word);
		}
		if (is_whole && !some)
			add_word(out, len, whole);
		else if (words[0])
			add_word(out, len, words);
	}
}

void plan_consent_unmatched(const struct settings *s,
			    const struct identity *const *ids, int n,
			    char *out, size_t len)
{
	out[0] = 0;
	if (s->destroy_list)
		list_unmatched(s->destroy_list, same_id_or_name,
			       (const void *const *)ids, n, out, len);
}

struct match_arg {
	const struct discover_disk *d;
	const struct pci_controller *c;
};

static int glob(const char *pattern, const char *text)
{
	return text && *text && !fnmatch(pattern, text, FNM_CASEFOLD);
}

static int matches_word(const char *word, const void *arg)
{
	const struct match_arg *m = arg;
	const struct discover_disk *d = m->d;

	return glob(word, d->id.name) || glob(word, d->id.serial) ||
	       glob(word, d->id.wwid) || glob(word, bare_wwn(d->id.wwid)) ||
	       glob(word, d->id.model) ||
	       (m->c && (glob(word, m->c->pci) || glob(word, m->c->driver)));
}

int plan_matches(const char *globs, const struct discover_disk *d,
		 const struct pci_controller *c)
{
	struct match_arg m = { d, c };

	return any_word(globs, matches_word, &m);
}

void plan_globs_unmatched(const char *globs,
			  const struct discover_inventory *inv,
			  char *out, size_t len)
{
	struct match_arg *m = calloc((size_t)inv->ndisks + 1, sizeof(*m));
	const void **args = calloc((size_t)inv->ndisks + 1, sizeof(*args));
	int i;

	out[0] = 0;
	if (m && args && globs) {
		for (i = 0; i < inv->ndisks; i++) {
			const struct discover_disk *d = &inv->disks[i];

			m[i].d = d;
			m[i].c = d->controller >= 0 ?
				 &inv->ctrls[d->controller] : NULL;
			args[i] = &m[i];
		}
		list_unmatched(globs, matches_word, args, inv->ndisks, out,
			       len);
	}
	free(m);
	free(args);
}
