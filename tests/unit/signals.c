/* SPDX-License-Identifier: MIT */
/*
 * Description: the table of the machine's signals (results/signal.h):
 * each signal is found by its one name, a signal that reads its part of
 * result.json back also writes one, the table's order is the outputs'
 * and restore's, and report.html's machine section asks the table
 * whether any signal has a part there (a BMC that was looked for and not
 * found is said; nothing at all is no section); the lab's metrics and the
 * OCP output find a signal's gauges and measurements in the table, and
 * kiln fleet its columns; the judging reaches each signal's rules
 * through its judge hook, at its places, in the table's order; and a
 * signal's own part of the record is a slot of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/jsonread.h"
#include "fleet/fleet.h"
#include "judge/bmcjudge.h"
#include "judge/record.h"
#include "judge/smartjudge.h"
#include "results/report_machine.h"
#include "results/signal.h"
#include "sense/bmc.h"

static struct settings s;

static void names(void)
{
	int n = 0, unique = 1, found = 1, written = 1;

	for (SIGNAL_EACH(p)) {
		for (SIGNAL_EACH(q))
			if (q != p && !strcmp((*q)->name, (*p)->name))
				unique = 0;
		if (!(*p)->name[0] || signal_find((*p)->name) != *p)
			found = 0;
		if (((*p)->read && !(*p)->json) ||
		    ((*p)->read_disk && !(*p)->json_disk))
			written = 0;
		n++;
	}
	tap_ok(n >= 5 && unique && found, "%d signals, each found by its "
	       "one name", n);
	tap_ok(!signal_find("no-such-signal"), "an unknown name is none");
	tap_ok(written, "a signal that reads its part back also writes it");
}

/* Where the signal of that name is in the table, or -1. */
static int place(const char *name)
{
	int i = 0;

	for (SIGNAL_EACH(p), i++)
		if (!strcmp((*p)->name, name))
			return i;
	return -1;
}

/*
 * The table's order is every output's order, and restore's too: blame's
 * read decides again from the controllers the peers read and the memory
 * errors the vitals read, so both come before it; a target's "smart",
 * then its peers', then its "signals", as docs/results.md has them.
 */
static void order(void)
{
	int smart = place("smart"), peers = place("peers"),
	    vitals = place("vitals"), blame = place("blame"),
	    dips = place("dips");

	tap_ok(smart >= 0 && peers >= 0 && vitals >= 0 && blame >= 0 &&
	       dips >= 0, "SMART, the peers, the vitals, blame and the dips "
	       "are signals of the table");
	tap_ok(smart < peers && peers < vitals && vitals < blame &&
	       blame < dips, "in the order result.json says them, blame's "
	       "read after the peers' and the vitals' (%d %d %d %d %d)",
	       smart, peers, vitals, blame, dips);
}

/* report_machine_html() of r, as a string (the caller frees it). */
static char *machine(const struct record *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		tap_bail("out of memory");
	report_machine_html(f, r);
	fclose(f);
	return text;
}

static void section(void)
{
	struct record r;
	struct bmc *b;
	char *html;

	record_init(&r, "burn", 0, NULL, &s);
	html = machine(&r);
	tap_ok(html && !html[0], "no signal with a part: no machine section");
	free(html);
	b = record_slot_make(&r, BMC_SLOT, sizeof(*b), NULL);
	if (!b)
		tap_bail("out of memory");
	b->state = BMC_ABSENT;
	html = machine(&r);
	tap_ok(html && strstr(html, "The machine's signals") &&
	       strstr(html, "no BMC found"), "a BMC looked for and not "
	       "found: the section says so");
	free(html);
	record_free(&r);
}

/*
 * The lab's metrics and OCP's output reach the signals through the table:
 * every gauge of every signal is a disk's (kiln_disk_...), named once,
 * with its HELP and a value; the vitals' gauges say a disk's temperature
 * and its limit, only where known; SMART's counters are its OCP part.
 */
