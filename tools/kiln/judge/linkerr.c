/* SPDX-License-Identifier: MIT */
/*
 * Description: link error counters folded into the record as the
 * samples come, and their growth judged and placed (see linkerr.h): on a
 * disk's own path, or on its controller or backplane.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/linkerr.h"
#include "judge/record.h"

/* Where a counter's growth is placed. */
enum place {
	PLACE_OWN,		/* its disk's path alone: its cable or slot */
	PLACE_OWNER,		/* every phy in use of an HBA or expander */
	PLACE_SHARED,	/* a phy two or more of the run's disks share */
	PLACE_CTRL,		/* the drive's end of every disk of a ctrl */
};

static void count_init(struct linkerr_count *c, const char *src,
		       const char *name)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->src, sizeof(c->src), "%s", src);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->before = c->after = c->growth = LINKERR_NONE;
}

void linkerr_count_fold(struct linkerr_count *c, long long v, int err)
{
	if (err || v < 0) {
		c->err = err ? err : EBADMSG;
		return;
	}
	c->err = 0;
	if (c->before == LINKERR_NONE) {
		c->before = c->after = v;
		c->growth = 0;
		return;
	}
	/* A counter that dropped was reset: all it holds now is new. */
	c->growth += v >= c->after ? v - c->after : v;
	c->after = v;
}

static int grew(const struct linkerr_count *c)
{
	return c->growth != LINKERR_NONE && c->growth > 0;
}

static int is_phy(const struct linkerr_count *c)
{
	return !strncmp(c->src, "phy-", 4);
}

struct linkerr_count *linkerr_disk_count(struct linkerr_disk *d,
					 const char *src, const char *name)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->c[i].src, src) && !strcmp(d->c[i].name, name))
			return &d->c[i];
	if (d->n >= LINKERR_DISK_MAX)
		return NULL;
	count_init(&d->c[d->n], src, name);
	return &d->c[d->n++];
}

const struct linkerr_phy *linkerr_phy_of(const struct linkerr *m,
					 const char *name)
{
	int i;

	for (i = 0; i < m->nphys; i++)
		if (!strcmp(m->phys[i].name, name))
			return &m->phys[i];
	return NULL;
}

/* "invalid_dword_count, running_disparity_error_count": what won't read. */
static void say_unread(struct record *r, const struct sasphy *p)
{
	char names[200];
	size_t used = 0;
	int k, err = 0;

	names[0] = 0;
	for (k = 0; k < SASPHY_COUNTERS; k++) {
		if (!p->err[k])
			continue;
		err = p->err[k];
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used,
						 sizeof(names) - used, "%s%s",
						 used ? ", " : "",
						 sasphy_counter[k]);
	}
	if (err)
		record_note(r, "SAS phy %s: %s cannot be read (%s): not "
			    "judged", p->name, names, strerror(err));
}

static void slot_free(void *data)
{
	linkerr_free(data);
}

const struct linkerr *linkerr_of(const struct record *r)
{
	static const struct linkerr none;
	const struct linkerr *m = record_slot(r, LINKERR_SLOT);

	return m ? m : &none;
}

struct linkerr *linkerr_make(struct record *r)
{
	return record_slot_make(r, LINKERR_SLOT, sizeof(struct linkerr),
				slot_free);
}

const struct linkerr_disk *linkerr_disk_of(const struct record_disk *d)
{
	static const struct linkerr_disk none;
	const struct linkerr_disk *l = record_disk_slot(d, LINKERR_SLOT);

	return l ? l : &none;
}

struct linkerr_disk *linkerr_disk_make(struct record_disk *d)
{
	return record_disk_slot_make(d, LINKERR_SLOT,
				     sizeof(struct linkerr_disk), NULL);
}

/*
 * The phys on one disk's path, each counter of each in its list; none
 * kept (said in the notes) when its slot cannot be made.
 */
