/* SPDX-License-Identifier: MIT */
/*
 * Description: the links above the disks (see links.h): each disk's own
 * link and its controller's PCIe link read from sysfs before the burn,
 * what went through each controller sampled during it, the live line
 * that shows it, and in plain words which of drives, controller and PCIe
 * link held the rate down.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/discover.h"
#include "judge/links.h"
#include "judge/record.h"
#include "base/timing.h"

/* An aggregate at this share of the PCIe link or more: the link is full. */
#define LINKS_LIMIT_SHARE 0.9
/* Read together under this share of the sum read alone: not the drives. */
#define LINKS_TOGETHER_SHARE 0.8
/* The live line's width, and how many lines it may take. */
#define LINKS_COLS 80
#define LINKS_LINES 2

double links_rate_mbps(const char *rate)
{
	double gbps = rate ? atof(rate) : 0;

	if (gbps <= 0 || !strstr(rate, "Gb"))
		return 0;
	/* SAS-4 runs 22.5 Gbaud with 128b/150b coding: 2400 MB/s. */
	if (gbps > 20)
		return gbps * 1000 * 128 / 150 / 8;
	/* SATA and SAS up to 12 Gb/s: 8b/10b, ten bits a byte. */
	return gbps * 100;
}

/* "3.0" for 8 GT/s: the generation people name a PCIe link by. */
static void pcie_gen(const char *speed, char *buf, size_t len)
{
	static const struct { double gt; const char *gen; } gens[] = {
		{ 2.5, "1.0" }, { 5, "2.0" }, { 8, "3.0" }, { 16, "4.0" },
		{ 32, "5.0" }, { 64, "6.0" },
	};
	double gt = atof(speed);
	size_t i;

	for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (gt > gens[i].gt * 0.9 && gt < gens[i].gt * 1.1) {
			snprintf(buf, len, "%s", gens[i].gen);
			return;
		}
	snprintf(buf, len, "%g GT/s", gt);
}

char *links_pcie_text(const struct pci_controller *c, char *buf, size_t len)
{
	char now[24], max[24];

	buf[0] = 0;
	if (c->link_width <= 0 || c->link_mbps <= 0)
		return buf;
	pcie_gen(c->link_speed, now, sizeof(now));
	pcie_gen(c->max_link_speed, max, sizeof(max));
	if (!c->degraded)
		snprintf(buf, len, "PCIe %s x%d", now, c->link_width);
	else if (!strcmp(now, max) || !c->max_link_speed[0])
		snprintf(buf, len, "PCIe %s x%d of x%d", now, c->link_width,
			 c->max_link_width);
	else
		snprintf(buf, len, "PCIe %s x%d of %s x%d", now, c->link_width,
			 max, c->max_link_width > 0 ? c->max_link_width :
			 c->link_width);
	return buf;
}

/* MB/s however large, as dd, fio and vmstat say rates. */
char *links_fmt_rate(double mbps, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f MB/s", mbps);
	return buf;
}

static void links_of_disk(const struct discover_disk *dd,
			  const struct pci_controller *c,
			  struct links_disk *out)
{
	snprintf(out->firmware, sizeof(out->firmware), "%s", dd->firmware);
	snprintf(out->transport, sizeof(out->transport), "%s", dd->transport);
	/* An NVMe drive is its own controller: its link is the PCIe one. */
	if (!strcmp(dd->transport, "nvme") && c && c->link_mbps > 0) {
		snprintf(out->kind, sizeof(out->kind), "pcie");
		links_pcie_text(c, out->rate, sizeof(out->rate));
		out->mbps = c->link_mbps;
		return;
	}
	out->mbps = links_rate_mbps(dd->link);
	if (out->mbps <= 0)
		return;
	snprintf(out->kind, sizeof(out->kind), "%s",
		 !strcmp(dd->transport, "sata") ? "sata" : "sas");
	snprintf(out->rate, sizeof(out->rate), "%s", dd->link);
}

