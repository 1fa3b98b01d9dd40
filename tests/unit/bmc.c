/* SPDX-License-Identifier: MIT */
/*
 * Description: the BMC's event log (SEL) read from its bytes and judged.
 * Records are built byte by byte as IPMI 2.0 lays them out (section
 * 32.1; sensor types and offsets from tables 42-2 and 42-3): each is
 * parsed to its id, type, sensor and offset; every critical class is
 * told from its neighbours that are facts (a deassertion, an OEM record,
 * the offset beside it); Get SEL Info is read from ipmitool's hex; the
 * entries added between two reads are those of new record ids or of an
 * id whose bytes changed, never by timestamp; a clear, a wrap and an
 * overflow are told; the machine FAILs on a critical entry, WARNs on a
 * log unread, cleared or wrapped, and is not judged without a BMC; the
 * bmc object of result.json reads back and judges the same; `ipmitool
 * lan print` gives the address and the MAC.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "base/jsonread.h"
#include "judge/bmcjudge.h"
#include "judge/record.h"
#include "results/signal.h"
#include "results/result.h"
#include "results/summary.h"
#include "sense/bmc.h"
#include "sense/sel.h"
#include "settings/settings.h"

/*
 * A system event record: id, timestamp, sensor type and number, the
 * event/reading type, asserted or not, and event data 1's offset.
 */
static void event(uint8_t raw[SEL_RECORD], unsigned id, uint32_t time,
		  unsigned stype, unsigned sensor, unsigned etype,
		  int deassert, unsigned offset)
{
	memset(raw, 0, SEL_RECORD);
	raw[0] = id & 0xff;
	raw[1] = id >> 8;
	raw[2] = SEL_TYPE_SYSTEM;
	raw[3] = time & 0xff;
	raw[4] = (time >> 8) & 0xff;
	raw[5] = (time >> 16) & 0xff;
	raw[6] = time >> 24;
	raw[7] = 0x20;		/* the BMC's own slave address */
	raw[9] = 0x04;		/* IPMI 1.5 and 2.0's event format */
	raw[10] = (uint8_t)stype;
	raw[11] = (uint8_t)sensor;
	raw[12] = (uint8_t)((deassert ? 0x80 : 0) | etype);
	/* Data 2 and 3 unspecified (bits 7:4 zero), the offset in 3:0. */
	raw[13] = (uint8_t)offset;
	raw[14] = raw[15] = 0xff;
}

static int class_of(unsigned stype, unsigned etype, int deassert,
		    unsigned offset)
{
	uint8_t raw[SEL_RECORD];
	struct sel_entry e;

	event(raw, 1, 0, stype, 0x30, etype, deassert, offset);
	sel_parse(raw, &e);
	return sel_class(&e);
}

static void test_parse(void)
{
	uint8_t raw[SEL_RECORD];
	struct sel_entry e;
	char what[120];

	event(raw, 0x1234, 0x5f5e0ff1, 0x0c, 0x08, 0x6f, 1, 0x01);
	sel_parse(raw, &e);
	tap_ok(e.id == 0x1234 && e.type == 2 && e.time == 0x5f5e0ff1 &&
	       e.sensor_type == 0x0c && e.sensor == 0x08 &&
	       e.event_type == 0x6f && e.deasserted && e.offset == 1,
	       "a record's id, type, time, sensor, event type, direction and "
	       "offset, least significant bytes first");
	sel_describe(&e, what, sizeof(what));
	tap_ok(!strcmp(what, "Memory sensor 08h: uncorrectable ECC "
		       "(deasserted)"), "said in words: %s", what);
	event(raw, 2, 0, 0x01, 0x30, 0x01, 0, 0x09);
	sel_parse(raw, &e);
	sel_describe(&e, what, sizeof(what));
	tap_ok(!strcmp(what, "Temperature sensor 30h: upper critical going "
		       "high"), "a threshold event: %s", what);
	raw[2] = 0xc1;
	sel_parse(raw, &e);
	sel_describe(&e, what, sizeof(what));
	tap_ok(!strcmp(what, "OEM record type C1h") &&
	       sel_class(&e) == SEL_FACT,
	       "an OEM record is named by its type, and is a fact");
	event(raw, 3, 0, 0xc7, 0x01, 0x6f, 0, 0x02);
	sel_parse(raw, &e);
	sel_describe(&e, what, sizeof(what));
	tap_ok(!strcmp(what, "Sensor type C7h sensor 01h: event type 6Fh "
		       "offset 2h"), "an OEM sensor type by its numbers: %s",
	       what);
}