static void map_disk(struct record *r, const struct sasphy_set *set,
		     const char *sysroot, struct record_disk *d)
{
	struct linkerr_disk *l = NULL;
	char path[512];
	int i, k;

	if (d->t.kind != TARGET_BLOCK || d->t.id.backing[0] ||
	    !d->t.id.name[0] ||
	    sasphy_devpath(sysroot, d->t.id.name, path, sizeof(path)))
		return;
	for (i = 0; i < set->n; i++) {
		if (!sasphy_on_path(&set->phys[i], path))
			continue;
		if (!l && !(l = linkerr_disk_make(d))) {
			record_note(r, "%s: the link error counters of its "
				    "path are not kept: no room in the record",
				    d->label);
			return;
		}
		for (k = 0; k < SASPHY_COUNTERS; k++)
			linkerr_disk_count(l, set->phys[i].name,
					   sasphy_counter[k]);
	}
}

int linkerr_start(struct record *r, const struct sasphy_set *set,
		  const char *sysroot)
{
	struct linkerr *m = linkerr_make(r);
	int i, k;

	if (!m)
		return -ENOMEM;
	linkerr_free(m);
	m->phys = calloc((size_t)set->n + 1, sizeof(*m->phys));
	if (!m->phys)
		return -ENOMEM;
	for (i = 0; i < set->n; i++) {
		const struct sasphy *p = &set->phys[i];
		struct linkerr_phy *q = &m->phys[m->nphys++];

		snprintf(q->name, sizeof(q->name), "%s", p->name);
		snprintf(q->owner, sizeof(q->owner), "%s", p->owner);
		snprintf(q->ctrl, sizeof(q->ctrl), "%s", p->ctrl);
		q->in_use = sasphy_in_use(p);
		q->to_expander = p->to_expander;
		for (k = 0; k < SASPHY_COUNTERS; k++)
			count_init(&q->c[k], p->name, sasphy_counter[k]);
		say_unread(r, p);
	}
	for (i = 0; i < r->n; i++)
		map_disk(r, set, sysroot, &r->disks[i]);
	return 0;
}

void linkerr_fold_phys(struct record *r, const struct sasphy_set *set)
{
	struct linkerr *m = record_slot(r, LINKERR_SLOT);
	int i, k, c;

	if (!m)
		return;

	for (i = 0; i < set->n; i++) {
		const struct sasphy *p = &set->phys[i];
		struct linkerr_phy *q =
			(struct linkerr_phy *)linkerr_phy_of(m, p->name);

		for (k = 0; q && k < SASPHY_COUNTERS; k++)
			linkerr_count_fold(&q->c[k], p->count[k], p->err[k]);
	}
	/* A disk's phys are the machine's, seen from the disk. */
	for (i = 0; i < r->n; i++) {
		struct linkerr_disk *d =
			record_disk_slot(&r->disks[i], LINKERR_SLOT);

		for (c = 0; d && c < d->n; c++) {
			const struct linkerr_phy *q;

			if (!is_phy(&d->c[c]) ||
			    !(q = linkerr_phy_of(m, d->c[c].src)))
				continue;
			for (k = 0; k < SASPHY_COUNTERS; k++)
				if (!strcmp(q->c[k].name, d->c[c].name))
					d->c[c] = q->c[k];
		}
	}
}

int linkerr_fold_drive(struct record_disk *d, const struct smartjson *sj)
{
	struct linkerr_disk *l;
	int i;

	if (!sj->nlinks)
		return 0;
	l = linkerr_disk_make(d);
	if (!l)
		return -ENOMEM;
	for (i = 0; i < sj->nlinks; i++) {
		struct linkerr_count *c = linkerr_disk_count(
			l, sj->links[i].src, sj->links[i].name);

		if (c)
			linkerr_count_fold(c, sj->links[i].value, 0);
	}
	return 0;
}

static long long phy_growth(const struct linkerr_phy *p)
{
	long long g = 0;
	int k;

	for (k = 0; k < SASPHY_COUNTERS; k++)
		if (grew(&p->c[k]) && p->c[k].growth > g)
			g = p->c[k].growth;
	return g;
}

/*
 * An HBA or expander with two or more phys in use, every one of which
 * grew: its in-use phys, else 0.
 */
