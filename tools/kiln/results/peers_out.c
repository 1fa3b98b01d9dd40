/* SPDX-License-Identifier: MIT */
/*
 * Description: what the peers, the links and the solo phase found, told
 * (see peers_out.h): result.json's fields for them and their reading back
 * by kiln finish, and summary.txt's lines: each controller's aggregate
 * against its PCIe link and its disks alone, each group of like disks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/peers_out.h"
#include "results/signal.h"

static const char *const phase_keys[] = { "write", "verify", "read" };
static const int phase_of[] = { PHASE_WRITE, PHASE_VERIFY, PHASE_READ };
#define NPHASES ((int)(sizeof(phase_of) / sizeof(phase_of[0])))

static void num_or_null(struct json *j, const char *key, double v)
{
	if (v > 0)
		json_num(j, key, v);
	else
		json_null(j, key);
}

/* The best phase rate of a disk: bytes over that phase's busy time. */
static double best_phase(const struct record_disk *d)
{
	double best = 0, v;
	int p;

	for (p = 0; p < NPHASES; p++) {
		v = figures_rate(&d->snap, phase_of[p]);
		if (v > best)
			best = v;
	}
	return best;
}

/*
 * What a disk ran at, MB/s, and which way (figures_top_rate()): its
 * faster direction, bytes over busy time. One direction, since a link's
 * figure is one direction's (PCIe carries each way apart, SATA and SAS
 * one way at a time): the share of any limit is of this one number.
 */
static double ran_at(const struct record_disk *d, int *dir)
{
	double v;
	int k = figures_top_rate(&d->snap, &v);

	if (dir)
		*dir = k < 0 ? FIGURES_WRITE : k;
	return v;
}

/* What its own link carried: the rate it ran at, or alone when faster. */
static double link_use(const struct record_disk *d)
{
	double v = ran_at(d, NULL);

	return d->solo.ran && d->solo.mbps > v ? d->solo.mbps : v;
}

static const struct links_ctrl *ctrl_of(const struct record *r,
					const struct record_disk *d)
{
	int c = d->link.ctrl;

	return c >= 0 && c < r->links.n ? &r->links.ctrls[c] : NULL;
}

void peers_out_json_disk(struct json *j, const struct record *r,
			 const struct record_disk *d)
{
	const struct links_ctrl *c = ctrl_of(r, d);
	const struct peers_disk *p = &d->peer;
	char text[300];

	json_str(j, "firmware", d->link.firmware[0] ? d->link.firmware : NULL);
	json_str(j, "transport", d->link.transport[0] ? d->link.transport :
		 NULL);
	json_str(j, "controller", c ? c->pci.pci : NULL);
	if (d->link.mbps > 0) {
		json_begin(j, "link");
		json_str(j, "kind", d->link.kind);
		json_str(j, "rate", d->link.rate);
		json_num(j, "mbps", d->link.mbps);
		num_or_null(j, "share", link_use(d) / d->link.mbps);
		json_end(j);
	} else {
		json_null(j, "link");
	}
	/* Its busiest seconds, the ones its controller's total is of. */
	if (d->link.write_mbps + d->link.read_mbps > 0) {
		json_begin(j, "busiest_mbps");
		json_num(j, "write", d->link.write_mbps);
		json_num(j, "read", d->link.read_mbps);
		json_end(j);
	} else {
		json_null(j, "busiest_mbps");
	}
	peers_out_limit(r, d, text, sizeof(text));
	json_str(j, "rate_limit", text[0] ? text : NULL);
	if (d->solo.ran) {
		json_begin(j, "solo");
		json_num(j, "mbps", d->solo.mbps);
		json_num(j, "seconds", d->solo.seconds);
		json_u64(j, "io_errors", d->solo.io_errors);
		json_end(j);
	} else {
		json_null(j, "solo");
	}
	if (p->group < 0 || p->group >= r->peers.n) {
		json_null(j, "peers");
		return;
	}
	json_begin(j, "peers");
	json_str(j, "group", r->peers.groups[p->group].key);
	json_u64(j, "group_size", (uint64_t)r->peers.groups[p->group].n);
	json_str(j, "phase", p->phase >= 0 ? engine_phase_name(p->phase) :
		 NULL);
	num_or_null(j, "mbps", p->mbps);
	num_or_null(j, "median_mbps", p->median);
	num_or_null(j, "ratio", p->ratio);
	num_or_null(j, "solo_median_mbps", p->solo_median);
	num_or_null(j, "solo_ratio", p->solo_ratio);
	json_end(j);
}