static void test_classes(void)
{
	static const struct {
		unsigned stype, etype, offset;
		int deassert, class;
		const char *what;
	} c[] = {
		{ 0x01, 0x01, 0x09, 0, SEL_TEMPERATURE, "upper critical high" },
		{ 0x01, 0x01, 0x08, 0, SEL_TEMPERATURE, "upper critical low" },
		{ 0x01, 0x01, 0x0b, 0, SEL_TEMPERATURE, "upper NR high" },
		{ 0x01, 0x01, 0x0a, 0, SEL_TEMPERATURE, "upper NR low" },
		{ 0x01, 0x01, 0x07, 0, SEL_FACT, "upper non-critical" },
		{ 0x01, 0x01, 0x02, 0, SEL_FACT, "lower critical" },
		{ 0x01, 0x01, 0x09, 1, SEL_FACT, "upper critical deasserted" },
		{ 0x02, 0x01, 0x09, 0, SEL_FACT, "a voltage's upper critical" },
		{ 0x08, 0x6f, 0x01, 0, SEL_POWER_SUPPLY, "PSU failure" },
		{ 0x08, 0x6f, 0x00, 0, SEL_FACT, "PSU presence" },
		{ 0x08, 0x6f, 0x03, 0, SEL_FACT, "PSU input lost" },
		{ 0x08, 0x6f, 0x01, 1, SEL_FACT, "PSU failure deasserted" },
		{ 0x0c, 0x6f, 0x01, 0, SEL_MEMORY_UE, "uncorrectable ECC" },
		{ 0x0c, 0x6f, 0x00, 0, SEL_FACT, "correctable ECC" },
		{ 0x0c, 0x6f, 0x05, 0, SEL_FACT, "CE logging limit" },
		{ 0x13, 0x6f, 0x04, 0, SEL_BUS_FATAL, "PCI PERR" },
		{ 0x13, 0x6f, 0x05, 0, SEL_BUS_FATAL, "PCI SERR" },
		{ 0x13, 0x6f, 0x09, 0, SEL_BUS_FATAL, "fatal NMI" },
		{ 0x13, 0x6f, 0x0a, 0, SEL_BUS_FATAL, "bus fatal" },
		{ 0x13, 0x6f, 0x07, 0, SEL_FACT, "bus correctable" },
		{ 0x13, 0x6f, 0x00, 0, SEL_FACT, "front panel NMI" },
		{ 0x07, 0x6f, 0x00, 0, SEL_PROCESSOR, "IERR" },
		{ 0x07, 0x6f, 0x01, 0, SEL_PROCESSOR, "thermal trip" },
		{ 0x07, 0x6f, 0x0b, 0, SEL_PROCESSOR, "uncorrectable MCE" },
		{ 0x07, 0x6f, 0x0c, 0, SEL_FACT, "correctable MCE" },
		{ 0x07, 0x6f, 0x07, 0, SEL_FACT, "processor presence" },
		{ 0x07, 0x6f, 0x0a, 0, SEL_FACT, "processor throttled" },
		{ 0x23, 0x6f, 0x00, 0, SEL_WATCHDOG, "watchdog 2 expired" },
		{ 0x23, 0x6f, 0x01, 0, SEL_WATCHDOG, "watchdog 2 hard reset" },
		{ 0x23, 0x6f, 0x03, 0, SEL_WATCHDOG, "watchdog 2 power cycle" },
		{ 0x23, 0x6f, 0x08, 0, SEL_FACT, "watchdog 2 pre-timeout" },
		{ 0x11, 0x6f, 0x01, 0, SEL_WATCHDOG, "watchdog 1 OS reset" },
		{ 0x11, 0x6f, 0x07, 0, SEL_FACT, "watchdog 1 pre-timeout" },
		{ 0x0c, 0x03, 0x01, 0, SEL_FACT, "memory, generic event type" },
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int got = class_of(c[i].stype, c[i].etype, c[i].deassert,
				   c[i].offset);

		if (got != c[i].class) {
			tap_diag("%s: class %d, not %d", c[i].what, got,
				 c[i].class);
			bad++;
		}
	}
	tap_ok(!bad, "each critical class, and the facts beside it (%zu "
	       "records)", i);
	tap_ok(!strcmp(sel_class_name(SEL_POWER_SUPPLY), "power supply "
		       "failure") && !strcmp(sel_class_name(SEL_FACT), ""),
	       "classes are named; a fact has no name");
}

