/* SPDX-License-Identifier: MIT */
/*
 * Description: the BMC as a signal of the results (signal.h): what it
 * told (sense/bmc.h) in result.json's top-level "bmc" object, written and
 * read back by the same names, each entry added by its raw 16 bytes, so
 * kiln finish and kiln report judge a restored run as the run judged
 * itself; its line in summary.txt and its table in report.html. A burn
 * reads its event log before and after (bmc_burn). Nothing with bmc=0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "judge/bmcjudge.h"
#include "results/html.h"
#include "results/result_keys.h"
#include "results/signal.h"
#include "sense/bmc.h"

static void raw_hex(const struct sel_entry *e, char *buf)
{
	int i;

	for (i = 0; i < SEL_RECORD; i++)
		sprintf(buf + 2 * i, "%02x", e->raw[i]);
}

static int raw_of(const char *s, struct sel_entry *e)
{
	uint8_t raw[SEL_RECORD];
	unsigned v;
	int i;

	if (!s || strlen(s) != 2 * SEL_RECORD)
		return -1;
	for (i = 0; i < SEL_RECORD; i++) {
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		raw[i] = (uint8_t)v;
	}
	sel_parse(raw, e);
	return 0;
}

/* Its slot's insides. */
static void bmc_slot_free(void *b)
{
	bmc_free(b);
}

/* Its slot, made if need be; NULL when out of memory. */
static struct bmc *bmc_mine(struct record *r)
{
	return record_slot_make(r, BMC_SLOT, sizeof(struct bmc),
				bmc_slot_free);
}

/* Its slot to read: with none, a BMC not asked for (BMC_OFF). */
static const struct bmc *bmc_of(const struct record *r)
{
	static const struct bmc off;
	const struct bmc *b = record_slot(r, BMC_SLOT);

	return b ? b : &off;
}

static void bmc_out_json(struct json *j, const struct record *r)
{
	const struct bmc *b = bmc_of(r);
	char hex[2 * SEL_RECORD + 1], what[120];
	int i;

	if (b->state == BMC_OFF)
		return;
	json_begin(j, KEY_BMC);
	json_str(j, KEY_STATE, bmc_state_name(b->state));
	json_str(j, KEY_ADDRESS, b->address[0] ? b->address : NULL);
	json_str(j, KEY_MAC, b->mac[0] ? b->mac : NULL);
	json_bool(j, KEY_END_READ, b->end_read);
	json_u64(j, KEY_ENTRIES_START, b->start_entries);
	json_u64(j, KEY_ENTRIES_END, b->end_entries);
	json_bool(j, KEY_CLEARED, b->change.cleared);
	json_bool(j, KEY_WRAPPED, b->change.wrapped);
	json_bool(j, KEY_OVERFLOW, b->change.overflow);
	json_u64(j, KEY_ADDED, (uint64_t)b->added);
	json_array(j, KEY_ENTRIES);
	for (i = 0; i < b->nkept; i++) {
		const struct sel_entry *e = &b->kept[i];
		int c = sel_class(e);

		raw_hex(e, hex);
		sel_describe(e, what, sizeof(what));
		json_begin(j, NULL);
		json_u64(j, KEY_RECORD_ID, e->id);
		json_str(j, KEY_RAW, hex);
		json_str(j, KEY_CRITICAL, c == SEL_FACT ? NULL :
			 sel_class_name(c));
		json_str(j, KEY_WHAT, what);
		json_end(j);
	}
	json_array_end(j);
	json_str(j, KEY_PROBLEM, b->problem[0] ? b->problem : NULL);
	json_str(j, KEY_VERDICT, judge_name(b->verdict));
	json_str(j, KEY_WHY, b->why[0] ? b->why : NULL);
	json_end(j);
}

