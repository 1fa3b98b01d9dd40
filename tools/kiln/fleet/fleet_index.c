/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's index.json, what kiln fleet reads of its
 * result.json and nothing else: the run's line and each disk's figures as
 * fleet_read.c makes them, about 3 KB for a run of 12 disks whose
 * result.json is 220 KB. A run writes it beside result.json at its end
 * (and again whenever result.json is written again); kiln fleet reads it
 * while it still matches result.json, else result.json as before, so an
 * index adds speed and never a different page. docs/design.md says why an
 * index and not a faster parse.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "base/timing.h"
#include "fleet/fleet.h"
#include "judge/record.h"
#include "results/folder.h"
#include "results/result.h"
#include "results/result_keys.h"

/*
 * The index's own fields; the rest are result.json's names (result_keys.h)
 * for the same things. A changed field raises INDEX_VERSION: an index of
 * another version is passed over for result.json, never misread.
 */
#define INDEX_SCHEMA		"kiln-fleet-index"
#define INDEX_VERSION		1
#define IKEY_RESULT_BYTES	"result_bytes"
#define IKEY_BMC_ADDRESS	"bmc_address"
#define IKEY_BMC_MAC		"bmc_mac"
#define IKEY_DISKS		"disks"
#define IKEY_PASSES_MADE	"passes_made"
#define IKEY_WRITE_MBPS		"write_mbps"
#define IKEY_READ_MBPS		"read_mbps"

/* An index larger than this is not one kiln wrote: result.json instead. */
#define INDEX_MAX_BYTES (4u << 20)

/* A nullable string: written only when the run said it. */
static void opt_str(struct json *j, const char *key, const char *v)
{
	if (v)
		json_str(j, key, v);
}

static void write_disk(struct json *j, const struct fleet_disk *d)
{
	json_begin(j, NULL);
	json_str(j, KEY_LABEL, d->label);
	json_str(j, KEY_MODEL, d->model);
	json_str(j, KEY_SERIAL, d->serial);
	json_str(j, KEY_WWN, d->wwn);
	json_str(j, KEY_IDENTITY, d->identity);
	json_u64(j, KEY_SIZE, d->size);
	json_bool(j, KEY_FILE, d->file);
	json_u64(j, IKEY_PASSES_MADE, d->passes);
	json_u64(j, KEY_BYTES_WRITTEN, d->written);
	json_u64(j, KEY_BYTES_READ, d->read);
	json_str(j, KEY_VERDICT, d->verdict);
	opt_str(j, KEY_REASONS, d->reasons);
	json_num(j, IKEY_WRITE_MBPS, d->write_mbps);
	json_num(j, IKEY_READ_MBPS, d->read_mbps);
	json_end(j);
}

static char *index_text(const struct fleet_run *r, size_t result_bytes,
			size_t *len)
{
	struct json j;
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, KEY_SCHEMA, INDEX_SCHEMA);
	json_u64(&j, KEY_SCHEMA_VERSION, INDEX_VERSION);
	json_u64(&j, IKEY_RESULT_BYTES, result_bytes);
	opt_str(&j, KEY_MACHINE_ID, r->machine);
	json_str(&j, KEY_VENDOR, r->vendor);
	json_str(&j, KEY_PRODUCT, r->product);
	json_str(&j, KEY_MAC, r->mac);
	json_str(&j, KEY_ADDRESS, r->address);
	json_str(&j, KEY_ASSET_TAG, r->asset_tag);
	json_str(&j, KEY_CHASSIS_SERIAL, r->chassis_serial);
	json_str(&j, IKEY_BMC_ADDRESS, r->bmc_address);
	json_str(&j, IKEY_BMC_MAC, r->bmc_mac);
	json_str(&j, KEY_STATE, record_state_name(r->state));
	json_str(&j, KEY_VERDICT, r->verdict);
	json_str(&j, KEY_STARTED, r->started);
	json_bool(&j, KEY_CLOCK_TRUSTED, r->clock_trusted);
	json_num(&j, KEY_ELAPSED_SECONDS, r->elapsed);
	json_str(&j, KEY_KILN_VERSION, r->kiln_version);
	json_str(&j, KEY_RUN_ID, r->run_id);
	opt_str(&j, KEY_FAILURE, r->failure);
	opt_str(&j, KEY_PENDING_OF, r->pending_of);
	json_bool(&j, KEY_RESULTS_COMPLETE, !r->results_lost);
	json_array(&j, IKEY_DISKS);
	for (i = 0; i < r->n; i++)
		write_disk(&j, &r->disks[i]);
	json_array_end(&j);
	json_end(&j);
	return json_take(&j, len);
}