void links_fastest(struct record *r)
{
	static const int phases[] = { PHASE_WRITE, PHASE_VERIFY, PHASE_READ };
	size_t p;
	int i, c;

	for (c = 0; c < r->links.n; c++) {
		struct links_ctrl *ct = &r->links.ctrls[c];

		ct->fastest_mbps = 0;
		/* Its total is its disks' rates added: never below one. */
		ct->write_mbps = figures_ctrl_rate(r, c, FIGURES_WRITE);
		ct->read_mbps = figures_ctrl_rate(r, c, FIGURES_READ);
	}
	for (i = 0; i < r->n; i++) {
		struct links_ctrl *ct;

		r->disks[i].link.write_mbps =
			figures_dir_rate(&r->disks[i].snap, FIGURES_WRITE);
		r->disks[i].link.read_mbps =
			figures_dir_rate(&r->disks[i].snap, FIGURES_READ);
		c = r->disks[i].link.ctrl;
		if (c < 0 || c >= r->links.n)
			continue;
		ct = &r->links.ctrls[c];
		for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
			double v = figures_rate(&r->disks[i].snap,
						    phases[p]);

			if (v > ct->fastest_mbps)
				ct->fastest_mbps = v;
		}
	}
}

int links_add_ctrl(struct links *l, const struct pci_controller *c)
{
	struct links_ctrl *grown;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->ctrls[i].pci.pci, c->pci))
			return i;
	grown = realloc(l->ctrls, (size_t)(l->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->ctrls = grown;
	memset(&l->ctrls[l->n], 0, sizeof(l->ctrls[0]));
	l->ctrls[l->n].pci = *c;
	return l->n++;
}

int links_read(struct record *r, const char *sysroot)
{
	struct discover_options o = { .sysroot = sysroot, .procroot = "/proc",
				      .devroot = "/dev" };
	struct discover_inventory inv;
	int i, k, c, ret;

	for (i = 0; i < r->n; i++)
		r->disks[i].link.ctrl = -1;
	/* Room for the counters of every disk that may burn. */
	free(r->links.last);
	r->links.last = calloc((size_t)r->n * 2 + 1, sizeof(*r->links.last));
	if (!r->links.last)
		return -ENOMEM;
	r->links.nlast = r->n;
	ret = discover_tree(&o, &inv);
	if (ret)
		return ret;
	for (i = 0; i < r->n && !ret; i++) {
		struct record_disk *d = &r->disks[i];
		const struct pci_controller *pc = NULL;

		if (d->t.kind != TARGET_BLOCK || d->t.id.backing[0])
			continue;
		for (k = 0; k < inv.ndisks; k++)
			if (d->t.rdev ? inv.disks[k].dev == d->t.rdev :
			    !strcmp(inv.disks[k].id.name, d->t.id.name))
				break;
		if (k == inv.ndisks)
			continue;
		if (inv.disks[k].controller >= 0)
			pc = &inv.ctrls[inv.disks[k].controller];
		links_of_disk(&inv.disks[k], pc, &d->link);
		d->link.ctrl = -1;
		if (!pc)
			continue;
		c = links_add_ctrl(&r->links, pc);
		if (c < 0) {
			ret = c;
			break;
		}
		d->link.ctrl = c;
		r->links.ctrls[c].ndisks++;
	}
	discover_free(&inv);
	return ret;
}

void links_free(struct links *l)
{
	free(l->ctrls);
	free(l->last);
	memset(l, 0, sizeof(*l));
}

void links_start(struct links *l, uint64_t t0)
{
	if (l->last)
		memset(l->last, 0, (size_t)l->nlast * 2 * sizeof(*l->last));
	l->last_ns = l->status_ns = t0;
	l->win_ns = 0;
	l->windows = 0;
}

/*
 * A window's bytes as MB/s: the best so far when it moved more in all.
 * Writes and reads are kept of one window, so that what is said to have
 * gone through together did, in the same seconds.
 */
static void window_close(double *best_w, double *best_r, uint64_t w,
			 uint64_t r, double secs)
{
	double mw = (double)w / secs / 1e6, mr = (double)r / secs / 1e6;

	if (mw + mr > *best_w + *best_r) {
		*best_w = mw;
		*best_r = mr;
	}
}

void links_sample(struct links *l, struct record_disk *const *disks,
		  const struct engine_counters *c, int n, uint64_t now)
{
	int i, k, whole, partial;
	double secs;

	if (!l->last || n > l->nlast || now <= l->last_ns)
		return;
	for (i = 0; i < n; i++) {
		struct links_disk *d = &disks[i]->link;
		uint64_t w = c[i].bytes_written - l->last[2 * i];
		uint64_t r = c[i].bytes_read - l->last[2 * i + 1];

		l->last[2 * i] = c[i].bytes_written;
		l->last[2 * i + 1] = c[i].bytes_read;
		d->win_w += w;
		d->win_r += r;
		if (d->ctrl < 0 || d->ctrl >= l->n)
			continue;
		l->ctrls[d->ctrl].win_w += w;
		l->ctrls[d->ctrl].win_r += r;
		l->ctrls[d->ctrl].live += w + r;
	}
	l->win_ns += now - l->last_ns;
	l->last_ns = now;
	secs = timing_secs(l->win_ns);
	whole = l->win_ns >= (uint64_t)LINKS_WINDOW_S * TIMING_SEC;
	/* Before a whole window has passed, the best so far counts. */
	partial = !whole && !l->windows && l->win_ns >= TIMING_SEC;
	if (!whole && !partial)
		return;
	for (k = 0; k < l->n; k++) {
		struct links_ctrl *ct = &l->ctrls[k];

		window_close(&ct->write_mbps, &ct->read_mbps, ct->win_w,
			     ct->win_r, secs);
		ct->windows += whole;
		if (whole)
			ct->win_w = ct->win_r = 0;
	}
	for (i = 0; i < n; i++) {
		struct links_disk *d = &disks[i]->link;

		window_close(&d->write_mbps, &d->read_mbps, d->win_w,
			     d->win_r, secs);
		if (whole)
			d->win_w = d->win_r = 0;
	}
	l->windows += whole;
	if (whole)
		l->win_ns = 0;
}

/* "03:00.0" for 0000:03:00.0: the domain is 0000 on nearly every box. */
static const char *short_pci(const char *pci)
{
	return !strncmp(pci, "0000:", 5) ? pci + 5 : pci;
}

/* One controller's entry; compact drops the unit where room is short. */
static void entry(const struct links_ctrl *c, double mbps, int compact,
		  char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s %.0f%s",
				       short_pci(c->pci.pci), mbps,
				       compact ? "" : " MB/s");

	if (c->pci.link_mbps > 0 && used < len)
		snprintf(buf + used, len - used, " %.0f%%",
			 100 * mbps / c->pci.link_mbps);
}