static void gauges(void)
{
	const struct signal_ops *vitals = signal_find("vitals");
	const struct signal_ops *smart = signal_find("smart");
	const struct signal_gauge *g, *h;
	struct record_disk d;
	int n = 0, named = 1, unique = 1, temp = 0, limit = 0;
	double v = 0;

	for (SIGNAL_EACH(p))
		for (g = (*p)->gauges; g && g->name; g++, n++) {
			if (strncmp(g->name, "kiln_disk_", 10) || !g->help ||
			    !g->help[0] || !g->value || g->decimals < 0)
				named = 0;
			for (SIGNAL_EACH(q))
				for (h = (*q)->gauges; h && h->name; h++)
					if (h != g && !strcmp(h->name, g->name))
						unique = 0;
		}
	tap_ok(n >= 2 && named && unique, "%d gauges, each a disk's, named "
	       "once, with its HELP and a value", n);
	memset(&d, 0, sizeof(d));
	d.sig.temp_last = d.sig.limit = VITALS_NONE;
	for (g = vitals ? vitals->gauges : NULL; g && g->name; g++) {
		if (!strcmp(g->name, "kiln_disk_temperature_celsius"))
			temp = !g->value(&d, &v) &&
			       (d.sig.temp_last = 47, g->value(&d, &v)) &&
			       v == 47;
		if (!strcmp(g->name, "kiln_disk_temperature_limit_celsius"))
			limit = !g->value(&d, &v) &&
				(d.sig.limit = 0, !g->value(&d, &v)) &&
				(d.sig.limit = 70, g->value(&d, &v)) &&
				v == 70;
	}
	tap_ok(temp && limit, "the vitals' gauges: a disk's temperature and "
	       "its limit, none where not known");
	tap_ok(smart && smart->ocp_disk, "SMART's counters are its own part "
	       "of the OCP output");
}

/*
 * kiln fleet's columns of the signals (fleet.csv, its index, the page,
 * the certificate): as many as a fleet run holds, each named once and
 * read from an object of result.json; the BMC's address and MAC, in
 * fleet.csv's order.
 */
static void columns(void)
{
	const struct signal_column *c[FLEET_COLUMNS + 8];
	int n = signals_columns(c, FLEET_COLUMNS + 8), i, k, ok = 1;

	for (i = 0; i < n && i < FLEET_COLUMNS + 8; i++) {
		if (!c[i]->object || !c[i]->member || !c[i]->lead ||
		    !c[i]->name[0])
			ok = 0;
		for (k = 0; k < i; k++)
			if (!strcmp(c[k]->name, c[i]->name))
				ok = 0;
	}
	tap_ok(n <= FLEET_COLUMNS && ok, "%d fleet columns of the signals, "
	       "at most the %d a fleet run holds, each named once", n,
	       FLEET_COLUMNS);
	tap_ok(n >= 2 && !strcmp(c[0]->name, "bmc_address") &&
	       !strcmp(c[0]->object, "bmc") &&
	       !strcmp(c[0]->member, "address") &&
	       !strcmp(c[1]->name, "bmc_mac") && !c[1]->cert &&
	       c[0]->cert && !strcmp(c[0]->cert, "BMC address"),
	       "the BMC's: its address (a certificate's row too) and MAC");
	tap_ok(signals_columns(NULL, 0) == n, "counted without a place to "
	       "put them");
}

/* What record_judge() asked of the rules, a letter a call. */
static char calls[64];

static void recorded(struct record *r, struct record_disk *d, int final,
		     enum judge_at at)
{
	static const char letter[] = { 'F', 'H', 'D', 'R', 'L' };
	size_t n = strlen(calls);

	(void)final;
	if (n + 2 < sizeof(calls)) {
		calls[n] = letter[at];
		calls[n + 1] = d ? (char)('0' + (d - r->disks)) : '-';
	}
}

static void nothing(struct record *r, struct record_disk *d, int final,
		    enum judge_at at)
{
	(void)r, (void)d, (void)final, (void)at;
}

/*
 * The judging (record_judge) calls the signals' rules at its five places
 * (record.h): once before the disks, a disk's two places for each disk
 * that ran (one that never ran at neither), twice after them all. The
 * signals with rules have them at their places, in the table's order
 * (which is the order of a disk's reasons); and a rule counts only
 * through its hook: SMART's damage grown during the run FAILs a disk
 * under signals_judge() and not under rules that say nothing.
 */