char *fleet_index_json(const char *doc, size_t len, size_t *out, char *why,
		       size_t whylen)
{
	struct jsonread *parsed = NULL;
	struct fleet_run r;
	char *text = NULL;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = jsonread_parse(&parsed, doc, len, NULL, why, whylen);
	if (!ret)
		ret = fleet_read_doc(jsonread_root(parsed), &r, why, whylen);
	/* A run still going is read from its checkpoints: no index. */
	if (!ret && r.state == FLEET_RUNNING) {
		snprintf(why, whylen, "the run is still running");
		ret = -EBADMSG;
	}
	if (!ret)
		text = index_text(&r, len, out);
	if (!ret && !text)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	fleet_read_free(&r);
	jsonread_free(parsed);
	return text;
}

int fleet_index_redo(const char *dir, char *why, size_t whylen)
{
	char path[PATH_MAX], *doc = NULL, *text;
	size_t len = 0, tlen;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	ret = result_too_large(path, why, whylen);
	if (ret)
		return ret;
	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* result_too_large held it to a size read whole. */
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);

		doc = n >= 0 ? malloc((size_t)n + 1) : NULL;
		rewind(f);
		if (doc)
			len = fread(doc, 1, (size_t)n, f);
	}
	fclose(f);
	if (!doc) {
		snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	text = fleet_index_json(doc, len, &tlen, why, whylen);
	free(doc);
	if (!text)
		return -EBADMSG;
	ret = folder_write_in(dir, FLEET_INDEX, text, tlen);
	free(text);
	if (ret)
		snprintf(why, whylen, "%s/%s: %s", dir, FLEET_INDEX,
			 strerror(-ret));
	return ret;
}

int fleet_index_drop(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, FLEET_INDEX);
	return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

static int read_disk(const struct jsonread_node *n, struct fleet_disk *d,
		     int *oom)
{
	if (jsonread_type(n) != JSONREAD_OBJECT ||
	    jsonread_type(jsonread_get(n, KEY_VERDICT)) != JSONREAD_STRING)
		return -EBADMSG;
	d->label = fleet_member(n, KEY_LABEL, oom);
	d->model = fleet_member(n, KEY_MODEL, oom);
	d->serial = fleet_member(n, KEY_SERIAL, oom);
	d->wwn = fleet_member(n, KEY_WWN, oom);
	d->identity = fleet_member(n, KEY_IDENTITY, oom);
	d->size = jsonread_u64(n, KEY_SIZE, 0);
	d->file = jsonread_bool(n, KEY_FILE, 0);
	d->passes = jsonread_u64(n, IKEY_PASSES_MADE, 0);
	d->written = jsonread_u64(n, KEY_BYTES_WRITTEN, 0);
	d->read = jsonread_u64(n, KEY_BYTES_READ, 0);
	snprintf(d->verdict, sizeof(d->verdict), "%s",
		 jsonread_str(n, KEY_VERDICT, ""));
	if (jsonread_type(jsonread_get(n, KEY_REASONS)) == JSONREAD_STRING)
		d->reasons = fleet_member(n, KEY_REASONS, oom);
	d->write_mbps = jsonread_num(n, IKEY_WRITE_MBPS, 0);
	d->read_mbps = jsonread_num(n, IKEY_READ_MBPS, 0);
	return 0;
}

/* Whether the index at ist was written for the result.json at st. */
static int matches(const struct jsonread_node *root, const struct stat *st,
		   const struct stat *ist)
{
	/*
	 * Its size, and no later change: an index left from before the run
	 * wrote result.json again (kiln run verifying it, a copy that
	 * changed it) is older, or of another size.
	 */
	if (jsonread_u64(root, IKEY_RESULT_BYTES, UINT64_MAX) !=
	    (uint64_t)st->st_size)
		return 0;
	return ist->st_mtim.tv_sec > st->st_mtim.tv_sec ||
	       (ist->st_mtim.tv_sec == st->st_mtim.tv_sec &&
		ist->st_mtim.tv_nsec >= st->st_mtim.tv_nsec);
}