/*
 * Lays the entries out, each line from "  ctrl ", at most LINKS_LINES of
 * LINKS_COLS, the last with room for "  +N more": 0 when not all fit.
 */
static int lay_out(const struct links *l, const double *mbps, int compact,
		   char *out, size_t len)
{
	static const char head[] = "  ctrl ";
	char e[64];
	size_t col = 0, used = 0, room;
	int k, line = 1, more = 0;

	out[0] = 0;
	for (k = 0; k < l->n; k++) {
		size_t w;

		if (!l->ctrls[k].ndisks)
			continue;
		if (more) {
			more++;
			continue;
		}
		entry(&l->ctrls[k], mbps[k], compact, e, sizeof(e));
		w = strlen(e) + (col ? 2 : sizeof(head) - 1);
		room = LINKS_COLS - (line == LINKS_LINES ? 10 : 0);
		if (col && col + w > room) {
			if (line == LINKS_LINES) {
				more = 1;
				continue;
			}
			used += (size_t)snprintf(out + used, len - used, "\n");
			line++;
			col = 0;
			w = strlen(e) + sizeof(head) - 1;
		}
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 col ? "  " : head, e);
		col += w;
	}
	if (more && used < len)
		snprintf(out + used, len - used, "  +%d more", more);
	return !more && used < len;
}