static void judging(void)
{
	struct record r;
	struct record_disk *d;
	struct smart_disk *sm;
	int i;
	const char *judged[] = { "smart", "nvme", "vitals", "link_errors",
				 "end", "peers", "blame", "dips", "stress",
				 "bmc", "network" };
	int hooked = 1;

	record_init(&r, "burn", 0, NULL, &s);
	for (i = 0; i < 3; i++)
		if (!record_add(&r, i == 1 ? "/dev/b" : "/dev/a", 0))
			tap_bail("out of memory");
	snprintf(r.disks[1].failed, sizeof(r.disks[1].failed), "refused");
	calls[0] = 0;
	record_judge(&r, recorded, 1, 0);
	tap_ok(!strcmp(calls, "F-H0D0H2D2R-L-"), "the places in order, "
	       "each disk that ran at its two, one that never ran at none (%s)",
	       calls);
	tap_ok(r.disks[1].j.verdict == JUDGE_FAIL, "one that never ran "
	       "FAILs with its reason");
	record_free(&r);

	for (i = 0; i < (int)(sizeof(judged) / sizeof(judged[0])); i++)
		if (!signal_find(judged[i]) || !signal_find(judged[i])->judge)
			hooked = 0;
	tap_ok(hooked, "SMART, NVMe, the vitals, link errors, the end step, "
	       "the peers, blame, the dips, stress, the BMC and the network "
	       "judge through their hooks");
	tap_ok(place("smart") < place("nvme") && place("vitals") <
	       place("link_errors") && place("link_errors") < place("end") &&
	       place("peers") < place("vitals") && place("vitals") <
	       place("stress") && place("stress") < place("bmc") &&
	       place("blame") < place("network"), "at each place in the "
	       "order the reasons are said: SMART then NVMe; vitals, link "
	       "errors, the end step; the peers, the machine, stress, the "
	       "BMC; blame, then the network ports");
	tap_ok(place("network") < place("stress"), "iperf3 starts before "
	       "the stress and stops after it (the burn's UNLOAD runs the "
	       "table backwards)");

	record_init(&r, "burn", 0, NULL, &s);
	d = record_add(&r, "/dev/a", 0);
	if (!d)
		tap_bail("out of memory");
	sm = smart_disk_make(d);
	if (!sm)
		tap_bail("out of memory");
	smart_counters_none(&sm->before.c);
	smart_counters_none(&sm->after.c);
	sm->before.c.have = sm->after.c.have = 1;
	sm->before.c.realloc = 0;
	sm->after.c.realloc = 8;
	record_judge(&r, nothing, 1, 0);
	tap_ok(d->j.verdict != JUDGE_FAIL, "rules that say nothing: no "
	       "SMART FAIL");
	signals_judge(&r, 1, 0);
	tap_ok(d->j.verdict == JUDGE_FAIL && d->j.nreasons >= 2 &&
	       strstr(d->j.reasons[1], "reallocated sectors"),
	       "signals_judge: SMART's rule FAILs it, its reason right "
	       "after the engine's (%s)", d->j.nreasons > 1 ?
	       d->j.reasons[1] : "none");
	record_free(&r);
}

static int freed;

static void count_free(void *data)
{
	(void)data;
	freed++;
}

/*
 * A signal's own part of the record is a slot (record.h): none until its
 * signal makes it, made zeroed once and found by its name after, freed
 * with what it holds by record_free(); a record full of slots makes no
 * more. stress, the BMC and the network ports hold theirs so.
 */
static void slots(void)
{
	static char names[RECORD_SLOTS + 1][8];
	struct record r;
	int *a, *b, i, made = 0, zero = 1;

	record_init(&r, "burn", 0, NULL, &s);
	tap_ok(!record_slot(&r, "bmc") && !record_slot(&r, "stress"),
	       "a new record: no slot");
	a = record_slot_make(&r, "a", 64 * sizeof(int), count_free);
	for (i = 0; a && i < 64; i++)
		zero &= !a[i];
	tap_ok(a && zero && record_slot(&r, "a") == a, "made zeroed, then "
	       "found by its name");
	b = record_slot_make(&r, "a", sizeof(int), NULL);
	tap_ok(b == a, "made again: the same slot");
	for (i = 0; i <= RECORD_SLOTS; i++) {
		snprintf(names[i], sizeof(names[i]), "s%d", i);
		if (record_slot_make(&r, names[i], 8, count_free))
			made++;
	}
	tap_ok(made == RECORD_SLOTS - 1 && !record_slot(&r, names[made]),
	       "a full record makes no more (%d made)", made);
	if (!record_add(&r, "/dev/a", 0) || !record_add(&r, "/dev/b", 0))
		tap_bail("out of memory");
	a = record_disk_slot_make(&r.disks[0], "nvme", sizeof(int),
				  count_free);
	tap_ok(a && record_disk_slot(&r.disks[0], "nvme") == a &&
	       !record_disk_slot(&r.disks[1], "nvme") &&
	       !record_slot(&r, "nvme"), "a disk's slot is its own: not "
	       "another disk's, not the run's");
	freed = 0;
	record_free(&r);
	tap_ok(freed == RECORD_SLOTS + 1 && !r.nslots, "record_free frees "
	       "each slot, the run's and the disks', with what it holds (%d)",
	       freed);
}