static void test_log(void)
{
	uint8_t buf[3 * SEL_RECORD];
	struct sel_log log;
	struct sel_info in;

	event(buf, 1, 10, 0x01, 0x30, 0x01, 0, 0x07);
	event(buf + SEL_RECORD, 2, 20, 0x08, 0x40, 0x6f, 0, 0x01);
	event(buf + 2 * SEL_RECORD, 0x10, 30, 0x23, 0x50, 0x6f, 0, 0x01);
	tap_ok(!sel_log_parse(&log, buf, sizeof(buf)) && log.n == 3 &&
	       log.e[0].id == 1 && log.e[1].id == 2 && log.e[2].id == 0x10,
	       "writeraw's bytes: the records one after another");
	sel_log_free(&log);
	tap_ok(sel_log_parse(&log, buf, sizeof(buf) - 1) == -22 && !log.n,
	       "bytes that are not whole records are refused");
	tap_ok(!sel_log_parse(&log, buf, 0) && !log.n && !log.e,
	       "no bytes: an empty log");
	tap_ok(!sel_info_parse(" 51 03 00 c0 3f 10 20 30 40 ff ff ff ff 8a\n",
			       &in) && in.version == 0x51 && in.entries == 3 &&
	       in.free_bytes == 0x3fc0 && in.added == 0x40302010 &&
	       in.erased == 0xffffffff && in.overflow,
	       "Get SEL Info: version, entries, free bytes, the times of the "
	       "last addition and erase, the overflow flag");
	tap_ok(!sel_info_parse(" 51 03 00 c0 3f 10 20 30\n 40 00 00 00 00 0f",
			       &in) && !in.overflow && in.erased == 0,
	       "...over lines, the flag clear");
	tap_ok(sel_info_parse(" 51 03 00", &in) == -22 &&
	       sel_info_parse("Unable to send RAW command", &in) == -22,
	       "a short or failed answer is refused");
}

/* A log of n records with the ids given, each a fact with that id's time. */
static void log_of(struct sel_log *log, const unsigned *ids, int n)
{
	uint8_t raw[SEL_RECORD];
	int i;

	memset(log, 0, sizeof(*log));
	log->e = calloc((size_t)n + 1, sizeof(*log->e));
	if (!log->e)
		tap_bail("out of memory");
	for (i = 0; i < n; i++) {
		event(raw, ids[i], 1000 + ids[i], 0x01, 0x30, 0x01, 0, 0x07);
		sel_parse(raw, &log->e[i]);
	}
	log->n = n;
}

static void test_added(void)
{
	static const unsigned a[] = { 1, 2 }, b[] = { 1, 2, 3, 4 },
			      c[] = { 3, 4 };
	struct sel_log before, after;
	struct sel_change ch;
	int idx[8], n;

	log_of(&before, a, 2);
	log_of(&after, b, 4);
	/* The BMC's clock went back: times are no guide. */
	after.e[2].time = after.e[3].time = 5;
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(n == 2 && idx[0] == 2 && idx[1] == 3 && !ch.cleared &&
	       !ch.wrapped && !ch.overflow,
	       "new record ids are added, whatever their timestamps");
	n = sel_added(&before, &after, idx, 1, &ch);
	tap_ok(n == 2 && idx[0] == 2, "all counted, as many kept as asked");
	sel_log_free(&after);

	log_of(&after, a, 2);
	after.e[0].raw[13] = 0x09;
	after.e[1].raw[3] = 0x77;
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(n == 2 && ch.cleared && !ch.wrapped,
	       "the same ids with other bytes: cleared and refilled, both "
	       "added");
	sel_log_free(&after);

	log_of(&after, c, 2);
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(n == 2 && ch.wrapped && !ch.cleared,
	       "entries of the start gone, no erase: wrapped");
	before.have_info = after.have_info = 1;
	before.info.erased = 100;
	after.info.erased = 200;
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(n == 2 && ch.cleared && !ch.wrapped,
	       "...and with the erase time moved: cleared");
	sel_log_free(&after);

	log_of(&after, a, 2);
	after.have_info = 1;
	after.info.erased = 100;
	after.info.overflow = 1;
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(!n && ch.overflow && !ch.cleared && !ch.wrapped,
	       "the overflow flag come on during the run is told");
	before.info.overflow = 1;
	n = sel_added(&before, &after, idx, 8, &ch);
	tap_ok(!ch.overflow, "...not one that was on at the start");
	sel_log_free(&after);
	sel_log_free(&before);
}