void links_status(struct links *l, uint64_t now, char *out, size_t len)
{
	links_status_of(l, NULL, NULL, 0, now, out, len);
}

void links_status_of(struct links *l, struct record_disk *const *disks,
		     const double *disk_mbps, int n, uint64_t now, char *out,
		     size_t len)
{
	double secs = timing_secs(now - l->status_ns), *mbps;
	int i, k, any = 0;

	out[0] = 0;
	mbps = calloc((size_t)l->n + 1, sizeof(*mbps));
	if (!mbps)
		return;
	if (secs <= 0)
		secs = 1;
	for (k = 0; k < l->n; k++) {
		if (!disk_mbps)
			mbps[k] = (double)l->ctrls[k].live / secs / 1e6;
		l->ctrls[k].live = 0;
		any |= l->ctrls[k].ndisks > 0;
	}
	/* Its disks' rates added, as a controller's total always is. */
	for (i = 0; disk_mbps && i < n; i++) {
		k = disks[i]->link.ctrl;
		if (k >= 0 && k < l->n)
			mbps[k] += disk_mbps[i];
	}
	l->status_ns = now;
	/* Whole words where they fit; with many controllers, fewer. */
	if (any && !lay_out(l, mbps, 0, out, len))
		lay_out(l, mbps, 1, out, len);
	free(mbps);
}

char *links_verdict(const struct links_ctrl *c, char *buf, size_t len)
{
	double link = c->pci.link_mbps, agg = c->write_mbps > c->read_mbps ?
		      c->write_mbps : c->read_mbps;
	char a[32], s[32], lk[32], pcie[64];

	buf[0] = 0;
	if (agg <= 0)
		return buf;
	links_pcie_text(&c->pci, pcie, sizeof(pcie));
	if (link > 0 && agg > LINKS_PAST * link) {
		snprintf(buf, len, "%s, faster than the %s its %s is said to "
			 "carry: no limit (an emulated device?)",
			 links_fmt_rate(agg, a, sizeof(a)),
			 links_fmt_rate(link, s, sizeof(s)), pcie);
		return buf;
	}
	if (link > 0 && c->fastest_mbps > LINKS_PAST * link) {
		snprintf(buf, len, "%s; a disk of it moved %s one way, faster "
			 "than the %s its %s is said to carry: no limit (an "
			 "emulated device?)", links_fmt_rate(agg, a, sizeof(a)),
			 links_fmt_rate(c->fastest_mbps, s, sizeof(s)),
			 links_fmt_rate(link, lk, sizeof(lk)), pcie);
		return buf;
	}
	if (link > 0 && agg >= LINKS_LIMIT_SHARE * link) {
		snprintf(buf, len, "the PCIe link is the limit: %s, %.0f%% of "
			 "%s", links_fmt_rate(agg, a, sizeof(a)),
			 100 * agg / link, pcie);
		return buf;
	}
	if (c->solo_sum > 0 && c->read_mbps > 0) {
		double share = c->read_mbps / c->solo_sum;

		snprintf(buf, len, "%s: %s read together, %.0f%% of the %s its "
			 "disks read alone%s%s%s",
			 share < LINKS_TOGETHER_SHARE ?
			 "the controller or an expander is the limit" :
			 "the drives are the limit",
			 links_fmt_rate(c->read_mbps, a, sizeof(a)),
			 100 * share, links_fmt_rate(c->solo_sum, s, sizeof(s)),
			 link > 0 ? ", under its " : "", pcie,
			 link > 0 ? " link" : "");
		return buf;
	}
	if (link > 0)
		snprintf(buf, len, "%s, %.0f%% of %s: not the link; a solo "
			 "phase (solo=SECONDS) tells the drives from the "
			 "controller",
			 links_fmt_rate(agg, a, sizeof(a)), 100 * agg / link,
			 pcie);
	return buf;
}
