/* SPDX-License-Identifier: MIT */
/*
 * Description: the link error counters as a signal of the results
 * (signal.h): a target's "link_errors" (its SAS phys and the drive's own
 * end, before, after and their growth) and the machine's "sas_phys" in
 * result.json, written and read back here so kiln finish judges a
 * restored run the same; a disk's grown counters in summary.txt and
 * beside it in report.html's inventory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/linkerr.h"
#include "results/html.h"
#include "results/signal.h"

#define K_LINK_ERRORS	"link_errors"
#define K_SAS_PHYS	"sas_phys"
#define K_SOURCE	"source"
#define K_PHY		"phy"
#define K_COUNTER	"counter"
#define K_COUNTERS	"counters"
#define K_OWNER		"owner"
#define K_CONTROLLER	"controller"
#define K_IN_USE	"in_use"
#define K_TO_EXPANDER	"to_expander"
#define K_BEFORE	"before"
#define K_AFTER		"after"
#define K_GROWTH	"growth"
#define K_ERROR		"error"

typedef const struct jsonread_node node;

static void figure(struct json *j, const char *key, long long v)
{
	if (v == LINKERR_NONE)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void figures(struct json *j, const struct linkerr_count *c)
{
	figure(j, K_BEFORE, c->before);
	figure(j, K_AFTER, c->after);
	figure(j, K_GROWTH, c->growth);
	json_str(j, K_ERROR, c->err ? strerror(c->err) : NULL);
}

static int is_phy(const struct linkerr_count *c)
{
	return !strncmp(c->src, "phy-", 4);
}

static void linkerr_out_disk(struct json *j, const struct record *r,
			     const struct record_disk *d)
{
	const struct linkerr_disk *l = linkerr_disk_of(d);
	char key[96];
	int i;

	(void)r;
	json_begin(j, K_LINK_ERRORS);
	for (i = 0; i < l->n; i++) {
		const struct linkerr_count *c = &l->c[i];

		snprintf(key, sizeof(key), "%s %s", c->src, c->name);
		json_begin(j, key);
		json_str(j, K_SOURCE, c->src);
		json_str(j, K_PHY, is_phy(c) ? c->src : NULL);
		json_str(j, K_COUNTER, c->name);
		figures(j, c);
		json_end(j);
	}
	json_end(j);
}

static void linkerr_out_machine(struct json *j, const struct record *r)
{
	const struct linkerr *m = linkerr_of(r);
	int i, k;

	json_array(j, K_SAS_PHYS);
	for (i = 0; i < m->nphys; i++) {
		const struct linkerr_phy *p = &m->phys[i];

		json_begin(j, NULL);
		json_str(j, K_PHY, p->name);
		json_str(j, K_OWNER, p->owner);
		json_str(j, K_CONTROLLER, p->ctrl[0] ? p->ctrl : NULL);
		json_bool(j, K_IN_USE, p->in_use);
		json_bool(j, K_TO_EXPANDER, p->to_expander);
		json_begin(j, K_COUNTERS);
		for (k = 0; k < SASPHY_COUNTERS; k++) {
			json_begin(j, p->c[k].name);
			figures(j, &p->c[k]);
			json_end(j);
		}
		json_end(j);
		json_end(j);
	}
	json_array_end(j);
}

static long long read_figure(node *n, const char *key)
{
	int64_t v;

	return jsonread_get_i64(n, key, &v) || v < 0 ? LINKERR_NONE :
	       (long long)v;
}

/* The errno a message names; EIO for one not known here. */
static int errno_of(const char *text)
{
	static const int known[] = { EINVAL, EIO, EISDIR, ENOENT, EACCES,
				     EBADMSG, ENXIO, ENODEV, EAGAIN };
	size_t i;

	if (!text)
		return 0;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(text, strerror(known[i])))
			return known[i];
	return EIO;
}

static void read_figures(node *n, struct linkerr_count *c)
{
	c->before = read_figure(n, K_BEFORE);
	c->after = read_figure(n, K_AFTER);
	c->growth = read_figure(n, K_GROWTH);
	c->err = errno_of(jsonread_str(n, K_ERROR, NULL));
}