static int bmc_out_read(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *o = jsonread_get(doc, KEY_BMC), *es;
	struct bmc *b;
	int i, state;

	if (!o || jsonread_type(o) != JSONREAD_OBJECT)
		return 0;
	b = bmc_mine(r);
	if (!b)
		return -ENOMEM;
	bmc_free(b);
	memset(b, 0, sizeof(*b));
	state = bmc_state_of(jsonread_str(o, KEY_STATE, NULL));
	b->state = state < 0 ? BMC_UNREAD : state;
	jsonread_copy(o, KEY_ADDRESS, b->address, sizeof(b->address));
	jsonread_copy(o, KEY_MAC, b->mac, sizeof(b->mac));
	b->end_read = jsonread_bool(o, KEY_END_READ, 0);
	b->start_entries = (unsigned)jsonread_u64(o, KEY_ENTRIES_START, 0);
	b->end_entries = (unsigned)jsonread_u64(o, KEY_ENTRIES_END, 0);
	b->change.cleared = jsonread_bool(o, KEY_CLEARED, 0);
	b->change.wrapped = jsonread_bool(o, KEY_WRAPPED, 0);
	b->change.overflow = jsonread_bool(o, KEY_OVERFLOW, 0);
	b->added = (int)jsonread_u64(o, KEY_ADDED, 0);
	es = jsonread_get(o, KEY_ENTRIES);
	for (i = 0; i < (int)jsonread_count(es) && b->nkept < BMC_KEPT; i++)
		if (!raw_of(jsonread_str(jsonread_at(es, (size_t)i), KEY_RAW,
					 NULL), &b->kept[b->nkept]))
			b->nkept++;
	jsonread_copy(o, KEY_PROBLEM, b->problem, sizeof(b->problem));
	/* As written, for kiln report; kiln finish judges them again. */
	for (i = JUDGE_PASS; i <= JUDGE_FAIL; i++)
		if (!strcmp(jsonread_str(o, KEY_VERDICT, ""), judge_name(i)))
			b->verdict = i;
	jsonread_copy(o, KEY_WHY, b->why, sizeof(b->why));
	return 0;
}

static void bmc_out_summary(const struct record *r, FILE *f)
{
	const struct bmc *b = bmc_of(r);
	char what[120];
	int i;

	switch (b->state) {
	case BMC_OFF:
		return;
	case BMC_ABSENT:
		fprintf(f, "bmc: none found (no IPMI device): its event log "
			"not read\n");
		return;
	case BMC_UNREAD:
		fprintf(f, "bmc: %s: its event log could not be read: %s\n",
			b->address[0] ? b->address : "address not known",
			judge_name(b->verdict));
		break;
	default:
		fprintf(f, "bmc: %s%s%s, event log %u entr%s before, %u after, "
			"%d added during the run: %s\n",
			b->address[0] ? b->address : "address not known",
			b->mac[0] ? " " : "", b->mac, b->start_entries,
			b->start_entries == 1 ? "y" : "ies", b->end_entries,
			b->added, judge_name(b->verdict));
	}
	if (b->why[0])
		fprintf(f, "  %s\n", b->why);
	for (i = 0; i < b->nkept; i++) {
		int c = sel_class(&b->kept[i]);

		sel_describe(&b->kept[i], what, sizeof(what));
		fprintf(f, "  record %04Xh: %s%s%s\n", b->kept[i].id, what,
			c == SEL_FACT ? "" : ": CRITICAL, ",
			c == SEL_FACT ? "" : sel_class_name(c));
	}
	if (b->added > b->nkept)
		fprintf(f, "  %d more entries added (result.json keeps %d)\n",
			b->added - b->nkept, b->nkept);
}