static int owner_wide(const struct linkerr *m, const char *owner)
{
	int i, used = 0;

	for (i = 0; i < m->nphys; i++) {
		if (strcmp(m->phys[i].owner, owner) || !m->phys[i].in_use)
			continue;
		if (!phy_growth(&m->phys[i]))
			return 0;
		used++;
	}
	return used >= 2 ? used : 0;
}

/* Disks of the run that have phy src on their path. */
static int disks_on(const struct record *r, const char *src)
{
	int i, c, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct linkerr_disk *l = linkerr_disk_of(&r->disks[i]);

		for (c = 0; c < l->n; c++)
			if (!strcmp(l->c[c].src, src)) {
				n++;
				break;
			}
	}
	return n;
}

/* A disk's own end of its link: read (1), grown (2), or 0. */
static int drive_state(const struct linkerr_disk *d)
{
	int c, state = 0;

	for (c = 0; c < d->n; c++) {
		if (is_phy(&d->c[c]) || d->c[c].growth == LINKERR_NONE)
			continue;
		state = state < 1 ? 1 : state;
		if (grew(&d->c[c]))
			state = 2;
	}
	return state;
}

/*
 * Every disk (two or more) of controller k whose own end was read grew
 * there: their number, else 0.
 */
static int ctrl_wide(const struct record *r, int k)
{
	int i, n = 0;

	if (k < 0)
		return 0;
	for (i = 0; i < r->n; i++) {
		int s;

		if (r->disks[i].link.ctrl != k)
			continue;
		s = drive_state(linkerr_disk_of(&r->disks[i]));
		if (s == 1)
			return 0;
		n += s == 2;
	}
	return n >= 2 ? n : 0;
}

static int place_of(const struct record *r, const struct record_disk *d,
		    const struct linkerr_count *c)
{
	const struct linkerr_phy *p;

	if (!is_phy(c))
		return ctrl_wide(r, d->link.ctrl) ? PLACE_CTRL : PLACE_OWN;
	p = linkerr_phy_of(linkerr_of(r), c->src);
	if (p && owner_wide(linkerr_of(r), p->owner))
		return PLACE_OWNER;
	return (p && p->to_expander) || disks_on(r, c->src) >= 2 ?
	       PLACE_SHARED : PLACE_OWN;
}

/* The PCI address of a disk's controller, for people; "" none. */
static const char *ctrl_pci(const struct record *r,
			    const struct record_disk *d)
{
	int k = d->link.ctrl;

	return k >= 0 && k < r->links.n ? r->links.ctrls[k].pci.pci : "";
}

static void say_own(struct record_disk *d, const struct linkerr_count *c,
		    int more, unsigned fail)
{
	char others[40] = "";

	if (more)
		snprintf(others, sizeof(others), ", and %d more counter%s",
			 more, more == 1 ? "" : "s");
	judge_reason(&d->j, c->growth >= (long long)fail ? JUDGE_FAIL :
		     JUDGE_WARN, "link errors grew on its own path: %s %s "
		     "+%lld%s (link-errors-fail %u): its cable or slot",
		     c->src, c->name, c->growth, others, fail);
}

static void say_shared(const struct record *r, struct record_disk *d,
		       const struct linkerr_count *c, int place)
{
	const struct linkerr_phy *p = linkerr_phy_of(linkerr_of(r), c->src);
	const char *pci = p && p->ctrl[0] ? p->ctrl : ctrl_pci(r, d);
	char where[96];

	if (place == PLACE_OWNER)
		snprintf(where, sizeof(where), "every phy in use of %s",
			 p ? p->owner : c->src);
	else if (place == PLACE_SHARED && p && p->to_expander)
		snprintf(where, sizeof(where), "%s, the link to an expander",
			 c->src);
	else if (place == PLACE_SHARED)
		snprintf(where, sizeof(where), "%s, shared by %d disks",
			 c->src, disks_on(r, c->src));
	else
		snprintf(where, sizeof(where), "every disk of its controller");
	judge_reason(&d->j, JUDGE_WARN, "link errors grew on %s (%s %s "
		     "+%lld): the controller's or the backplane's, not this "
		     "disk's%s%s", where, c->src, c->name, c->growth,
		     pci[0] ? ", see controller " : "", pci);
}