/* A record's BMC: the bmc signal's slot (NULL: none). */
#define BMC(r) ((struct bmc *)record_slot((r), BMC_SLOT))

static void slot_free(void *b)
{
	bmc_free(b);
}

/* The BMC facts of a run, judged as a run's end judges them. */
static void judged(struct record *r, struct settings *s, const struct bmc *b)
{
	struct bmc *slot;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 0, NULL, s);
	(void)record_add(r, "/dev/null", 0);
	slot = record_slot_make(r, BMC_SLOT, sizeof(*slot), slot_free);
	if (!slot)
		tap_bail("out of memory");
	*slot = *b;
	signals_judge(r, 1, 0);
}

/* A BMC read at both ends, with these records added. */
static void read_with(struct bmc *b, const uint8_t (*raw)[SEL_RECORD], int n)
{
	int i;

	memset(b, 0, sizeof(*b));
	b->state = BMC_READ;
	b->end_read = 1;
	b->start_entries = 5;
	b->end_entries = 5 + (unsigned)n;
	b->added = n;
	snprintf(b->address, sizeof(b->address), "10.0.0.5");
	snprintf(b->mac, sizeof(b->mac), "52:54:00:12:34:56");
	for (i = 0; i < n; i++)
		sel_parse(raw[i], &b->kept[b->nkept++]);
}

static void test_judge(void)
{
	static const struct {
		unsigned stype, etype, offset;
		const char *said;
	} crit[] = {
		{ 0x08, 0x6f, 0x01, "power supply failure: Power supply" },
		{ 0x01, 0x01, 0x09, "temperature critical: Temperature" },
		{ 0x0c, 0x6f, 0x01, "uncorrectable memory ECC: Memory" },
		{ 0x13, 0x6f, 0x0a, "bus fatal error: Critical interrupt" },
		{ 0x07, 0x6f, 0x00, "processor error: Processor" },
		{ 0x23, 0x6f, 0x01, "watchdog fired: Watchdog" },
	};
	uint8_t raw[2][SEL_RECORD];
	struct settings s;
	struct record r;
	struct bmc b;
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(crit) / sizeof(crit[0]); i++) {
		event(raw[0], 6, 0, 0x04, 0x60, 0x01, 0, 0x00);
		event(raw[1], 7, 0, crit[i].stype, 0x31, crit[i].etype, 0,
		      crit[i].offset);
		read_with(&b, (const uint8_t (*)[SEL_RECORD])raw, 2);
		judged(&r, &s, &b);
		if (BMC(&r)->verdict != JUDGE_FAIL ||
		    r.sig.j.verdict != JUDGE_FAIL || r.exit_code != 1 ||
		    !tap_has_reason(&r.sig.j, crit[i].said)) {
			tap_diag("%s: verdict %d", crit[i].said, BMC(&r)->verdict);
			bad++;
		}
		record_free(&r);
		settings_free(&s);
	}
	tap_ok(!bad, "an entry of each critical class FAILs the machine, "
	       "naming it");

	event(raw[0], 6, 0, 0x04, 0x60, 0x01, 0, 0x00);
	event(raw[1], 7, 0, 0x0c, 0x31, 0x6f, 0, 0x00);
	read_with(&b, (const uint8_t (*)[SEL_RECORD])raw, 2);
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_PASS && r.sig.j.verdict == JUDGE_PASS &&
	       r.exit_code == 0, "facts alone (a fan, a correctable ECC) "
	       "are listed, not judged");
	record_free(&r);
	settings_free(&s);

	read_with(&b, NULL, 0);
	b.change.cleared = 1;
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "event log was cleared during the run"),
	       "a log cleared during the run WARNs");
	record_free(&r);
	settings_free(&s);

	read_with(&b, NULL, 0);
	b.change.wrapped = 1;
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "event log wrapped during the run"),
	       "a log that wrapped WARNs");
	record_free(&r);
	settings_free(&s);

	read_with(&b, NULL, 0);
	b.change.overflow = 1;
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "filled during the run"),
	       "a log that filled WARNs");
	record_free(&r);
	settings_free(&s);

	read_with(&b, NULL, 0);
	b.change.cleared = 1;
	event(raw[0], 1, 0, 0x07, 0x31, 0x6f, 0, 0x01);
	sel_parse(raw[0], &b.kept[b.nkept++]);
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_FAIL,
	       "a critical entry in a log cleared and refilled still FAILs");
	record_free(&r);
	settings_free(&s);

	memset(&b, 0, sizeof(b));
	b.state = BMC_UNREAD;
	snprintf(b.problem, sizeof(b.problem), "ipmitool sel writeraw "
		 "sel.raw failed: Get SEL Info command failed");
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "could not be read before the burn: "
			      "ipmitool sel writeraw"),
	       "a log unread at the start WARNs, saying why");
	record_free(&r);
	settings_free(&s);

	read_with(&b, NULL, 0);
	b.end_read = 0;
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "could not be read after the burn"),
	       "...and one unread at the end");
	record_free(&r);
	settings_free(&s);

	memset(&b, 0, sizeof(b));
	b.state = BMC_ABSENT;
	judged(&r, &s, &b);
	tap_ok(BMC(&r)->verdict == JUDGE_PASS && !r.sig.j.nreasons,
	       "no BMC: nothing judged");
	record_free(&r);
	settings_free(&s);
}

