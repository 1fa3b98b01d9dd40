/* SPDX-License-Identifier: MIT */
/*
 * Description: an NVMe drive's logs as a signal of the results
 * (signal.h): a target's "error_log" and "nvme_logs" in result.json
 * (sense/nvmelog.h's logs before and after the burn, the error log's new
 * entries, the telemetry file), written and read back through one table
 * of fields for each log, so kiln finish judges a restored run on the
 * same figures. Nothing for a disk that is not NVMe. A burn reads the
 * logs of each NVMe disk's controller before and after (nvme_burn).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/smartjudge.h"
#include "base/timing.h"
#include "judge/nvmejudge.h"
#include "results/signal.h"
#include "sense/nvmelog.h"

typedef const struct jsonread_node node;

/* A field of a log: its name, and where it is (an int or long long). */
struct field {
	const char *key;
	size_t at;
	int wide;			/* long long, else int */
};

#define H(k, f, w) { k, offsetof(struct nvmelog_health, f), w }
static const struct field health_fields[] = {
	H("critical_warning", critical_warning, 0),
	H("temperature_kelvin", temp_kelvin, 0),
	H("available_spare", spare, 0),
	H("spare_threshold", spare_threshold, 0),
	H("percentage_used", used, 0),
	H("data_units_read", data_read, 1),
	H("data_units_written", data_written, 1),
	H("power_cycles", power_cycles, 1),
	H("power_on_hours", power_on_hours, 1),
	H("unsafe_shutdowns", unsafe_shutdowns, 1),
	H("media_errors", media_errors, 1),
	H("error_log_entries", error_entries, 1),
};