static int linkerr_out_read_disk(node *t, struct record_disk *d)
{
	node *o = jsonread_get(t, K_LINK_ERRORS);
	struct linkerr_disk *l;
	char src[32], name[40];
	size_t i;

	if (!jsonread_count(o))
		return 0;
	/* Not kept: the restore fails, rather than judge without them. */
	l = linkerr_disk_make(d);
	if (!l)
		return -ENOMEM;
	memset(l, 0, sizeof(*l));
	for (i = 0; i < jsonread_count(o); i++) {
		node *n = jsonread_at(o, i);
		struct linkerr_count *c;

		jsonread_copy(n, K_SOURCE, src, sizeof(src));
		jsonread_copy(n, K_COUNTER, name, sizeof(name));
		if (!src[0] || !name[0] ||
		    !(c = linkerr_disk_count(l, src, name)))
			continue;
		read_figures(n, c);
	}
	return 0;
}

static int linkerr_out_read_machine(node *doc, struct record *r)
{
	node *a = jsonread_get(doc, K_SAS_PHYS);
	size_t i, n = jsonread_count(a);
	struct linkerr *m;
	int k;

	if (!n)
		return 0;
	m = linkerr_make(r);
	if (!m)
		return -ENOMEM;
	linkerr_free(m);
	m->phys = calloc(n, sizeof(*m->phys));
	if (!m->phys)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		node *e = jsonread_at(a, i);
		node *cs = jsonread_get(e, K_COUNTERS);
		struct linkerr_phy *p = &m->phys[m->nphys];

		jsonread_copy(e, K_PHY, p->name, sizeof(p->name));
		if (!p->name[0])
			continue;
		jsonread_copy(e, K_OWNER, p->owner, sizeof(p->owner));
		jsonread_copy(e, K_CONTROLLER, p->ctrl, sizeof(p->ctrl));
		p->in_use = jsonread_bool(e, K_IN_USE, 0);
		p->to_expander = jsonread_bool(e, K_TO_EXPANDER, 0);
		for (k = 0; k < SASPHY_COUNTERS; k++) {
			struct linkerr_count *c = &p->c[k];

			snprintf(c->src, sizeof(c->src), "%s", p->name);
			snprintf(c->name, sizeof(c->name), "%s",
				 sasphy_counter[k]);
			read_figures(jsonread_get(cs, sasphy_counter[k]), c);
		}
		m->nphys++;
	}
	return 0;
}

static char *linkerr_out_grown(const struct record_disk *d, char *buf, size_t len)
{
	const struct linkerr_disk *l = linkerr_disk_of(d);
	size_t used = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < l->n && used < len; i++) {
		const struct linkerr_count *c = &l->c[i];

		if (c->growth == LINKERR_NONE || c->growth <= 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used,
					 "%s%s %s %lld -> %lld (+%lld)",
					 used ? ", " : "", c->src, c->name,
					 c->before, c->after, c->growth);
	}
	return buf;
}

static void linkerr_out_text_disk(const struct record *r,
				  const struct record_disk *d, FILE *f)
{
	char text[1200];

	if (linkerr_out_grown(d, text, sizeof(text))[0])
		fprintf(f, "  link error counters grown: %s\n", text);
	(void)r;
}

static void linkerr_out_html_disk(FILE *f, const struct record *r,
				  const struct record_disk *d)
{
	char grown[1200];

	(void)r;
	if (linkerr_out_grown(d, grown, sizeof(grown))[0]) {
		fputs("<br>link error counters grown: ", f);
		html_text(f, grown);
	}
}

/* On controller k's line: growth that is its own or its backplane's. */
static const char *linkerr_out_ctrl(const struct record *r, int k,
				    char *buf, size_t len)
{
	return k >= 0 && k < r->links.n ?
	       linkerr_ctrl_text(r, r->links.ctrls[k].pci.pci, buf, len) :
	       NULL;
}

/* Its rule (record.h): a disk's link error counters that rose. */
static void linkerr_judge(struct record *r, struct record_disk *d, int final,
			  enum judge_at at)
{
	(void)final;
	if (at == JUDGE_AT_DISK)
		linkerr_judge_disk(r, d);
}

const struct signal_ops linkerr_signal = {
	.name = "link_errors",
	.judge = linkerr_judge,
	.json = linkerr_out_machine,
	.json_disk = linkerr_out_disk,
	.read = linkerr_out_read_machine,
	.read_disk = linkerr_out_read_disk,
	.summary_disk = linkerr_out_text_disk,
	.html_disk = linkerr_out_html_disk,
	.ctrl = linkerr_out_ctrl,
};
