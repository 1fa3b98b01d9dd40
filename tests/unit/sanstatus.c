/* SPDX-License-Identifier: MIT */
/*
 * Description: a sanitize left running in an NVMe drive, decided from
 * Sanitize Status log 81h bytes laid out as NVMe Base 2.0 says (SPROG
 * bytes 1:0, SSTAT 3:2 with its status in 2:0): in progress with how far,
 * the last one failed, never or completed; such a disk is said in
 * inventory.json and on the console, and kiln run's plan skips it with
 * the words (not a FAIL of it); a controller without the log is "no
 * sanitize log" and planned as any other disk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/jsonread.h"
#include "discover/inventory.h"
#include "discover/sanstatus.h"
#include "plan/plan.h"
#include "settings/settings.h"

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A log 81h: SPROG and SSTAT's status, the rest as a drive leaves it. */
static void log81(uint8_t *log, unsigned sprog, unsigned status)
{
	memset(log, 0, 512);
	put16(log, sprog);
	/* One overwrite pass, global data erased clear: status alone counts. */
	put16(log + 2, status | 1 << 3);
}

static void test_decide(void)
{
	uint8_t log[512];
	struct sanstatus s;

	log81(log, 0x4000, 2);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_RUNNING && s.percent == 25 &&
	       sanstatus_blocks(&s) &&
	       strstr(s.why, "sanitize in progress (25% done)"),
	       "SSTAT 010b, SPROG 4000h: in progress, 25%% done (%s)", s.why);
	log81(log, 0xffff, 3);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_FAILED && sanstatus_blocks(&s) &&
	       strstr(s.why, "the last sanitize failed"),
	       "SSTAT 011b: the last one failed, not burnt (%s)", s.why);
	log81(log, 0xffff, 0);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE && !sanstatus_blocks(&s),
	       "SSTAT 000b (never sanitized): idle");
	log81(log, 0xffff, 1);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE && !sanstatus_blocks(&s),
	       "SSTAT 001b (completed): idle");
	log81(log, 0xffff, 4);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE,
	       "SSTAT 100b (completed, no deallocate): idle");
	tap_ok(sanstatus_decide(log, 511, &s) == -EINVAL &&
	       s.state == SANSTATUS_UNREAD && !sanstatus_blocks(&s),
	       "a short log: unread, not blocking");
	s.state = SANSTATUS_NO_LOG;
	tap_ok(!sanstatus_blocks(&s) &&
	       !strcmp(sanstatus_name(s.state), "no sanitize log") &&
	       !sanstatus_name(SANSTATUS_UNREAD),
	       "no log 81h: not blocking, said as no sanitize log");
}

static struct discover_disk disks[3];
static struct discover_inventory inv = { .disks = disks, .ndisks = 3 };

static void nvme(int i, const char *name)
{
	struct discover_disk *d = &disks[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->id.name, sizeof(d->id.name), "%s", name);
	snprintf(d->id.serial, sizeof(d->id.serial), "SN-%s", name);
	snprintf(d->id.identity, sizeof(d->id.identity), "serial:SN-%s",
		 name);
	snprintf(d->transport, sizeof(d->transport), "nvme");
	d->controller = -1;
	d->safety.class = SAFETY_BLANK;
	d->size = 1 << 30;
}

static void test_plan_and_inventory(void)
{
	struct plan_item items[3];
	struct settings s;
	uint8_t log[512];
	const struct jsonread_node *d, *san[3] = { NULL, NULL, NULL };
	struct jsonread *doc = NULL;
	char *text = NULL, *json;
	size_t len = 0, i;
	FILE *f;

	nvme(0, "nvme0n1");
	nvme(1, "nvme1n1");
	nvme(2, "nvme2n1");
	log81(log, 0x8000, 2);
	sanstatus_decide(log, sizeof(log), &disks[0].san);
	disks[1].san.state = SANSTATUS_NO_LOG;
	snprintf(disks[1].san.why, sizeof(disks[1].san.why),
		 "no sanitize log (log 81h refused, status 0x4109)");
	log81(log, 0xffff, 1);
	sanstatus_decide(log, sizeof(log), &disks[2].san);
	settings_defaults(&s, SCOPE_RUN);
	plan_choose(&s, &inv, items);
	tap_ok(items[0].action == PLAN_SKIP &&
	       strstr(items[0].why, "sanitize in progress (50% done)"),
	       "kiln run: the disk sanitizing is skipped, said (%s)",
	       items[0].why);
	tap_ok(items[1].action == PLAN_WRITE && items[2].action == PLAN_WRITE,
	       "no sanitize log, or none running: planned as before");

	f = open_memstream(&text, &len);
	if (!f)
		tap_bail("open_memstream");
	inventory_print(&inv, f);
	fclose(f);
	tap_ok(strstr(text, "SANITIZING: sanitize in progress (50% done)") &&
	       strstr(text, "no sanitize log"),
	       "the console says the sanitize, and the log's absence");
	free(text);
	json = inventory_json(&inv, &len);
	if (!json || jsonread_parse(&doc, json, len, NULL, NULL, 0))
		tap_bail("inventory.json does not parse");
	d = jsonread_get(jsonread_root(doc), "disks");
	for (i = 0; i < 3 && i < jsonread_count(d); i++)
		san[i] = jsonread_get(jsonread_at(d, i), "sanitize");
	tap_ok(jsonread_count(d) == 3 &&
	       !strcmp(jsonread_str(san[0], "state", ""), "in progress") &&
	       jsonread_u64(san[0], "percent", 0) == 50 &&
	       !strcmp(jsonread_str(san[1], "state", ""), "no sanitize log") &&
	       !strcmp(jsonread_str(san[2], "state", ""), "idle"),
	       "inventory.json: each NVMe disk's sanitize state");
	jsonread_free(doc);
	free(json);
	settings_free(&s);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_decide);
	TAP_RUN(test_plan_and_inventory);
	return tap_done();
}