#define O(k, f, w) { k, offsetof(struct nvmelog_ocp, f), w }
static const struct field ocp_fields[] = {
	O("version", version, 0),
	O("bad_user_nand_blocks", bad_user_nand, 1),
	O("bad_system_nand_blocks", bad_system_nand, 1),
	O("xor_recoveries", xor_recovery, 1),
	O("uncorrectable_reads", uncorrectable_reads, 1),
	O("soft_ecc_errors", soft_ecc, 1),
	O("end_to_end_detected", e2e_detected, 1),
	O("end_to_end_corrected", e2e_corrected, 1),
	O("pcie_correctable_errors", pcie_correctable, 1),
	O("incomplete_shutdowns", incomplete_shutdowns, 1),
	O("thermal_throttling_events", thermal_events, 0),
	O("free_blocks_percent", free_blocks, 0),
	O("capacitor_health", capacitor_health, 0),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void put_fields(struct json *j, const char *key, const void *s,
		       const struct field *f, size_t n)
{
	const char *base = s;
	size_t i;

	json_begin(j, key);
	for (i = 0; i < n; i++) {
		long long v = f[i].wide ?
			      *(const long long *)(base + f[i].at) :
			      *(const int *)(base + f[i].at);

		if (v < 0)
			json_null(j, f[i].key);
		else
			json_i64(j, f[i].key, v);
	}
	json_end(j);
}

static void get_fields(node *n, void *s, const struct field *f, size_t k)
{
	char *base = s;
	size_t i;

	for (i = 0; i < k; i++) {
		long long v = jsonread_i64(n, f[i].key, -1);

		if (f[i].wide)
			*(long long *)(base + f[i].at) = v;
		else
			*(int *)(base + f[i].at) = (int)v;
	}
}

static void put_entry(struct json *j, const struct nvmelog_error *e)
{
	char st[96];

	json_begin(j, NULL);
	json_u64(j, "error_count", e->count);
	json_u64(j, "sqid", e->sqid);
	json_u64(j, "cmdid", e->cmdid);
	json_u64(j, "status", e->status);
	json_str(j, "status_text", nvmelog_status_text(e->status, st,
						       sizeof(st)));
	json_u64(j, "lba", e->lba);
	json_u64(j, "nsid", e->nsid);
	json_end(j);
}

static void get_entry(node *n, struct nvmelog_error *e)
{
	memset(e, 0, sizeof(*e));
	e->count = jsonread_u64(n, "error_count", 0);
	e->sqid = (uint16_t)jsonread_u64(n, "sqid", 0);
	e->cmdid = (uint16_t)jsonread_u64(n, "cmdid", 0);
	e->status = (uint16_t)jsonread_u64(n, "status", 0);
	e->lba = jsonread_u64(n, "lba", 0);
	e->nsid = (uint32_t)jsonread_u64(n, "nsid", 0);
}

static void put_log(struct json *j, const char *key, const struct nvmelog *l)
{
	if (!l->asked) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	json_str(j, "why", l->why);
	if (l->id.have) {
		json_str(j, "model", l->id.model);
		json_str(j, "serial", l->id.serial);
		json_str(j, "firmware", l->id.firmware);
		json_i64(j, "error_log_size", l->id.error_entries);
		json_bool(j, "telemetry", l->id.telemetry);
	}
	if (l->h.have)
		put_fields(j, "health", &l->h, health_fields,
			   N(health_fields));
	else
		json_null(j, "health");
	if (l->ocp.have)
		put_fields(j, "ocp_smart", &l->ocp, ocp_fields,
			   N(ocp_fields));
	else
		json_null(j, "ocp_smart");
	/* The entries themselves are error_log's new ones, said once. */
	json_u64(j, "entries_kept", (uint64_t)l->nerrors);
	if (l->nerrors)
		json_u64(j, "newest_error_count", l->errors[0].count);
	else
		json_null(j, "newest_error_count");
	json_end(j);
}

/* A log read back; new: error_log's new entries, for the log after. */
static void get_log(node *n, struct nvmelog *l, const char *dev, node *new)
{
	node *h = jsonread_get(n, "health"), *o = jsonread_get(n, "ocp_smart");
	size_t i;

	nvmelog_init(l);
	if (jsonread_type(n) != JSONREAD_OBJECT)
		return;
	l->asked = 1;
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	snprintf(l->why, sizeof(l->why), "%s", jsonread_str(n, "why", ""));
	if (jsonread_get(n, "model")) {
		l->id.have = 1;
		snprintf(l->id.model, sizeof(l->id.model), "%s",
			 jsonread_str(n, "model", ""));
		snprintf(l->id.serial, sizeof(l->id.serial), "%s",
			 jsonread_str(n, "serial", ""));
		snprintf(l->id.firmware, sizeof(l->id.firmware), "%s",
			 jsonread_str(n, "firmware", ""));
		l->id.error_entries = (int)jsonread_i64(n, "error_log_size", 0);
		l->id.telemetry = jsonread_bool(n, "telemetry", 0);
	}
	if (jsonread_type(h) == JSONREAD_OBJECT) {
		get_fields(h, &l->h, health_fields, N(health_fields));
		l->h.have = 1;
	}
	if (jsonread_type(o) == JSONREAD_OBJECT) {
		get_fields(o, &l->ocp, ocp_fields, N(ocp_fields));
		l->ocp.have = 1;
	}
	/* Only the newest count is kept of the log before the run. */
	if (jsonread_u64(n, "entries_kept", 0) && !new) {
		l->errors[0].count = jsonread_u64(n, "newest_error_count", 0);
		l->nerrors = 1;
	}
	for (i = 0; new && i < jsonread_count(new) && i < NVMELOG_ERRORS; i++)
		get_entry(jsonread_at(new, i), &l->errors[l->nerrors++]);
}

/* The error log as the issue asks: counts before and after, what is new. */
static void put_error_log(struct json *j, const struct nvme_disk *nv)
{
	const struct nvmelog *b = &nv->before, *a = &nv->after;
	int i, n = nvmejudge_new_errors(b, a);

	json_begin(j, "error_log");
	if (b->h.have)
		json_i64(j, "entries_before", b->h.error_entries);
	else
		json_null(j, "entries_before");
	if (a->h.have)
		json_i64(j, "entries_after", a->h.error_entries);
	else
		json_null(j, "entries_after");
	json_array(j, "new");
	for (i = 0; a->asked && i < n; i++)
		put_entry(j, &a->errors[i]);
	json_array_end(j);
	json_end(j);
}

static void nvmelog_out_disk(struct json *j, const struct record *r,
			     const struct record_disk *d)
{
	const struct nvme_disk *nv = record_disk_slot(d, NVME_SLOT);

	(void)r;
	if (!nv || (!nv->before.asked && !nv->after.asked))
		return;
	put_error_log(j, nv);
	json_begin(j, "nvme_logs");
	json_str(j, "controller", nv->before.dev[0] ? nv->before.dev :
		 nv->after.dev);
	put_log(j, "before", &nv->before);
	put_log(j, "after", &nv->after);
	json_str(j, "telemetry", nv->telemetry);
	json_u64(j, "telemetry_bytes", nv->telemetry_len);
	json_end(j);
}

static int nvmelog_out_read_disk(node *t, struct record_disk *d)
{
	node *n = jsonread_get(t, "nvme_logs");
	const char *dev = jsonread_str(n, "controller", "");
	struct nvme_disk *nv;

	if (jsonread_type(n) != JSONREAD_OBJECT)
		return 0;
	/* Not kept: the restore fails, rather than judge without them. */
	nv = nvme_disk_make(d);
	if (!nv)
		return -ENOMEM;
	get_log(jsonread_get(n, "before"), &nv->before, dev, NULL);
	get_log(jsonread_get(n, "after"), &nv->after, dev,
		jsonread_path(t, "/error_log/new"));
	snprintf(nv->telemetry, sizeof(nv->telemetry), "%s",
		 jsonread_str(n, "telemetry", ""));
	nv->telemetry_len = (size_t)jsonread_u64(n, "telemetry_bytes", 0);
	return 0;
}

/* A controller that has not answered four small reads in this is dead. */
#define NVME_LOGS_TIMEOUT_S 30

/* The controller of disk d, when d is an NVMe namespace kiln tests. */
static int controller_of(const char *sysroot, const struct record_disk *d,
			 char *dev, size_t len)
{
	if (d->failed[0] || d->t.kind != TARGET_BLOCK || d->t.id.backing[0] ||
	    d->t.id.partition || strncmp(d->t.id.name, "nvme", 4))
		return -ENOENT;
	if (!nvmelog_controller(sysroot, d->t.id.name, dev, len))
		return 0;
	/* A multipath head: its own device takes admin commands too. */
	snprintf(dev, len, "%s", d->path);
	return 0;
}

static void nvme_read(struct record *r, const char *sysroot, int after)
{
	const char **devs = calloc((size_t)r->n + 1, sizeof(*devs));
	char (*dev)[64] = calloc((size_t)r->n + 1, sizeof(*dev));
	struct nvmelog *out = calloc((size_t)r->n + 1, sizeof(*out));
	int i, any = 0;

	for (i = 0; devs && dev && out && i < r->n; i++)
		if (!controller_of(sysroot, &r->disks[i], dev[i],
				   sizeof(dev[i]))) {
			devs[i] = dev[i];
			any = 1;
		}
	if (any) {
		nvmelog_read_many(devs, r->n, NVME_LOGS_TIMEOUT_S * TIMING_SEC,
				  out);
		for (i = 0; i < r->n; i++) {
			struct record_disk *d = &r->disks[i];
			struct nvme_disk *nv;

			if (!devs[i])
				continue;
			if (out[i].why[0])
				record_note(r, "%s: NVMe logs %s the run: %s",
					    d->label, after ? "after" :
					    "before", out[i].why);
			nv = nvme_disk_make(d);
			if (!nv)
				record_note(r, "%s: NVMe logs %s the run not "
					    "kept: no room in the record",
					    d->label, after ? "after" :
					    "before");
			else if (after)
				nv->after = out[i];
			else
				nv->before = out[i];
		}
	}
	free(devs);
	free(dev);
	free(out);
}

static void nvme_burn(struct signal_burn *sb, enum signal_at at)
{
	if (at == SIGNAL_BEFORE || at == SIGNAL_AFTER)
		nvme_read(sb->r, sb->sysroot, at == SIGNAL_AFTER);
}

/* Its rule (record.h), after SMART's: the controller's logs once it ended. */
static void nvme_judge(struct record *r, struct record_disk *d, int final,
		       enum judge_at at)
{
	const struct nvme_disk *nv;

	(void)r;
	if (at != JUDGE_AT_HEALTH || !final)
		return;
	nv = record_disk_slot(d, NVME_SLOT);
	if (nv)
		nvmejudge_disk(&nv->before, &nv->after,
			       &smart_disk_of(d)->after.c, &d->j);
}

const struct signal_ops nvme_signal = {
	.name = "nvme",
	.judge = nvme_judge,
	.burn = nvme_burn,
	.json_disk = nvmelog_out_disk,
	.read_disk = nvmelog_out_read_disk,
};
