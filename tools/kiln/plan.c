/* SPDX-License-Identifier: MIT */
/*
 * Description: choosing what kiln run does with each disk, from its safety
 * class and the settings: blank and kiln-data disks are written, has-data
 * disks are read unless consent names them (destroy-data), in-use disks
 * and excluded ones are not touched, and include narrows the set.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "plan.h"

const char *plan_action_name(int action)
{
	switch (action) {
	case PLAN_SKIP: return "skip";
	case PLAN_READ: return "read-only";
	case PLAN_WRITE: return "write-verify";
	}
	return "unknown";
}

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

/* Calls fn on each word of a list separated by commas or blanks. */
static int any_word(const char *list, int (*fn)(const char *word, const void *arg),
		    const void *arg)
{
	char word[256];
	const char *p = list;

	while (p && *p) {
		size_t n;

		p += strspn(p, ", \t");
		n = strcspn(p, ", \t");
		if (!n)
			break;
		if (n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = 0;
			if (fn(word, arg))
				return 1;
		}
		p += n;
	}
	return 0;
}

static int same_id(const char *word, const void *arg)
{
	const struct identity *id = arg;

	return (id->serial[0] && !strcasecmp(word, id->serial)) ||
	       (id->wwid[0] && (!strcasecmp(word, id->wwid) ||
				!strcasecmp(bare_wwn(word), bare_wwn(id->wwid))));
}

int plan_consent(const struct settings *s, const struct identity *id)
{
	if (s->destroy_data)
		return 1;
	return s->destroy_list && any_word(s->destroy_list, same_id, id);
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

void plan_choose(const struct settings *s, const struct discover_inventory *inv,
		 struct plan_item *items)
{
	int i;

	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];
		const struct pci_controller *c =
			d->controller >= 0 ? &inv->ctrls[d->controller] : NULL;
		struct plan_item *it = &items[i];

		it->action = PLAN_SKIP;
		if (d->safety.class == SAFETY_IN_USE)
			snprintf(it->why, sizeof(it->why), "in use: %.200s",
				 d->safety.why);
		else if (d->unusable[0])
			snprintf(it->why, sizeof(it->why), "unusable: %.200s",
				 d->unusable);
		else if (s->exclude && plan_matches(s->exclude, d, c))
			snprintf(it->why, sizeof(it->why), "excluded");
		else if (s->include && !plan_matches(s->include, d, c))
			snprintf(it->why, sizeof(it->why), "not included");
		else if (s->mode == SETTINGS_READ)
			it->action = PLAN_READ;
		else if (d->safety.class == SAFETY_BLANK ||
			 d->safety.class == SAFETY_KILN_DATA)
			it->action = PLAN_WRITE;
		else if (plan_consent(s, &d->id)) {
			it->action = PLAN_WRITE;
			snprintf(it->why, sizeof(it->why), "has data; consent "
				 "given (destroy-data)");
		} else {
			it->action = PLAN_READ;
			snprintf(it->why, sizeof(it->why), "has data; no consent "
				 "(destroy-data)");
		}
		if (it->action == PLAN_WRITE && !it->why[0])
			snprintf(it->why, sizeof(it->why), "%s",
				 safety_class_name(d->safety.class));
	}
}