static void bmc_out_html(FILE *f, const struct record *r)
{
	const struct bmc *b = bmc_of(r);
	char buf[120];
	int i;

	if (b->state == BMC_OFF)
		return;
	/* Nothing was judged: a badge would say PASS of what is not there. */
	if (b->state == BMC_ABSENT) {
		fputs("<h3>BMC</h3>\n<p>no BMC found (no IPMI device): its "
		      "event log not read</p>\n", f);
		return;
	}
	fprintf(f, "<h3>BMC: <span class=\"%s\">%s</span></h3>\n"
		"<table class=\"bmc\">\n", judge_name(b->verdict),
		judge_name(b->verdict));
	fputs("<tr><th class=\"l\">state</th>", f);
	html_cell(f, bmc_state_name(b->state));
	fputs("</tr>\n<tr><th class=\"l\">address</th>", f);
	html_cell(f, b->address[0] ? b->address : "-");
	fputs("</tr>\n<tr><th class=\"l\">MAC</th>", f);
	html_cell(f, b->mac[0] ? b->mac : "-");
	snprintf(buf, sizeof(buf), "%u before, %u after, %d added",
		 b->start_entries, b->end_entries, b->added);
	fputs("</tr>\n<tr><th class=\"l\">event log</th>", f);
	html_cell(f, b->state == BMC_READ ? buf : "-");
	fputs("</tr>\n</table>\n", f);
	if (b->nkept) {
		fputs("<table class=\"bmc\">\n<tr><th>record</th><th>what</th>"
		      "<th>critical</th></tr>\n", f);
		for (i = 0; i < b->nkept; i++) {
			int c = sel_class(&b->kept[i]);

			snprintf(buf, sizeof(buf), "%04Xh", b->kept[i].id);
			fputs("<tr>", f);
			html_cell(f, buf);
			sel_describe(&b->kept[i], buf, sizeof(buf));
			html_cell(f, buf);
			html_cell(f, c == SEL_FACT ? "-" : sel_class_name(c));
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	if (b->why[0]) {
		fputs("<p>", f);
		html_text(f, b->why);
		fputs("</p>\n", f);
	}
}

static int bmc_out_shown(const struct record *r)
{
	return bmc_of(r)->state != BMC_OFF;
}

/*
 * The BMC's event log before the burn (setting bmc), so what the burn
 * adds to it is told at the end; no BMC is said once and nothing judged.
 */
static void bmc_before(struct signal_burn *sb)
{
	struct bmc *m = bmc_mine(sb->r);

	if (!m) {
		fprintf(sb->con, "kiln: the BMC's event log is not read: out "
			"of memory\n");
		return;
	}
	bmc_start(m, "/dev");
	if (m->state == BMC_ABSENT)
		fprintf(sb->con, "kiln: no BMC (no IPMI device): its event "
			"log is not read\n");
	else if (m->state == BMC_UNREAD)
		fprintf(sb->con, "kiln: the BMC's event log cannot be read: "
			"%s\n", m->problem);
	else
		fprintf(sb->con, "kiln: the BMC's event log holds %u entr%s "
			"before the burn (BMC at %s)\n", m->start_entries,
			m->start_entries == 1 ? "y" : "ies",
			m->address[0] ? m->address : "an address not known");
}

static void bmc_burn(struct signal_burn *sb, enum signal_at at)
{
	if (!sb->r->s->bmc)
		return;
	if (at == SIGNAL_BEFORE)
		bmc_before(sb);
	/* What the BMC logged while the disks and the load ran. */
	else if (at == SIGNAL_AFTER && record_slot(sb->r, BMC_SLOT))
		bmc_end(record_slot(sb->r, BMC_SLOT));
}

/*
 * Its rule (record.h), after the machine's own and the stress's: a
 * critical entry added during the run FAILs the machine.
 */
static void bmc_rule(struct record *r, struct record_disk *d, int final,
		     enum judge_at at)
{
	(void)d;
	(void)final;
	if (at == JUDGE_AT_RUN)
		bmcjudge(r);
}

static const char *bmc_address_of(const struct record *r)
{
	return bmc_of(r)->address;
}

/* Where a lab reaches the machine's BMC, in kiln fleet's outputs. */
static const struct signal_column bmc_columns[] = {
	{ "bmc_address", KEY_BMC, KEY_ADDRESS, "BMC ", "BMC address",
	  bmc_address_of },
	{ "bmc_mac", KEY_BMC, KEY_MAC, "BMC MAC ", NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

const struct signal_ops bmc_signal = {
	.name = "bmc",
	.burn = bmc_burn,
	.judge = bmc_rule,
	.json = bmc_out_json,
	.read = bmc_out_read,
	.summary = bmc_out_summary,
	.html_shown = bmc_out_shown,
	.html = bmc_out_html,
	.columns = bmc_columns,
};