int fleet_index_read(const char *dir, const struct stat *st,
		     struct fleet_run *r)
{
	const struct jsonread_node *root, *disks;
	/* A value costs 2 bytes or more; 16 deep is more than it nests. */
	const struct jsonread_limits lim = {
		INDEX_MAX_BYTES, INDEX_MAX_BYTES / 2, 16
	};
	struct jsonread *doc = NULL;
	char path[PATH_MAX];
	struct stat ist;
	int ret, oom = 0, i, n;

	snprintf(path, sizeof(path), "%s/%s", dir, FLEET_INDEX);
	if (stat(path, &ist) < 0)
		return -ENOENT;
	if (!S_ISREG(ist.st_mode) || ist.st_size > INDEX_MAX_BYTES)
		return -EBADMSG;
	ret = jsonread_load(&doc, path, &lim, NULL, 0);
	if (ret) {
		jsonread_free(doc);
		return ret == -ENOMEM ? ret : -EBADMSG;
	}
	root = jsonread_root(doc);
	disks = jsonread_get(root, IKEY_DISKS);
	ret = -EBADMSG;
	if (strcmp(jsonread_str(root, KEY_SCHEMA, ""), INDEX_SCHEMA) ||
	    jsonread_u64(root, KEY_SCHEMA_VERSION, 0) != INDEX_VERSION ||
	    jsonread_type(disks) != JSONREAD_ARRAY)
		goto out;
	ret = -ENOENT;
	if (!matches(root, st, &ist))
		goto out;
	ret = -EBADMSG;
	r->state = record_state_of(jsonread_str(root, KEY_STATE, ""));
	if (r->state < 0)
		goto out;
	if (jsonread_type(jsonread_get(root, KEY_MACHINE_ID)) ==
	    JSONREAD_STRING) {
		char *id = fleet_member(root, KEY_MACHINE_ID, &oom);

		if (id && id[0]) {
			free(r->machine);
			r->machine = id;
		} else {
			free(id);
		}
	}
	r->vendor = fleet_member(root, KEY_VENDOR, &oom);
	r->product = fleet_member(root, KEY_PRODUCT, &oom);
	r->mac = fleet_member(root, KEY_MAC, &oom);
	r->address = fleet_member(root, KEY_ADDRESS, &oom);
	r->asset_tag = fleet_member(root, KEY_ASSET_TAG, &oom);
	r->chassis_serial = fleet_member(root, KEY_CHASSIS_SERIAL, &oom);
	r->bmc_address = fleet_member(root, IKEY_BMC_ADDRESS, &oom);
	r->bmc_mac = fleet_member(root, IKEY_BMC_MAC, &oom);
	snprintf(r->verdict, sizeof(r->verdict), "%s",
		 jsonread_str(root, KEY_VERDICT, ""));
	snprintf(r->started, sizeof(r->started), "%s",
		 jsonread_str(root, KEY_STARTED, ""));
	r->start = timing_parse_utc(r->started);
	r->clock_trusted = jsonread_bool(root, KEY_CLOCK_TRUSTED, 0);
	r->elapsed = jsonread_num(root, KEY_ELAPSED_SECONDS, 0);
	r->kiln_version = fleet_member(root, KEY_KILN_VERSION, &oom);
	snprintf(r->run_id, sizeof(r->run_id), "%s",
		 jsonread_str(root, KEY_RUN_ID, ""));
	if (jsonread_type(jsonread_get(root, KEY_FAILURE)) == JSONREAD_STRING)
		r->failure = fleet_member(root, KEY_FAILURE, &oom);
	if (jsonread_type(jsonread_get(root, KEY_PENDING_OF)) ==
	    JSONREAD_STRING)
		r->pending_of = fleet_member(root, KEY_PENDING_OF, &oom);
	r->results_lost = !jsonread_bool(root, KEY_RESULTS_COMPLETE, 1);
	n = (int)jsonread_count(disks);
	r->disks = calloc((size_t)n + 1, sizeof(*r->disks));
	if (!r->disks) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ret = read_disk(jsonread_at(disks, i), &r->disks[i], &oom);
		r->n++;
		if (ret)
			goto out;
	}
	ret = oom ? -ENOMEM : 0;
out:
	jsonread_free(doc);
	return ret;
}