static void test_compare(void)
{
	static const unsigned ids[] = { 1, 2 };
	uint8_t raw[SEL_RECORD];
	struct sel_log after;
	struct bmc b;
	int i;

	memset(&b, 0, sizeof(b));
	b.state = BMC_READ;
	log_of(&b.start, ids, 2);
	memset(&after, 0, sizeof(after));
	after.e = calloc(BMC_KEPT + 8, sizeof(*after.e));
	if (!after.e)
		tap_bail("out of memory");
	after.e[0] = b.start.e[0];
	after.e[1] = b.start.e[1];
	after.n = 2;
	/* Many facts, then one critical entry past what is kept. */
	for (i = 0; i < BMC_KEPT + 4; i++) {
		event(raw, 100 + (unsigned)i, 0, 0x04, 0x60, 0x01, 0, 0x00);
		sel_parse(raw, &after.e[after.n++]);
	}
	event(raw, 999, 0, 0x0c, 0x08, 0x6f, 0, 0x01);
	sel_parse(raw, &after.e[after.n++]);
	bmc_compare(&b, &after);
	tap_ok(b.end_read && b.added == BMC_KEPT + 5 && b.nkept == BMC_KEPT &&
	       b.kept[0].id == 999 && b.end_entries == (unsigned)after.n,
	       "all counted, the critical kept first among the %d kept",
	       BMC_KEPT);
	sel_log_free(&after);
	bmc_free(&b);
}