void linkerr_judge_disk(const struct record *r, struct record_disk *d)
{
	const struct linkerr_disk *l = linkerr_disk_of(d);
	const struct linkerr_count *own = NULL, *other = NULL;
	unsigned fail = r->s && r->s->link_errors_fail ?
			r->s->link_errors_fail : 100;
	int c, nown = 0, other_place = PLACE_OWN;

	for (c = 0; c < l->n; c++) {
		const struct linkerr_count *k = &l->c[c];
		int place;

		if (!grew(k))
			continue;
		place = place_of(r, d, k);
		if (place == PLACE_OWN) {
			nown++;
			if (!own || k->growth > own->growth)
				own = k;
		} else if (!other || k->growth > other->growth) {
			other = k;
			other_place = place;
		}
	}
	if (own)
		say_own(d, own, nown - 1, fail);
	if (other)
		say_shared(r, d, other, other_place);
}

/* Appends "; text" (or text) to buf. */
static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
			 text);
}

/* Owners under pci that grew on every phy in use, said once each. */
static void ctrl_owners(const struct record *r, const char *pci, char *buf,
			size_t len)
{
	const struct linkerr *m = linkerr_of(r);
	char text[200];
	int i, k, used;

	for (i = 0; i < m->nphys; i++) {
		const struct linkerr_phy *p = &m->phys[i];
		long long most = 0;

		if (strcmp(p->ctrl, pci))
			continue;
		for (k = 0; k < i && strcmp(m->phys[k].owner, p->owner); k++)
			;
		if (k < i || !(used = owner_wide(m, p->owner)))
			continue;
		for (k = 0; k < m->nphys; k++)
			if (!strcmp(m->phys[k].owner, p->owner) &&
			    m->phys[k].in_use && phy_growth(&m->phys[k]) > most)
				most = phy_growth(&m->phys[k]);
		snprintf(text, sizeof(text), "link errors grew on every phy in "
			 "use of %s (%d phys, +%lld at most): the controller's "
			 "or the backplane's", p->owner, used, most);
		append(buf, len, text);
	}
}

/* Phys under pci that two or more disks share and that grew. */
static void ctrl_shared(const struct record *r, const char *pci, char *buf,
			size_t len)
{
	const struct linkerr *m = linkerr_of(r);
	char text[200];
	int i, n;

	for (i = 0; i < m->nphys; i++) {
		const struct linkerr_phy *p = &m->phys[i];

		n = disks_on(r, p->name);
		if (strcmp(p->ctrl, pci) || !phy_growth(p) ||
		    owner_wide(m, p->owner) || (n < 2 && !p->to_expander))
			continue;
		snprintf(text, sizeof(text), "link errors grew on %s of %s "
			 "(+%lld), %s%d disk%s of the run: the controller's, "
			 "its cable's or the expander's", p->name, p->owner,
			 phy_growth(p), p->to_expander ? "the link to an "
			 "expander, behind it " : "shared by ", n,
			 n == 1 ? "" : "s");
		append(buf, len, text);
	}
}

char *linkerr_ctrl_text(const struct record *r, const char *pci, char *buf,
			size_t len)
{
	char text[200];
	int k, n;

	buf[0] = 0;
	ctrl_owners(r, pci, buf, len);
	ctrl_shared(r, pci, buf, len);
	for (k = 0; k < r->links.n; k++)
		if (!strcmp(r->links.ctrls[k].pci.pci, pci) &&
		    (n = ctrl_wide(r, k))) {
			snprintf(text, sizeof(text), "link errors grew at the "
				 "drive's end of every disk of it (%d disks): "
				 "the controller's or the backplane's", n);
			append(buf, len, text);
		}
	return buf;
}

void linkerr_free(struct linkerr *m)
{
	free(m->phys);
	memset(m, 0, sizeof(*m));
}