static void json_ctrl(struct json *j, const struct links_ctrl *c)
{
	const struct pci_controller *p = &c->pci;
	double agg = c->write_mbps > c->read_mbps ? c->write_mbps :
		     c->read_mbps;
	char text[300];

	json_begin(j, NULL);
	json_str(j, "pci", p->pci);
	json_str(j, "kind", p->kind);
	json_str(j, "vendor", p->vendor_name[0] ? p->vendor_name : NULL);
	json_str(j, "device", p->device_name[0] ? p->device_name : NULL);
	json_str(j, "driver", p->driver[0] ? p->driver : NULL);
	json_u64(j, "disks", (uint64_t)c->ndisks);
	if (p->link_mbps > 0) {
		json_begin(j, "pcie");
		json_str(j, "text", links_pcie_text(p, text, sizeof(text)));
		json_str(j, "speed", p->link_speed);
		json_i64(j, "width", p->link_width);
		json_str(j, "max_speed", p->max_link_speed);
		json_i64(j, "max_width", p->max_link_width);
		json_num(j, "mbps", p->link_mbps);
		json_bool(j, "degraded", p->degraded);
		json_end(j);
	} else {
		json_null(j, "pcie");
	}
	json_begin(j, "aggregate_mbps");
	json_num(j, "write", c->write_mbps);
	json_num(j, "read", c->read_mbps);
	json_end(j);
	num_or_null(j, "share_of_link", p->link_mbps > 0 ?
		    agg / p->link_mbps : 0);
	num_or_null(j, "solo_sum_mbps", c->solo_sum);
	links_verdict(c, text, sizeof(text));
	json_str(j, "limit", text[0] ? text : NULL);
	json_end(j);
}

void peers_out_json(struct json *j, const struct record *r)
{
	int i, p;

	json_array(j, "controllers");
	for (i = 0; i < r->links.n; i++)
		json_ctrl(j, &r->links.ctrls[i]);
	json_array_end(j);
	json_array(j, "peer_groups");
	for (i = 0; i < r->peers.n; i++) {
		const struct peers_group *g = &r->peers.groups[i];

		json_begin(j, NULL);
		json_str(j, "group", g->key);
		json_str(j, "name", g->name);
		json_u64(j, "disks", (uint64_t)g->n);
		json_begin(j, "median_mbps");
		for (p = 0; p < NPHASES; p++)
			num_or_null(j, phase_keys[p], g->median[phase_of[p]]);
		json_end(j);
		num_or_null(j, "solo_median_mbps", g->solo_median);
		num_or_null(j, "finish_median_seconds", g->busy_median);
		json_str(j, "note", g->note[0] ? g->note : NULL);
		json_end(j);
	}
	json_array_end(j);
}

/* The groups as the document has them, until the run is judged again. */
static int restore_groups(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *gs = jsonread_get(doc, "peer_groups");
	size_t i;
	int p;

	r->peers.groups = calloc(jsonread_count(gs) + 1,
				 sizeof(*r->peers.groups));
	if (!r->peers.groups)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(gs); i++) {
		const struct jsonread_node *n = jsonread_at(gs, i);
		const struct jsonread_node *m = jsonread_get(n, "median_mbps");
		struct peers_group *g = &r->peers.groups[r->peers.n++];

		jsonread_copy(n, "group", g->key, sizeof(g->key));
		jsonread_copy(n, "name", g->name, sizeof(g->name));
		jsonread_copy(n, "note", g->note, sizeof(g->note));
		g->n = (int)jsonread_u64(n, "disks", 0);
		for (p = 0; p < NPHASES; p++)
			g->median[phase_of[p]] = jsonread_num(m, phase_keys[p],
							      0);
		g->solo_median = jsonread_num(n, "solo_median_mbps", 0);
		g->busy_median = jsonread_num(n, "finish_median_seconds", 0);
	}
	return 0;
}

