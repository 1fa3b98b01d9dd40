/* SPDX-License-Identifier: MIT */
/*
 * Description: the fault LEDs in a run (see leds_use.h): cleared at the
 * start on the disks tested, lit at the end on the FAILed ones, so after
 * a burn the lit bays are exactly this run's failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/leds_use.h"

dev_t leds_use_dev(const struct record_disk *d, char *node, size_t len)
{
	struct stat st;
	dev_t dev = 0;

	node[0] = 0;
	if (d->t.kind == TARGET_BLOCK && d->t.rdev)
		dev = d->t.rdev;
	/*
	 * A disk FAILed before its burn (stalled) was never opened: its node
	 * in /dev (devtmpfs answers whatever the disk does). A path anywhere
	 * else may be on a filesystem that stopped answering, where a stat
	 * never returns: no LED is worth that.
	 */
	else if (d->path && !strncmp(d->path, "/dev/", 5) &&
		 !stat(d->path, &st) && S_ISBLK(st.st_mode))
		dev = st.st_rdev;
	if (dev && d->t.id.name[0])
		snprintf(node, len, "/dev/%s", d->t.id.name);
	else if (dev && d->path && !strncmp(d->path, "/dev/", 5))
		snprintf(node, len, "%s", d->path);
	return dev;
}

struct leds_disk leds_use_way(const char *sysroot,
			      const struct enclosure_slot *slot, int has_slot,
			      const char *node, const char *name)
{
	struct leds_disk w = { NULL, NULL, NULL };

	if (has_slot)
		w.slot = slot;
	/*
	 * ledctl reads the machine's own sysfs: on a test's tree it would
	 * set some real disk's LED. A loop device has none.
	 */
	else if (!strcmp(sysroot, "/sys") && node && node[0] &&
		 strncmp(name ? name : "", "loop", 4))
		w.devnode = node;
	return w;
}

/* The ways of the record's disks chosen by pick: n of them, in idx. */
struct ways {
	struct leds_disk *w;
	char (*node)[80];
	int *idx, *ret, n;
	char *why;
};

#define WHY 240

static int ways_of(struct record *r, const char *sysroot, int fails,
		   struct ways *ws)
{
	int i;

	memset(ws, 0, sizeof(*ws));
	ws->w = calloc((size_t)r->n + 1, sizeof(*ws->w));
	ws->node = calloc((size_t)r->n + 1, sizeof(*ws->node));
	ws->idx = calloc((size_t)r->n + 1, sizeof(*ws->idx));
	ws->ret = calloc((size_t)r->n + 1, sizeof(*ws->ret));
	ws->why = calloc((size_t)r->n + 1, WHY);
	if (!ws->w || !ws->node || !ws->idx || !ws->ret || !ws->why)
		return -1;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (fails && d->j.verdict != JUDGE_FAIL)
			continue;
		if (!leds_use_dev(d, ws->node[ws->n], sizeof(ws->node[0])) &&
		    !d->has_slot)
			continue;
		ws->w[ws->n] = leds_use_way(sysroot, &d->slot, d->has_slot,
					    ws->node[ws->n], d->t.id.name);
		ws->idx[ws->n++] = i;
	}
	return 0;
}

static void ways_free(struct ways *ws)
{
	free(ws->w);
	free(ws->node);
	free(ws->idx);
	free(ws->ret);
	free(ws->why);
}

void leds_use_start(struct record *r, const char *sysroot, FILE *con)
{
	struct ways ws;
	char node[80];
	int i, cleared = 0;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		dev_t dev = leds_use_dev(d, node, sizeof(node));

		d->has_slot = dev && enclosure_of_dev(sysroot, dev, &d->slot);
	}
	if (r->s->leds != SETTINGS_LEDS_FAIL)
		return;
	if (ways_of(r, sysroot, 0, &ws)) {
		ways_free(&ws);
		return;
	}
	/* Nothing to clear is no news: most disks have no LED of theirs. */
	leds_set_many(ws.w, ws.n, ENCLOSURE_FAULT, 0, ws.ret, ws.why, WHY);
	for (i = 0; i < ws.n; i++)
		cleared += ws.ret[i] > 0;
	if (cleared)
		fprintf(con, "leds: the fault LEDs of %d disk%s cleared, so "
			"only this run's failures will be lit\n", cleared,
			cleared == 1 ? "" : "s");
	ways_free(&ws);
}

void leds_use_end(struct record *r, const char *sysroot)
{
	struct ways ws;
	int i;

	if (r->s->leds != SETTINGS_LEDS_FAIL)
		return;
	if (ways_of(r, sysroot, 1, &ws)) {
		ways_free(&ws);
		return;
	}
	leds_set_many(ws.w, ws.n, ENCLOSURE_FAULT, 1, ws.ret, ws.why, WHY);
	for (i = 0; i < ws.n; i++) {
		struct record_disk *d = &r->disks[ws.idx[i]];
		char bay[200];

		if (ws.ret[i] == LEDS_SES) {
			enclosure_text(&d->slot, bay, sizeof(bay));
			snprintf(d->led, sizeof(d->led), "fault LED lit: %s",
				 bay);
		} else if (ws.ret[i] == LEDS_BY_LEDCTL) {
			/*
			 * ledctl's yes is all there is: an SGPIO or VMD
			 * LED cannot be read back (QEMU's AHCI, which has
			 * none, gets a yes too).
			 */
			snprintf(d->led, sizeof(d->led), "fault LED set by "
				 "ledctl (%s), which took it; an SGPIO or VMD "
				 "LED cannot be read back", ws.node[i]);
		} else {
			snprintf(d->led, sizeof(d->led), "no fault LED lit: "
				 "%s", ws.why + (size_t)i * WHY);
		}
	}
	/* A FAILed target that is no block device: said, as no LED. */
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->j.verdict == JUDGE_FAIL && !d->led[0])
			snprintf(d->led, sizeof(d->led), "no fault LED lit: "
				 "no block device to light one for");
	}
	ways_free(&ws);
}