/*
 * A target's facts read back that a signal cannot keep (every slot of
 * the disk taken, as out of memory) fail the read, -ENOMEM, so restore
 * fails rather than judge the disk without them; a target with none of
 * them reads (0) and makes no slot.
 */
static void read_no_room(void)
{
	static const char target[] =
		"{\"nvme_logs\": {\"controller\": \"/dev/nvme0\"},"
		" \"link_errors\": {\"drive icrc_errors\": {\"source\":"
		" \"drive\", \"counter\": \"icrc_errors\", \"before\": 0,"
		" \"after\": 3, \"growth\": 3}}}";
	static const char bare[] = "{\"nvme_logs\": null, "
				   "\"link_errors\": {}}";
	static const char *names[] = { "nvme", "link_errors" };
	struct jsonread *doc = NULL, *none = NULL;
	struct record r;
	char slot[RECORD_DISK_SLOTS + 1][4];
	size_t i;
	int k;

	record_init(&r, "burn", 0, NULL, &s);
	if (!record_add(&r, "/dev/a", 0) || !record_add(&r, "/dev/b", 0) ||
	    jsonread_parse(&doc, target, sizeof(target) - 1, NULL, NULL, 0) ||
	    jsonread_parse(&none, bare, sizeof(bare) - 1, NULL, NULL, 0))
		tap_bail("out of memory");
	for (k = 0; k <= RECORD_DISK_SLOTS; k++) {
		snprintf(slot[k], sizeof(slot[k]), "%d", k);
		record_disk_slot_make(&r.disks[0], slot[k], 8, NULL);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct signal_ops *sig = signal_find(names[i]);

		int full, bare_ret, bare_slots, room;

		if (!sig || !sig->read_disk)
			tap_bail("%s: no read_disk", names[i]);
		full = sig->read_disk(jsonread_root(doc), &r.disks[0]);
		bare_ret = sig->read_disk(jsonread_root(none), &r.disks[1]);
		bare_slots = r.disks[1].nslots;
		room = sig->read_disk(jsonread_root(doc), &r.disks[1]);
		tap_ok(full == -ENOMEM && !bare_ret && bare_slots == (int)i &&
		       !room && r.disks[1].nslots == (int)i + 1,
		       "%s: facts it cannot keep fail the read; none to keep "
		       "read, no slot; kept with room (%d %d %d %d)", names[i],
		       full, bare_ret, bare_slots, room);
	}
	/* SMART's slot is every disk's once read: "not said" is a state. */
	{
		const struct signal_ops *sig = signal_find("smart");

		tap_ok(sig && sig->read_disk &&
		       sig->read_disk(jsonread_root(doc), &r.disks[0]) ==
		       -ENOMEM && !smart_disk_of(&r.disks[0])->before.c.have &&
		       !sig->read_disk(jsonread_root(none), &r.disks[1]) &&
		       record_disk_slot(&r.disks[1], SMART_SLOT) &&
		       smart_disk_of(&r.disks[1])->after.c.realloc == -1,
		       "smart: no room fails the read; read back with none "
		       "said, its slot holds \"not said\" (-1), not zero");
	}
	jsonread_free(doc);
	jsonread_free(none);
	record_free(&r);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(names);
	TAP_RUN(order);
	TAP_RUN(section);
	TAP_RUN(gauges);
	TAP_RUN(columns);
	TAP_RUN(judging);
	TAP_RUN(slots);
	TAP_RUN(read_no_room);
	return tap_done();
}