int peers_out_restore(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *cs = jsonread_get(doc, "controllers");
	size_t i;

	if (restore_groups(doc, r))
		return -ENOMEM;

	for (i = 0; i < jsonread_count(cs); i++) {
		const struct jsonread_node *n = jsonread_at(cs, i);
		const struct jsonread_node *e = jsonread_get(n, "pcie");
		const struct jsonread_node *a =
			jsonread_get(n, "aggregate_mbps");
		struct pci_controller pc;
		struct links_ctrl *c;
		int k;

		memset(&pc, 0, sizeof(pc));
		jsonread_copy(n, "pci", pc.pci, sizeof(pc.pci));
		jsonread_copy(n, "kind", pc.kind, sizeof(pc.kind));
		jsonread_copy(n, "vendor",
			      pc.vendor_name, sizeof(pc.vendor_name));
		jsonread_copy(n, "device",
			      pc.device_name, sizeof(pc.device_name));
		jsonread_copy(n, "driver", pc.driver, sizeof(pc.driver));
		jsonread_copy(e, "speed", pc.link_speed, sizeof(pc.link_speed));
		jsonread_copy(e, "max_speed", pc.max_link_speed,
		     sizeof(pc.max_link_speed));
		pc.link_width = (int)jsonread_i64(e, "width", 0);
		pc.max_link_width = (int)jsonread_i64(e, "max_width", 0);
		pc.link_mbps = jsonread_num(e, "mbps", 0);
		pc.degraded = jsonread_bool(e, "degraded", 0);
		if (!pc.pci[0])
			continue;
		k = links_add_ctrl(&r->links, &pc);
		if (k < 0)
			return k;
		c = &r->links.ctrls[k];
		c->ndisks = (int)jsonread_u64(n, "disks", 0);
		c->write_mbps = jsonread_num(a, "write", 0);
		c->read_mbps = jsonread_num(a, "read", 0);
	}
	return 0;
}

static void restore_peer(const struct jsonread_node *n,
			 const struct record *r, struct record_disk *d)
{
	struct peers_disk *p = &d->peer;
	char key[sizeof(r->peers.groups[0].key)];
	int g;

	/* As the groups' keys were read: bytes, json.c's \xNN taken back. */
	jsonread_copy(n, "group", key, sizeof(key));
	for (g = 0; g < r->peers.n && strcmp(r->peers.groups[g].key, key); g++)
		;
	p->group = g < r->peers.n ? g : -1;
	p->phase = -1;
	for (g = 0; g < NPHASES; g++)
		if (!strcmp(jsonread_str(n, "phase", ""), phase_keys[g]))
			p->phase = phase_of[g];
	p->mbps = jsonread_num(n, "mbps", 0);
	p->median = jsonread_num(n, "median_mbps", 0);
	p->ratio = jsonread_num(n, "ratio", 0);
	p->solo_median = jsonread_num(n, "solo_median_mbps", 0);
	p->solo_ratio = jsonread_num(n, "solo_ratio", 0);
}