static void test_json(void)
{
	const struct jsonread_node *root, *o;
	struct jsonread *doc = NULL;
	uint8_t raw[2][SEL_RECORD];
	struct settings s;
	struct record r, back;
	struct bmc b;
	char *json, *text;
	size_t len;

	event(raw[0], 6, 0, 0x04, 0x60, 0x01, 0, 0x00);
	event(raw[1], 0x107, 0, 0x0c, 0x08, 0x6f, 0, 0x01);
	read_with(&b, (const uint8_t (*)[SEL_RECORD])raw, 2);
	judged(&r, &s, &b);
	json = result_json(&r, &len);
	tap_ok(json && !jsonread_parse(&doc, json, len, NULL, NULL, 0),
	       "result.json parses");
	root = doc ? jsonread_root(doc) : NULL;
	o = jsonread_get(root, "bmc");
	tap_ok(o && !strcmp(jsonread_str(o, "state", ""), "read") &&
	       !strcmp(jsonread_str(o, "address", ""), "10.0.0.5") &&
	       !strcmp(jsonread_str(o, "mac", ""), "52:54:00:12:34:56") &&
	       !strcmp(jsonread_str(o, "verdict", ""), "FAIL") &&
	       jsonread_count(jsonread_get(o, "entries")) == 2 &&
	       !strcmp(jsonread_str(jsonread_at(jsonread_get(o, "entries"), 1),
				    "critical", ""),
		       "uncorrectable memory ECC"),
	       "a top-level bmc object: state, address, MAC, verdict, each "
	       "entry added and its class");
	memset(&back, 0, sizeof(back));
	settings_defaults(&s, SCOPE_BURN);
	record_init(&back, "burn", 0, NULL, &s);
	tap_ok(root && !signal_find("bmc")->read(root, &back) &&
	       BMC(&back)->state == BMC_READ && BMC(&back)->nkept == 2 &&
	       !memcmp(BMC(&back)->kept[1].raw, raw[1], SEL_RECORD) &&
	       BMC(&back)->added == 2 && BMC(&back)->end_read &&
	       BMC(&back)->verdict == JUDGE_FAIL &&
	       !strcmp(BMC(&back)->address, "10.0.0.5"),
	       "reads back the same, its records by their bytes");
	(void)record_add(&back, "/dev/null", 0);
	signals_judge(&back, 1, 0);
	tap_ok(BMC(&back)->verdict == JUDGE_FAIL &&
	       !strcmp(BMC(&back)->why, BMC(&r)->why),
	       "and is judged the same (%s)", BMC(&back)->why);
	text = summary_string(&r, &len);
	tap_ok(text && strstr(text, "bmc: 10.0.0.5 52:54:00:12:34:56, event "
			      "log 5 entries before, 7 after, 2 added during "
			      "the run: FAIL") &&
	       strstr(text, "record 0107h: Memory sensor 08h: uncorrectable "
		      "ECC: CRITICAL, uncorrectable memory ECC"),
	       "summary.txt's bmc: line and its entries");
	free(text);
	record_free(&back);
	jsonread_free(doc);
	free(json);
	record_free(&r);
	settings_free(&s);

	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
	json = result_json(&r, &len);
	tap_ok(json && !strstr(json, "\"bmc\""), "bmc=0: no bmc object");
	free(json);
	record_free(&r);
	settings_free(&s);
}

static void test_lan(void)
{
	const char *text =
		"Set in Progress         : Set Complete\n"
		"IP Address Source       : DHCP Address\n"
		"IP Address              : 192.168.1.77\n"
		"Subnet Mask             : 255.255.255.0\n"
		"MAC Address             : 3c:ec:ef:01:02:03\n"
		"Default Gateway IP      : 192.168.1.1\n";
	char addr[48], mac[24];

	bmc_lan_parse(text, addr, sizeof(addr), mac, sizeof(mac));
	tap_ok(!strcmp(addr, "192.168.1.77") &&
	       !strcmp(mac, "3c:ec:ef:01:02:03"),
	       "lan print: the address (not its source) and the MAC");
	bmc_lan_parse("IP Address              : 0.0.0.0\n"
		      "MAC Address             : 00:00:00:00:00:00\n", addr,
		      sizeof(addr), mac, sizeof(mac));
	tap_ok(!addr[0] && !mac[0], "0.0.0.0 is no address, zeroes no MAC");
}

static void test_keys(void)
{
	struct settings s;

	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.bmc == 1, "kiln run reads the BMC");
	settings_free(&s);
	settings_defaults(&s, SCOPE_BURN);
	tap_ok(s.bmc == 0, "kiln burn does not");
	settings_free(&s);
	tap_ok(!bmc_present("/nonexistent"), "no IPMI device: no BMC");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_parse);
	TAP_RUN(test_classes);
	TAP_RUN(test_log);
	TAP_RUN(test_added);
	TAP_RUN(test_judge);
	TAP_RUN(test_compare);
	TAP_RUN(test_json);
	TAP_RUN(test_lan);
	TAP_RUN(test_keys);
	return tap_done();
}