void peers_out_restore_disk(const struct jsonread_node *t,
			    const struct record *r, struct record_disk *d)
{
	const struct jsonread_node *l = jsonread_get(t, "link");
	const struct jsonread_node *s = jsonread_get(t, "solo");
	char pci[32];
	int k;

	jsonread_copy(t, "firmware",
		      d->link.firmware, sizeof(d->link.firmware));
	jsonread_copy(t, "transport",
		      d->link.transport, sizeof(d->link.transport));
	jsonread_copy(t, "controller", pci, sizeof(pci));
	d->link.ctrl = -1;
	for (k = 0; pci[0] && k < r->links.n; k++)
		if (!strcmp(r->links.ctrls[k].pci.pci, pci))
			d->link.ctrl = k;
	d->link.write_mbps = jsonread_num(jsonread_get(t, "busiest_mbps"),
					  "write", 0);
	d->link.read_mbps = jsonread_num(jsonread_get(t, "busiest_mbps"),
					 "read", 0);
	jsonread_copy(l, "kind", d->link.kind, sizeof(d->link.kind));
	jsonread_copy(l, "rate", d->link.rate, sizeof(d->link.rate));
	d->link.mbps = jsonread_num(l, "mbps", 0);
	if (jsonread_type(s) == JSONREAD_OBJECT) {
		d->solo.ran = 1;
		d->solo.mbps = jsonread_num(s, "mbps", 0);
		d->solo.seconds = jsonread_num(s, "seconds", 0);
		d->solo.io_errors = (unsigned)jsonread_u64(s, "io_errors", 0);
	}
	restore_peer(jsonread_get(t, "peers"), r, d);
}

/* What a signal says on a controller's line. */
static void ctrl_line(void *arg, const char *text)
{
	fprintf(arg, "    %s\n", text);
}

void peers_out_summary(const struct record *r, FILE *f)
{
	char text[300], pcie[64], w[32], rd[32];
	int i, p;

	for (i = 0; i < r->links.n; i++) {
		const struct links_ctrl *c = &r->links.ctrls[i];

		if (!i)
			fprintf(f, "\ncontrollers:\n");
		fprintf(f, "  %s %s%s%s, %d disk%s", c->pci.pci, c->pci.kind,
			c->pci.driver[0] ? " " : "", c->pci.driver, c->ndisks,
			c->ndisks == 1 ? "" : "s");
		if (links_pcie_text(&c->pci, pcie, sizeof(pcie))[0])
			fprintf(f, ", %s (%s)", pcie, links_fmt_rate(
				c->pci.link_mbps, w, sizeof(w)));
		if (c->write_mbps > 0 || c->read_mbps > 0)
			fprintf(f, ": together %s write, %s read (its "
				"disks' rates added)",
				links_fmt_rate(c->write_mbps, w, sizeof(w)),
				links_fmt_rate(c->read_mbps, rd, sizeof(rd)));
		fprintf(f, "\n");
		if (links_verdict(c, text, sizeof(text))[0])
			fprintf(f, "    %s\n", text);
		signals_ctrl(r, i, ctrl_line, f);
	}
	for (i = 0; i < r->peers.n; i++) {
		const struct peers_group *g = &r->peers.groups[i];
		int any = 0;

		if (!i)
			fprintf(f, "\nlike disks:\n");
		if (g->note[0]) {
			fprintf(f, "  %s\n", g->note);
			continue;
		}
		fprintf(f, "  %s: %d disks, median", g->name, g->n);
		for (p = 0; p < NPHASES; p++)
			if (g->median[phase_of[p]] > 0)
				fprintf(f, "%s %s %.0f MB/s", any++ ? "," : "",
					phase_keys[p], g->median[phase_of[p]]);
		if (g->solo_median > 0)
			fprintf(f, "%s alone %.0f MB/s", any++ ? "," : "",
				g->solo_median);
		if (g->busy_median > 0)
			fprintf(f, "%s finished in %.0f s", any++ ? "," : "",
				g->busy_median);
		fprintf(f, "\n");
	}
}

/* The next word's length: a rate's figure and its MB/s are one word. */
static size_t word_len(const char *t)
{
	size_t n = strcspn(t, " ");

	if (t[n] == ' ' && !strncmp(t + n + 1, "MB/s", 4))
		n += 1 + strcspn(t + n + 1, " ");
	return n;
}

/* text after head, in lines of 80 columns, the rest indented under it. */
static void wrapped(FILE *f, const char *head, const char *text)
{
	size_t col = strlen(head), n;

	fputs(head, f);
	for (;;) {
		n = word_len(text);
		fprintf(f, "%.*s", (int)n, text);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
		if (!*text)
			break;
		n = word_len(text);
		if (col + 1 + n > 80) {
			fputs("\n    ", f);
			col = 4;
		} else {
			fputc(' ', f);
			col++;
		}
	}
	fputc('\n', f);
}

void peers_out_disk_line(const struct record *r, const struct record_disk *d,
			 FILE *f)
{
	const struct links_ctrl *c = ctrl_of(r, d);
	const char *sep = "  ";
	char text[300];

	if (d->solo.ran) {
		fprintf(f, "%salone %.0f MB/s (%.0f s)", sep, d->solo.mbps,
			d->solo.seconds);
		sep = "; ";
	}
	if (d->link.mbps > 0) {
		fprintf(f, "%slink %s %s (%.0f MB/s)", sep, d->link.kind,
			d->link.rate, d->link.mbps);
		sep = "; ";
	}
	if (c) {
		fprintf(f, "%scontroller %s", sep, c->pci.pci);
		sep = "; ";
	}
	if (strcmp(sep, "  "))
		fprintf(f, "\n");
	if (peers_out_limit(r, d, text, sizeof(text))[0])
		wrapped(f, "  limit: ", text);
}

/* "a quarter of", "half of", "91% of": a share as people say it. */
static char *share_words(double share, char *buf, size_t len)
{
	static const struct { double v; const char *w; } words[] = {
		{ 0.25, "a quarter of" }, { 1.0 / 3, "a third of" },
		{ 0.5, "half of" }, { 2.0 / 3, "two thirds of" },
		{ 0.75, "three quarters of" },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (share > words[i].v - PEERS_OUT_WORDS_NEAR &&
		    share < words[i].v + PEERS_OUT_WORDS_NEAR) {
			snprintf(buf, len, "%s", words[i].w);
			return buf;
		}
	snprintf(buf, len, "%.0f%% of", 100 * share);
	return buf;
}

/* What a disk with no known limit is, for its line. */
static const char *unlimited(const struct record_disk *d)
{
	if (d->t.kind == TARGET_FILE)
		return "a file";
	if (d->t.id.backing[0] || !strncmp(d->t.id.identity, "loop:", 5))
		return "a loop device";
	if (!strncmp(d->t.id.name, "md", 2) || !strncmp(d->t.id.name, "dm-", 3))
		return "a RAID or mapped volume";
	if (!strcmp(d->link.transport, "scsi"))
		return "a RAID volume or a disk behind one";
	if (!strcmp(d->link.transport, "virtio"))
		return "a virtio disk";
	return "its link not known";
}

/* The limits a disk can have, the nearest one found by peers_out_limit. */
enum { LIMIT_SOLO, LIMIT_LINK, LIMIT_CTRL, LIMITS };

/* Each limit's share (0: not known), and any figure it ran past. */
static void shares(const struct record *r, const struct record_disk *d,
		   double *share, double *past)
{
	const struct links_ctrl *c = ctrl_of(r, d);
	double link = c ? c->pci.link_mbps : 0;

	share[LIMIT_SOLO] = share[LIMIT_LINK] = share[LIMIT_CTRL] = 0;
	*past = 0;
	if (d->solo.ran && d->solo.mbps > 0 && !d->solo.io_errors)
		share[LIMIT_SOLO] = ran_at(d, NULL) / d->solo.mbps;
	if (d->link.mbps > 0)
		share[LIMIT_LINK] = link_use(d) / d->link.mbps;
	/* An NVMe drive's own link is its controller's: said once. */
	if (link > 0 && strcmp(d->link.kind, "pcie"))
		share[LIMIT_CTRL] = (c->write_mbps > c->read_mbps ?
				     c->write_mbps : c->read_mbps) / link;
	/*
	 * A link that carried more than its figure is no limit: an emulated
	 * device's (QEMU's NVMe says PCIe 1.0 x1) or one misread.
	 */
	/* One way in a phase, more than its PCIe link carries each way. */
	if (d->link.mbps > 0 && !strcmp(d->link.kind, "pcie") &&
	    best_phase(d) > LINKS_PAST * d->link.mbps)
		share[LIMIT_LINK] = best_phase(d) / d->link.mbps;
	if (link > 0 && c->fastest_mbps > LINKS_PAST * link)
		share[LIMIT_CTRL] = c->fastest_mbps / link;
	if (share[LIMIT_LINK] > LINKS_PAST) {
		*past = d->link.mbps;
		share[LIMIT_LINK] = 0;
	}
	if (share[LIMIT_CTRL] > LINKS_PAST) {
		*past = link;
		share[LIMIT_CTRL] = 0;
	}
	/* Faster in the burn than alone (a cache, a short read): no ceiling. */
	if (share[LIMIT_SOLO] > LINKS_PAST)
		share[LIMIT_SOLO] = 0;
}

char *peers_out_limit(const struct record *r, const struct record_disk *d,
		      char *buf, size_t len)
{
	const struct links_ctrl *c = ctrl_of(r, d);
	double share[LIMITS], past, ran;
	char a[48], b[32], w[32], pcie[64];
	int k, near = -1, dir;
	size_t used;

	buf[0] = 0;
	ran = ran_at(d, &dir);
	if (ran <= 0)
		return buf;
	shares(r, d, share, &past);
	for (k = 0; k < LIMITS; k++)
		if (share[k] > 0 && (near < 0 || share[k] > share[near]))
			near = k;
	links_fmt_rate(ran, b, sizeof(b));
	snprintf(a, sizeof(a), "%s %s", b, figures_dir_name(dir));
	switch (near) {
	case LIMIT_SOLO:
		used = (size_t)snprintf(buf, len, "ran at %s, %s its own rate "
					"alone (%s)", a,
					share_words(share[near], w, sizeof(w)),
					links_fmt_rate(d->solo.mbps, b,
						       sizeof(b)));
		break;
	case LIMIT_LINK:
		/* Of the rate said, whatever found the link nearest. */
		used = (size_t)snprintf(buf, len, "ran at %s, %s its %s link "
					"(%s, %s)", a,
					share_words(ran / d->link.mbps, w,
						    sizeof(w)),
					!strcmp(d->link.kind, "pcie") ? "PCIe" :
					!strcmp(d->link.kind, "sata") ? "SATA" :
					"SAS", d->link.rate,
					links_fmt_rate(d->link.mbps, b,
						       sizeof(b)));
		break;
	case LIMIT_CTRL:
		links_pcie_text(&c->pci, pcie, sizeof(pcie));
		used = (size_t)snprintf(buf, len, "ran at %s, %s the "
					"controller's %s (%s)", a,
					share_words(ran / c->pci.link_mbps, w,
						    sizeof(w)), pcie,
					links_fmt_rate(c->pci.link_mbps, b,
						       sizeof(b)));
		if (c->ndisks > 1 && used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "; its %d disks together %.0f%% "
						 "of it", c->ndisks,
						 100 * share[near]);
		break;
	default:
		if (past > 0)
			used = (size_t)snprintf(buf, len, "ran at %s; no known "
						"limit", a);
		else
			used = (size_t)snprintf(buf, len, "ran at %s; no known "
						"limit (%s)", a, unlimited(d));
		break;
	}
	if (past > 0 && used < len)
		snprintf(buf + used, len - used, "; faster than the %s its "
			 "link is said to carry, so that is no limit (an "
			 "emulated device?)", links_fmt_rate(past, b, sizeof(b)));
	return buf;
}
